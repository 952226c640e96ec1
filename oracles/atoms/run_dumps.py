#!/usr/bin/env python3
"""Test `atoms` (suite `vendor`): CuTe's values from the dump programs, then compare_atoms.

    run_dumps.py --compare COMPARE_ATOMS --disagreements FILE --cache DIR [--cpp-arg=...]
                 [--recording FILE | --no-recording | --record FILE]
                 [--verify-recorded N] [--verify-seed S] DUMP.cpp...

Each dump program's output is CuTe's (recorded_answers.py): recorded for this compiler, these
headers and this source (oracles/recorded/cute_atoms.json.xz), or else compiled with g++ against
the wheel's headers (`-std=c++17 -O1`, cached by source and flags) and run. --verify-recorded of
the recorded dumps are compiled and run anyway and must print the recorded output byte for byte.
Then compare_atoms reads every output and compares each value with the model's.
Exit: compare_atoms's (0 when every value agrees or is a recorded disagreement), or 1 when a
recording differs from CuTe or a dump program fails.
"""

import argparse
import os
import subprocess
import sys

ATOMS = os.path.dirname(os.path.abspath(__file__))
ORACLES = os.path.dirname(ATOMS)
sys.path.insert(0, ORACLES)

import cute_programs  # noqa: E402
import recorded_answers  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--compare", required=True, help="the compare_atoms program")
    ap.add_argument("--disagreements", required=True, help="corpus/vendor/atoms_disagreements.txt")
    ap.add_argument("--cache", required=True, help="compiled dump programs and their output")
    ap.add_argument("--cxx", default="g++")
    ap.add_argument("--cpp-arg", action="append", default=[], help="compiler argument for CuTe (repeat)")
    recorded_answers.add_recording_arguments(
        ap, os.path.join(ORACLES, "recorded", "cute_atoms.json.xz"), "dump", verify_count=1)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("dumps", nargs="+", help="the dump programs' sources")
    args = ap.parse_args()

    compiler = cute_programs.Compiler(args.cxx, args.cpp_arg, args.cache, ORACLES)
    programs = {}
    for path in args.dumps:
        with open(path) as f:
            programs[os.path.splitext(os.path.basename(path))[0]] = (f.read(), [])
    try:
        dumps = cute_programs.recorded_or_compiled_with_args(
            compiler, programs, cute_programs.run_without_input, args, ORACLES, jobs=args.jobs, about="CuTe C++'s output of the oracles/atoms dump programs")
    except RuntimeError as e:
        print(f"atoms: {e}")
        return 1
    files = []
    for n in programs:
        out = os.path.join(args.cache, n + ".out")
        with open(out, "w") as f:
            f.write("".join(line + "\n" for line in dumps.answers[n][0]))
        files.append(out)
    print(f"atoms: {len(programs)} dump programs: {dumps.note}")
    sys.stdout.flush()
    rc = subprocess.run([args.compare, args.disagreements] + files).returncode
    for e in dumps.errors:
        print(f"RECORDING DIFFERS from CuTe C++: {e}")
    return 1 if dumps.errors else rc


if __name__ == "__main__":
    sys.exit(main())
