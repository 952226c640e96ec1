#!/usr/bin/env python3
"""pycute side of bench/algebra: times the same operations on the same cases.

Reads the case file written by bench_algebra (one `OP|A|B` per line, layouts in CuTe
notation without static markers) once, then serves timing rounds: for each line `round`
on standard input it runs each operation `repeats` times over all its cases and answers
`ops_per_second=<float> operations=<int>` plus one `op NAME RATE` line per operation and a
final `end` line (flushed), so that bench_algebra can alternate its own rounds with these
under the same machine conditions. Ends at end of input.
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


# pycute's functions themselves (no wrapper call per operation): coalesce's second
# argument is its profile, None here, as in coalesce(A).
OPS = {
    "coalesce": pycute.coalesce,
    "composition": pycute.composition,
    "complement": pycute.complement,
    "logical_divide": pycute.logical_divide,
    "logical_product": pycute.logical_product,
}


def timing_round(by_op, repeats):
    # Per operation, all its cases `repeats` times as one block, in process CPU time (the
    # C++ side measures the same way).
    total_ops, total_time, lines = 0, 0.0, []
    for name, mine in by_op.items():
        op = OPS[name]
        t0 = time.process_time()
        for _ in range(repeats):
            for a, b in mine:
                op(a, b)
        dt = time.process_time() - t0
        total_ops += len(mine) * repeats
        total_time += dt
        lines.append(f"op {name} {len(mine) * repeats / dt:.1f}")
    return [f"ops_per_second={total_ops / total_time:.1f} operations={total_ops}"] + lines + ["end"]


def main():
    path, repeats = sys.argv[1], int(sys.argv[2])
    cases = []
    with open(path) as f:
        for line in f:
            op, a, b = line.rstrip("\n").split("|")
            arg = int(b) if op == "complement" else (parse_layout(b) if b else None)
            cases.append((op, parse_layout(a), arg))
    by_op = {name: [(a, b) for op, a, b in cases if op == name] for name in sorted({op for op, _, _ in cases})}
    for command in sys.stdin:
        if command.strip() != "round":
            raise SystemExit("pycute_algebra.py: unknown command " + repr(command))
        print("\n".join(timing_round(by_op, repeats)), flush=True)


if __name__ == "__main__":
    main()
