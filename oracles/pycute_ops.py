#!/usr/bin/env python3
"""PyCuTe's operations (NVlabs/CuTe: layout_add, greatest_common_domain, common_refinement,
common_coarsening, coalesce_z) in the model against a second implementation written here, in
Python, from PyCuTe's documented definitions, and against enumeration.

    pycute_ops.py --cuteref build/cli/cuteref [--seed 1] [--cases 2000]

PyCuTe itself (NVlabs/CuTe) is not installed here (the vendor wheel's pycute 4.2 predates these
operations), so the independent sources are:
- layout_add: enumeration. The sum A(i) + B(i) is computed at every index; a layout R with those
  values exists iff some ordered factorization of size(A) with the forced strides (mode k's stride
  is the sum at its prefix product) reproduces every value. The model must answer exactly where
  one exists, and its answer must have the sum's values.
- coalesce_z: enumeration past the size: the model's answer and the input, evaluated by a
  colexicographic walk whose last coordinate takes the whole quotient, agree at every index below
  4 * size + 4.
- greatest_common_domain: this file's own implementation of PyCuTe's documented walk (written
  from the docstring, not from the model), compared leaf by leaf.
- common_coarsening: enumeration of every coarsening of both shapes, the unique greatest common
  one; common_refinement: the answer must be refined by nothing smaller that both coarsen
  (every coarsening of it is enumerated), and a refusal only where neither shape coarsens the
  other.
Negative control: a shifted comparison (each case against the next case's model answer) must be
rejected for most cases. Prints the counts; exit 0 when all agree, 1 otherwise.
"""

import argparse
import ast
import itertools
import math
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from differential import run_lines  # noqa: E402


def text(t) -> str:
    return str(t) if isinstance(t, int) else "(" + ",".join(text(e) for e in t) + ")"


def parse(s: str):
    """The model's printout of a shape or layout, static marks dropped: (shape, stride) or shape."""
    s = s.replace("_", "")
    if ":" in s:
        a, b = s.split(":")
        return ast.literal_eval(a.replace(")", ",)").replace(",,", ",")), ast.literal_eval(b.replace(")", ",)").replace(",,", ","))
    return ast.literal_eval(s.replace(")", ",)").replace(",,", ","))


def leaves(t):
    if isinstance(t, int):
        return [t]
    return [x for e in t for x in leaves(e)]


def size(t) -> int:
    return math.prod(leaves(t))


def value(shape, stride, i) -> int:
    """Colexicographic evaluation of the flat modes; the last coordinate takes the whole quotient."""
    s, d = leaves(shape), leaves(stride)
    v = 0
    for k, (e, x) in enumerate(zip(s, d)):
        c = i if k == len(s) - 1 else i % e
        v += c * x
        i //= e
    return v


def factorizations(n):
    if n == 1:
        yield ()
        return
    for f in range(2, n + 1):
        if n % f == 0:
            for rest in factorizations(n // f):
                yield (f,) + rest


def some_layout_has(values) -> bool:
    n = len(values)
    for f in factorizations(n):
        prefix = [math.prod(f[:k]) for k in range(len(f))]
        strides = [values[p] for p in prefix]
        if all(value(f, strides, i) == values[i] for i in range(n)):
            return True
    return n == 1 and values[0] == 0


def gcd_walk(a, b):
    """PyCuTe's documented greatest_common_domain, written again: walk both shapes' leaves with
    the index where each current leaf starts; take the common factor aligned in both, else step
    past the leaf that ends first (both when neither end divides the other)."""
    A, B = [x for x in leaves(a)], [x for x in leaves(b)]
    out = []
    start = [1, 1]
    i = j = 0
    while i < len(A) and j < len(B):
        if A[i] == 1 or B[j] == 1:
            i, j = i + (A[i] == 1), j + (B[j] == 1)
            continue
        q = start[0] * start[1] // math.gcd(start[0], start[1])
        ra, rb = q // start[0], q // start[1]
        if A[i] % ra == 0 and B[j] % rb == 0 and math.gcd(A[i] // ra, B[j] // rb) > 1:
            g = math.gcd(A[i] // ra, B[j] // rb)
            out.append((g, q))
            A[i] //= ra * g
            B[j] //= rb * g
            start = [q * g, q * g]
            continue
        ea, eb = start[0] * A[i], start[1] * B[j]
        a_first, b_first = eb % ea == 0, ea % eb == 0
        if a_first or not b_first:
            start[0], i = ea, i + 1
        if b_first or not a_first:
            start[1], j = eb, j + 1
    if not out:
        return (1,), (0,)
    return tuple(g for g, _ in out), tuple(q for _, q in out)


def coarsens(a, b) -> bool:
    if isinstance(a, tuple) and isinstance(b, tuple):
        return len(a) == len(b) and all(coarsens(x, y) for x, y in zip(a, b))
    if isinstance(a, int):
        return a == size(b)
    return False


def coarsenings(t):
    out = [size(t)]
    if isinstance(t, tuple):
        out += [tuple(c) for c in itertools.product(*(coarsenings(e) for e in t))]
    return out


def random_factorization(rng, n, most=4):
    out = []
    while n > 1 and len(out) < most - 1:
        f = rng.choice([d for d in range(1, n + 1) if n % d == 0])
        out.append(f)
        n //= f
    return out + [n]


def random_shape(rng, n, depth=2):
    if depth == 0 or rng.random() < 0.3:
        return n
    return tuple(random_shape(rng, f, depth - 1) for f in random_factorization(rng, n))


def layout_text(shape, strides) -> str:
    return f"({','.join(map(str, shape))}):({','.join(map(str, strides))})"


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--cuteref", required=True)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--cases", type=int, default=2000, help="cases per operation")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    sizes = [1, 2, 4, 6, 8, 12, 16, 18, 24, 30, 36, 48, 60]
    strides = [0, 1, 2, 3, 4, 5, 6, 8, 12, -1, -3]

    adds, zs, gcds, shapes = [], [], [], []
    for _ in range(args.cases):
        n = rng.choice(sizes)
        fa, fb = random_factorization(rng, n), random_factorization(rng, n)
        adds.append(((fa, [rng.choice(strides) for _ in fa]), (fb, [rng.choice(strides) for _ in fb])))
        f = [rng.choice([1, 1, 2, 3, 4]) for _ in range(rng.randint(1, 5))]
        zs.append((f, [rng.choice(strides) for _ in f]))
        a = random_shape(rng, n, 3)
        b = random_shape(rng, rng.choice([n, n, rng.choice(sizes)]), 3)
        gcds.append((a, b))
        shapes.append((a, rng.choice([random_shape(rng, n, 3), rng.choice(coarsenings(a))])))

    exprs = ([f"layout_add({layout_text(*a)}, {layout_text(*b)})" for a, b in adds] +
             [f"coalesce_z({layout_text(*z)})" for z in zs] +
             [f"greatest_common_domain({text(a)}, {text(b)})" for a, b in gcds] +
             [f"common_coarsening({text(a)}, {text(b)})" for a, b in shapes] +
             [f"common_refinement({text(a)}, {text(b)})" for a, b in shapes])
    out = run_lines([args.cuteref, "batch"], exprs)
    n = args.cases
    add_out, z_out, gcd_out = out[:n], out[n:2 * n], out[2 * n:3 * n]
    meet_out, join_out = out[3 * n:4 * n], out[4 * n:]
    fails = []
    counts = {}

    def check_add(case, got):
        (sa, da), (sb, db) = case
        want = [value(sa, da, i) + value(sb, db, i) for i in range(math.prod(sa))]
        if got.startswith("error:"):
            return not some_layout_has(want), "refused"
        s, d = parse(got)
        return [value(s, d, i) for i in range(size(s))] == want and size(s) == len(want), "answered"

    def check_z(case, got):
        s0, d0 = case
        if got.startswith("error:"):
            return False, "refused"
        s, d = parse(got)
        ok = size(s) == math.prod(s0) and all(value(s, d, i) == value(s0, d0, i) for i in range(4 * math.prod(s0) + 4))
        return ok, "answered"

    def check_gcd(case, got):
        if got.startswith("error:"):
            return False, "refused"
        s, d = parse(got)
        return (s, d) == gcd_walk(*case), "answered"

    def check_meet(case, got):
        a, b = case
        if size(a) != size(b):
            return got.startswith("error:"), "refused"
        if got.startswith("error:"):
            return False, "refused"
        common = [x for x in coarsenings(a) if x in coarsenings(b)]
        greatest = [x for x in common if all(coarsens(y, x) for y in common)]
        return len(greatest) == 1 and parse(got) == greatest[0], "answered"

    def check_join(case, got):
        a, b = case
        if got.startswith("error:"):
            return not (coarsens(a, b) or coarsens(b, a)), "refused"
        j = parse(got)
        least = all(not (coarsens(a, x) and coarsens(b, x)) for x in coarsenings(j) if x != j)
        return coarsens(a, j) and coarsens(b, j) and least, "answered"

    checks = [("layout_add", check_add, adds, add_out), ("coalesce_z", check_z, zs, z_out),
              ("greatest_common_domain", check_gcd, gcds, gcd_out),
              ("common_coarsening", check_meet, shapes, meet_out), ("common_refinement", check_join, shapes, join_out)]
    for name, check, cases, outs in checks:
        for case, got in zip(cases, outs):
            ok, kind = check(case, got)
            counts[(name, kind)] = counts.get((name, kind), 0) + 1
            if not ok:
                fails.append(f"{name}{case}: model {got}")
    # Negative control: each case against the next case's answer.
    shifted = {}
    for name, check, cases, outs in checks:
        shifted[name] = sum(not check(case, outs[(k + 1) % len(outs)])[0] for k, case in enumerate(cases))
    for name, _, cases, _ in checks:
        print(f"{name:24s} answered and checked {counts.get((name, 'answered'), 0):5d}, "
              f"refusals confirmed {counts.get((name, 'refused'), 0):5d}; shifted control rejected "
              f"{shifted[name]} of {len(cases)}")
    for f in fails[:10]:
        print("FAIL", f)
    print(f"pycute_ops: {5 * n} cases checked, {len(fails)} disagree")
    if any(shifted[name] < len(cases) // 2 for name, _, cases, _ in checks):
        print("pycute_ops: a shifted comparison was accepted too often: the checks do not discriminate")
        return 1
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
