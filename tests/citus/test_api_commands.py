"""tests/api/test_commands.py on the cluster (tests/citus/test_api_suites.py says how), in a file
of its own: its `game` fixture (a game dealt from a chosen seed) is not test_concurrency's."""

from tests.api.conftest import *  # noqa: F403
from tests.api.test_commands import *  # noqa: F403
