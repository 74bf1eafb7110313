"""The work of one pairing search: counted in steps, reported as progress, and bounded.

A caller that cannot wait (a web request) allows a number of steps and gets
:class:`SearchTooLong` past it, before anything was decided, so it can hand the same call to
a background worker; the worker passes a `progress` callback instead. Either way the result
depends on the input alone: steps are counted, never timed.
"""

from collections.abc import Callable

PROGRESS_SCALE = 1000  # progress is reported as (done, PROGRESS_SCALE)
_REPORT_EVERY = 2000  # steps between two progress reports


class SearchTooLong(Exception):
    """The search needs more steps than its caller allowed."""


class Effort:
    """Counts steps; stops past `allowed` steps; reports the share of the search done."""

    def __init__(
        self,
        allowed: int | None = None,
        progress: Callable[[int, int], None] | None = None,
    ) -> None:
        self.allowed = allowed
        self.progress = progress
        self.spent = 0
        self._reported = 0
        self._last = -1

    def spend(self, steps: int = 1) -> bool:
        """Count `steps`; True when a progress report is due (see :meth:`report`)."""
        self.spent += steps
        if self.allowed is not None and self.spent > self.allowed:
            raise SearchTooLong(self.spent)
        return self.progress is not None and self.spent - self._reported >= _REPORT_EVERY

    def report(self, share: float) -> None:
        """Report `share` (0 to 1) of the whole search as done, never going back."""
        if self.progress is None:
            return
        self._reported = self.spent
        done = min(PROGRESS_SCALE, max(self._last, int(share * PROGRESS_SCALE)))
        if done != self._last:
            self._last = done
            self.progress(done, PROGRESS_SCALE)
