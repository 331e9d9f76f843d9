"""The site's VAPID key (RFC 8292), by which push services know its pushes: a P-256
private key, kept as its 32 bytes in base64url (``WEBPUSH_VAPID_PRIVATE_KEY``).

No Django here: ``make run`` (:mod:`config.runstack`) makes the key before any of the
app starts.

>>> key = new_private_key()
>>> len(key), len(public_key_of(key))
(43, 87)
"""

from __future__ import annotations

import base64
from functools import lru_cache

from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat


def new_private_key() -> str:
    """A new private key, as ``WEBPUSH_VAPID_PRIVATE_KEY`` holds it."""
    key = ec.generate_private_key(ec.SECP256R1())
    return b64encode(key.private_numbers().private_value.to_bytes(32, "big"))


@lru_cache(maxsize=2)
def public_key_of(private: str) -> str:
    """The public key browsers subscribe with (``applicationServerKey``): the
    uncompressed point, base64url without padding."""
    key = ec.derive_private_key(int.from_bytes(b64decode(private), "big"), ec.SECP256R1())
    return b64encode(key.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint))


def b64decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def b64encode(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()
