"""CPU time and memory of process trees, read from /proc; the machine the figures came from.

A tree's CPU is the user + system time of every live process in it plus what each has
collected from children it reaped (cutime + cstime): a PostgreSQL backend or a uvicorn worker
that ends between two samples still counts. Take a sample before and after a timed window;
the difference is the CPU the tree spent in it, whatever the number of processes.
"""

from __future__ import annotations

import os
import platform
import subprocess
from collections.abc import Iterable
from pathlib import Path

TICK = 1 / os.sysconf("SC_CLK_TCK")
PAGE = os.sysconf("SC_PAGE_SIZE")


def _stat_fields(pid: int) -> list[str] | None:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            text = stat.read()
    except (FileNotFoundError, ProcessLookupError):
        return None
    # The command name (field 2) is in parentheses and may hold spaces: split after it.
    return text.rsplit(")", 1)[1].split()


def _parents() -> dict[int, int]:
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit() and (fields := _stat_fields(int(entry))) is not None:
            parents[int(entry)] = int(fields[1])
    return parents


def tree(root: int) -> list[int]:
    """`root` and its live descendants."""
    children: dict[int, list[int]] = {}
    for pid, parent in _parents().items():
        children.setdefault(parent, []).append(pid)
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo.extend(children.get(pid, ()))
    return found


def cpu_seconds(pids: Iterable[int]) -> float:
    """User + system CPU of these processes and of the children they reaped."""
    ticks = 0
    for pid in pids:
        fields = _stat_fields(pid)
        if fields is not None:  # utime stime cutime cstime: fields 14-17 of proc(5)
            ticks += sum(int(value) for value in fields[11:15])
    return ticks * TICK


def tree_cpu_seconds(roots: Iterable[int]) -> float:
    return cpu_seconds(pid for root in roots for pid in tree(root))


def rss_bytes(pids: Iterable[int]) -> int:
    """Resident memory of these processes, added up (shared pages count once per process)."""
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/statm") as statm:
                total += int(statm.read().split()[1]) * PAGE
        except (FileNotFoundError, ProcessLookupError):
            pass
    return total


def tree_rss_bytes(root: int) -> int:
    return rss_bytes(tree(root))


def postmaster_pid(cluster: Path) -> int:
    """The PostgreSQL server of a data directory (first line of its postmaster.pid)."""
    return int((cluster / "postmaster.pid").read_text().split()[0])


def machine() -> dict[str, object]:
    model = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {"cores": os.cpu_count(), "cpu": model}


def load_average() -> float:
    return round(os.getloadavg()[0], 2)


def commit() -> str:
    """The checked-out commit, `+dirty` when the work tree has changes (RESULTS.md aside: the
    rows a session records one after the other are of the same code)."""

    def git(*args: str) -> str:
        return subprocess.run(
            ["git", *args], capture_output=True, text=True, check=False
        ).stdout.strip()

    head = git("rev-parse", "--short", "HEAD") or "unknown"
    changed = git("status", "--porcelain", "--untracked-files=no", "--", ".", ":!**/RESULTS.md")
    return f"{head}+dirty" if changed else head
