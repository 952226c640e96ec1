"""Driving the CuTe DSL oracle: worker processes, their crashes, and reading the printouts.

The DSL runs in its own processes (oracles/dsl_worker.py, under the DSL's Python path), two
at a time, each on a share of the cases. A worker that crashes (the DSL segfaults on some
inputs) has answered every case before the one it crashed on: that case is recorded as a
crash and a new worker takes the rest. The cases come in chunks (dsl_side.py), whose answers
can be recorded (recorded_answers.py; `dsl_fingerprint` says what they depend on).

The DSL's results are compared as functions. Their values are read from the DSL's printout
(`S<B,M,S> o OFFSET o SHAPE:STRIDE` or `SHAPE:STRIDE`, static integers without `_`) by
`printout_values`, a plain colexicographic evaluation independent of the model; a sample of
cases is also evaluated by the DSL itself at every index (marked "e" in the input), and the
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

from recorded_answers import contents_fingerprint

HERE = os.path.dirname(os.path.abspath(__file__))
WORKER = os.path.join(HERE, "dsl_worker.py")


def dsl_present(dsl_dir: str) -> bool:
    return os.path.isdir(os.path.join(dsl_dir, "nvidia_cutlass_dsl", "dsl_packages", "cutlass", "cute"))


def _run_share(dsl_dir: str, lines: List[str], answers: List[Optional[str]], crashes: Dict[int, int]):
    """Asks one worker at a time the input `lines` in order; answers[k] is the answer line to
    lines[k] (None where a worker crashed on it: crashes[k] is the exit status). A worker
    answers in the order it is asked, so an answer is placed by its position."""
    done = 0
    while done < len(lines):
        rest = lines[done:]
        r = subprocess.run([sys.executable, WORKER, dsl_dir], input="".join(line + "\n" for line in rest),
                           capture_output=True, text=True)
        got = r.stdout.splitlines()
        if len(got) > len(rest):
            raise RuntimeError(f"dsl_worker answered {len(got)} lines for {len(rest)}: {r.stderr[-2000:]}")
        for k, line in enumerate(got):
            if json.loads(line)["i"] != json.loads(rest[k])["i"]:
                raise RuntimeError(f"dsl_worker answered {line[:200]} to {rest[k][:200]}")
            answers[done + k] = line
        if r.returncode == 0 and len(got) == len(rest):
            return
        if len(got) == len(rest):
            raise RuntimeError(f"dsl_worker exited {r.returncode} after answering everything: {r.stderr[-2000:]}")
        if not got and r.returncode == 1:
            raise RuntimeError(f"dsl_worker failed before the first case: {r.stderr[-2000:]}")
        crashes[done + len(got)] = r.returncode
        done += len(got) + 1


Answers = Tuple[List[str], List[Tuple[str, int, int]]]


def run_dsl(dsl_dir: str, chunks: Dict[str, List[str]], jobs: int = 2) -> Dict[str, Answers]:
    """The DSL's answers to chunks of cases (name -> input lines, dsl_worker.py's JSON): per
    chunk, the worker's answer lines in the order asked, and (input line, 0, exit status) for
    each case a worker crashed on (recorded_answers.Answers: a trap of the DSL). Whole chunks
    are dealt to `jobs` workers in turn, each running its chunks one after another, so that a
    chunk is asked the same way whichever others are asked with it."""
    names = list(chunks)
    shares = [names[k::jobs] for k in range(jobs)]
    result: Dict[str, Answers] = {}
    errors: List[Exception] = []

    def share(mine: List[str]):
        try:
            lines = [line for n in mine for line in chunks[n]]
            answers: List[Optional[str]] = [None] * len(lines)
            crashes: Dict[int, int] = {}
            _run_share(dsl_dir, lines, answers, crashes)
            k = 0
            for n in mine:
                span = range(k, k + len(chunks[n]))
                result[n] = ([answers[j] for j in span if answers[j] is not None],
                             [(lines[j], 0, crashes[j]) for j in span if j in crashes])
                k += len(chunks[n])
        except Exception as e:  # re-raised below, in the caller's thread
            errors.append(e)

    threads = [threading.Thread(target=share, args=(s,)) for s in shares if s]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        raise errors[0]
    return result


def installed_files(record_path: str) -> str:
    """A distribution's RECORD (each installed file and pip's hash of it), sorted, without pip's
    own bookkeeping: INSTALLER, and REQUESTED, which marks the distributions named on pip's command
    line rather than pulled in as dependencies (the same files installed either way)."""
    with open(record_path, encoding="utf-8") as f:
        lines = [line.strip() for line in f if line.strip()]
    bookkeeping = ("/INSTALLER,", "/REQUESTED,", "/direct_url.json,")
    return "\n".join(sorted(line for line in lines if not any(b in line for b in bookkeeping)))


def dsl_fingerprint(dsl_dir: str) -> str:
    """What the DSL's answers depend on (recorded_answers.contents_fingerprint): the Python that
    runs the workers, the CUTE_DSL_* settings, every installed distribution's metadata and
    file list (version and the hash of each file pip installed; installed_files) in `dsl_dir`, the contents of
    every file of the nvidia_cutlass_dsl package (its Python sources and its libraries: about
    260 MB, under a second), and the project's files that ask the DSL and read its answers
    (dsl_worker.py, this file)."""
    labels = [sys.version] + sorted(f"{k}={v}" for k, v in os.environ.items() if k.startswith("CUTE_DSL"))
    files = []
    for entry in sorted(os.listdir(dsl_dir)):
        if entry.endswith(".dist-info"):
            files += [os.path.join(dsl_dir, entry, "METADATA")] if os.path.isfile(os.path.join(dsl_dir, entry, "METADATA")) else []
            record = os.path.join(dsl_dir, entry, "RECORD")
            if os.path.isfile(record):
                labels.append(entry + "/RECORD:" + installed_files(record))
    for root, dirs, names in os.walk(os.path.join(dsl_dir, "nvidia_cutlass_dsl")):
        dirs[:] = [d for d in dirs if d != "__pycache__"]  # written by Python, not installed
        files += [os.path.join(root, n) for n in names]
    if not any(os.path.basename(f) == "METADATA" for f in files):
        raise RuntimeError(f"no installed distribution's metadata in {dsl_dir}")
    own = contents_fingerprint([], [WORKER, os.path.abspath(__file__)], HERE)
    return contents_fingerprint(labels + [own], files, dsl_dir)


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
