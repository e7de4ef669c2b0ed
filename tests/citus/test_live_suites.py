"""tests/live's suites on the cluster (tests/citus/test_process_suites.py says how): live streams
woken across two API processes, whose notifications are sent and heard on the coordinator, and
stream tickets used once across them."""

from tests.live.conftest import *  # noqa: F403
from tests.live.test_hub import *  # noqa: F403
from tests.live.test_stream_http import *  # noqa: F403
from tests.live.test_ticket_used_once import *  # noqa: F403
