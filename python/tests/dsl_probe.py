"""Run with the CuTe DSL importable (nvidia-cutlass-dsl): for each case `OP|A|B` on stdin
(A, B Python literals of (shape, stride); B an int for complement, empty for unary ops),
print the DSL's result of cute.OP, computed in a @cute.jit function, one line per case
(`error: ...` if the DSL refuses). Straight-line jit functions with compile-time arguments:
the DSL compiles Python control flow inside them into IR."""
import ast
import sys

import cutlass
import cutlass.cute as cute


def layout(text):
    shape, stride = ast.literal_eval(text)
    return cute.make_layout(shape, stride=stride)


@cute.jit
def unary(op: cutlass.Constexpr, a: cutlass.Constexpr):
    print(getattr(cute, op)(layout(a)))


@cute.jit
def binary(op: cutlass.Constexpr, a: cutlass.Constexpr, b: cutlass.Constexpr):
    print(getattr(cute, op)(layout(a), layout(b)))


@cute.jit
def complement(a: cutlass.Constexpr, m: cutlass.Constexpr):
    print(cute.complement(layout(a), m))


for line in sys.stdin:
    if not line.strip():
        continue
    op, a, b = line.rstrip("\n").split("|")
    try:
        if op == "complement":
            complement(a, int(b))
        elif b:
            binary(op, a, b)
        else:
            unary(op, a)
    except Exception as e:  # the DSL's refusal, reported as a line
        print("error: " + type(e).__name__)
    sys.stdout.flush()
