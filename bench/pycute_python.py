#!/usr/bin/env python3
"""bench/pycute_python: cuteref.pycute against pycute, both through Python, on bench/algebra's
mix (coalesce / composition / complement / logical_divide / logical_product over the same
seeded cases: `bench_algebra --write-cases`).

Both sides are called the same way: the API's own function on its own Layout objects, built
before timing. Before timing, every case's two results are compared as functions (size and
each value); the count of agreements is printed (a disagreement is printed and counted).
Timing as bench/algebra: process CPU time, each operation one block over all its cases,
alternating rounds (pycute, cuteref.pycute, ...) pinned to one CPU, the median round's ratio.

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


def values(api, layout):
    n = api.size(layout)
    return n, [layout(i) for i in range(n)]


def timing_round(api, by_op, repeats):
    """Rates per operation and for the mix (all operations / all time), in ops per CPU second."""
    rates, total_ops, total_time = {}, 0, 0.0
    for op in OPS:
        fn, cases = getattr(api, op), by_op[op]
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


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("cases")
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--pycute-repeats", type=int, default=1)
    ap.add_argument("--cuteref-repeats", type=int, default=20)
    ap.add_argument("--no-pin", action="store_true")
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

    ratios = {k: [] for k in OPS + ["mix"]}
    py_rates, our_rates = {k: [] for k in ratios}, {k: [] for k in ratios}
    for _ in range(args.rounds):
        p = timing_round(pycute, theirs, args.pycute_repeats)
        m = timing_round(mine, ours, args.cuteref_repeats)
        for k in ratios:
            py_rates[k].append(p[k])
            our_rates[k].append(m[k])
            ratios[k].append(m[k] / p[k])
    print(f"{args.rounds} alternating rounds, process CPU time, median round:")
    print(f"{'operation':<16} {'pycute ops/s':>14} {'cuteref.pycute ops/s':>22} {'ratio':>8}")
    for k in OPS + ["mix"]:
        print(f"{k:<16} {statistics.median(py_rates[k]):>14.0f} {statistics.median(our_rates[k]):>22.0f} "
              f"{statistics.median(ratios[k]):>7.1f}x")
    return 1 if differ else 0


if __name__ == "__main__":
    raise SystemExit(main())
