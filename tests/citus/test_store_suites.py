"""The store's own suites, run on the cluster unchanged (tests/citus/conftest.py gives them the
cluster's database): appends and their races, idempotency, group commit, reads, sealed bodies,
seeds, redeemed tickets, notifications, and history that the database itself refuses to
rewrite, as the service's login and as the owner."""

from tests.store.test_append import *  # noqa: F403
from tests.store.test_append_only import *  # noqa: F403
from tests.store.test_group_commit import *  # noqa: F403
from tests.store.test_idempotency import *  # noqa: F403
from tests.store.test_notifications import *  # noqa: F403
from tests.store.test_race import *  # noqa: F403
from tests.store.test_reads import *  # noqa: F403
from tests.store.test_redeemed_tickets import *  # noqa: F403
from tests.store.test_sealed_bodies import *  # noqa: F403
from tests.store.test_seeds import *  # noqa: F403
from tests.store.test_statements import *  # noqa: F403
