"""The audit's report: per kernel section, each decision with the DSL's value, the model's, and
the verdict (the first differing element where they differ, the reason where unmapped)."""
from collections import Counter
from typing import List

from .audit import Verdict

STATUSES = ("agree", "disagree", "unmapped", "failed", "reported")


def counts(verdicts: List[Verdict]) -> Counter:
    return Counter(v.status for v in verdicts)


def summary(verdicts: List[Verdict]) -> str:
    c = counts(verdicts)
    return f"{len(verdicts)} decisions: " + ", ".join(f"{c[s]} {s}" for s in STATUSES)


def render(verdicts: List[Verdict], title: str = "", sections=None) -> str:
    """The report; SECTIONS (names) keeps only those kernels' decisions."""
    if sections is not None:
        verdicts = [v for v in verdicts if v.section in sections]
    lines = [f"cuteref.dsl audit{': ' + title if title else ''}", ""]
    section = None
    for v in verdicts:
        if v.section != section:
            section = v.section
            here = [w for w in verdicts if w.section == section]
            lines += [f"== {section or '(no section)'}  ({summary(here)})", ""]
        head = f"[{v.index}]" if v.index is not None else "[+]"
        lines.append(f"{head} {v.title}")
        if v.dsl:
            lines.append(f"    DSL:     {v.dsl}")
        if v.model:
            lines.append(f"    model:   {v.model}")
        if v.checks:
            lines.append(f"    checked: {', '.join(v.checks)}")
        lines.append(f"    verdict: {v.status.upper()}" + (f": {v.detail}" if v.detail else ""))
        lines.append("")
    lines.append(summary(verdicts))
    return "\n".join(lines) + "\n"
