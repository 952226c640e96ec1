#!/usr/bin/env python3
"""Self-test of recorded_answers.py (suite `vendor`): a recorded CuTe answer is used only for
the compiler, headers, source and input it was recorded for, and a recording that differs from
a program's output by one byte is caught.

    recording_selftest.py [CXX]     exit 0 when every check holds; prints how many ran
"""

import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import recorded_answers as R  # noqa: E402

checks = failures = 0


def check(cond, what):
    global checks, failures
    checks += 1
    if not cond:
        failures += 1
        print(f"FAIL: {what}")


def main():
    cxx = sys.argv[1] if len(sys.argv) > 1 else "g++"
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

        keys = [f"k{i}" for i in range(28)]
        s1 = R.verification_sample(keys, 2, "seed")
        check(len(s1) == 2 and set(s1) <= set(keys), "the sample is not 2 of the keys")
        check(s1 == R.verification_sample(list(reversed(keys)), 2, "seed"), "the sample depends on the keys' order")
        check(len({tuple(R.verification_sample(keys, 2, f"seed{i}")) for i in range(20)}) > 1,
              "20 seeds choose the same sample")
        check(sorted(R.verification_sample(keys, -1, "seed")) == sorted(keys), "-1 does not choose every key")

        check(R.source_commit(tmp) == "0", "outside a checkout the verification seed is not 0")
        git = subprocess.run(["git", "-C", HERE, "rev-parse", "HEAD"], capture_output=True, text=True)
        if git.returncode == 0:
            check(R.source_commit(HERE) == git.stdout.strip(), "the checkout's commit is not the seed")
    print(f"recording_selftest: {checks} checks, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
