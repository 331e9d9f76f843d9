"""What the endpoint fuzzers share: the endpoints read from the URLconf, hostile values,
how a request is sent, and the rate limits lifted while fuzzing."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from django.conf import settings as django_settings
from django.http import HttpResponse
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from hypothesis import strategies as st

from common.parsing import MAX_ID
from tests.games.views_support import HTMX

METHODS = ["GET", "HEAD", "OPTIONS", "POST", "PUT", "PATCH", "DELETE"]
SAFE = {"GET", "HEAD", "OPTIONS"}


@dataclass(frozen=True)
class Endpoint:
    name: str
    route: str
    params: tuple[str, ...]


def _walk(patterns: list[Any], prefix: str = "", namespace: str = "") -> Iterator[Endpoint]:
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            if pattern.namespace == "admin":
                continue  # Django's own admin, not a page of the club
            inner = pattern.namespace or namespace
            yield from _walk(pattern.url_patterns, prefix + str(pattern.pattern), inner)
        elif isinstance(pattern, URLPattern) and pattern.name:
            name = f"{namespace}:{pattern.name}" if namespace else pattern.name
            params = tuple(getattr(pattern.pattern, "converters", {}))
            yield Endpoint(name, prefix + str(pattern.pattern), params)


ENDPOINTS = sorted(_walk(get_resolver().url_patterns), key=lambda endpoint: endpoint.name)
"""Every named address of the site but the admin's, in the order of their names."""


def malformed_numbers() -> st.SearchStrategy[str]:
    return st.one_of(
        st.sampled_from(["²", "٣", "1_0", "-1", " 1", "1e3", "0x10", "", "null", "1.5"]),
        st.integers(min_value=MAX_ID, max_value=10**40).map(str),
        st.integers(min_value=1, max_value=6000).map(lambda n: "9" * n),
        st.text(max_size=12),
    )


def values() -> st.SearchStrategy[str]:
    return st.one_of(
        malformed_numbers(),
        st.integers(min_value=0, max_value=300).map(str),
        st.sampled_from(["rack", "new", "R7", "K1", "J", "O13", "X99", "[]", '[["K1"]]']),
        st.integers(min_value=1, max_value=20_000).map(lambda n: "[" * n + "]" * n),
        st.integers(min_value=1, max_value=40_000).map(lambda n: '[["' + "R7" * n + '"]]'),
        st.text(max_size=40),
    )


def send(client: Client, method: str, path: str, data: dict[str, str], htmx: bool) -> HttpResponse:
    """``data`` in the query of a safe method, else as a form's body."""
    extra = HTMX if htmx else {}
    if method in SAFE:
        query = f"?{urlencode(data)}" if data else ""
        response: HttpResponse = client.generic(method, path + query, **extra)
    else:
        body = urlencode(data)
        response = client.generic(
            method, path, body, content_type="application/x-www-form-urlencoded", **extra
        )
    return response


def unlimited() -> dict[str, str]:
    """Rate limits have tests of their own; here they would only cut the fuzzing short."""
    return {name: "100000/h" for name in django_settings.RATE_LIMITS}
