#!/usr/bin/env python3
"""bench/pycute_python: cuteref.pycute against pycute, both through Python, on bench/algebra's
mix (coalesce / composition / complement / logical_divide / logical_product over the same
seeded cases: `bench_algebra --write-cases`).

Both sides are called the same way: the API's own function on its own Layout objects, built
before timing. Before timing, every case's two results are compared as functions (size and
each value); the count of agreements is printed (a disagreement is printed and counted).
Timing as bench/algebra: process CPU time, each operation one block over all its cases,
alternating rounds (pycute, cuteref.pycute, ...) pinned to one CPU, the median round's ratio.
Each timed block follows one untimed pass over the same cases with the same function, on
every side (`--no-warmup` leaves it out): a block starts just after other code (the other
side's round, or another operation) has filled the caches and branch predictors, and
cuteref.pycute's blocks are short (0.3-1 ms for 20 repeats, against pycute's 1-8 ms for one
pass), so without it that start weighs on the faster side's rate most.

Where the package has `cuteref.batch`, the same cases written as EXPR text (`op(A, B)`) are
timed as a third side, one batch call per operation and repeat (parsing included), its
results first compared with pycute's as functions too.

Usage (from the repository root, after ./run):
  build/bench/bench_algebra --write-cases /tmp/mix.txt
  PYTHONPATH=build/python:.vendor/wheel .venv/bin/python bench/pycute_python.py /tmp/mix.txt [--rounds K]
"""
import argparse
import ast
import os
import statistics
import time

import pycute

import cuteref
from cuteref import pycute as mine

OPS = ["coalesce", "composition", "complement", "logical_divide", "logical_product"]


def parse_layout(api, text):
    depth = 0
    for i, ch in enumerate(text):
        depth += ch == "("
        depth -= ch == ")"
        if ch == ":" and depth == 0:
            return api.Layout(ast.literal_eval(text[:i]), ast.literal_eval(text[i + 1:]))
    raise ValueError("not a layout: " + text)


def load(api, path):
    by_op = {op: [] for op in OPS}
    with open(path) as f:
        for line in f:
            op, a, b = line.rstrip("\n").split("|")
            arg = int(b) if op == "complement" else (parse_layout(api, b) if b else None)
            by_op[op].append((parse_layout(api, a), arg))
    return by_op


def load_exprs(path):
    """Each case as the EXPR of the same call: `op(A)`, `op(A, B)`, A and B in CuTe's notation
    (the case file writes a 1-tuple as Python does, `((2,2),)`; CuTe's is `((2,2))`)."""
    by_op = {op: [] for op in OPS}
    with open(path) as f:
        for line in f:
            op, a, b = line.rstrip("\n").replace(",)", ")").split("|")
            by_op[op].append(f"{op}({a}, {b})" if b else f"{op}({a})")
    return by_op


def values(api, layout):
    n = api.size(layout)
    return n, [layout(i) for i in range(n)]


def value_values(value):
    """size and each value of a cuteref.Value layout (as values() of a pycute layout)."""
    n = int(cuteref.size(value))
    return n, [int(value(i)) for i in range(n)]


def timing_round(api, by_op, repeats, warmup=True):
    """Rates per operation and for the mix (all operations / all time), in ops per CPU second.
    With warmup, one untimed pass over an operation's cases before its timed block."""
    rates, total_ops, total_time = {}, 0, 0.0
    for op in OPS:
        fn, cases = getattr(api, op), by_op[op]
        if warmup:
            for a, b in cases:
                fn(a, b)
        t0 = time.process_time()
        for _ in range(repeats):
            for a, b in cases:
                fn(a, b)
        dt = time.process_time() - t0
        rates[op] = len(cases) * repeats / dt
        total_ops += len(cases) * repeats
        total_time += dt
    rates["mix"] = total_ops / total_time
    return rates


def batch_round(exprs_by_op, repeats, warmup=True):
    """timing_round's rates for cuteref.batch: one call per operation and repeat."""
    rates, total_ops, total_time = {}, 0, 0.0
    for op in OPS:
        exprs = exprs_by_op[op]
        if warmup:
            cuteref.batch(exprs)
        t0 = time.process_time()
        for _ in range(repeats):
            cuteref.batch(exprs)
        dt = time.process_time() - t0
        rates[op] = len(exprs) * repeats / dt
        total_ops += len(exprs) * repeats
        total_time += dt
    rates["mix"] = total_ops / total_time
    return rates


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("cases")
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--pycute-repeats", type=int, default=1)
    ap.add_argument("--cuteref-repeats", type=int, default=20)
    ap.add_argument("--no-pin", action="store_true")
    ap.add_argument("--no-warmup", action="store_true", help="time each block without the untimed pass before it")
    args = ap.parse_args()
    if not args.no_pin:
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one CPU for both sides

    theirs, ours = load(pycute, args.cases), load(mine, args.cases)
    agree, differ = 0, 0
    for op in OPS:
        for (a, b), (ma, mb) in zip(theirs[op], ours[op]):
            if values(pycute, getattr(pycute, op)(a, b)) == values(mine, getattr(mine, op)(ma, mb)):
                agree += 1
            else:
                differ += 1
                print(f"differs: {op}({a}, {b})")
    n_cases = sum(len(v) for v in theirs.values())
    print(f"cases: {n_cases} ({', '.join(f'{op} {len(theirs[op])}' for op in OPS)}); results equal as functions: "
          f"{agree}, different: {differ}")

    exprs = load_exprs(args.cases) if hasattr(cuteref, "batch") else None
    if exprs is not None:
        batch_agree = 0
        for op in OPS:
            for (a, b), text, result in zip(theirs[op], exprs[op], cuteref.batch(exprs[op])):
                if isinstance(result, cuteref.Value) and values(pycute, getattr(pycute, op)(a, b)) == value_values(result):
                    batch_agree += 1
                else:
                    differ += 1
                    print(f"differs: cuteref.batch: {text} gives {result}")
        print(f"cuteref.batch of the same cases as EXPR text: results equal to pycute's as functions: {batch_agree}")
    else:
        print("cuteref.batch: not in this build (not timed)")

    sides = ["cuteref.pycute"] + (["cuteref.batch"] if exprs is not None else [])
    ratios = {side: {k: [] for k in OPS + ["mix"]} for side in sides}
    rates = {side: {k: [] for k in OPS + ["mix"]} for side in ["pycute"] + sides}
    warmup = not args.no_warmup
    for _ in range(args.rounds):
        p = timing_round(pycute, theirs, args.pycute_repeats, warmup)
        m = {"cuteref.pycute": timing_round(mine, ours, args.cuteref_repeats, warmup)}
        if exprs is not None:
            m["cuteref.batch"] = batch_round(exprs, args.cuteref_repeats, warmup)
        for k in OPS + ["mix"]:
            rates["pycute"][k].append(p[k])
            for side in sides:
                rates[side][k].append(m[side][k])
                ratios[side][k].append(m[side][k] / p[k])
    print(f"{args.rounds} alternating rounds, process CPU time, "
          f"{'no untimed pass' if args.no_warmup else 'one untimed pass before each block'}, median round:")
    for side in sides:
        print(f"{'operation':<16} {'pycute ops/s':>14} {side + ' ops/s':>22} {'ratio':>8}")
        for k in OPS + ["mix"]:
            print(f"{k:<16} {statistics.median(rates['pycute'][k]):>14.0f} {statistics.median(rates[side][k]):>22.0f} "
                  f"{statistics.median(ratios[side][k]):>7.1f}x")
    return 1 if differ else 0


if __name__ == "__main__":
    raise SystemExit(main())
