"""The referee's signatures: Ed25519 keys by id, and signed statements in DSSE envelopes.

Keys are kept like the seed keys (`eventstore.keyfiles`): `REFEREE_SIGNING_KEYS` (`id:base64`
entries of the 32-byte Ed25519 private key, the newest first) or `REFEREE_SIGNING_KEYS_FILE`;
the embedded database keeps a file of its own. The newest key signs; the public half of every
key that ever signed stays listed (`GET /v1/keys`, kept in the database) so that a receipt
still verifies after its key is retired.

A statement is signed in a DSSE envelope (the Dead Simple Signing Envelope of the Secure
Systems Lab, as used by in-toto and Sigstore): the signature covers
`PAE(type, payload) = "DSSEv1" SP len(type) SP type SP len(payload) SP payload` (lengths in
ASCII decimal, SP one space), so that a signature over one kind of statement can never be
passed off as another, and a checker needs only base64, that string and any Ed25519 library.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Annotated, ClassVar, Literal

import msgspec
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from eventstore.keyfiles import KeySettingError, NamedKeys

SIGNATURE_BYTES = 64


class SigningKeyError(KeySettingError):
    """Signing keys that cannot be used: malformed settings, or a key file that is not private."""


class BadSignature(ValueError):
    """An envelope that is not what it claims: malformed, of another type, signed by a key that
    is not listed, or a signature that does not verify. The message says which."""


@dataclass(frozen=True, repr=False)
class SigningKeys(NamedKeys):
    """The keys that sign: the first signs, the others are retired (listed, never used)."""

    WHAT: ClassVar[str] = "signing key"
    ERROR: ClassVar[type[KeySettingError]] = SigningKeyError

    _private: dict[str, Ed25519PrivateKey] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        super().__post_init__()
        private = {key_id: Ed25519PrivateKey.from_private_bytes(key) for key_id, key in self.keys}
        object.__setattr__(self, "_private", private)

    def public_key(self, key_id: str) -> bytes:
        """The raw 32-byte public key of `key_id`."""
        return self._private[key_id].public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)

    def sign(self, payload_type: str, payload: bytes) -> Envelope:
        """`payload` signed with the newest key, in an envelope."""
        signature = self._private[self.current].sign(pae(payload_type, payload))
        return Envelope(
            payload=_b64(payload),
            payloadType=payload_type,
            signatures=(EnvelopeSignature(keyid=self.current, sig=_b64(signature)),),
        )


Base64 = Annotated[str, msgspec.Meta(description="Standard base64 (RFC 4648 section 4).")]


class EnvelopeSignature(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    keyid: Annotated[str, msgspec.Meta(description="The id of the key (GET /v1/keys).")]
    sig: Annotated[Base64, msgspec.Meta(description="The Ed25519 signature over PAE.")]


class Envelope(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A signed statement: a DSSE envelope (https://github.com/secure-systems-lab/dsse)."""

    payload: Annotated[Base64, msgspec.Meta(description="The statement's exact bytes: JSON.")]
    payloadType: str  # DSSE names it so
    signatures: tuple[EnvelopeSignature, ...]


class PublicKey(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A key the referee signs or signed with."""

    key_id: str
    algorithm: Literal["Ed25519"] = "Ed25519"
    public_key: Annotated[Base64, msgspec.Meta(description="The raw 32-byte public key.")]
    first_used: datetime  # when it first signed
    retired: datetime | None  # when a newer key took over; null: the key in use
    current: bool  # the key this server signs with now


class KeyList(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """`GET /v1/keys`, and the `--keys` file of `referee verify`."""

    keys: tuple[PublicKey, ...]


def pae(payload_type: str, payload: bytes) -> bytes:
    """DSSE's pre-authentication encoding: what the signature covers."""
    kind = payload_type.encode()
    return b"DSSEv1 %d %b %d %b" % (len(kind), kind, len(payload), payload)


def key_list(
    keys: SigningKeys, used: list[tuple[str, bytes, datetime]], *, current: str
) -> KeyList:
    """The published keys: those that signed (`used`: id, public key, first use), oldest first,
    each retired when the next took over."""
    ordered = sorted(used, key=lambda item: item[2])
    listed = []
    for number, (key_id, public, first_used) in enumerate(ordered):
        retired = ordered[number + 1][2] if number + 1 < len(ordered) else None
        listed.append(
            PublicKey(
                key_id=key_id,
                public_key=_b64(public),
                first_used=first_used,
                retired=retired,
                current=key_id == current,
            )
        )
    return KeyList(keys=tuple(listed))


def open_envelope(envelope: Envelope, payload_type: str, keys: Mapping[str, bytes]) -> bytes:
    """The payload of `envelope` once a signature by one of `keys` (id: raw public key) is
    found valid over it. Raises BadSignature."""
    if envelope.payloadType != payload_type:
        raise BadSignature(f"it is a {envelope.payloadType!r}, not a {payload_type!r}")
    payload = _unb64(envelope.payload, "payload")
    if not envelope.signatures:
        raise BadSignature("it carries no signature")
    unknown = []
    for signature in envelope.signatures:
        public = keys.get(signature.keyid)
        if public is None:
            unknown.append(signature.keyid)
            continue
        try:
            Ed25519PublicKey.from_public_bytes(public).verify(
                _unb64(signature.sig, "signature"), pae(payload_type, payload)
            )
        except (InvalidSignature, ValueError):
            raise BadSignature(
                f"its signature by key {signature.keyid!r} does not verify: the statement or "
                "the signature was changed"
            ) from None
        return payload
    raise BadSignature(f"it is signed by {', '.join(map(repr, unknown))}, not a listed key")


def public_keys(listed: KeyList) -> dict[str, bytes]:
    """The raw public keys of a key list, by id. Raises BadSignature for one that is not."""
    found = {}
    for key in listed.keys:
        raw = _unb64(key.public_key, f"public key {key.key_id!r}")
        if len(raw) != 32:
            raise BadSignature(f"public key {key.key_id!r} is not 32 bytes")
        found[key.key_id] = raw
    return found


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


def _unb64(text: str, what: str) -> bytes:
    try:
        return base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        raise BadSignature(f"its {what} is not base64") from None
