"""How pytest-xdist hands the suite to its workers (`--dist loadfile`, pyproject.toml).

A test file goes to one worker whole, so its module fixtures (a built site, a browser, a lab's
runs) are made once; the cases of the tests named in SPREAD are each a unit of their own, since
they share nothing and take seconds each (the real course's lint, class by class). The units
known to take longest start first: one of them begun last would keep a worker busy while the
others sit idle. Only the order and the grouping change; every test runs once, as before.
"""

from __future__ import annotations

from typing import Any

from xdist.scheduler import LoadFileScheduling

SPREAD = (
    "tests/test_lint.py::test_real_course_class_passes[",
    # the browser's slowest sweeps (the site they read is built once for all workers)
    "tests/test_site_browser.py::test_no_serious_accessibility_violation",
    "tests/test_site_browser.py::test_math_reads_as_katex_draws_it[",
    "tests/test_site_browser.py::test_contrast_as_seen_behind_the_scroll_cue[",
    "tests/test_site_browser.py::test_valid_html_for_the_nu_checker",
    "tests/test_site_browser.py::test_the_course_prints_as_one_book_with_its_outline",
)

# The longest units, longest first (`pytest --durations=0`, summed by file, 2 cores). The rest
# follow in pytest-xdist's own order (the files with most tests first).
FIRST = (
    "tests/test_site_browser.py",
    "tests/test_hostile.py",
    "tests/test_grade.py",
    "tests/test_hostile_limits.py",
    "tests/test_hostile_shared.py",
    "tests/test_faults.py",
    "tests/test_site.py",
    "tests/test_notebook.py",
    "tests/test_wheel.py",
    "tests/test_bad_files.py",
    "tests/test_notebook_secret.py",
    "tests/test_interrupted.py",
    "tests/test_fallbacks.py",
    "tests/test_lint.py",
    "tests/test_grade_lms.py",
    "tests/classes/test_declared_mutants_321_330.py",
)


def rank(scope: str) -> int:
    """Where a unit starts: its place in FIRST, or after all of them."""
    file = scope.split("::", 1)[0]
    return FIRST.index(file) if file in FIRST else len(FIRST)


class Scheduling(LoadFileScheduling):
    """LoadFileScheduling with SPREAD's cases apart and FIRST's units first."""

    def __init__(self, config: Any, log: Any = None) -> None:
        super().__init__(config, log)
        self.ordered = False

    def _split_scope(self, nodeid: str) -> str:
        return nodeid if nodeid.startswith(SPREAD) else super()._split_scope(nodeid)

    def _assign_work_unit(self, node: Any) -> None:
        if not self.ordered:  # the queue is complete by the first assignment
            self.ordered = True
            units = sorted(self.workqueue.items(), key=lambda unit: rank(unit[0]))
            self.workqueue.clear()
            self.workqueue.update(units)
        super()._assign_work_unit(node)
