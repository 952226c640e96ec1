"""Driving the CuTe DSL oracle: worker processes, their crashes, and reading the printouts.

The DSL runs in its own processes (oracles/dsl_worker.py, under the DSL's Python path), two
at a time, each on a share of the cases. A worker that crashes (the DSL segfaults on some
inputs) has answered every case before the one it crashed on: that case is recorded as a
crash and a new worker takes the rest.

The DSL's results are compared as functions. Their values are read from the DSL's printout
(`S<B,M,S> o OFFSET o SHAPE:STRIDE` or `SHAPE:STRIDE`, static integers without `_`) by
`printout_values`, a plain colexicographic evaluation independent of the model; a sample of
cases is also evaluated by the DSL itself at every index (dsl_worker --self-eval), and the
driver checks that the printout is the function the DSL computed.
"""

import ast
import re
import json
import os
import subprocess
import sys
import threading
from typing import Dict, List, Optional, Tuple

HERE = os.path.dirname(os.path.abspath(__file__))
WORKER = os.path.join(HERE, "dsl_worker.py")


def dsl_present(dsl_dir: str) -> bool:
    return os.path.isdir(os.path.join(dsl_dir, "nvidia_cutlass_dsl", "dsl_packages", "cutlass", "cute"))


def _run_share(dsl_dir: str, cases: List[dict], self_eval: int, answers: Dict[int, dict], crashes: List[Tuple[int, int]]):
    rest = cases
    while rest:
        inp = "".join(json.dumps(c) + "\n" for c in rest)
        r = subprocess.run([sys.executable, WORKER, dsl_dir, "--self-eval", str(self_eval)],
                           input=inp, capture_output=True, text=True)
        got = 0
        for line in r.stdout.splitlines():
            a = json.loads(line)
            answers[a["i"]] = a
            got += 1
        if r.returncode == 0 and got == len(rest):
            return
        if got >= len(rest):
            raise RuntimeError(f"dsl_worker exited {r.returncode} after answering everything: {r.stderr[-2000:]}")
        if got == 0 and r.returncode == 1:
            raise RuntimeError(f"dsl_worker failed before the first case: {r.stderr[-2000:]}")
        crashes.append((rest[got]["i"], r.returncode))
        rest = rest[got + 1:]


def run_dsl(dsl_dir: str, cases: List[dict], jobs: int = 2, self_eval: int = 64):
    """Answers of the DSL to cases ({"i", "op", "a"}): (id -> answer, [(id, exit status)] of
    the cases a worker crashed on)."""
    answers: Dict[int, dict] = {}
    crashes: List[Tuple[int, int]] = []
    shares = [cases[k::jobs] for k in range(jobs)]
    errors: List[Exception] = []

    def share(s):
        try:
            _run_share(dsl_dir, s, self_eval, answers, crashes)
        except Exception as e:  # re-raised below, in the caller's thread
            errors.append(e)

    threads = [threading.Thread(target=share, args=(s,)) for s in shares if s]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        raise errors[0]
    return answers, crashes


def _flat(t):
    if isinstance(t, tuple):
        out = []
        for e in t:
            out.extend(_flat(e))
        return out
    return [t]


NEGATIVE_SHIFT_PRINT = re.compile(r"^S<(\d+),(\d+),(-\d+) o ")


def repair_swizzle_print(text: str) -> str:
    """The DSL 4.8.1 prints a swizzle whose shift is negative without its closing '>'
    (`S<2,0,-3 o 0 o 8:1` for Swizzle<2,0,-3>; corpus/vendor/dsl_disagreements.txt): the
    printout with the '>' restored. Any other text is returned as it is."""
    return NEGATIVE_SHIFT_PRINT.sub(r"S<\1,\2,\3> o ", text)


def parse_printout(text: str):
    """A DSL printout as (swizzle (B, M, S) or None, offset, shape, stride); None if it is
    not a plain integer layout or a swizzled composed layout over one."""
    sw, off = None, 0
    body = repair_swizzle_print(text.strip())
    if body.startswith("S<"):
        head, _, rest = body.partition(">")
        try:
            b, mm, s = (int(x) for x in head[2:].split(","))
            o, _, lay = rest.partition(" o ")[2].partition(" o ")
            off = int(o)
        except ValueError:
            return None
        sw, body = (b, mm, s), lay
    depth = 0
    for i, c in enumerate(body):
        depth += c == "("
        depth -= c == ")"
        if c == ":" and depth == 0:
            try:
                shape = ast.literal_eval(body[:i])
                stride = ast.literal_eval(body[i + 1:])
            except (ValueError, SyntaxError):
                return None
            fs, fd = _flat(shape), _flat(stride)
            if len(fs) != len(fd) or not all(isinstance(x, int) for x in fs + fd):
                return None
            return sw, off, fs, fd
    return None


def swizzle(b: int, mm: int, s: int, x: int) -> int:
    """Swizzle<B,M,S>: bits [M + max(0,S), +B) XOR-ed into bits [M - min(0,S), +B) (shifted
    by S), on the two's-complement value (CuTe's definition, restated)."""
    ymask = ((1 << b) - 1) << (mm + max(0, s))
    y = x & ymask
    return x ^ (y >> s if s >= 0 else y << -s)


def printout_values(parsed) -> Optional[List[int]]:
    """Every value of a parsed printout at index 0, 1, ..., size - 1: the first mode of the
    flattened shape runs fastest (colexicographic), value = offset + sum(coord_k * stride_k),
    then the swizzle."""
    sw, off, fs, fd = parsed
    vals = [0]
    for s, d in zip(fs, fd):
        if s < 0:
            return None
        vals = [v + k * d for k in range(s) for v in vals]
    if sw is None:
        return vals
    return [swizzle(*sw, off + v) for v in vals]
