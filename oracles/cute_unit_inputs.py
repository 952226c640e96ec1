#!/usr/bin/env python3
"""CuTe C++'s last unit-test inputs (issue 28): the model against CuTe 4.2 compiled on the host.

    cute_unit_inputs.py --cuteref build/cli/cuteref --cache build/oracles/cute-cache --cpp-arg=-I...

Each case of corpus/vendor/cute_unit_inputs.txt is written here a second time as a CuTe C++
expression. One generated program prints, per case, CuTe's print() of the result and its value
at every index of its domain (CuTe's own evaluation); the model is asked the same expression
with `cuteref batch`, and its value at every index as `EXPR(i)`. A case agrees when both print
the same text, or, where CuTe's answer is a form the model does not represent (a composed layout
inside a composed layout), when the model's answer is the same function: same size and the same
value at every index. Negative control: every case's CuTe answer compared with the next case's
model answer must disagree. Exit 0 when all agree, 1 otherwise, 77 without CuTe's headers.
"""

import argparse
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import cute_programs  # noqa: E402
from differential import run_lines  # noqa: E402

L88 = "Layout<Shape<_8,_8>, Stride<_8,_1>>{}"
# (model expression, CuTe expression, how they must agree: "text" or "function")
CASES = [
    ("composition(Sw<3,0,3>, (_8,_8):(_8,_1))", f"composition(Swizzle<3,0,3>{{}}, {L88})", "text"),
    ("composition(Sw<2,0,3> o _0 o (_8,_8):(_8,_1), Sw<2,0,-3> o _0 o (_8,_8):(_8,_1))",
     f"composition(composition(Swizzle<2,0,3>{{}}, _0{{}}, {L88}), composition(Swizzle<2,0,-3>{{}}, _0{{}}, {L88}))",
     "function"),
    ("right_inverse((4,2):(_1,4))", "right_inverse(make_layout(make_shape(4,2), make_stride(_1{},4)))", "text"),
    ("right_inverse((_4,_2):(_1,_4))", "right_inverse(Layout<Shape<_4,_2>,Stride<_1,_4>>{})", "text"),
    ("right_inverse((4,2):(1,4))", "right_inverse(make_layout(make_shape(4,2), make_stride(1,4)))", "text"),
    ("right_inverse((_4,2):(_1,_4))", "right_inverse(make_layout(make_shape(_4{},2), make_stride(_1{},_4{})))", "text"),
    ("right_inverse((2,_4):(_4,_1))", "right_inverse(make_layout(make_shape(2,_4{}), make_stride(_4{},_1{})))", "text"),
    ("right_inverse((_2,1,_4):(_4,_1,_1))",
     "right_inverse(make_layout(make_shape(_2{},1,_4{}), make_stride(_4{},_1{},_1{})))", "text"),
    ("right_inverse((_4,_8):(_8,_1))", "right_inverse(Layout<Shape<_4,_8>,Stride<_8,_1>>{})", "text"),
]


def program() -> str:
    parts = ["#include <cute/layout.hpp>", "#include <cute/swizzle.hpp>", "#include <cute/swizzle_layout.hpp>",
             "#include <cstdio>", "using namespace cute;",
             "template <class T> void emit(T const& t) {",
             "  print(t); printf(\"\\n\");",
             "  for (int i = 0; i < int(size(t)); ++i) printf(\"%d \", int(t(i)));",
             "  printf(\"\\n\");", "}", "int main() {"]
    for _, cpp, _ in CASES:
        parts.append(f"  emit({cpp});")
    parts += ["  return 0;", "}"]
    return "\n".join(parts) + "\n"


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--cuteref", required=True)
    ap.add_argument("--cache", required=True)
    ap.add_argument("--cxx", default="g++")
    ap.add_argument("--cpp-arg", action="append", default=[])
    args = ap.parse_args()
    if not args.cpp_arg:
        print("cute_unit_inputs: CuTe's headers are not configured (./run installs them): skipped")
        return 77
    comp = cute_programs.Compiler(args.cxx, args.cpp_arg, args.cache, HERE)
    binary = comp.build({"cute_unit_inputs": program()})["cute_unit_inputs"]
    out = subprocess.run([binary], capture_output=True, text=True, check=True).stdout.splitlines()
    cute = [(out[2 * k].strip(), [int(v) for v in out[2 * k + 1].split()]) for k in range(len(CASES))]

    texts = run_lines([args.cuteref, "batch"], [m for m, _, _ in CASES])
    value_lines = []
    for (m, _, _), (_, vals) in zip(CASES, cute):
        value_lines += [f"{m}({i})" for i in range(len(vals))]
    model_values = run_lines([args.cuteref, "batch"], value_lines) if value_lines else []

    def agrees(k, model_text, model_vals):
        text, vals = cute[k]
        how = CASES[k][2]
        if model_text.startswith("error:"):
            return False
        if how == "text":
            return model_text == text and model_vals == [str(v) for v in vals]
        return model_vals == [str(v) for v in vals]

    failures, pos = 0, 0
    per_case = []
    for k, (m, _, how) in enumerate(CASES):
        n = len(cute[k][1])
        vals = model_values[pos:pos + n]
        pos += n
        per_case.append((texts[k], vals))
        ok = agrees(k, texts[k], vals)
        print(f"{'ok  ' if ok else 'FAIL'} {m}\n       CuTe:  {cute[k][0]}\n       model: {texts[k]}  ({how}, {n} values)")
        failures += not ok
    # Negative control: each CuTe answer against the next case's model answer must disagree.
    caught = sum(not agrees(k, *per_case[(k + 1) % len(CASES)]) for k in range(len(CASES)))
    print(f"cute_unit_inputs: {len(CASES)} cases checked against CuTe C++ 4.2, {failures} disagree; "
          f"negative control: {caught} of {len(CASES)} shifted pairs rejected")
    if caught != len(CASES):
        print("cute_unit_inputs: the comparison accepted a wrong answer")
        return 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
