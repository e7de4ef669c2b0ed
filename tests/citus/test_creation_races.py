"""tests/reliability/test_idempotent_creation.py on the cluster (tests/citus/test_process_suites.py
says how): creations racing with one Idempotency-Key through two processes make one game."""

from tests.reliability.conftest import *  # noqa: F403
from tests.reliability.test_idempotent_creation import *  # noqa: F403
