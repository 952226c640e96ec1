"""cuteref.batch: many EXPRs in one call, one answer each (a Value, or the cuteref.Error the
expression raised, in its place), as `cuteref batch` answers one line per input line."""
import os
import subprocess

import pytest

import cuteref
from conftest import REPORT


def corpus_cases():
    """(where, expr, expected) of every corpus case (expected values from independent sources,
    named in the files)."""
    root = os.path.join(os.environ["CUTEREF_SOURCE_DIR"], "corpus")
    for directory, _, files in sorted(os.walk(root)):
        for name in sorted(files):
            if not name.endswith(".txt"):
                continue
            path = os.path.join(directory, name)
            with open(path) as f:
                for number, line in enumerate(f, 1):
                    t = line.strip()
                    if not t or t.startswith("#"):
                        continue
                    expr, _, expected = t.partition("=>")
                    yield f"{os.path.relpath(path, root)}:{number}", expr.strip(), expected.split("| claimed:")[0].strip()


def test_the_corpus_in_one_batch():
    """Every corpus case in a single call, judged with the corpus runner's rule."""
    cases = list(corpus_cases())
    answers = cuteref.batch([expr for _, expr, _ in cases])
    assert len(answers) == len(cases)
    errors = 0
    for (where, expr, expected), got in zip(cases, answers):
        if expected.startswith("error"):
            needle = expected[6:].strip() if expected[5:6] == ":" else ""
            assert isinstance(got, cuteref.Error) and needle in got.diagnostic, f"{where}: {expr} gave {got}"
            errors += 1
        elif expected in ("true", "false"):
            assert isinstance(got, cuteref.Value) and got.kind == "verdict", f"{where}: {expr} gave {got}"
            assert bool(got) == (expected == "true"), where
        else:
            assert isinstance(got, cuteref.Value) and got == cuteref.eval(expected), f"{where}: {expr} gave {got}"
    assert len(cases) > 100
    REPORT.append(f"cuteref.batch: {len(cases)} corpus cases in one call ({errors} expected errors), all as the corpus says")


def test_errors_stay_in_place():
    exprs = ["coalesce((2,(1,6)):(1,(6,2)))",  # 2:1, 1:6 (dropped), 6:2: 2*1 == 2 merges to 12:1
             "(4,(2,3",                          # unbalanced at column 4
             "complement((2,2):(1,1))",          # offsets 0 1 1 2: not injective
             "4:2 == (2,2):(2,4)"]               # 0 2 4 6 both
    got = cuteref.batch(exprs)
    assert [type(g) for g in got] == [cuteref.Value, cuteref.Error, cuteref.Error, cuteref.Value]
    assert str(got[0]) == "12:1" and str(got[3]) == "true"
    assert got[1].column == 4 and "unbalanced" in got[1].diagnostic
    assert got[2].column == 1 and "injective" in got[2].diagnostic
    assert cuteref.batch(tuple(exprs[:1]))[0] == got[0]  # a tuple as well as a list
    assert cuteref.batch([]) == []


def test_bad_arguments_are_type_errors_before_any_evaluation():
    with pytest.raises(TypeError, match="element 1 is not an EXPR string but a int"):
        cuteref.batch(["8:1", 8])
    with pytest.raises(TypeError, match="list or tuple of EXPR strings, got str"):
        cuteref.batch("8:1")  # one string is not a list of them
    with pytest.raises(TypeError):
        cuteref.batch(None)


def test_batch_answers_as_the_cli_batch():
    """The same lines through `cuteref batch` (the CLI) and cuteref.batch print alike."""
    exprs = ["coalesce((2,(1,6)):(1,(6,2)))", "zipped_divide((8,8):(1,8), (2,4))", "complement((2,2):(1,6), 24)",
             "right_inverse((4,2):(2,1))", "gmma_atom(K, SW64, 8)", "(4,(2,3", "Sw<3,4,3>(896)"]
    out = subprocess.run([os.environ["CUTEREF_BIN"], "batch"], input="\n".join(exprs) + "\n",
                         capture_output=True, text=True, check=True).stdout.splitlines()
    mine = [("error: " + g.diagnostic) if isinstance(g, cuteref.Error) else str(g) for g in cuteref.batch(exprs)]
    assert mine == out
