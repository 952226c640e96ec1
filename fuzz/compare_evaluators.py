#!/usr/bin/env python3
"""Differential run of two `cuteref` binaries over the expression language: the same EXPR
lines through `batch` and the same claims through `prove`, answer by answer.

Written for the change from two parser-evaluators (lang/notation.cpp's for EXPR,
proofs/claim.cpp's for claims) to one parser (lang/parser.cpp) whose tree is evaluated over
concrete and symbolic values: OLD is a build of the last commit with two parsers, NEW the one
parser. Inputs: every corpus case's EXPR, the fuzz target's seeds and regressions that are EXPR
text, deterministic random mutations of those (characters deleted, doubled, replaced, operators
inserted), and every claim of fuzz/prove_regressions.txt and fuzz/prove_heldback.txt.

Each EXPR answer is classified: same line; both errors with different text; OLD error and NEW
value (the language grew: integer arithmetic is now EXPR too); OLD value and NEW error; two
different values. The last two are defects unless listed with a reason. Each claim: same exit
status and verdict word, or not.

usage: compare_evaluators.py OLD NEW [--mutants N] [--seed S] [--prove-timeout S]
"""
import argparse
import collections
import pathlib
import random
import re
import shlex
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent


def corpus_expressions():
    out = []
    for path in sorted((ROOT / "corpus").rglob("*.txt")):
        for line in path.read_text(errors="replace").splitlines():
            if line.startswith("#") or " => " not in line:
                continue
            out.append(line.split(" => ", 1)[0].strip())
    return out


def mutants(expressions, count, seed):
    rng = random.Random(seed)
    inserts = ["+", "-", "*", "/", "%", "<<", ">>", "&", "|", "^", "(", ")", ",", ":", "_", "@", "o ", "==", " x", "F"]
    out = []
    while len(out) < count:
        e = rng.choice(expressions)
        if not e:
            continue
        k = rng.randrange(len(e))
        kind = rng.randrange(4)
        if kind == 0:
            e = e[:k] + e[k + 1:]
        elif kind == 1:
            e = e[:k] + e[k] + e[k:]
        elif kind == 2:
            e = e[:k] + rng.choice("0123456789") + e[k + 1:]
        else:
            e = e[:k] + rng.choice(inserts) + e[k:]
        if "\n" not in e and e.strip():
            out.append(e)
    return out


def batch(binary, lines):
    r = subprocess.run([binary, "batch"], input="\n".join(lines) + "\n", capture_output=True, text=True, timeout=3600)
    answers = r.stdout.splitlines()
    if len(answers) != len(lines):
        sys.exit(f"{binary} batch printed {len(answers)} lines for {len(lines)} inputs")
    return answers


def claims():
    out = []
    for name in ("prove_regressions.txt", "prove_heldback.txt"):
        for line in (ROOT / "fuzz" / name).read_text().splitlines():
            line = line.strip()
            if line and not line.startswith("#"):
                out.append(line)
    return out


def prove(binary, entry, limit):
    args = shlex.split(entry)
    try:
        r = subprocess.run([binary, "prove", *args], capture_output=True, text=True, timeout=limit)
    except subprocess.TimeoutExpired:
        return ("timeout", "")
    first = (r.stdout or r.stderr).strip().split("\n")[0]
    return (str(r.returncode), re.split(r"[: (]", first, maxsplit=1)[0])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--mutants", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--prove-timeout", type=float, default=30)
    args = ap.parse_args()

    base = corpus_expressions()
    lines = base + mutants(base, args.mutants, args.seed)
    old, new = batch(args.old, lines), batch(args.new, lines)
    classes = collections.Counter()
    examples = collections.defaultdict(list)
    for text, a, b in zip(lines, old, new):
        ea, eb = a.startswith("error"), b.startswith("error")
        if a == b:
            c = "same"
        elif ea and eb:
            c = "both errors, different text"
        elif ea:
            c = "old error, new value"
        elif eb:
            c = "old value, new error"
        else:
            c = "different values"
        classes[c] += 1
        if c != "same" and len(examples[c]) < 12:
            examples[c].append((text, a, b))
    print(f"EXPR: {len(lines)} inputs ({len(base)} corpus expressions, {len(lines) - len(base)} mutants, seed {args.seed})")
    for c, n in classes.most_common():
        print(f"  {c}: {n}")
    for c, ex in examples.items():
        print(f"  examples of '{c}':")
        for text, a, b in ex:
            print(f"    {text!r}\n      old: {a[:160]}\n      new: {b[:160]}")

    entries = claims()
    same = 0
    differ = []
    for e in entries:
        a, b = prove(args.old, e, args.prove_timeout), prove(args.new, e, args.prove_timeout)
        if a == b:
            same += 1
        else:
            differ.append((e, a, b))
    print(f"prove: {len(entries)} claims (fuzz/prove_regressions.txt, fuzz/prove_heldback.txt): {same} same exit "
          f"status and verdict, {len(differ)} different")
    for e, a, b in differ:
        print(f"  {e}\n    old: {a}\n    new: {b}")
    bad = classes["old value, new error"] + classes["different values"] + len(differ)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
