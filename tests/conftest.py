import os
import uuid
from collections.abc import Iterator

import hypothesis
import pytest
from django.conf import settings
from django.test import Client, override_settings

from accounts.models import User
from tests.factories import UserFactory


@pytest.fixture(scope="session", autouse=True)
def _test_settings() -> Iterator[None]:
    # Hashed static names need `collectstatic`; in-process tests serve static/ as it is.
    # A deliberately slow password hash would spend most of the suite's time.
    storages = {
        "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    with override_settings(
        STORAGES=storages,
        WHITENOISE_AUTOREFRESH=True,
        WHITENOISE_USE_FINDERS=True,
        PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"],
    ):
        yield


@pytest.fixture(autouse=True)
def _cache_of_its_own() -> Iterator[None]:
    """Each test counts its rate limits (and keeps its cached hints) under keys of its
    own in the shared Redis, so no test inherits another's requests."""
    default = settings.CACHES["default"]
    with override_settings(
        CACHES={"default": {**default, "KEY_PREFIX": f"test-{uuid.uuid4().hex}"}}
    ):
        yield


@pytest.fixture
def alice(db: None) -> User:
    """The user a test is about."""
    return UserFactory(username="alice", display_name="Alice")


@pytest.fixture
def bob(db: None) -> User:
    """Another member: what alice does must not reach him."""
    return UserFactory(username="bob", display_name="Bob")


@pytest.fixture
def alice_client(client: Client, alice: User) -> Client:
    client.force_login(alice)
    return client


# CI runs the property tests on a fixed sequence of examples (HYPOTHESIS_PROFILE=ci in
# .ci/run), so a landing never hangs on a draw; local runs keep exploring new ones.
hypothesis.settings.register_profile("ci", derandomize=True, print_blob=True)
hypothesis.settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))
