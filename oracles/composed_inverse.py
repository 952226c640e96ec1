#!/usr/bin/env python3
"""Inverses of swizzled composed layouts: the model against CuTe C++ 4.2 and the CuTe DSL.

    composed_inverse.py --cuteref build/cli/cuteref --diff build/oracles/vendor_diff \
        --cache build/oracles/cute-cache --dsl .vendor/dsl --cpp-arg=-I... [--seed 1] [--cases 300]
        [--recording FILE | --no-recording | --record FILE] [--verify-recorded N] [--verify-seed S]

Draws distinct static composed layouts C = Sw<B,M,S> o _0 o L (L injective: compact, permuted or
gapped strides, nested up to depth 2; a swizzle with B <= 3, M <= 5, B <= |S| <= 6 that moves some
value of L) and asks
for right_inverse(C) and left_inverse(C):

- the model (model/algebra/inverse_composed.hpp) answers, or refuses because CuTe's construction
  composition(inverse(L), Sw) cannot move the swizzle (CuTe static-asserts: not compiled here) or
  because it is not an inverse by the definition;
- CuTe C++ compiles right_inverse / left_inverse of the same static ComposedLayout for every case
  the model answers or refuses by the definition, and prints its result, its size and the
  fingerprint of its values by its own evaluation. An answer of the model must be the same
  function as CuTe's (vendor_diff: size and every value). For a refusal by the definition, CuTe's
  answer is read from its printout (checked against CuTe's own fingerprint) and must fail the
  definition by enumeration here: R(y) in [0, size(C)) and C(R(y)) == y for y < size(R); R(C(i))
  == i for i < size(C), C(i) in [0, size(R)). Those are counted as CuTe answering a non-inverse
  (corpus/vendor/cute_quirks.txt); one that passes fails the test (the model refused an inverse).
  CuTe's output of each unit comes from oracles/recorded/cute_composed_inverse.json.xz where it
  is recorded for this compiler, these headers, this source and this input (recorded_answers.py),
  else from a compile; --verify-recorded recorded units are compiled anyway and must print the
  recorded output byte for byte ("RECORDING DIFFERS from CuTe C++" otherwise).
- the CuTe DSL refuses composed layouts in both functions (TypeError); a sample is asked and must
  raise, an answer fails the test (it would have to be compared). Skipped with a message without
  the DSL.

Negative control: CuTe's answers compared with the model's inverse of L alone (the swizzle
dropped) must be rejected for some cases, and every CuTe answer the model agrees with must be
rejected when its fingerprint is perturbed. Exit 0 when all agree, 1 otherwise (a recording that
differs from CuTe, a missing recording file), 77 without CuTe.
"""

import argparse
import json
import os
import random
import subprocess
import sys
from collections import defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import cute_programs  # noqa: E402
import layouts as L  # noqa: E402
import recorded_answers  # noqa: E402
from differential import run_lines  # noqa: E402
from pycute_cases import fnv  # noqa: E402

SWIZZLES = [(b, m, s) for b in range(4) for m in range(6) for s in range(-6, 7)
            if (b == 0 and s == 0) or (b > 0 and abs(s) >= b)]
OPS = ("right_inverse", "left_inverse")


def draw(rng, n):
    """n distinct (swizzle, static injective layout) pairs."""
    out, seen = [], set()
    while len(out) < n:
        t = L.random_nesting(rng, max_rank=3, max_depth=2, max_leaves=4)
        L.fill_shapes(rng, t, 256)
        L.assign_strides(rng, t, rng.choice(["compact", "permuted", "gapped"]))
        for leaf in L.leaves(t):
            leaf.shape_static = leaf.stride_static = True
        inner = values_of(L.model(t))
        # a swizzle that moves some value of L (one that acts on C); mostly a positive shift (high
        # bits into low ones, the kernels' kind; a negative one moves values past L's image)
        pool = [x for x in SWIZZLES if x[2] > 0] if rng.random() < 0.7 else SWIZZLES
        for _ in range(50):
            sw = rng.choice(pool)
            if any(swizzle(*sw, v) != v for v in inner):
                break
        key = (sw, L.model(t))
        if key not in seen:
            seen.add(key)
            out.append((sw, t))
    return out


def swizzle(b, m, s, x):
    import dsl_oracle
    return dsl_oracle.swizzle(b, m, s, x)


def composed_text(sw, t):
    return f"Sw<{sw[0]},{sw[1]},{sw[2]}> o _0 o {L.model(t)}"


def values_of(text):
    """Every value of a printed layout or composed layout (CuTe's `Sw<B,M,S> o _0 o SHAPE:STRIDE`),
    by a plain colexicographic evaluation (dsl_oracle's, independent of the model)."""
    import dsl_oracle
    parsed = dsl_oracle.parse_printout(text.replace("Sw<", "S<").replace("_", ""))
    return None if parsed is None else dsl_oracle.printout_values(parsed)


def definition_fails(op, c_vals, r_vals):
    """Why R is not a right (left) inverse of C, by enumeration; "" if it is one."""
    if op == "right_inverse":
        for y, x in enumerate(r_vals):
            if not 0 <= x < len(c_vals):
                return f"R({y}) = {x} lies outside C's domain [0, {len(c_vals)})"
            if c_vals[x] != y:
                return f"C(R({y})) = C({x}) = {c_vals[x]}"
        return ""
    for i, y in enumerate(c_vals):
        if not 0 <= y < len(r_vals):
            return f"C({i}) = {y} lies outside R's domain [0, {len(r_vals)})"
        if r_vals[y] != i:
            return f"R(C({i})) = {r_vals[y]}"
    return ""


def dsl_refuses(dsl_dir, cases):
    """The DSL's answers to right_inverse / left_inverse of composed layouts, in a worker process
    (this script with --dsl-worker): [[op, outcome]] with outcome "refuses: ..." or a printout."""
    r = subprocess.run([sys.executable, os.path.abspath(__file__), "--dsl-worker", dsl_dir], input=json.dumps(cases),
                       capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(f"the DSL worker failed: {r.stderr[-2000:]}")
    return json.loads(r.stdout.strip().splitlines()[-1])


def dsl_worker_main(dsl_dir):
    """--dsl-worker: [[B, M, S, SHAPE, STRIDE], ...] on stdin; the DSL's outcomes, as JSON, on stdout."""
    import dsl_worker
    cute = dsl_worker.load_dsl(dsl_dir)
    cases = json.loads(sys.stdin.read())
    out = []

    def body():
        for b, m, s, shape, stride in cases:
            c = cute.make_composed_layout(cute.make_swizzle(b, m, s), 0,
                                          cute.make_layout(dsl_worker.tup(shape), stride=dsl_worker.tup(stride)))
            for op in OPS:
                try:
                    out.append([op, str(getattr(cute, op)(c))])
                except Exception as e:  # the expected outcome: the DSL takes no composed layout here
                    out.append([op, "refuses: " + type(e).__name__ + ": " + str(e).splitlines()[0][:120]])
        raise dsl_worker._TraceDone()

    @cute.jit
    def trace():
        body()

    try:
        trace()
    except dsl_worker._TraceDone:
        pass
    print(json.dumps(out))
    return 0


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--dsl-worker":
        return dsl_worker_main(sys.argv[2])
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cuteref", required=True)
    ap.add_argument("--diff", required=True)
    ap.add_argument("--cache", required=True)
    ap.add_argument("--dsl", default="")
    ap.add_argument("--cpp-arg", action="append", default=[])
    ap.add_argument("--cxx", default="g++")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--cases", type=int, default=300)
    ap.add_argument("--per-unit", type=int, default=100, help="composed layouts per translation unit")
    ap.add_argument("--dsl-sample", type=int, default=40)
    recorded_answers.add_recording_arguments(
        ap, os.path.join(HERE, "recorded", "cute_composed_inverse.json.xz"), "unit", verify_count=1)
    args = ap.parse_args()
    if not args.cpp_arg:
        print("vendor_composed_inverse: SKIP: no CuTe headers (./run installs the nvidia-cutlass wheel and the CUDA headers)")
        return 77

    rng = random.Random(args.seed)
    cases = draw(rng, args.cases)
    exprs = [f"{op}({composed_text(sw, t)})" for sw, t in cases for op in OPS]
    answers = run_lines([args.cuteref, "batch"], exprs)
    verdict = {}  # (case, op) -> "answered" | "definition" | "masks"
    for k, a in enumerate(answers):
        ci, op = divmod(k, 2)
        if not a.startswith("error:"):
            verdict[(ci, OPS[op])] = "answered"
        elif "is not a right inverse" in a or "is not a left inverse" in a:
            verdict[(ci, OPS[op])] = "definition"
        elif "cannot be moved through it" in a:
            verdict[(ci, OPS[op])] = "masks"
        else:
            raise RuntimeError(f"unexpected refusal of {exprs[k]}: {a}")

    # CuTe C++: every case the model answers or refuses by the definition (CuTe compiles those).
    patterns = []
    for ci, (sw, t) in enumerate(cases):
        slot = [0]
        pre = [f"auto A = {L.cpp(t, slot)};",
               f"auto C = composition(Swizzle<{sw[0]},{sw[1]},{sw[2]}>{{}}, Int<0>{{}}, A);"]
        ops = [cute_programs.CppOp(op, f"{op}(C)", check_rank=False) if verdict[(ci, op)] != "masks"
               else cute_programs.CppOp(op, "Int<0>{}", integer=True) for op in OPS]
        patterns.append(cute_programs.Pattern(f"cinv{ci}", pre, ops, 0))
    programs = {}  # name -> (source, input lines): args.per_unit cases per unit
    for first in range(0, len(patterns), args.per_unit):
        members = range(first, min(first + args.per_unit, len(patterns)))
        lines = []
        for ci in members:
            mask = sum(1 << i for i, op in enumerate(OPS) if verdict[(ci, op)] != "masks")
            if mask:
                lines.append(f"{ci} {ci} {mask} 0")
        programs[f"composed_inverse_{first // args.per_unit}"] = (
            cute_programs.translation_unit([(ci, patterns[ci]) for ci in members]), lines)
    compiler = cute_programs.Compiler(args.cxx, args.cpp_arg, args.cache, HERE)
    # CuTe's answers: recorded, or compiled and run (recorded_answers.py).
    units = cute_programs.recorded_or_compiled_with_args(
        compiler, programs, cute_programs.run_binary, args, HERE, about=f"CuTe C++'s answers for oracles/composed_inverse.py --seed {args.seed} "
                                  f"--cases {args.cases} --per-unit {args.per_unit}")
    cute = {}  # (case, op) -> (text, size, hash)
    for name, (results, traps) in units.answers.items():
        if traps:
            raise RuntimeError(f"CuTe trapped in {name} on {traps[:3]}")
        for line in results:
            cid, op, text, n, h = line.split("\t")
            cute[(int(cid), OPS[int(op)])] = (text, int(n), int(h))

    tally = defaultdict(lambda: defaultdict(int))
    bad = []
    rows, owners = [], []
    for (ci, op), v in sorted(verdict.items()):
        sw, t = cases[ci]
        expr = f"{op}({composed_text(sw, t)})"
        if v == "masks":
            tally[op]["refused (CuTe static-asserts)"] += 1
            continue
        text, n, h = cute[(ci, op)]
        if v == "answered":
            rows.append((expr, text, n, h))
            owners.append((ci, op))
            continue
        # refused by the definition: CuTe's answer must not be an inverse
        vals = values_of(text)
        c_vals = values_of(composed_text(sw, t))
        if vals is None or len(vals) != n or fnv(vals) != h:
            bad.append(f"FAIL {expr}: CuTe's printout {text} is not read as the function CuTe evaluates")
            tally[op]["failed"] += 1
            continue
        why = definition_fails(op, c_vals, vals)
        if why:
            tally[op]["refused (CuTe answers a non-inverse)"] += 1
        else:
            tally[op]["failed"] += 1
            bad.append(f"FAIL {expr}: the model refuses, but CuTe's {text} is an inverse by enumeration")
    lines = ["\t".join([e, t, str(n), str(h), "0"]) for e, t, n, h in rows]
    verdicts = run_lines([args.diff], lines) if lines else []
    for (ci, op), (e, t, n, h), v in zip(owners, rows, verdicts):
        if v.split("\t")[0] in ("same", "equal"):
            tally[op]["agree"] += 1
        else:
            tally[op]["failed"] += 1
            bad.append(f"FAIL {e}: CuTe {t}: {v}")

    # Negative control: the model's inverse of L alone (no swizzle), and perturbed fingerprints.
    plain_rows = [(f"{op}({L.model(cases[ci][1])})", t, n, h) for (ci, op), (e, t, n, h) in zip(owners, rows)]
    plain_v = run_lines([args.diff], ["\t".join([e, t, str(n), str(h), "0"]) for e, t, n, h in plain_rows]) if rows else []
    dropped = sum(1 for v in plain_v if v.startswith("DIFF"))
    perturbed = run_lines([args.diff], ["\t".join([e, t, str(n), str(h ^ 1), "0"]) for e, t, n, h in rows]) if rows else []
    perturbed_rejected = sum(1 for v in perturbed if v.startswith("DIFF"))
    control_ok = dropped > 0 and perturbed_rejected == len(rows) > 0

    # The DSL: a sample must be refused.
    dsl_line = "the CuTe DSL: skipped (not installed)"
    if args.dsl and os.path.isdir(os.path.join(args.dsl, "nvidia_cutlass_dsl")):
        sample = [(sw, t) for sw, t in cases[:args.dsl_sample]]
        got = dsl_refuses(args.dsl, [[*sw, L.pycute_tree(t, "shape"), L.pycute_tree(t, "stride")] for sw, t in sample])
        refused = sum(1 for _, o in got if o.startswith("refuses: TypeError"))
        for (op, o), k in zip(got, range(len(got))):
            if not o.startswith("refuses: "):
                bad.append(f"FAIL the DSL answers {op}({composed_text(*sample[k // 2])}) = {o} (compare it)")
        dsl_line = f"the CuTe DSL: {refused} of {len(got)} refused with TypeError (it takes no composed layout)"
        if refused != len(got):
            bad.append(f"FAIL the DSL refused only {refused} of {len(got)}")

    for line in bad[:40]:
        print(line)
    cols = ("agree", "refused (CuTe answers a non-inverse)", "refused (CuTe static-asserts)", "failed")
    print(f"{'operation':16s} " + " ".join(f"{c:>{max(6, len(c))}s}" for c in cols))
    for op in OPS:
        print(f"{op:16s} " + " ".join(f"{tally[op][c]:{max(6, len(c))}d}" for c in cols))
    print(dsl_line)
    print(f"negative control: {dropped} of {len(rows)} CuTe answers differ from the model's inverse of L without the swizzle; "
          f"{perturbed_rejected} of {len(rows)} perturbed fingerprints rejected")
    agree = sum(tally[op]["agree"] for op in OPS)
    failed = sum(tally[op]["failed"] for op in OPS)
    print(f"vendor_composed_inverse: {agree} agree with CuTe C++, {failed} failed "
          f"({len(cases)} composed layouts, {len(verdict)} inverses); CuTe programs: {units.note}")
    if not control_ok:
        print("vendor_composed_inverse: FAIL: the negative control was not rejected")
    for e in units.errors:
        print(f"RECORDING DIFFERS from CuTe C++: {e}")
    return 1 if failed or bad or agree == 0 or not control_ok or units.errors else 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except RuntimeError as e:  # a CuTe program that fails, a missing recording, an unexpected refusal
        print(f"vendor_composed_inverse: FAIL: {e}")
        sys.exit(1)
