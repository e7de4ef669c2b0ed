"""A serving process tunes Python's collector once its app is made (api.server): what exists
then is frozen out of every later pass, and every generation is collected less often."""

from __future__ import annotations

import subprocess
import sys

PROBE = """
import gc
from api.server import GC_THRESHOLDS, tune_garbage_collector
before = gc.get_threshold()
tune_garbage_collector()
print(before == (700, 10, 10), gc.get_threshold() == GC_THRESHOLDS, gc.get_freeze_count() > 0)
print(all(tuned > default for tuned, default in zip(GC_THRESHOLDS, before)))
"""


def test_the_young_generation_is_collected_less_often_and_the_app_is_frozen() -> None:
    # A process of its own: the collector's settings are the whole interpreter's.
    done = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, check=True, timeout=60
    )
    defaults, tuned, frozen, every_generation_later = done.stdout.split()
    assert defaults == "True"  # Python's own, so that the change is seen
    assert (tuned, frozen, every_generation_later) == ("True", "True", "True")
