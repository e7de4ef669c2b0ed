"""The supervisor of `referee serve --workers N`: uvicorn's, with a worker replaced when it is
dead or stuck, never because the machine is slow.

uvicorn's supervisor pings each worker every half second and kills one that has not answered
within 5 s, from the moment it is spawned: on a starved machine (a load of 10 on 2 cores) a
worker still starting its interpreter, importing or opening its pool cannot answer in time, is
killed, and its replacement meets the same fate (16 to 49 workers killed, the server not ready
for minutes or ever). Its pings also wait in turn, 5 s each, so a stop signal waited up to
10-15 s to be seen.

Here the pings never block: each loop sends a worker a ping when none is outstanding and reads
the answer when it has come. A worker is replaced when its process has died, or when it has
not answered for `STUCK_AFTER_SECONDS` after answering once (stuck), or for
`STARTUP_PATIENCE_SECONDS` from its start (never came up). Signals are seen within half a second.

A worker dies with its supervisor, whatever kills the supervisor (`die_with_supervisor`): else
a supervisor killed with SIGKILL left its workers serving on the port and using the database,
with nobody to stop them.
"""

from __future__ import annotations

import ctypes
import logging
import multiprocessing
import os
import signal
import sys
import time
from dataclasses import dataclass

from uvicorn.config import STARTUP_FAILURE
from uvicorn.supervisors.multiprocess import Multiprocess, Process

PING_EVERY_SECONDS = 5.0
STUCK_AFTER_SECONDS = 60.0  # no answer this long from a worker that answered before: stuck
STARTUP_PATIENCE_SECONDS = 600.0  # a worker that never answered in this long never will

log = logging.getLogger("uvicorn.error")


@dataclass
class _Health:
    """What the supervisor knows of one worker's pings (monotonic seconds)."""

    started: float
    answered: float | None = None  # the last answer
    asked: float | None = None  # the ping waiting for an answer


class PatientMultiprocess(Multiprocess):
    """uvicorn's Multiprocess with the health checks above (see the module docstring)."""

    def init_processes(self) -> None:
        super().init_processes()
        self._health = {id(process): _Health(time.monotonic()) for process in self.processes}

    def keep_subprocess_alive(self) -> None:
        if self.should_exit.is_set():
            return
        now = time.monotonic()
        for index, process in enumerate(self.processes):
            health = self._health.setdefault(id(process), _Health(now))
            why = self._why_replaced(process, health, now)
            if why is None:
                continue
            process.kill()
            process.join()
            if process.exitcode == STARTUP_FAILURE:
                # It failed before it served: the app or the socket is broken, and every
                # replacement would fail the same way.
                log.error(f"Child process [{process.pid}] failed to start, stopping.")
                self.should_exit.set()
                return
            if self.should_exit.is_set():
                return
            log.warning(f"Child process [{process.pid}] {why}: replacing it")
            replacement = Process(self.config, self.sockets)
            replacement.start()
            self.processes[index] = replacement
            del self._health[id(process)]
            self._health[id(replacement)] = _Health(time.monotonic())

    def _why_replaced(self, process: Process, health: _Health, now: float) -> str | None:
        """Why the worker must go (dead, stuck, never started), or None while it is well."""
        if not process.process.is_alive():
            return "died"
        try:
            if health.asked is not None and process.parent_conn.poll(0):
                process.parent_conn.recv()
                health.answered, health.asked = now, None
            if health.asked is None and now - (health.answered or 0.0) >= PING_EVERY_SECONDS:
                process.parent_conn.send(b"ping")
                health.asked = now
        except (OSError, EOFError):
            return "died"
        if health.asked is None:
            return None
        if health.answered is None:
            if now - health.started > STARTUP_PATIENCE_SECONDS:
                return f"did not answer in the {STARTUP_PATIENCE_SECONDS:.0f} s since its start"
            return None
        if now - health.answered > STUCK_AFTER_SECONDS:
            return f"has not answered for {now - health.answered:.0f} s (stuck)"
        return None


_PR_SET_PDEATHSIG = 1  # prctl(2): the signal this process gets when its parent dies


def die_with_supervisor() -> None:
    """In a worker: be killed as soon as the supervisor that started it dies, however it dies;
    on Linux, the kernel sends the signal. Elsewhere this does nothing. SIGKILL, not a stop
    signal: with the supervisor gone, nobody would kill a worker that did not stop."""
    supervisor = multiprocessing.parent_process()
    if supervisor is None or not sys.platform.startswith("linux"):
        return
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_PDEATHSIG) failed")
    if os.getppid() != supervisor.pid:  # it died before the line above: no signal will come
        os.kill(os.getpid(), signal.SIGKILL)
