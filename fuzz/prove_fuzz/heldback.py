#!/usr/bin/env python3
"""The held-back claims of `cuteref prove` (fuzz/prove_heldback.txt, fuzz/README.md).

A fixed set of claims over the classes of issue 35 (tile_to_shape with static and dynamic
targets, the divides and products with every kind of tiler, --assume hypotheses including
unsatisfiable and malformed ones, composed and F2 layouts), each with its truth established by
enumerating every point of its --where box on the concrete model (oracle.py), never by `prove`:

  true       some point satisfies the hypotheses, and at every such point both sides evaluate
             and are equal
  false      at some point that satisfies the hypotheses the sides differ or the model rejects
  vacuous    no point of the box satisfies the hypotheses
  malformed  a divides(A, B) whose A is a literal < 1 (the request must be refused, exit 64)

One entry a line: `TRUTH CLASS [--timeout S] [--where 'v in [lo,hi]']... [--assume 'PRED']...
-- 'CLAIM'`.

  heldback.py --cuteref build/cli/cuteref --check fuzz/prove_heldback.txt
      re-establishes every truth by enumeration (a truth that no longer holds is an error of the
      file or of the model: exit 2), runs `prove` on each and prints the verdicts per truth and
      per class. Exit 1 on a false `proved` (a false or vacuous claim proved), a false `vacuous`,
      a refutation of a true claim, a malformed request accepted, or any other finding of
      verdict_check but two, which are listed as notes: exit 64 for a claim the model evaluates,
      and a run past its --timeout. Exit 0 otherwise.
  heldback.py --cuteref build/cli/cuteref --check FILE --require-decided
      as --check, and every true claim must be proved and every false one refuted (the
      symbolic coverage claims, fuzz/prove_heldback_coverage.txt): any other verdict is a
      finding.
  heldback.py --cuteref build/cli/cuteref --write FILE [--seed N] [--per-class N]
      draws claims (generator.py, families tiling, assume, composed) and keeps, per class, about
      as many false as true ones, with their truths from enumeration.
"""

import argparse
import os
import re
import sys
import time
from collections import Counter, defaultdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from generator import ClaimGenerator  # noqa: E402
from prove_fuzz import Fuzzer, parse_entry  # noqa: E402
from verdict_check import Request, check_run, run_prove  # noqa: E402

TRUTHS = ("true", "false", "vacuous", "malformed")
CLASSES = ("tile_to_shape", "tiler", "assume", "composed", "f2", "arithmetic", "algebra")


def truth_of(results, malformed: str) -> str:
    """The claim's truth from each point's result; 'undecided' where enumeration cannot tell."""
    if malformed:
        return "malformed"
    if any(r.status == "undecided" for r in results):
        return "undecided"
    domain = [r for r in results if r.status != "outside"]
    if not domain:
        return "vacuous"
    return "true" if all(r.status == "equal" for r in domain) else "false"


def class_of(family: str, text: str, assume) -> str:
    if assume:
        return "assume"
    if family == "composed":
        return "f2" if re.search(r"F\d", text) or "f2(" in text else "composed"
    return "tile_to_shape" if "tile_to_shape" in text else "tiler"


# Findings that do not fail the check (listed as notes): completeness, not soundness: a refusal
# of a claim the model evaluates, a run past its --timeout.
NOTES = ("refused (exit 64", "took ", "still running")


def entry_text(truth: str, cls: str, request: Request) -> str:
    import shlex
    words = [truth, cls]
    for name, (lo, hi) in sorted(request.where.items()):
        words += ["--where", shlex.quote(f"{name} in [{lo},{hi}]")]
    for a in request.assume:
        words += ["--assume", shlex.quote(a)]
    return " ".join(words + ["--", shlex.quote(request.claim)])


def read_entries(path: str, timeout: float):
    entries = []
    with open(path) as f:
        for number, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            truth, cls, rest = line.split(" ", 2)
            if truth not in TRUTHS or cls not in CLASSES:
                raise ValueError(f"{path}:{number}: expected TRUTH CLASS first, found {truth!r} {cls!r}")
            entries.append((f"{path}:{number}", truth, cls, parse_entry(rest, timeout, f"{path}:{number}")))
    return entries


def write(fuzz: Fuzzer, path: str, seed: int, per_class: int, timeout: float) -> int:
    gen = ClaimGenerator(seed, ("tiling", "assume", "composed"))
    # per class: half true, half false; the assume class also holds vacuous and malformed ones
    quota = {(c, t): per_class // 2 for c in CLASSES for t in ("true", "false")}
    quota[("assume", "vacuous")] = per_class // 4
    quota[("assume", "malformed")] = max(2, per_class // 8)
    quota[("assume", "true")] += per_class // 8
    quota[("assume", "false")] += per_class // 8
    kept = defaultdict(list)
    seen = set()
    drawn = 0
    while any(len(kept[k]) < n for k, n in quota.items()) and drawn < 20000:
        text, where, family, assume = gen.claim(fuzz.evaluate_at)
        drawn += 1
        request = Request(text, where, timeout, assume)
        cls = class_of(family, text, assume)
        key = (text, tuple(sorted(where.items())), tuple(assume))
        if key in seen:
            continue
        seen.add(key)
        points, results, malformed, syntax = fuzz.oracle("draw", request)
        if syntax:
            continue
        truth = truth_of(results, malformed)
        k = (cls, truth)
        if k in quota and len(kept[k]) < quota[k]:
            kept[k].append(entry_text(truth, cls, request))
    with open(path, "w") as f:
        f.write("# Held-back claims of `cuteref prove` (fuzz/prove_fuzz/heldback.py, fuzz/README.md): TRUTH CLASS\n"
                "# then the request. Each truth was established by enumerating every point of the box on the\n"
                f"# concrete model (heldback.py --write, seed {seed}), never by prove; --check re-establishes it.\n")
        for (cls, truth), lines in sorted(kept.items()):
            f.write(f"\n# {cls}, {truth}: {len(lines)}\n")
            for line in lines:
                f.write(line + "\n")
    total = sum(len(v) for v in kept.values())
    print(f"heldback: {total} claims written to {path} from {drawn} drawn: " +
          ", ".join(f"{c}/{t} {len(v)}" for (c, t), v in sorted(kept.items())))
    return 0


def check(fuzz: Fuzzer, path: str, timeout: float, require_decided: bool = False) -> int:
    start = time.monotonic()
    entries = read_entries(path, timeout)
    by_truth = defaultdict(Counter)
    by_class = defaultdict(Counter)
    failures, stale = [], []
    points_total = 0
    for label, truth, cls, request in entries:
        points, results, malformed, syntax = fuzz.oracle(label, request)
        points_total += len(points)
        now = "syntax" if syntax else truth_of(results, malformed)
        if now != truth:
            stale.append(f"{label}: recorded {truth}, enumeration now says {now}")
            continue
        run = run_prove(request, fuzz.cuteref)
        by_truth[truth][run.verdict] += 1
        by_class[cls][run.verdict] += 1
        findings = check_run(request, run, points, results, malformed)
        # soundness first: the verdicts that contradict the enumerated truth
        if run.verdict == "proved" and truth != "true":
            findings.insert(0, f"false `proved` of a {truth} claim")
        if run.verdict == "vacuous" and truth != "vacuous":
            findings.insert(0, f"`vacuous` for a {truth} claim")
        if run.verdict.startswith("refuted") and truth == "true":
            findings.insert(0, "refutation of a true claim")
        if require_decided and truth == "true" and run.verdict != "proved":
            findings.append(f"a true claim not proved: {run.verdict}")
        if require_decided and truth == "false" and run.verdict != "refuted":  # by Z3, not only the replay
            findings.append(f"a false claim not refuted: {run.verdict}")
        if findings:
            failures.append((label, request, findings))
    elapsed = time.monotonic() - start
    checked = sum(sum(c.values()) for c in by_truth.values())
    print(f"heldback: {checked} claims checked ({len(entries)} in {path}), {points_total} points enumerated on the "
          f"model, in {elapsed:.1f} s")
    for truth in TRUTHS:
        c = by_truth.get(truth)
        if c:
            print(f"  {truth:9} {sum(c.values()):3}: " + ", ".join(f"{v} {n}" for v, n in sorted(c.items())))
    for cls in CLASSES:
        c = by_class.get(cls)
        if c:
            print(f"  class {cls:13} {sum(c.values()):3}: " + ", ".join(f"{v} {n}" for v, n in sorted(c.items())))
    false_proved = sum(n for t, c in by_truth.items() if t != "true" for v, n in c.items() if v == "proved")
    print(f"  false `proved`: {false_proved}; refutations found by prove's concrete replay: "
          f"{sum(c['refuted by the replay'] for c in by_truth.values())}")
    for line in stale:
        print(f"STALE {line}")
    notes = [(l, r, fs) for l, r, fs in failures if all(f.startswith(NOTES) for f in fs)]
    failures = [(l, r, fs) for l, r, fs in failures if not all(f.startswith(NOTES) for f in fs)]
    for kind, listed in (("NOTE", notes), ("FINDING", failures)):
        for label, request, findings in listed:
            print(f"{kind} {label}:")
            for f in findings:
                print(f"  {f}")
            print(f"  reproduce: {request.command(fuzz.cuteref)}")
    if stale:
        print(f"heldback: error: {len(stale)} recorded truth(s) no longer hold", file=sys.stderr)
        return 2
    if checked == 0:
        print("heldback: error: no claim checked", file=sys.stderr)
        return 2
    soundness = [f for _, _, fs in failures for f in fs if f.startswith(("false `proved`", "`vacuous` for", "refutation of"))]
    print(f"heldback: {len(failures)} finding(s) ({len(soundness)} unsound verdicts), {len(notes)} note(s)")
    return 1 if failures else 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cuteref", required=True)
    ap.add_argument("--check")
    ap.add_argument("--write")
    ap.add_argument("--seed", type=int, default=35)
    ap.add_argument("--per-class", type=int, default=22)
    ap.add_argument("--timeout", type=float, default=5, help="prove's --timeout")
    ap.add_argument("--require-decided", action="store_true",
                    help="with --check: a true claim must be proved, a false one refuted")
    args = ap.parse_args()
    try:
        fuzz = Fuzzer(os.path.abspath(args.cuteref), False)
        if args.write:
            return write(fuzz, args.write, args.seed, args.per_class, args.timeout)
        if args.check:
            return check(fuzz, args.check, args.timeout, args.require_decided)
    except (OSError, RuntimeError, ValueError) as e:
        print(f"heldback: error: {e}", file=sys.stderr)
        return 2
    ap.error("--check FILE or --write FILE")
    return 2


if __name__ == "__main__":
    sys.exit(main())
