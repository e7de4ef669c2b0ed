"""Suites of real `referee serve` processes, run on the cluster unchanged (the servers log in to
the coordinator, tests/citus/conftest.py): live streams whose notifications cross two API
processes, stream tickets used once across processes, tables filled at once and races for the
last seat, and creations racing with one Idempotency-Key, over two processes (one winner each
time), the service's login and what the database refuses it, to the login and to the owner."""

from tests.live.conftest import *  # noqa: F403
from tests.live.test_hub import *  # noqa: F403
from tests.live.test_stream_http import *  # noqa: F403
from tests.live.test_ticket_used_once import *  # noqa: F403
from tests.reliability.conftest import *  # noqa: F403
from tests.reliability.test_database_roles import *  # noqa: F403
from tests.reliability.test_idempotent_creation import *  # noqa: F403
from tests.reliability.test_open_tables_two_processes import *  # noqa: F403
