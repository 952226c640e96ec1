"""One `cuteref prove` run and the checks of its verdict against the concrete oracle.

What a verdict promises (proofs/README.md, proofs/claim.hpp; the domain is the points of the
--where box where every --assume hypothesis holds): `proved` means that the domain is not empty
and at every point of it the model evaluates both sides without rejecting anything (every check
of the model is a side condition of the proof) and they are equal, and its `replayed:` line
counts the domain's points; `vacuous` (exit 3) that the domain is empty; `refuted` names a point
of the domain where the sides differ or the model rejects the claim (a refutation found by
prove's own concrete replay of a proof is counted apart: it should not happen); `unknown`
promises nothing; exit 64 means the request is malformed (a divides(A, B) whose A is a literal
< 1 must be, and so must a literal outside int64) or the claim is rejected by the model, which the oracle accepts only when the
model rejects it at every point of the domain (of the box, when the domain is empty).
"""

import re
import shlex
import subprocess
import time
from dataclasses import dataclass, field
from typing import Dict, List, Optional

from oracle import PLayout, PointError, PointResult, layout_value

CONTRACT_EXITS = {0: "proved", 1: "refuted", 2: "unknown", 3: "vacuous", 64: "usage", 70: "failure"}
REPLAY_NOTE = "(found by the concrete replay"
# A run may overshoot its --timeout by this much (the bound).
TIMEOUT_SLACK_S = 1.0
# Beyond --timeout + this, the fuzzer kills the process and reports it.
KILL_AFTER_S = 4.0


@dataclass
class Request:
    claim: str
    where: Dict[str, tuple]  # name -> (lo, hi)
    timeout_s: float
    assume: List[str] = field(default_factory=list)

    def argv(self, cuteref: str) -> List[str]:
        args = [cuteref, "prove", "--timeout", f"{self.timeout_s:g}"]
        for name, (lo, hi) in sorted(self.where.items()):
            args += ["--where", f"{name} in [{lo},{hi}]"]
        for a in self.assume:
            args += ["--assume", a]
        return args + ["--", self.claim]

    def command(self, cuteref: str) -> str:
        return " ".join(shlex.quote(a) for a in self.argv(cuteref))


@dataclass
class Run:
    exit: Optional[int]     # None: killed after KILL_AFTER_S past the timeout
    stdout: str
    stderr: str
    wall_s: float

    @property
    def verdict(self) -> str:
        if self.exit is None:
            return "killed"
        if self.exit < 0:
            return f"signal {-self.exit}"
        if self.exit == 1 and REPLAY_NOTE in self.stdout:
            return "refuted by the replay"
        return CONTRACT_EXITS.get(self.exit, f"exit {self.exit}")


def run_prove(request: Request, cuteref: str) -> Run:
    start = time.monotonic()
    try:
        p = subprocess.run(request.argv(cuteref), capture_output=True, text=True,
                           timeout=request.timeout_s + KILL_AFTER_S)
        return Run(p.returncode, p.stdout, p.stderr, time.monotonic() - start)
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
        err = e.stderr.decode() if isinstance(e.stderr, bytes) else (e.stderr or "")
        return Run(None, out, err, time.monotonic() - start)


def point_text(point: Dict[str, int]) -> str:
    return ", ".join(f"{k} = {v}" for k, v in sorted(point.items())) or "(the claim has no variables)"


PROVED = re.compile(r"proved \(\d+ ms\)\n  for: [^\n]+\n"
                    r"  replayed: the model agrees at (\d+) point\(s\)(?: where the hypotheses hold, of (\d+))? "
                    r"\((the whole box|corners and deterministic points of the box)\)"
                    r"(; (\d+) point\(s\) whose hypotheses are too large to check)?\n"
                    r"(  assuming: [^\n]+\n)*")


def check_run(request: Request, run: Run, points: List[Dict[str, int]], results: List[PointResult],
              malformed: str = "") -> List[str]:
    """Findings (empty: the verdict is consistent with the model at every point). `malformed`:
    why the request must be refused (exit 64), or empty."""
    findings = []
    if run.exit is None:
        findings.append(f"still running {request.timeout_s + KILL_AFTER_S:g} s after start with --timeout "
                        f"{request.timeout_s:g} (killed)")
        return findings
    if run.exit < 0:
        findings.append(f"crashed: signal {-run.exit}; stderr: {run.stderr.strip()[:300]}")
        return findings
    if run.exit not in CONTRACT_EXITS:
        findings.append(f"exit {run.exit}, outside the contract {sorted(CONTRACT_EXITS)}; "
                        f"stdout: {run.stdout.strip()[:300]}; stderr: {run.stderr.strip()[:300]}")
        return findings
    if run.wall_s > request.timeout_s + TIMEOUT_SLACK_S:
        findings.append(f"took {run.wall_s:.2f} s with --timeout {request.timeout_s:g} "
                        f"(more than {TIMEOUT_SLACK_S:g} s over)")
    if malformed:
        if run.exit != 64:
            findings.append(f"{run.verdict} for a malformed request ({malformed}); expected exit 64")
        elif not run.stderr.startswith("error: "):
            findings.append(f"exit 64 without `error: ...`: {run.stderr.strip()[:300]}")
        return findings
    by_point = {tuple(sorted(p.items())): r for p, r in zip(points, results)}
    failing = [(p, r) for p, r in zip(points, results) if r.status in ("differ", "error")]
    accepted = [(p, r) for p, r in zip(points, results) if r.status in ("equal", "differ")]
    domain = [(p, r) for p, r in zip(points, results) if r.status != "outside"]
    hypotheses_undecided = any(r.status == "undecided" and r.why.startswith("a hypothesis") for r in results)

    if run.exit == 0:
        # `proved (N ms)`, what was quantified (`  for: ...`), the concrete replay
        # (`  replayed: ...`) and any `  assuming: ...`.
        m = PROVED.fullmatch(run.stdout)
        if not m:
            findings.append(f"exit 0 without `proved (N ms)`, its quantification and its replay: {run.stdout.strip()[:300]}")
        for p, r in failing[:1]:
            what = "the sides differ" if r.status == "differ" else "the model rejects the claim"
            findings.append(f"false `proved`: at {point_text(p)} {what}: {r.why}")
        if not domain:
            findings.append(f"false `proved`: no point of the box ({len(points)} point(s)) satisfies the hypotheses "
                            f"(vacuous)")
        if m and m.group(3) == "the whole box" and not m.group(4):
            agreed, of = int(m.group(1)), int(m.group(2) or m.group(1))
            if of != len(points) or (not hypotheses_undecided and agreed != len(domain)):
                findings.append(f"the replay counts {agreed} point(s) where the hypotheses hold, of {of}; the box has "
                                f"{len(points)}, of which {len(domain)} satisfy the hypotheses")
    elif run.exit == 3:
        if not re.fullmatch(r"vacuous: [^\n]+\n(  assuming: [^\n]+\n)*", run.stdout):
            findings.append(f"exit 3 without `vacuous: ...`: {run.stdout.strip()[:300]}")
        inside = [(p, r) for p, r in domain if r.status != "undecided"]
        if inside:
            findings.append(f"`vacuous` although every hypothesis holds at {point_text(inside[0][0])} "
                            f"({len(inside)} point(s) of the box satisfy them)")
    elif run.exit == 1:
        findings += check_refutation(request, run, by_point)
    elif run.exit == 2:
        if not run.stdout.startswith("unknown: "):
            findings.append(f"exit 2 without `unknown: ...`: {run.stdout.strip()[:300]}")
    elif run.exit == 64:
        if not run.stderr.startswith("error: "):
            findings.append(f"exit 64 without `error: ...`: {run.stderr.strip()[:300]}")
        inside = [(p, r) for p, r in domain if r.status in ("equal", "differ")]
        if inside or (not domain and accepted):
            p, r = (inside or accepted)[0]
            where = "a point where the hypotheses hold" if inside else "a point of the box (none satisfies the hypotheses)"
            findings.append(f"refused (exit 64: {run.stderr.strip()[:300]}) although the model evaluates both "
                            f"sides at {where}, {point_text(p)} ({r.status})")
    elif run.exit == 70:
        if not run.stderr.startswith("error: "):
            findings.append(f"exit 70 without `error: ...`: {run.stderr.strip()[:300]}")
    return findings


def check_refutation(request: Request, run: Run, by_point) -> List[str]:
    lines = run.stdout.split("\n")
    if not lines or lines[0] != "refuted:":
        return [f"exit 1 without `refuted:`: {run.stdout.strip()[:300]}"]
    values = {}
    for line in lines[1:]:
        m = re.fullmatch(r"  ([a-z][a-z0-9_]*) = (-?\d+)", line)
        if m:
            values[m.group(1)] = int(m.group(2))
    point = {n: values.get(n) for n in request.where}
    missing = [n for n, v in point.items() if v is None]
    if missing:
        return [f"the refutation names no value for {', '.join(missing)}: {run.stdout.strip()[:300]}"]
    outside = [n for n, v in point.items() if not request.where[n][0] <= v <= request.where[n][1]]
    if outside:
        return [f"the counterexample {point_text(point)} lies outside the --where box ({', '.join(outside)})"]
    r = by_point.get(tuple(sorted(point.items())))
    if r is None:
        return [f"the counterexample {point_text(point)} was not enumerated (internal error of the fuzzer)"]
    if r.status == "equal":
        return [f"a refutation that does not refute: at {point_text(point)} both sides are equal on the model"]
    if r.status == "outside":
        return [f"the counterexample {point_text(point)} violates a hypothesis ({r.why})"]
    if r.status == "undecided":
        return []
    findings = []
    rejects = "the model rejects this input" in run.stdout
    if rejects and r.status == "differ" and not r.also_rejects:
        findings.append(f"the refutation says the model rejects the input at {point_text(point)}, but it "
                        f"evaluates both sides there ({r.why})")
    if not rejects and r.status == "error":
        findings.append(f"the refutation prints values at {point_text(point)}, where the model rejects the "
                        f"claim ({r.why})")
    m = re.search(r"index = (\d+): lhs\(\d+\) = (-?\d+), rhs\(\d+\) = (-?\d+)", run.stdout)
    if m and isinstance(r.lhs, PLayout) and isinstance(r.rhs, PLayout):
        i, va, vb = int(m.group(1)), int(m.group(2)), int(m.group(3))
        try:
            ea, eb = layout_value(r.lhs, i), layout_value(r.rhs, i)
        except PointError:
            ea = eb = None
        if (ea, eb) != (va, vb):
            findings.append(f"the refutation's index {i} gives lhs {va}, rhs {vb}; the model gives {ea}, {eb}")
    return findings
