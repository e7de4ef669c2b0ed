"""Suites of real `referee serve` processes, run on the cluster unchanged (the servers log in to
the coordinator, tests/citus/conftest.py): tables filled at once and races for the last seat
through two processes (one winner each), and the service's login and what the database
refuses it, to the login and to the owner. Live streams and creations racing on one key have
files of their own (test_live_suites.py, test_creation_races.py): their fixtures share names
with these."""

from tests.reliability.conftest import *  # noqa: F403
from tests.reliability.test_database_roles import *  # noqa: F403
from tests.reliability.test_open_tables_two_processes import *  # noqa: F403
