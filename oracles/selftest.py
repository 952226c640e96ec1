#!/usr/bin/env python3
"""The comparator must be able to fail: vendor_diff on hand-written vendor answers.

    selftest.py VENDOR_DIFF

composition((12,32):(32,1), (4:2)) is 4:64 (CuTe 4.2 prints (_4):(64)): element i is at
(2i)*32 = 64i, i.e. values 0 64 128 192 (by hand). A right answer must pass, a wrong size, a
wrong value and a wrong rank must each be reported as DIFF, an input the model refuses as
`rejected`, and the integer form must compare values.
"""
import subprocess
import sys

sys.path.insert(0, __import__("os").path.dirname(__file__))
from pycute_cases import fnv  # noqa: E402

EXPR = "composition((12,32):(32,1), (4:2))"
CASES = [
    ((EXPR, "(_4):(64)", 4, fnv([0, 64, 128, 192]), 1), ("same", "equal")),
    ((EXPR, "(4,32):(64,1)", 128, 12345, 1), ("DIFF",)),            # the old model's answer
    ((EXPR, "(4):(32)", 4, fnv([0, 32, 64, 96]), 1), ("DIFF",)),     # a wrong value
    ((EXPR, "(2,2):(64,128)", 4, fnv([0, 64, 128, 192]), 1), ("DIFF",)),  # right values, wrong rank
    (("complement((2,2):(1,1), 8)", "(0,4):(2,2)", 0, fnv([]), 0), ("rejected",)),
    (("max_common_vector(_8:_1, _8:_1)", "_8", -1, 0, 0), ("same", "equal")),
    (("max_common_vector(_8:_1, _8:_1)", "_4", -1, 0, 0), ("DIFF",)),
]

lines = "".join("\t".join(str(x) for x in c) + "\n" for c, _ in CASES)
out = subprocess.run([sys.argv[1]], input=lines, capture_output=True, text=True, check=True).stdout.splitlines()
bad = 0
for (case, want), got in zip(CASES, out):
    ok = got.split("\t", 1)[0] in want
    bad += not ok
    print(("ok   " if ok else "FAIL ") + case[0] + " vs " + case[1] + " -> " + got)
print(f"vendor_diff self-test: {len(CASES) - bad} passed, {bad} failed")
sys.exit(1 if bad or len(out) != len(CASES) else 0)
