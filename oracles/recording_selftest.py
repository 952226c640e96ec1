#!/usr/bin/env python3
"""Self-test of recorded_answers.py (suite `vendor`): a recorded CuTe answer is used only for
the compiler, headers, source and input it was recorded for, and a recording that differs from
a program's output by one byte is caught.

    recording_selftest.py [--cxx CXX] [--cuteref EXE --diff EXE --cpp-arg=-I...]... [--wheel DIR --dsl DIR]

With the model and CuTe's headers, also end to end through one of the tests that read a
recording (composed_inverse.py, on a few cases, in a temporary folder): a recording written by
--record is read back and verified whole; the same recording altered in one line by hand fails
with "RECORDING DIFFERS from CuTe C++", naming the unit and the line; a recording file that does
not exist is an error with a diagnostic. With the model, the wheel (pycute) and the CuTe DSL,
the same for the DSL's recorded answers through differential.py (its DSL column only, 12 cases
per operation in chunks of 6): --dsl-record writes them, a run reads them all and verifies
them all with the same comparisons as when they were asked, one byte of one answer altered
fails with "RECORDING DIFFERS from the CuTe DSL" naming the chunk and the line, and a missing
--dsl-recording is an error with a diagnostic. Exit 0 when every check holds; prints how many ran.
"""

import argparse
import json
import lzma
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import recorded_answers as R  # noqa: E402
import dsl_oracle  # noqa: E402
from dsl_cases import OPS as DSL_OPS  # noqa: E402

checks = failures = 0


def check(cond, what):
    global checks, failures
    checks += 1
    if not cond:
        failures += 1
        print(f"FAIL: {what}")


def composed_inverse_end_to_end(tmp, args):
    """composed_inverse.py with its recording written, read, altered and missing."""
    cmd = [sys.executable, os.path.join(HERE, "composed_inverse.py"), "--cuteref", args.cuteref, "--diff", args.diff,
           "--cache", os.path.join(tmp, "cache"), "--cxx", args.cxx, "--dsl", "", "--cases", "10", "--per-unit", "5"]
    cmd += [f"--cpp-arg={a}" for a in args.cpp_arg]
    recording = os.path.join(tmp, "composed_inverse.json.xz")

    def run(*extra):
        r = subprocess.run(cmd + list(extra), capture_output=True, text=True)
        return r.returncode, r.stdout + r.stderr

    rc, out = run("--record", recording)
    check(rc == 0 and os.path.exists(recording), f"--record did not write the recording (exit {rc}):\n{out[-3000:]}")
    if rc != 0:
        return
    rc, out = run("--recording", recording, "--verify-recorded", "-1")
    check(rc == 0 and "2 of 2 from the recording" in out and "2 of them compared with the recording" in out,
          f"the recording just written is not read and verified whole (exit {rc}):\n{out[-3000:]}")

    with lzma.open(recording, "rt") as f:
        data = json.load(f)
    key = sorted(data["answers"])[0]
    lines = data["answers"][key]["out"]
    check(len(lines) > 0, "a recorded unit printed nothing")
    if not lines:
        return
    # the last field of the first line is the fingerprint of CuTe's values: one digit changed
    cid, op, text, size, digest = lines[0].split("\t")
    altered_digest = digest[:-1] + ("1" if digest[-1] != "1" else "2")
    altered = {k: (list(v["out"]), [tuple(t) for t in v["traps"]]) for k, v in data["answers"].items()}
    altered[key][0][0] = "\t".join([cid, op, text, size, altered_digest])
    altered_path = os.path.join(tmp, "composed_inverse_altered.json.xz")
    R.write_recording(altered_path, altered, data["about"])
    rc, out = run("--recording", altered_path, "--verify-recorded", "-1")
    check(rc == 1 and "RECORDING DIFFERS from CuTe C++: composed_inverse_" in out and ": line 1: recorded" in out
          and altered_digest in out,
          f"a recording altered by hand was not refused when its unit was verified (exit {rc}):\n{out[-3000:]}")

    rc, out = run("--recording", os.path.join(tmp, "no_such_recording.json.xz"))
    check(rc == 1 and "no_such_recording.json.xz does not exist" in out and "Traceback" not in out,
          f"a missing recording file is not an error with a diagnostic (exit {rc}):\n{out[-3000:]}")


def dsl_end_to_end(tmp, args):
    """differential.py's DSL column with its recording written, read, altered and missing."""
    cmd = [sys.executable, os.path.join(HERE, "differential.py"), "--cuteref", args.cuteref, "--diff", args.diff,
           "--wheel", args.wheel, "--dsl", args.dsl, "--no-cpp", "--seed", "3", "--min-per-op", "0",
           "--pycute-cases", "0", "--pycute-extra", "0", "--pycute-left-inverse", "0",
           "--dsl-cases", "12", "--dsl-refusal-probe", "2", "--dsl-chunk", "6", "--dsl-self-eval", "3"]
    recording = os.path.join(tmp, "dsl.json.xz")

    def run(*extra):
        r = subprocess.run(cmd + list(extra), capture_output=True, text=True)
        return r.returncode, r.stdout + r.stderr

    def table(out):  # the per-operation verdicts and the DSL's summary of what it was asked
        lines = out.splitlines()
        return [line for line in lines if line.split(" ")[0] in DSL_OPS or line.startswith("  known ")] + \
            [line.split(" crashes, ")[0] for line in lines if line.startswith("CuTe DSL: ")]

    # --no-cpp: 77 (CuTe C++ did not run) when everything else passed
    rc, out = run("--dsl-record", recording)
    check(rc == 77 and os.path.exists(recording) and "every answer written to" in out,
          f"--dsl-record did not write the DSL recording (exit {rc}):\n{out[-3000:]}")
    if rc != 77:
        return
    recorded_table = table(out)
    check(len(recorded_table) > len(DSL_OPS) // 2, f"no per-operation DSL table in:\n{out[-3000:]}")
    with lzma.open(recording, "rt") as f:
        data = json.load(f)
    chunks = len(data["answers"])
    check(chunks > len(DSL_OPS), f"{chunks} chunks recorded for {len(DSL_OPS)} operations of 12 cases in chunks of 6")
    check(any('"self": [' in line for v in data["answers"].values() for line in v["out"]),
          "no recorded answer holds the DSL's own evaluation")

    rc, out = run("--dsl-recording", recording, "--dsl-verify-recorded", "-1")
    check(rc == 77 and f"{chunks} of {chunks} chunks" in out and f"{chunks} of them" in out
          and "RECORDING DIFFERS" not in out,
          f"the DSL recording just written is not read and verified whole (exit {rc}):\n{out[-3000:]}")
    rc, out = run("--dsl-recording", recording, "--dsl-verify-recorded", "0")
    check(rc == 77 and f"{chunks} of {chunks} chunks" in out and "0 chunks (0 cases) asked of the DSL now" in out
          and "0 of them now" in out,
          f"with nothing to verify, the DSL is asked something (exit {rc}):\n{out[-3000:]}")
    check(table(out) == recorded_table,
          "the recorded DSL answers do not give the comparisons the DSL's answers gave:\n"
          + "\n".join(a + "  |  " + b for a, b in zip(recorded_table, table(out)) if a != b))

    # one byte of one answer (a space that JSON would read past): only a byte comparison sees it
    key = sorted(data["answers"])[len(data["answers"]) // 2]
    altered = {k: (list(v["out"]), [tuple(t) for t in v["traps"]]) for k, v in data["answers"].items()}
    first = altered[key][0][0]
    altered[key][0][0] = first.replace(", ", " , ", 1)
    check(altered[key][0][0] != first, f"the recorded answer {first!r} was not altered")
    altered_path = os.path.join(tmp, "dsl_altered.json.xz")
    R.write_recording(altered_path, altered, data["about"])
    rc, out = run("--dsl-recording", altered_path, "--dsl-verify-recorded", "-1")
    check(rc == 1 and "RECORDING DIFFERS from the CuTe DSL: chunk dsl_" in out and ": line 1: recorded" in out
          and repr(altered[key][0][0])[:60] in out,
          f"a DSL recording altered by hand was not refused when its chunk was verified (exit {rc}):\n{out[-3000:]}")

    rc, out = run("--dsl-recording", os.path.join(tmp, "no_such_dsl_recording.json.xz"))
    check(rc == 1 and "no_such_dsl_recording.json.xz does not exist" in out and "Traceback" not in out,
          f"a missing DSL recording file is not an error with a diagnostic (exit {rc}):\n{out[-3000:]}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cxx", default="g++")
    ap.add_argument("--cuteref", default="", help="cuteref, for the end-to-end checks")
    ap.add_argument("--diff", default="", help="vendor_diff, for the end-to-end checks")
    ap.add_argument("--cpp-arg", action="append", default=[], help="compiler argument for CuTe (repeat)")
    ap.add_argument("--wheel", default="", help="the nvidia-cutlass wheel (pycute), for the DSL's end-to-end checks")
    ap.add_argument("--dsl", default="", help="the CuTe DSL's folder, for the DSL's end-to-end checks")
    args = ap.parse_args()
    cxx = args.cxx
    if shutil.which(cxx) is None:
        print(f"recording_selftest: SKIP: no compiler {cxx}")
        return 77
    source = '#include "inner.hpp"\nint main() { return VALUE; }\n'
    with tempfile.TemporaryDirectory() as tmp:
        one, two = os.path.join(tmp, "one"), os.path.join(tmp, "two")
        for d in (one, two):
            os.makedirs(d)
            with open(os.path.join(d, "inner.hpp"), "w") as f:
                f.write('#include "leaf.hpp"\n#define VALUE LEAF\n')
            with open(os.path.join(d, "leaf.hpp"), "w") as f:
                f.write("#define LEAF 0\n")
        flags = ("-std=c++17", "-O1")
        a = R.fingerprint(cxx, flags, ["-I" + one], source)
        check(a == R.fingerprint(cxx, flags, ["-I" + two], source),
              "the same headers in another folder give another fingerprint (paths must not count)")
        check(a != R.fingerprint(cxx, ("-std=c++17", "-O0"), ["-I" + one], source),
              "another optimisation level gives the same fingerprint")
        with open(os.path.join(two, "leaf.hpp"), "w") as f:
            f.write("#define LEAF 1\n")  # a header two levels down changes by one byte
        check(a != R.fingerprint(cxx, flags, ["-I" + two], source),
              "a changed header two includes down gives the same fingerprint")
        try:
            R.fingerprint(cxx, flags, [], source)  # inner.hpp cannot be found
            check(False, "a program whose headers cannot be listed was fingerprinted")
        except RuntimeError as e:
            check("listing the headers" in str(e), f"the refusal names what failed: {e}")

        check(a == R.fingerprint(cxx, flags, ["-I" + one], source.replace("return VALUE", "return VALUE + 1")),
              "a change outside the preprocessor directives changes the fingerprint (the key's source covers it)")
        check(R.preprocessor_directives('#include "a.h"\nint x;\n  #define M \\\n  1\nint y;\n')
              == '#include "a.h"\n  #define M \\\n  1\n', "a directive or its continuation line is lost")

        k = R.answer_key(a, "src", ["1 2 3"])
        check(k == R.answer_key(a, "src", ["1 2 3"]), "the key is not a function of its parts")
        check(k != R.answer_key(a, "src", ["1 2 4"]), "another input gives the same key")
        check(k != R.answer_key(a, "src2", ["1 2 3"]), "another source gives the same key")
        check(k != R.answer_key(a[::-1], "src", ["1 2 3"]), "another fingerprint gives the same key")
        check(R.answer_key(a, "ab", ["c"]) != R.answer_key(a, "a", ["bc"]),
              "moving a byte from source to input gives the same key")

        answers = {k: (["1\t0\t(_2):(_1)\t2\t99"], []), "k2": (["x"], [("1 2 1 0", 0, 136)])}
        p1, p2 = os.path.join(tmp, "r1.json.xz"), os.path.join(tmp, "r2.json.xz")
        R.write_recording(p1, answers, "test")
        R.write_recording(p2, dict(reversed(list(answers.items()))), "test")
        with open(p1, "rb") as f1, open(p2, "rb") as f2:
            check(f1.read() == f2.read(), "equal recordings are not equal files")
        back = R.Recording(p1)
        check(back.get(k) == answers[k] and back.get("k2") == answers["k2"], "a recording does not read back")
        check(back.get("absent") is None, "an absent key reads back as an answer")
        try:
            R.Recording(os.path.join(tmp, "no_such_recording.json.xz"))
            check(False, "a recording that does not exist was read as an empty one")
        except RuntimeError as e:
            check("does not exist" in str(e), f"the refusal names what is missing: {e}")

        same = (["a", "b"], [("l", 1, 2)])
        check(R.first_difference(same, (["a", "b"], [("l", 1, 2)])) is None, "equal outputs differ")
        d = R.first_difference(same, (["a", "c"], [("l", 1, 2)]))
        check(d is not None and d.startswith("line 2"), f"a changed line is not found at line 2: {d}")
        check(R.first_difference(same, (["a"], [("l", 1, 2)])) is not None, "a missing line is not found")
        check(R.first_difference(same, (["a", "b", "c"], [("l", 1, 2)])) is not None, "an extra line is not found")
        check(R.first_difference(same, (["a", "b"], [("l", 1, 3)])) is not None, "a changed trap is not found")

        d = R.first_difference(same, (["a", "x" * 5000], [("l", 1, 2)]), "the CuTe DSL")
        check(d is not None and "the CuTe DSL now" in d and len(d) < 1000, f"a long line is not named short: {d[:200]}")

        # An oracle that is not compiled: its files' contents, not their folder, decide its key.
        for d in (one, two):
            os.makedirs(os.path.join(d, "pkg"))
            with open(os.path.join(d, "pkg", "m.py"), "w") as f:
                f.write("X = 1\n")
        files = lambda d: [os.path.join(d, "inner.hpp"), os.path.join(d, "pkg", "m.py")]
        with open(os.path.join(two, "leaf.hpp"), "w") as f:
            f.write("#define LEAF 0\n")
        c1 = R.contents_fingerprint(["4.8.1"], files(one), one)
        check(c1 == R.contents_fingerprint(["4.8.1"], list(reversed(files(two))), two),
              "the same files in another folder or order give another contents fingerprint")
        check(c1 != R.contents_fingerprint(["4.8.2"], files(one), one), "another version gives the same contents fingerprint")
        with open(os.path.join(two, "pkg", "m.py"), "w") as f:
            f.write("X = 2\n")
        check(c1 != R.contents_fingerprint(["4.8.1"], files(two), two), "a changed file gives the same contents fingerprint")
        os.rename(os.path.join(two, "pkg", "m.py"), os.path.join(two, "pkg", "n.py"))
        with open(os.path.join(two, "pkg", "n.py"), "w") as f:
            f.write("X = 1\n")
        check(c1 != R.contents_fingerprint(["4.8.1"], [os.path.join(two, "inner.hpp"), os.path.join(two, "pkg", "n.py")], two),
              "a renamed file gives the same contents fingerprint")

        # recorded_or_live: what is recorded is not computed, except the verified sample.
        asked = []

        def compute(names):
            asked.append(list(names))
            return {n: ([f"answer of {n}"], []) for n in names}
        live_keys = {f"c{i}": f"key{i}" for i in range(10)}
        p3 = os.path.join(tmp, "r3.json.xz")
        got = R.recorded_or_live(live_keys, compute, "", 0, "s", record=p3)
        check(got.live == list(live_keys) and not got.recorded and not got.absent and os.path.exists(p3),
              f"recording computes every name and writes them: {got}")
        asked.clear()
        got = R.recorded_or_live(live_keys, compute, p3, 2, "s", oracle="the CuTe DSL")
        check(len(got.recorded) == 10 and len(got.verified) == 2 and sorted(got.live) == sorted(got.verified)
              and asked == [got.live] and not got.errors and got.answers["c3"] == (["answer of c3"], []),
              f"a recorded run computes its verification sample only: {got}, asked {asked}")
        got = R.recorded_or_live(dict(live_keys, c10="key10"), compute, p3, 0, "s")
        check(got.live == ["c10"] and got.absent == ["c10"] and "1 not in the recording (c10)" in R.stale_note(got.absent, "x"),
              f"a name not in the recording is computed and named: {got}")
        got = R.recorded_or_live(live_keys, lambda names: {n: (["changed"], []) for n in names}, p3, -1, "s",
                                 oracle="the CuTe DSL")
        check(len(got.errors) == 10 and "recorded 'answer of c0', the CuTe DSL now 'changed'" in got.errors[0]
              and got.answers["c0"] == (["changed"], []), f"a verified difference is not an error: {got.errors[:1]}")
        check(R.stale_note([], "x") == "", "nothing missing still gives a note")

        ap = argparse.ArgumentParser()
        R.add_recording_arguments(ap, "r.json.xz", "unit", verify_count=3)
        R.add_more_recording_arguments(ap, "dsl", "d.json.xz", "the DSL's", "chunk", 10)
        a = ap.parse_args([])
        check((a.dsl_recording, a.dsl_record, R.more_verify_count(a, "dsl", 10)) == ("d.json.xz", "", 10),
              f"the second recording's defaults: {a}")
        check(R.more_verify_count(ap.parse_args(["--verify-recorded", "-1"]), "dsl", 10) == -1,
              "--verify-recorded -1 does not verify the second recording whole")
        check(R.more_verify_count(ap.parse_args(["--verify-recorded", "-1", "--dsl-verify-recorded", "4"]), "dsl", 10) == 4,
              "--dsl-verify-recorded does not decide for the second recording")

        keys = [f"k{i}" for i in range(28)]
        s1 = R.verification_sample(keys, 2, "seed")
        check(len(s1) == 2 and set(s1) <= set(keys), "the sample is not 2 of the keys")
        check(s1 == R.verification_sample(list(reversed(keys)), 2, "seed"), "the sample depends on the keys' order")
        check(len({tuple(R.verification_sample(keys, 2, f"seed{i}")) for i in range(20)}) > 1,
              "20 seeds choose the same sample")
        check(sorted(R.verification_sample(keys, -1, "seed")) == sorted(keys), "-1 does not choose every key")

        check(all(R.selected_one_in(f"seed{i}", "p", 1) for i in range(50)), "period 1 does not select every seed")
        chosen = sum(R.selected_one_in(f"seed{i}", "p", 4) for i in range(400))
        check(60 <= chosen <= 140, f"period 4 selects {chosen} of 400 seeds, not about 100")
        check(any(R.selected_one_in(f"seed{i}", "p", 4) != R.selected_one_in(f"seed{i}", "q", 4) for i in range(50)),
              "the selection does not depend on the program's name")
        try:
            R.selected_one_in("seed", "p", 0)
            check(False, "a verification period of 0 was accepted")
        except ValueError as e:
            check("must be >= 1" in str(e), f"the refusal names the precondition: {e}")

        # The drivers' shared options: a count or a period, never both or neither.
        ap = argparse.ArgumentParser()
        R.add_recording_arguments(ap, "r.json.xz", "unit", verify_count=3)
        a = ap.parse_args([])
        check((a.recording, a.verify_recorded, a.verify_seed, a.no_recording, a.record) == ("r.json.xz", 3, None, False, ""),
              f"the recording options' defaults: {a}")
        ap = argparse.ArgumentParser()
        R.add_recording_arguments(ap, "d.json.xz", "program", verify_every=4)
        a = ap.parse_args(["--verify-every", "2", "--no-recording"])
        check(a.verify_every == 2 and a.no_recording and not hasattr(a, "verify_recorded"),
              f"a single program's options: {a}")
        for both in ({}, {"verify_count": 1, "verify_every": 4}):
            try:
                R.add_recording_arguments(argparse.ArgumentParser(), "x", "unit", **both)
                check(False, f"add_recording_arguments accepted {both}")
            except ValueError as e:
                check("exactly one" in str(e), f"the refusal names the precondition: {e}")
        check(R.verification_seed(argparse.Namespace(verify_seed="s1"), tmp) == "s1", "--verify-seed is not the seed")
        check(R.verification_seed(argparse.Namespace(verify_seed=None), tmp) == R.source_commit(tmp),
              "without --verify-seed the seed is not the checkout's commit")
        check(R.source_commit(tmp) == "0", "outside a checkout the verification seed is not 0")
        git = subprocess.run(["git", "-C", HERE, "rev-parse", "HEAD"], capture_output=True, text=True)
        if git.returncode == 0:
            check(R.source_commit(HERE) == git.stdout.strip(), "the checkout's commit is not the seed")
        end_to_end = "none (no --cuteref, --diff and --cpp-arg: CuTe's headers are not installed)"
        if args.cuteref and args.diff and args.cpp_arg:
            before = checks
            composed_inverse_end_to_end(tmp, args)
            end_to_end = f"{checks - before} through composed_inverse.py"
        if args.cuteref and args.diff and args.wheel and args.dsl and dsl_oracle.dsl_present(args.dsl):
            before = checks
            dsl_end_to_end(tmp, args)
            end_to_end += f"; {checks - before} through differential.py's CuTe DSL column"
        else:
            end_to_end += "; none for the CuTe DSL (no --cuteref, --diff, --wheel and an installed --dsl)"
    print(f"recording_selftest: {checks} checks, {failures} failed; end to end: {end_to_end}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
