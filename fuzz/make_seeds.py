#!/usr/bin/env python3
"""Writes the fuzz target's seed inputs into OUT_DIR, one file per distinct text (named by
its SHA-1), from every corpus case under the corpus directories given and the hand-written
seeds of fuzz/seeds/*.seed (claims with --where lines, descriptors with shapes).

From a corpus case `EXPR => EXPECTED | claimed: CLAIMED` it takes: EXPR; EXPECTED and
CLAIMED when they are values (not `error: ...`); the case line itself (the corpus reader);
`EXPR == EXPECTED` (the claim parser); and for each `descriptor(...)` literal its group text
(describe). Usage: make_seeds.py [--skip-calls F1,F2,...] OUT_DIR CORPUS_DIR [SEED_DIR...];
prints the count. --skip-calls leaves out every text that calls one of the named functions
(`F(`), and prints how many it left out.
"""
import hashlib
import os
import re
import sys


def calls_any(text, names):
    return any(re.search(r"\b" + re.escape(n) + r"\(", text) for n in names)


def case_seeds(line):
    if "=>" not in line:
        return [line]
    expr, rhs = (part.strip() for part in line.split("=>", 1))
    claimed = ""
    if "| claimed:" in rhs:
        rhs, claimed = (part.strip() for part in rhs.split("| claimed:", 1))
    seeds = [expr, line]
    for value in (rhs, claimed):
        if value and not value.startswith("error"):
            seeds.append(value)
            if value not in ("true", "false"):
                seeds.append(expr + " == " + value)
    for m in re.finditer(r"descriptor(\((?:[^()]|\([^()]*\))*\))", line):
        seeds.append(m.group(1))
    return seeds


def main():
    args = sys.argv[1:]
    skip_calls = []
    if args and args[0] == "--skip-calls":
        if len(args) < 2 or not args[1]:
            sys.exit("make_seeds.py: --skip-calls needs a comma-separated list of function names")
        skip_calls = [n for n in args[1].split(",") if n]
        args = args[2:]
    if len(args) < 2:
        sys.exit(__doc__)
    out_dir = args[0]
    os.makedirs(out_dir, exist_ok=True)
    texts = set()
    for root in args[1:]:
        for dirpath, _, names in sorted(os.walk(root)):
            for name in sorted(names):
                path = os.path.join(dirpath, name)
                with open(path, encoding="utf-8", errors="replace") as f:
                    content = f.read()
                if name.endswith(".txt"):  # a corpus file: its cases
                    for raw in content.splitlines():
                        line = raw.strip()
                        if line and not line.startswith("#"):
                            texts.update(s for s in case_seeds(line) if s)
                elif name.endswith(".seed"):  # a hand-written seed: the whole file is one input
                    texts.add(content)
    skipped = {t for t in texts if calls_any(t, skip_calls)}
    texts -= skipped
    for text in texts:
        data = text.encode("utf-8")
        with open(os.path.join(out_dir, hashlib.sha1(data).hexdigest()), "wb") as f:
            f.write(data)
    print(f"fuzz seeds: {len(texts)} inputs in {out_dir}" +
          (f"; {len(skipped)} left out that call {', '.join(skip_calls)}" if skip_calls else ""))
    if not texts:
        sys.exit("fuzz seeds: none found")


if __name__ == "__main__":
    main()
