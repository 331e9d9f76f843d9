"""A push service in the test's process, and devices that read what it receives as a
browser would.

:class:`PushService` is a small HTTP server on 127.0.0.1 taking the site's POSTs as
Chrome's or Firefox's service does: it keeps each request and answers 201, or what a
test tells it to answer for one device (404, 410, 503). A :class:`Device` is what a
browser makes when it subscribes: a P-256 key pair and a 16-byte auth secret; it
decrypts a push's body (RFC 8291, aes128gcm) with its private key, and checks the VAPID
signature (RFC 8292) as the push service would.
"""

from __future__ import annotations

import base64
import json
import os
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass(frozen=True)
class Received:
    """One POST the push service took."""

    path: str
    headers: dict[str, str]  # names in lower case
    body: bytes


@dataclass
class PushService:
    """The push service: ``url`` is its address; ``received`` what it took, in order;
    ``answers`` a status per path (201 otherwise)."""

    url: str = ""
    received: list[Received] = field(default_factory=list)
    answers: dict[str, int] = field(default_factory=dict)
    while_answering: Callable[[Received], None] | None = None
    """Run (in the server's thread) before each answer."""

    def to(self, device: Device) -> list[Received]:
        """What reached ``device``'s endpoint."""
        return [r for r in self.received if r.path == device.path]


class Device:
    """A browser's subscription at ``service``, named ``name`` (its endpoint's path)."""

    def __init__(self, service: PushService, name: str) -> None:
        self.path = f"/push/{name}"
        self.endpoint = service.url + self.path
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)

    @property
    def p256dh(self) -> str:
        point = self.key.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
        return b64url(point)

    @property
    def auth_secret(self) -> str:
        return b64url(self.auth)

    def fields(self) -> dict[str, str]:
        """What static/js/push.js posts for it."""
        return {"endpoint": self.endpoint, "p256dh": self.p256dh, "auth": self.auth_secret}

    def read(self, push: Received) -> dict[str, Any]:
        """The push's payload, decrypted with this device's keys."""
        assert push.headers["content-encoding"] == "aes128gcm"
        plain = http_ece.decrypt(
            push.body, private_key=self.key, auth_secret=self.auth, version="aes128gcm"
        )
        payload: dict[str, Any] = json.loads(plain)
        return payload


def vapid_claims(push: Received, public_key: str) -> dict[str, Any]:
    """The claims of the push's VAPID token (``Authorization: vapid t=..., k=...``),
    after checking that it is signed (ES256) by ``public_key``, the key it names."""
    scheme, _, params = push.headers["authorization"].partition(" ")
    assert scheme == "vapid"
    values = dict(part.strip().split("=", 1) for part in params.split(","))
    assert values["k"] == public_key
    header, claims, signature = values["t"].split(".")
    raw = unb64url(signature)
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(public_key))
    key.verify(der, f"{header}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))
    decoded: dict[str, Any] = json.loads(unb64url(claims))
    return decoded


@contextmanager
def push_service() -> Iterator[PushService]:
    """A running push service on a free port of 127.0.0.1, stopped afterwards."""
    service = PushService()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length)
            headers = {k.lower(): v for k, v in self.headers.items()}
            service.received.append(Received(self.path, headers, body))
            if service.while_answering is not None:
                service.while_answering(service.received[-1])
            self.send_response(service.answers.get(self.path, 201))
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    service.url = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield service
    finally:
        server.shutdown()
        server.server_close()
