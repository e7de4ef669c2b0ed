"""The API's own suites, run in process on the cluster unchanged (the app of tests/api/conftest.py
on the cluster's database, tests/citus/conftest.py): games of every kind played through, idempotent
creation and commands, open tables, receipts and checkpoints, views, stream tickets, races,
clocks and the sweeper that ends games across shards. (A suite whose fixture has the name of
another's goes in a file of its own: test_api_commands.py.)"""

from tests.api.conftest import *  # noqa: F403
from tests.api.test_concurrency import *  # noqa: F403
from tests.api.test_every_kind import *  # noqa: F403
from tests.api.test_full_game import *  # noqa: F403
from tests.api.test_games import *  # noqa: F403
from tests.api.test_games_across_clocks import *  # noqa: F403
from tests.api.test_games_that_end import *  # noqa: F403
from tests.api.test_idempotent_retry import *  # noqa: F403
from tests.api.test_open_tables import *  # noqa: F403
from tests.api.test_receipts import *  # noqa: F403
from tests.api.test_sealed_seeds import *  # noqa: F403
from tests.api.test_stream_tickets import *  # noqa: F403
