#!/usr/bin/env python3
"""pycute side of bench/algebra: times the same operations on the same cases.

Reads the case file written by bench_algebra (one `OP|A|B` per line, layouts in CuTe
notation without static markers), runs each operation `repeats` times over all cases and
prints `ops_per_second=<float> operations=<int>` plus one line per operation.
Usage: pycute_algebra.py CASES REPEATS  (pycute importable: PYTHONPATH=.vendor/wheel)
"""
import ast
import sys
import time

import pycute


def parse_layout(text):
    depth = 0
    for i, ch in enumerate(text):
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif ch == ":" and depth == 0:
            return pycute.Layout(ast.literal_eval(text[:i]), ast.literal_eval(text[i + 1:]))
    raise ValueError("not a layout: " + text)


OPS = {
    "coalesce": lambda a, b: pycute.coalesce(a),
    "composition": lambda a, b: pycute.composition(a, b),
    "complement": lambda a, b: pycute.complement(a, b),
    "logical_divide": lambda a, b: pycute.logical_divide(a, b),
    "logical_product": lambda a, b: pycute.logical_product(a, b),
}


def main():
    path, repeats = sys.argv[1], int(sys.argv[2])
    cases = []
    with open(path) as f:
        for line in f:
            op, a, b = line.rstrip("\n").split("|")
            arg = int(b) if op == "complement" else (parse_layout(b) if b else None)
            cases.append((op, parse_layout(a), arg))
    # Per operation, all its cases `repeats` times as one block, in process CPU time (the
    # C++ side measures the same way).
    per_op = {}
    total = 0.0
    for name in sorted({op for op, _, _ in cases}):
        mine = [(a, b) for op, a, b in cases if op == name]
        t0 = time.process_time()
        for _ in range(repeats):
            for a, b in mine:
                OPS[name](a, b)
        dt = time.process_time() - t0
        per_op[name] = [len(mine) * repeats, dt]
        total += dt
    print(f"ops_per_second={len(cases) * repeats / total:.1f} operations={len(cases) * repeats}")
    for op, (n, t) in sorted(per_op.items()):
        print(f"op {op} {n / t:.1f}")


if __name__ == "__main__":
    main()
