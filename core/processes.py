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


def stat_fields(pid: int | str) -> list[str] | None:
    """The fields of /proc/<pid>/stat after the command (state, ppid, pgrp, …: `proc(5)`,
    numbered from 3), or None when the process is gone. The command may hold spaces and
    parentheses: it ends at the last one."""
    try:
        stat = (PROC / str(pid) / "stat").read_text()
    except OSError:
        return None
    return stat[stat.rindex(")") + 2 :].split()


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
        fields = stat_fields(entry.name) if entry.name.isdigit() else None
        if fields is not None and int(fields[2]) == group and fields[0] != "Z":
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
