"""Child processes started in a process group of their own, and ended with the whole group.

A server such as granian forks its workers: when its main process dies (killed, crashed),
the workers live on with init as their parent, still listening on the port. Each command is
therefore the leader of its own process group, and the group (whoever is in it, orphans
included) is what is stopped: on a restart and on the way out.
"""

import contextlib
import os
import signal
import subprocess
import time
from pathlib import Path

PROC = Path("/proc")


def start_group(command: list[str], **options) -> subprocess.Popen:
    """`command` as the leader of a new process group (its id is the process's pid)."""
    return subprocess.Popen(command, process_group=0, **options)


def members(group: int) -> list[int]:
    """The processes of the group still running (zombies waiting to be reaped are not)."""
    if not PROC.is_dir():  # no /proc: the group is there while a signal reaches it
        try:
            os.killpg(group, 0)
        except ProcessLookupError:
            return []
        return [group]
    found = []
    for entry in PROC.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        # pid (command) state ppid pgrp …: the command may hold spaces and parentheses.
        state, _, pgrp = stat[stat.rindex(")") + 2 :].split()[:3]
        if int(pgrp) == group and state != "Z":
            found.append(int(entry.name))
    return found


def signal_group(group: int, signum: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(group, signum)


def end_group(group: int, grace: float, leader: subprocess.Popen | None = None) -> None:
    """SIGTERM every process of the group, and SIGKILL those still there after `grace`
    seconds; return once none is left. `leader` is reaped on the way if it is a child."""
    signal_group(group, signal.SIGTERM)
    for signum, wait in ((signal.SIGKILL, grace), (None, 5.0)):
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline:
            if leader is not None:
                leader.poll()
            if not members(group):
                return
            time.sleep(0.05)
        if signum is not None:
            signal_group(group, signum)
