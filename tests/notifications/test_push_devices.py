"""A device's push subscription: only the signed-in member's own, CSRF-protected, checked
(a known push service, a device's keys) or refused with a 400 that changes nothing,
bounded per member; forgotten at log-out; and the notices page's push section and
choice, offered on a site that pushes."""

import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from notifications import vapid
from notifications.models import Delivery, NotificationPreference, PushSubscription
from tests.conftest import client_as
from tests.notifications.push_service import Device, PushService, b64url, push_service

pytestmark = pytest.mark.django_db

SUBSCRIBE = reverse("notifications:push_subscribe")
UNSUBSCRIBE = reverse("notifications:push_unsubscribe")
NOTICES = reverse("notifications:list")
PREFERENCES = reverse("notifications:preferences")


@pytest.fixture
def push_site(settings: Any) -> str:
    settings.WEBPUSH_VAPID_PRIVATE_KEY = vapid.new_private_key()
    settings.WEBPUSH_ENDPOINT_HOSTS = ["127.0.0.1", "push.example"]
    settings.WEBPUSH_ENDPOINT_HTTPS = False
    settings.WEBPUSH_DEVICES_PER_MEMBER = 3
    return str(settings.WEBPUSH_VAPID_PRIVATE_KEY)


@pytest.fixture
def service() -> Iterator[PushService]:
    with push_service() as running:
        yield running


def endpoints(user: User) -> list[str]:
    rows = PushSubscription.objects.filter(user=user).order_by("created_at", "pk")
    return list(rows.values_list("endpoint", flat=True))


@pytest.mark.usefixtures("push_site")
def test_a_member_subscribes_their_device(alice: User, service: PushService) -> None:
    phone = Device(service, "alice-phone")

    response = client_as(alice).post(SUBSCRIBE, phone.fields())

    assert response.status_code == 204
    device = PushSubscription.objects.get()
    assert (device.user, device.endpoint, device.p256dh, device.auth) == (
        alice,
        phone.endpoint,
        phone.p256dh,
        phone.auth_secret,
    )
    assert device.last_success_at is None


@pytest.mark.usefixtures("push_site")
def test_subscribing_again_changes_the_keys_not_the_count(
    alice: User, service: PushService
) -> None:
    phone = Device(service, "alice-phone")
    client = client_as(alice)
    client.post(SUBSCRIBE, phone.fields())
    renewed = Device(service, "alice-phone")

    assert client.post(SUBSCRIBE, renewed.fields()).status_code == 204

    assert PushSubscription.objects.get().p256dh == renewed.p256dh


@pytest.mark.usefixtures("push_site")
def test_a_browser_another_member_signs_in_on_becomes_theirs(
    alice: User, bob: User, service: PushService
) -> None:
    shared = Device(service, "the-family-computer")
    client_as(alice).post(SUBSCRIBE, shared.fields())

    assert client_as(bob).post(SUBSCRIBE, shared.fields()).status_code == 204

    assert endpoints(alice) == []
    assert endpoints(bob) == [shared.endpoint]


@pytest.mark.usefixtures("push_site")
def test_a_member_keeps_a_bounded_number_of_devices(alice: User, service: PushService) -> None:
    client = client_as(alice)
    devices = [Device(service, f"device-{n}") for n in range(5)]
    for device in devices:
        assert client.post(SUBSCRIBE, device.fields()).status_code == 204

    # WEBPUSH_DEVICES_PER_MEMBER (3 here): the newest stay.
    assert endpoints(alice) == [d.endpoint for d in devices[2:]]


def _bad(service: PushService) -> list[tuple[str, dict[str, str]]]:
    good = Device(service, "x").fields()
    short_key = b64url(bytes(65))
    return [
        ("nothing", {}),
        ("no endpoint", {**good, "endpoint": ""}),
        ("not a url", {**good, "endpoint": "javascript:alert(1)"}),
        ("another host", {**good, "endpoint": "http://10.0.0.1/push/x"}),
        ("a host ending like one", {**good, "endpoint": "http://evilpush.example/x"}),
        ("the site's own redis", {**good, "endpoint": "http://localhost:6379/"}),
        ("too long", {**good, "endpoint": service.url + "/" + "x" * 600}),
        ("a key off the curve", {**good, "p256dh": short_key}),
        ("a key of the wrong length", {**good, "p256dh": b64url(bytes(64))}),
        ("a short secret", {**good, "auth": b64url(bytes(8))}),
        ("not base64", {**good, "auth": "!!!!"}),
    ]


@pytest.mark.usefixtures("push_site")
def test_what_cannot_be_a_subscription_is_refused_and_changes_nothing(
    alice: User, service: PushService
) -> None:
    client = client_as(alice)
    for name, fields in _bad(service):
        response = client.post(SUBSCRIBE, fields)
        assert response.status_code == 400, name
    assert not PushSubscription.objects.exists()


def test_https_is_required_of_a_real_push_service(
    alice: User, settings: Any, service: PushService
) -> None:
    settings.WEBPUSH_VAPID_PRIVATE_KEY = vapid.new_private_key()
    phone = Device(service, "phone")
    fcm = {**phone.fields(), "endpoint": "http://fcm.googleapis.com/fcm/send/abc"}

    assert client_as(alice).post(SUBSCRIBE, fcm).status_code == 400
    fcm["endpoint"] = "https://fcm.googleapis.com/fcm/send/abc"
    assert client_as(alice).post(SUBSCRIBE, fcm).status_code == 204


@pytest.mark.usefixtures("push_site")
def test_subscribing_needs_the_csrf_token(alice: User, service: PushService) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)

    response = client.post(SUBSCRIBE, Device(service, "phone").fields())

    assert response.status_code == 403
    assert not PushSubscription.objects.exists()


@pytest.mark.usefixtures("push_site")
def test_a_visitor_cannot_subscribe(client: Client, service: PushService) -> None:
    response = client.post(SUBSCRIBE, Device(service, "phone").fields())

    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))
    assert not PushSubscription.objects.exists()


@pytest.mark.usefixtures("push_site")
@pytest.mark.parametrize("path", [SUBSCRIBE, UNSUBSCRIBE])
def test_the_device_addresses_take_posts_only(alice: User, path: str) -> None:
    assert client_as(alice).get(path).status_code == 405


def test_a_site_without_a_vapid_key_takes_no_subscription(
    alice: User, service: PushService
) -> None:
    response = client_as(alice).post(SUBSCRIBE, Device(service, "phone").fields())

    assert response.status_code == 404
    assert not PushSubscription.objects.exists()


@pytest.mark.usefixtures("push_site")
def test_a_member_turns_push_off_for_their_device_only(
    alice: User, bob: User, service: PushService
) -> None:
    mine, his = Device(service, "alice"), Device(service, "bob")
    client_as(alice).post(SUBSCRIBE, mine.fields())
    client_as(bob).post(SUBSCRIBE, his.fields())

    # Another member's device is none of hers: refused, kept.
    assert client_as(alice).post(UNSUBSCRIBE, {"endpoint": his.endpoint}).status_code == 404
    assert client_as(alice).post(UNSUBSCRIBE, {}).status_code == 400
    assert client_as(alice).post(UNSUBSCRIBE, {"endpoint": mine.endpoint}).status_code == 204

    assert endpoints(alice) == []
    assert endpoints(bob) == [his.endpoint]


@pytest.mark.usefixtures("push_site")
def test_logging_out_forgets_the_devices_subscribed_in_that_session(
    alice: User, service: PushService
) -> None:
    here, elsewhere = Device(service, "here"), Device(service, "elsewhere")
    client_as(alice).post(SUBSCRIBE, elsewhere.fields())
    client = client_as(alice)
    client.post(SUBSCRIBE, here.fields())

    client.post(reverse("logout"))

    assert endpoints(alice) == [elsewhere.endpoint]


@pytest.mark.usefixtures("push_site")
def test_the_notices_page_offers_push_for_this_device_and_per_kind(
    alice: User, push_site: str
) -> None:
    html = client_as(alice).get(NOTICES).text

    assert 'id="push-device"' in html
    assert f'data-key="{vapid.public_key_of(push_site)}"' in html
    assert "js/push.js" in html
    assert re.search(r'name="your_turn" value="push"', html)

    response = client_as(alice).post(PREFERENCES, {"your_turn": "push"})
    assert response.status_code == 302
    saved = NotificationPreference.objects.get(user=alice, kind="your_turn")
    assert saved.delivery == Delivery.PUSH


def test_a_site_that_does_not_push_offers_neither(alice: User) -> None:
    html = client_as(alice).get(NOTICES).text

    assert 'id="push-device"' not in html
    assert 'value="push"' not in html
    assert client_as(alice).post(PREFERENCES, {"your_turn": "push"}).status_code == 400
