"""How pytest-xdist hands the suite to its workers (`--dist loadfile`, pyproject.toml).

Every test is a unit of its own and goes to whichever worker is free, except the tests of a
file with module- or class-scoped fixtures (a class's lab runs, the practice screens) or a
module-level cache (the import graph), which go to one worker together so what they share is
made once. The units known to take longest start
first (LONGEST, measured with `pytest --durations=0` on 2 cores): one of them begun last would
keep a worker busy while the others sit idle. Only the order and the grouping change; every
test runs once, as before.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from typing import Any

from xdist.scheduler import LoadFileScheduling

ROOT = Path(__file__).resolve().parent.parent

# The longest tests and grouped files, longest first (seconds on 2 cores with 4 workers): a
# name matches a unit that starts with it.
LONGEST = (
    "tests/test_site_browser.py::test_no_serious_accessibility_violation",  # 5 views, ~25 s each
    "tests/test_wheel.py::test_the_wheel_makes_and_runs_a_course_of_its_own",  # 63
    "tests/test_site_browser.py::test_the_course_prints_as_one_book_with_its_outline",  # 60
    "tests/test_site_browser.py::test_math_reads_as_katex_draws_it[",  # 45, 29
    "tests/test_site_browser.py::test_valid_html_for_the_nu_checker",  # 40
    "tests/test_site_browser.py::test_every_page_loads_with_no_error_and_no_outside_request",  # 35
    "tests/test_notebook_secret.py::test_each_wrong_hole_is_told_from_the_right_ones[338-",  # 31
    "tests/test_grade.py::test_a_killed_run_resumes_where_it_stopped",  # 25
    "tests/test_grade_checkpoint.py::test_a_killed_run_loses_only_the_classes_in_flight",  # 25
    "tests/test_hostile.py::test_check_keeps_the_labs_beside_it_true[sin-sandbox-detiene-",  # 24
    "tests/classes/test_declared_mutants_321_330.py",  # 23
    "tests/test_hostile.py::test_run_tells_the_truth_about_a_hostile_lab[sin-sandbox-detiene-",  # 23
    "tests/test_site_browser.py::test_every_formula_is_mathml_with_a_box",  # 18
    "tests/test_site.py::test_the_courses_committed_notebooks_are_current",  # 17
    "tests/test_interrupted.py::test_a_lab_that_stops_its_worker_cannot_stop_the_runner",  # 17
    "tests/test_grade.py::test_a_class_of_honest_and_hostile_students",  # 16
    "tests/test_site_browser.py::test_readable_from_360_to_1440_px",  # 16
    "tests/test_site_browser.py::test_phone_formulas_are_broken_into_lines_before_they_scroll",
    "tests/test_mathml_pixels.py::test_compacted_mathml_draws_the_same_pixels",  # 14
    "tests/test_interrupted.py::test_update_killed_at_any_moment_leaves_old_or_new_snapshots",
    "tests/test_lint.py::test_real_course_class_passes[332]",  # 14
    "tests/test_lint.py::test_real_course_class_passes[339]",  # 13
    "tests/test_grade.py::test_shards_merged_equal_one_run",  # 13
    "tests/test_site_browser.py::test_every_chart",  # 13, 13, 11
    "tests/test_hostile_shared.py::test_a_setsid_grandchild_ends_with_its_lab_while_the_batch",
    "tests/test_practice_receipt.py::test_the_receipt_is_what_grade_reads",  # 12
    "tests/test_site_browser.py::test_screenshots_of_323",  # 11
    "tests/test_notebook.py::test_every_notebook_is_valid_and_regenerates_byte_identically[339-",
    "tests/test_lint.py::test_real_course_class_passes[",  # 10 and less, class by class
    "tests/test_mathbreaks.py::test_cut_formulas_draw_as_the_whole_and_wrap_on_a_phone",  # 10
    "tests/test_grade_lms.py::test_gradescope_autograder_zip_and_its_results",  # 10
    "tests/classes/",  # each class's file: its lab's runs made once
)

# A fixture wider than a test, or a function of the module that remembers what it computed
# (the import graph of test_layers, made once per process): what the file's tests share.
_SHARED = re.compile(
    r"""scope\s*=\s*["'](module|class|package)["']|^@(functools\.)?(cache|lru_cache)\b""",
    re.MULTILINE,
)


@cache
def grouped(file: str) -> bool:
    """A file whose tests share a fixture wider than a test, or a module's cache: they go to one
    worker together."""
    try:
        return bool(_SHARED.search((ROOT / file).read_text(encoding="utf-8")))
    except OSError:
        return True  # not a file of ours (a doctest, a plugin's item): as pytest-xdist would


def rank(scope: str) -> int:
    """Where a unit starts: the place of the first name in LONGEST it begins with, or after."""
    return next((k for k, name in enumerate(LONGEST) if scope.startswith(name)), len(LONGEST))


class Scheduling(LoadFileScheduling):
    """LoadFileScheduling with each test apart (but where a file shares a fixture wider than a
    test), LONGEST's units first."""

    def __init__(self, config: Any, log: Any = None) -> None:
        super().__init__(config, log)
        self.ordered = False

    def _split_scope(self, nodeid: str) -> str:
        file = nodeid.split("::", 1)[0]
        return super()._split_scope(nodeid) if grouped(file) else nodeid

    def _assign_work_unit(self, node: Any) -> None:
        if not self.ordered:  # the queue is complete by the first assignment
            self.ordered = True
            units = sorted(self.workqueue.items(), key=lambda unit: rank(unit[0]))
            self.workqueue.clear()
            self.workqueue.update(units)
        super()._assign_work_unit(node)
