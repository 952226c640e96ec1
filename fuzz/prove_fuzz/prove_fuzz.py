#!/usr/bin/env python3
"""Differential fuzzer of `cuteref prove` against the concrete model (fuzz/README.md).

Each claim (random, deterministic by --seed, or from a regressions file) is proved with
`cuteref prove --timeout T --where ...`, and every point of its --where box is evaluated on
the concrete model (oracle.py: arithmetic here, everything else by `cuteref batch`). A
finding is: a false `proved` (a point where the sides differ or the model rejects the
claim), a refutation found by prove's own replay of a proof (Z3 proved a false claim),
a refutation that does not refute when replayed, a run more than 1 s past its
--timeout, a crash or an exit status outside {0, 1, 2, 64, 70}, exit 64 for a claim the model
evaluates at some point of the box, or output not in the documented form. `unknown` and exit
70 are allowed, counted and listed.

  prove_fuzz.py --cuteref build/cli/cuteref [--seed N] [--claims N] [--seconds S]
                [--timeout T] [--regressions FILE] [--save-findings FILE]
                [--families arith,layout_law,generalized,swizzle,tuple,random,tiling,assume,composed,banks] [-v]

Exit 0: no finding; 1: findings (each printed with its claim and the command that
reproduces it); 2: the fuzzer itself could not run.
"""

import argparse
import itertools
import os
import shlex
import sys
import time
from collections import Counter

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from claim_ast import ClaimSyntaxError, Int, children, parse_claim, parse_hypothesis  # noqa: E402
from generator import ClaimGenerator  # noqa: E402
from oracle_self_test import run_self_test  # noqa: E402
from oracle import (INT_MAX, INT_MIN, Batch, NeedModel, PointError, PointEvaluator, Undecided, claim_variables, evaluate_points,  # noqa: E402
                    literal_divisor)
from verdict_check import TIMEOUT_SLACK_S, Request, check_run, run_prove  # noqa: E402


def function_names(cuteref: str) -> set:
    """The model's function names, from `cuteref --help` (its `Functions:` list)."""
    import subprocess
    text = subprocess.run([cuteref, "--help"], capture_output=True, text=True, check=True).stdout
    names, in_list = set(), False
    for line in text.split("\n"):
        if line.startswith("Functions:"):
            in_list = True
            continue
        if in_list and line.startswith("  ") and "(" in line:
            names.add(line.strip().split("(")[0])
        elif in_list and line and not line.startswith(" "):
            in_list = False
    if "composition" not in names:
        raise RuntimeError("could not read the function names from `cuteref --help`")
    return names


def read_regressions(path: str, default_timeout: float):
    """Entries `[--timeout T] [--where 'v in [lo,hi]']... [--assume 'PRED']... -- 'CLAIM'`, one
    per line; `#` comments."""
    entries = []
    with open(path) as f:
        for number, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            entries.append((f"{path}:{number}", parse_entry(line, default_timeout, f"{path}:{number}")))
    return entries


def parse_entry(line: str, default_timeout: float, label: str) -> Request:
    """One entry `[--timeout T] [--where 'v in [lo,hi]']... [--assume 'PRED']... -- 'CLAIM'`."""
    words = shlex.split(line)
    timeout, where, assume, claim = default_timeout, {}, [], None
    k = 0
    while k < len(words):
        if words[k] == "--timeout":
            timeout = float(words[k + 1])
            k += 2
        elif words[k] == "--where":
            name, rest = words[k + 1].split(" in ")
            lo, hi = rest.strip().strip("[]").split(",")
            where[name.strip()] = (int(lo), int(hi))
            k += 2
        elif words[k] == "--assume":
            assume.append(words[k + 1])
            k += 2
        elif words[k] == "--":
            claim = " ".join(words[k + 1:])
            break
        else:
            raise ValueError(f"{label}: unexpected {words[k]!r}")
    if claim is None:
        raise ValueError(f"{label}: no `-- 'CLAIM'`")
    return Request(claim, where, timeout, assume)


def nodes_of(roots):
    """Every node of the trees `roots`."""
    out, stack = [], list(roots)
    while stack:
        n = stack.pop()
        out.append(n)
        stack.extend(children(n))
    return out


def box_points(where):
    names = sorted(where)
    ranges = [range(where[n][0], where[n][1] + 1) for n in names]
    return [dict(zip(names, values)) for values in itertools.product(*ranges)]


class Fuzzer:
    def __init__(self, cuteref: str, verbose: bool):
        self.cuteref = cuteref
        self.verbose = verbose
        self.functions = function_names(cuteref)
        self.batch = Batch(cuteref)
        self.verdicts = Counter()
        self.families = Counter()
        self.checked_points = 0
        self.undecided_points = 0
        self.findings = []      # (label, request, [finding])
        self.failures = []      # exit 70: (label, request, stderr)
        self.max_overshoot = 0.0
        self.retried = 0        # runs over the limit once, within it when run again
        self.replay_refutations = []  # refuted by prove's concrete replay of a proof: (label, request, stdout)
        # `unknown` because Z3's counterexample did not replay, both sides agreeing there on the
        # model: the symbolic evaluation and the model's disagree at that point, or the goal Z3
        # was given is only sufficient (claim_goal). Not a finding; a place to look.
        self.disagreements = []

    def evaluate_at(self, node, point):
        """The model's printed value of a claim side at one point, or None if rejected."""
        results = {}
        for _ in range(16):
            try:
                ev = PointEvaluator(point, results)
                v = ev.eval(node)
                if isinstance(v, int):
                    return str(v)
                text = v[1]
                if text not in results:
                    raise NeedModel(text)
                answer = results[text]
                return None if answer.startswith("error") else answer
            except NeedModel as need:
                results.update(self.batch.run([need.text]))
            except (PointError, Undecided):
                return None
        return None

    def oracle(self, label: str, request: Request):
        """What the oracle alone says of a request: (points of the box, each point's result,
        why the request is malformed or '', why the grammar refuses it or '')."""
        points = box_points(request.where)
        try:
            claim = parse_claim(request.claim, self.functions)
            hypotheses = [parse_hypothesis(a, self.functions) for a in request.assume]
        except ClaimSyntaxError as e:
            return points, [], "", str(e)
        names = claim_variables(claim)
        if set(names) != set(request.where):
            raise ValueError(f"{label}: the --where box must give every variable of the claim a range "
                             f"({names} vs {sorted(request.where)})")
        malformed = ""
        too_large = [n.value for n in nodes_of([claim.lhs, claim.rhs] + [a for h in hypotheses for a in h.args])
                     if isinstance(n, Int) and not INT_MIN <= n.value <= INT_MAX]
        if too_large:
            malformed = f"the literal {too_large[0]} does not fit in int64"
        for text, h in zip(request.assume, hypotheses):
            d = literal_divisor(h)
            if d is not None and d < 1:
                malformed = f"--assume '{text}': the literal divisor {d} is not >= 1"
        results = evaluate_points(claim, points, self.batch, hypotheses) if not malformed else []
        return points, results, malformed, ""

    def check(self, label: str, request: Request, family: str = "regression") -> bool:
        points, results, malformed, syntax = self.oracle(label, request)
        run = run_prove(request, self.cuteref)
        if run.exit is not None and run.exit >= 0 and run.wall_s > request.timeout_s + TIMEOUT_SLACK_S:
            # once more: a machine busy with other work can delay a process that honours its
            # limit; one that does not honours it no better the second time
            again = run_prove(request, self.cuteref)
            if again.exit == run.exit and again.wall_s <= request.timeout_s + TIMEOUT_SLACK_S:
                self.retried += 1
                run = again
        self.verdicts[run.verdict] += 1
        self.families[family] += 1
        self.checked_points += len(points)
        self.undecided_points += sum(1 for r in results if r.status == "undecided")
        self.max_overshoot = max(self.max_overshoot, run.wall_s - request.timeout_s)
        if syntax:
            # the oracle's parser refuses the claim: prove must refuse it too
            findings = [] if run.exit == 64 else [f"{run.verdict} for a claim the documented grammar refuses ({syntax})"]
        else:
            findings = check_run(request, run, points, results, malformed)
        if run.exit == 70:
            self.failures.append((label, request, run.stderr.strip()))
        if run.verdict == "refuted by the replay":
            # The printed verdict is right, but Z3 proved a false claim: a defect of the
            # symbolic path that only the replay's points caught (a sparser one would not be).
            self.replay_refutations.append((label, request, run.stdout.strip()))
            findings = findings + ["Z3 proved a claim that prove's concrete replay refutes (the symbolic path "
                                   "proved a false claim; the replay's points caught it)"]
        if run.exit == 2 and "counterexample did not replay on the concrete model (both sides agree there)" in run.stdout:
            self.disagreements.append((label, request))
        if self.verbose:
            print(f"{label} [{family}] {run.verdict} {run.wall_s:.2f}s: {request.command('cuteref')}", flush=True)
        if findings:
            self.findings.append((label, request, findings, run))
            print(f"FINDING {label} [{family}]:", flush=True)
            for f in findings:
                print(f"  {f}")
            print(f"  reproduce: {request.command(self.cuteref)}", flush=True)
        return not findings


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cuteref", required=True)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--claims", type=int, default=1000000)
    ap.add_argument("--seconds", type=float, default=90)
    ap.add_argument("--timeout", type=float, default=2, help="prove's --timeout for the random claims")
    ap.add_argument("--regressions", action="append", default=[])
    ap.add_argument("--save-findings", help="append each finding's entry to this regressions file")
    ap.add_argument("--families", default=",".join(ClaimGenerator.FAMILIES),
                    help="comma-separated claim families to draw (default: all)")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()

    start = time.monotonic()
    try:
        args.cuteref = os.path.abspath(args.cuteref)  # the reproducing commands work from anywhere
        fuzz = Fuzzer(args.cuteref, args.verbose)
        self_checks = run_self_test(fuzz.functions)
        print(f"prove_fuzz: the oracle's self-test: {self_checks} checks passed", flush=True)
        replayed = 0
        for path in args.regressions:
            for label, request in read_regressions(path, args.timeout):
                fuzz.check(label, request)
                replayed += 1
        families = args.families.split(",")
        unknown = set(families) - set(ClaimGenerator.FAMILIES)
        if unknown:
            raise ValueError(f"--families: no family {', '.join(sorted(unknown))}")
        gen = ClaimGenerator(args.seed, families)
        generated = 0
        while generated < args.claims and time.monotonic() - start < args.seconds:
            text, where, family, assume = gen.claim(fuzz.evaluate_at)
            fuzz.check(f"seed {args.seed} claim {generated}", Request(text, where, args.timeout, assume), family)
            generated += 1
    except (OSError, RuntimeError, ValueError, AssertionError) as e:
        print(f"prove_fuzz: error: {e}", file=sys.stderr)
        return 2

    if replayed + generated == 0:
        print("prove_fuzz: error: no claim checked", file=sys.stderr)
        return 2
    elapsed = time.monotonic() - start
    verdicts = ", ".join(f"{k} {v}" for k, v in sorted(fuzz.verdicts.items()))
    families = ", ".join(f"{k} {v}" for k, v in sorted(fuzz.families.items()))
    print(f"prove_fuzz: {replayed + generated} claims checked ({replayed} regressions, {generated} random, "
          f"seed {args.seed}) in {elapsed:.1f} s; {fuzz.checked_points} points enumerated on the model "
          f"({fuzz.undecided_points} undecided), {fuzz.batch.processes} batch runs")
    print(f"  verdicts: {verdicts}")
    print(f"  families: {families}")
    print(f"  largest wall time past --timeout: {fuzz.max_overshoot:+.2f} s ({fuzz.retried} run(s) over "
          f"--timeout + {TIMEOUT_SLACK_S:g} s once and within it when run again)")
    print(f"  refutations found by prove's concrete replay of a proof (should be none): {len(fuzz.replay_refutations)}")
    for label, request, stdout in fuzz.replay_refutations:
        print(f"    {label}: {stdout[:300]}\n    {request.command(args.cuteref)}")
    print(f"  unknown where Z3's counterexample did not replay, the model's sides agreeing there (the symbolic and "
          f"concrete evaluations disagree, or the goal is only sufficient; not findings): {len(fuzz.disagreements)}")
    for label, request in fuzz.disagreements[:20]:
        print(f"    {label}: {request.command(args.cuteref)}")
    for label, request, stderr in fuzz.failures:
        print(f"  exit 70 (prover failure) {label}: {stderr[:200]}\n    {request.command(args.cuteref)}")
    if args.save_findings and fuzz.findings:
        with open(args.save_findings, "a") as f:
            for label, request, findings, _ in fuzz.findings:
                if label.startswith("seed"):
                    f.write(f"# {findings[0][:300]}\n{request.command('cuteref')[len('cuteref prove '):]}\n")
    if fuzz.findings:
        print(f"prove_fuzz: {len(fuzz.findings)} finding(s)")
        return 1
    print("prove_fuzz: no finding")
    return 0


if __name__ == "__main__":
    sys.exit(main())
