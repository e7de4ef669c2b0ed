"""Named secret keys, kept in a setting or a private file: `id:base64key` entries, newest first.

The same form serves the seed keys (`eventstore.seeds`, AES-256-GCM) and the signing keys
(`api.signing`, Ed25519): the first key of the list is the one in use, every key listed is
still known (to open what it sealed, or to say which key a retired signature was made with).
A subclass says what its keys are for, how long they are, and which error a bad one raises.
"""

from __future__ import annotations

import base64
import binascii
import contextlib
import os
import re
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import ClassVar, Self

KEY_ID = re.compile(r"^[A-Za-z0-9._-]{1,32}$")


class KeySettingError(ValueError):
    """Keys that cannot be used: malformed settings, or a key file that is not private."""


@dataclass(frozen=True)
class NamedKeys:
    """Keys by id, the newest (the one in use) first."""

    keys: tuple[tuple[str, bytes], ...]

    WHAT: ClassVar[str] = "key"  # in messages: "seed key", "signing key"
    KEY_BYTES: ClassVar[int] = 32
    ERROR: ClassVar[type[KeySettingError]] = KeySettingError

    def __post_init__(self) -> None:
        if not self.keys:
            raise self.ERROR(f"at least one {self.WHAT} is needed")
        ids = [key_id for key_id, _ in self.keys]
        if len(set(ids)) != len(ids):
            raise self.ERROR(f"two {self.WHAT}s share an id: {ids}")
        for key_id, key in self.keys:
            if not KEY_ID.match(key_id):
                raise self.ERROR(
                    f"a {self.WHAT} id is 1 to 32 of A-Z a-z 0-9 . _ -, not {key_id!r}"
                )
            if len(key) != self.KEY_BYTES:
                raise self.ERROR(
                    f"{self.WHAT} {key_id!r} has {len(key)} bytes, not {self.KEY_BYTES}"
                )

    def __repr__(self) -> str:  # never print a key
        return f"{type(self).__name__}(ids={self.ids})"

    @classmethod
    def parse(cls, text: str) -> Self:
        """`id:base64key` entries, separated by commas, spaces or lines; `#` starts a comment."""
        entries = []
        for line in text.splitlines():
            line = line.split("#", 1)[0]
            entries += [entry for entry in re.split(r"[\s,]+", line) if entry]
        keys = []
        for entry in entries:
            key_id, separator, encoded = entry.partition(":")
            if not separator:
                raise cls.ERROR(f"a {cls.WHAT} is written id:base64key, not {_hide(entry)!r}")
            keys.append((key_id, cls._decode_key(key_id, encoded)))
        return cls(tuple(keys))

    @classmethod
    def generate(cls, key_id: str | None = None) -> Self:
        return cls(((key_id or new_key_id(), secrets.token_bytes(cls.KEY_BYTES)),))

    @classmethod
    def read_file(cls, path: Path) -> Self:
        """The keys in `path`, which must be readable by its owner only."""
        try:
            mode = path.stat().st_mode
            text = path.read_text()
        except OSError as error:
            raise cls.ERROR(f"cannot read the {cls.WHAT} file {path}: {error.strerror}") from None
        if mode & 0o077:
            raise cls.ERROR(
                f"the {cls.WHAT} file {path} may be read by others (mode {mode & 0o777:o}): "
                "chmod 600"
            )
        return cls.parse(text)

    @classmethod
    def file(cls, path: Path) -> Self:
        """The keys in `path`, made with one new key (mode 0600) if the file does not exist yet.

        Safe when several processes start at once: the first file written wins.
        """
        if not path.exists():
            write_private_file(path, cls.generate().entries())
        return cls.read_file(path)

    def entries(self) -> str:
        """The keys as settings text, one `id:base64key` a line."""
        return "".join(f"{key_id}:{base64.b64encode(key).decode()}\n" for key_id, key in self.keys)

    @property
    def ids(self) -> list[str]:
        return [key_id for key_id, _ in self.keys]

    @property
    def current(self) -> str:
        """The id of the key in use."""
        return self.keys[0][0]

    @classmethod
    def _decode_key(cls, key_id: str, encoded: str) -> bytes:
        padded = encoded + "=" * (-len(encoded) % 4)
        try:
            return base64.b64decode(padded.replace("-", "+").replace("_", "/"), validate=True)
        except (binascii.Error, ValueError):
            raise cls.ERROR(f"{cls.WHAT} {key_id!r} is not base64") from None


def new_key_id() -> str:
    """A key id that says when the key was made: `k20261114-3f9a`."""
    return f"k{datetime.now(UTC):%Y%m%d}-{secrets.token_hex(2)}"


def _hide(entry: str) -> str:
    return entry[:4] + "…" if len(entry) > 4 else entry


def write_private_file(path: Path, text: str) -> None:
    """Create `path` (mode 0600) holding `text`, unless it exists: then it is left as it is."""
    path.parent.mkdir(parents=True, exist_ok=True)
    draft = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}")
    descriptor = os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(descriptor, "w") as output:
            output.write(text)
            output.flush()
            os.fsync(output.fileno())
        # Atomic, and refuses to replace a file that another process wrote first.
        with contextlib.suppress(FileExistsError):
            os.link(draft, path)
    finally:
        draft.unlink(missing_ok=True)
