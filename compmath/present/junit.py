"""Write `check` results as JUnit XML (one testcase per class) for CI dashboards."""

from __future__ import annotations

import re
import socket
import time
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from pathlib import Path

from compmath.atomic import write_atomic
from compmath.judging.report import LabReport, failure_text

INVALID_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def xml_text(text: str) -> str:
    """Drop the characters XML 1.0 cannot hold (a lab may print anything)."""
    return INVALID_XML.sub("\ufffd", text)


def junit_document(reports: list[LabReport], elapsed: float, missing: Sequence[str] = ()) -> str:
    """The JUnit XML text (junit-10.xsd, as the Jenkins xUnit plugin reads it); `missing`, the
    protections the labs ran without, is the suite's `protecciones_ausentes` property."""
    failures = sum(1 for r in reports if not r.passed and not r.outcome.errored)
    errors = sum(1 for r in reports if r.outcome.errored)
    suites = ET.Element("testsuites", name="compmath", time=f"{elapsed:.3f}")
    suite = ET.SubElement(
        suites,
        "testsuite",
        name="compmath check",
        tests=str(len(reports)),
        failures=str(failures),
        errors=str(errors),
        skipped="0",
        time=f"{elapsed:.3f}",
        hostname=socket.gethostname(),
        timestamp=time.strftime("%Y-%m-%dT%H:%M:%S"),
    )
    properties = ET.SubElement(suite, "properties")
    ET.SubElement(properties, "property", name="protecciones_ausentes", value=",".join(missing))
    for report in reports:
        case = ET.SubElement(
            suite,
            "testcase",
            name=report.class_id,
            classname="compmath",
            time=f"{report.duration:.3f}",
        )
        if not report.passed:
            tag = "error" if report.outcome.errored else "failure"
            element = ET.SubElement(
                case, tag, type=str(report.outcome), message=xml_text(report.full_message)
            )
            element.text = xml_text(failure_text(report))
        if report.stdout:
            ET.SubElement(case, "system-out").text = xml_text(report.stdout)
        if report.stderr:
            ET.SubElement(case, "system-err").text = xml_text(report.stderr)
    ET.indent(suites)
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(suites, encoding="unicode") + "\n"
    )


def write_junit(
    path: Path, reports: list[LabReport], elapsed: float, missing: Sequence[str] = ()
) -> None:
    """Write the report atomically (a half-written file would confuse the CI dashboard)."""
    write_atomic(path, junit_document(reports, elapsed, missing))
