"""core.processes reads /proc/<pid>/stat, whose command field may hold anything."""

import os
import shutil
import time

import pytest

from core.processes import PROC, members, start_group, stat_fields

pytestmark = pytest.mark.skipif(not PROC.is_dir(), reason="no /proc on this system")


def test_the_fields_after_a_command_with_spaces_and_parentheses(tmp_path):
    odd = tmp_path / "a) b (c"
    odd.symlink_to(shutil.which("sleep"))
    child = start_group([str(odd), "30"])
    try:
        fields = stat_fields(child.pid)
        assert fields is not None
        assert (PROC / str(child.pid) / "comm").read_text().strip() == "a) b (c"
        assert fields[0] in "RSD"  # running, sleeping or in a disk wait
        assert int(fields[1]) == os.getpid()  # its parent
        assert int(fields[2]) == child.pid  # the leader of its own group
        assert members(child.pid) == [child.pid]
    finally:
        child.kill()
        child.wait()
    assert stat_fields(child.pid) is None
    assert members(child.pid) == []


def test_the_cpu_time_fields_grow_as_the_process_works():
    def ticks() -> int:
        fields = stat_fields(os.getpid())
        assert fields is not None
        return int(fields[11]) + int(fields[12])  # utime and stime

    before = ticks()
    spent = time.process_time() + 0.2
    while time.process_time() < spent:
        pass
    assert ticks() - before >= 0.1 * os.sysconf("SC_CLK_TCK")
