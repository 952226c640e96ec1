"""The EXPR language from Python (cuteref.eval, parse, functions, ==, errors, prove).
Expected values are hand derivations (each in a comment)."""
import subprocess
import os

import pytest

import cuteref


def test_issue_example():
    # (2,(1,6)):(1,(6,2)) flattens to (2,1,6):(1,6,2); the shape-1 mode goes; 2:1 then 6:2
    # with 2 == 2*1 merge into 12:1.
    assert str(cuteref.eval("coalesce((2,(1,6)):(1,(6,2)))")) == "12:1"


def test_static_and_dynamic_integers_print_as_cute():
    # size of a static layout is static: _2 * _4 = _8; a dynamic shape gives a dynamic 8.
    assert str(cuteref.eval("size((_2,_4):(_1,_2))")) == "_8"
    assert str(cuteref.eval("size((2,4):(1,2))")) == "8"
    assert cuteref.eval("size((_2,_4):(_1,_2))") == 8 == cuteref.eval("size((2,4):(1,2))")


def test_application_and_slicing():
    L = cuteref.eval("(4,2):(2,1)")
    # 5 = 1 + 4*1 -> coordinate (1,1) -> 1*2 + 1*1 = 3.
    assert L(5) == 3 and int(L(5)) == 3
    assert L((1, 1)) == 3 and L(1, 1) == 3
    # L(_,1) keeps mode 0: (4):(2); slicing drops the offset 1*1.
    assert str(L(None, 1)) == "(4):(2)"
    assert str(L(cuteref._, 1)) == "(4):(2)"
    # Sw<3,4,3>(896): 896 = 0b1110000000, bits 7..9 (0b111) XOR into bits 4..6: 896 + 112 = 1008.
    assert cuteref.eval("Sw<3,4,3>")(896) == 1008


def test_functional_equality():
    # 4:2 takes 0,2,4,6; (2,2):(2,4) takes 0,2,4,6 too.
    assert cuteref.eval("4:2") == cuteref.eval("(2,2):(2,4)")
    assert cuteref.eval("4:2") == "(2,2):(2,4)"
    # (2,2):(1,2) takes 0,1,2,3; (2,2):(2,1) takes 0,2,1,3: they differ first at index 1.
    verdict = cuteref.equal("(2,2):(1,2)", "(2,2):(2,1)")
    assert not verdict and verdict.kind == "verdict"
    assert "1" in verdict.reason
    assert cuteref.eval("(2,2):(1,2)") != cuteref.eval("(2,2):(2,1)")
    assert bool(cuteref.eval("8:1 == (2,4):(1,2)")) is True
    # Equal values hash alike (static flags are not part of the value).
    assert hash(cuteref.eval("_8")) == hash(cuteref.eval("8")) == hash(8)
    assert hash(cuteref.eval("4:2")) == hash(cuteref.eval("(2,2):(2,4)"))
    assert len({cuteref.eval("4:2"), cuteref.eval("(2,2):(2,4)"), cuteref.eval("4:1")}) == 2


def test_parse_and_print_round_trip():
    for text in ["(4,2):(1,4)", "((2,2),3):((1,4),8)", "_8:_1", "(4,8):(16@0,1@1)",
                 "Sw<3,4,3> o _0 o (8,64):(64,1)", "(_4,8)", "()", "(4)"]:
        assert str(cuteref.parse(text)) == text
        assert str(cuteref.eval(repr(cuteref.parse(text))[len("cuteref.eval('"):-2])) == text
    with pytest.raises(cuteref.Error) as e:
        cuteref.parse("coalesce(8:1)")  # a literal parser: calls are refused
    assert e.value.column == 1


def test_python_forms():
    L = cuteref.layout((4, (2, 3)), (1, (4, 8)))
    assert str(L) == "(4,(2,3)):(1,(4,8))"
    assert L.to_python() == ((4, (2, 3)), (1, (4, 8)))
    assert len(L) == 2 and str(L[1]) == "(2,3):(4,8)" and str(L[-1]) == str(L[1])
    assert str(cuteref.layout((4, 2))) == "(4,2):(_1,4)"  # compact column-major
    assert cuteref.eval("(1,(2,3))").to_python() == (1, (2, 3))
    assert cuteref.eval("shape((4,2):(1,4))").to_python() == (4, 2)
    assert list(range(cuteref.eval("size(3:1)"))) == [0, 1, 2]


def test_every_function_is_exported():
    names = [n for n, _ in cuteref.functions()]
    assert len(names) >= 50
    for name in names:
        assert callable(getattr(cuteref, name)), name
    # Python values, cuteref values and EXPR strings mix as arguments.
    # B = 2:4 takes 0, 4; A = (4,2):(2,1) maps 0 -> 0 and 4 = coordinate (0,1) -> 1: 2:1.
    assert str(cuteref.composition("(4,2):(2,1)", cuteref.layout(2, 4))) == "2:1"
    assert str(cuteref.logical_divide(cuteref.layout(8), 2)) == "(2,4):(_1,2)"
    assert str(cuteref.mma_layout("SM90_64x128x16_F32F16F16_SS", "C")) == \
        "((_4,_8,_4),(_2,_2,_16)):((_128,_1,_16),(_64,_8,_512))"


def test_errors_carry_diagnostic_and_column():
    with pytest.raises(cuteref.Error) as e:
        cuteref.eval("(4,(2,3")
    assert e.value.column == 4 and "unbalanced" in e.value.diagnostic
    with pytest.raises(cuteref.Error) as e:
        cuteref.eval("size(8:1) + coalesce(4:1, 1, 2)")
    assert e.value.column is not None
    with pytest.raises(cuteref.Error) as e:
        cuteref.eval("  coalesce((2,2):(1,2), 1, 2)")
    assert e.value.column == 3 and "wrong number of arguments" in e.value.diagnostic
    with pytest.raises(cuteref.Error) as e:
        cuteref.coalesce(1, 2, 3)
    assert e.value.column is None and "wrong number of arguments" in str(e.value)
    # 2^32 * 2^32 * 2^32 overflows int64: an error, not a wrapped number.
    with pytest.raises(cuteref.Error, match="overflow"):
        cuteref.eval("size((4294967296,4294967296,4294967296):(1,1,1))")
    with pytest.raises(cuteref.Error, match="64 bits"):
        cuteref.layout(1 << 70)
    with pytest.raises(TypeError):
        cuteref.layout(1.5)


def test_prove():
    # Sw<3,4,3> is an involution: |S| = 3 >= B = 3.
    r = cuteref.prove("Sw<3,4,3>(Sw<3,4,3>(x)) == x")
    assert r and r.status == "proved"
    # coalesce((a,b):(1,b)) is (a*b):1 only when b == a (or a or b is 1): a=1 is fine, so
    # the solver's counterexample has both sides differing at some index.
    r = cuteref.prove("coalesce((a,b):(1,b)) == (a*b):1", where={"a": (1, 4096), "b": (1, 4096)})
    assert not r and r.status == "refuted"
    a, b = r.counterexample["a"], r.counterexample["b"]
    lhs = cuteref.eval(f"coalesce(({a},{b}):(1,{b}))")
    assert lhs != cuteref.eval(f"{a * b}:1")
    r = cuteref.prove("coalesce((a,b):(1,a)) == (a*b):1", where=["a in [1,4096]", "b in [1,4096]"])
    assert r.status == "proved"
    with pytest.raises(cuteref.Error):
        cuteref.prove("coalesce(4:1)")  # not a claim EXPR == EXPR
    # A variable named `index` is not the layouts' element index: 8:1 and 8:v differ exactly
    # when v != 1, and then at every element index i >= 1 (i against v*i).
    r = cuteref.prove("8:1 == 8:index", where={"index": (1, 10)})
    assert r.status == "refuted"
    v, i = r.counterexample["index"], r.element_index
    assert 2 <= v <= 10 and 1 <= i <= 7
    assert f"  index = {v}\n" in r.text and f"  index = {i}: lhs({i}) = {i}, rhs({i}) = {v * i}" in r.text
    assert str(cuteref.equal("8:1", f"8:{v}")).startswith("false")
    # Without such a variable, `index` in the counterexample is the element index.
    r = cuteref.prove("8:1 == 8:a", where={"a": (2, 2)})
    assert r.counterexample["a"] == 2 and 1 <= r.element_index <= 7
    assert r.counterexample["index"] == r.element_index
    # No a in [1, 4] exceeds 5: the hypothesis cannot hold, nothing is proved.
    r = cuteref.prove("a == 100", where={"a": (1, 4)}, assume=["a > 5"])
    assert not r and r.status == "vacuous" and r.text.startswith("vacuous: ")
    # A literal divisor below 1 is a malformed request.
    with pytest.raises(cuteref.Error, match="divisor A >= 1"):
        cuteref.prove("a == 100", where={"a": (2, 2)}, assume=["divides(-2, a)"])


def _corpus_cases():
    root = os.path.join(os.environ.get("CUTEREF_SOURCE_DIR", ""), "corpus")
    for directory, _, files in sorted(os.walk(root)):
        for name in sorted(files):
            if name.endswith(".txt"):
                yield os.path.relpath(os.path.join(directory, name), root)


@pytest.mark.parametrize("path", list(_corpus_cases()))
def test_corpus_file_through_python(path):
    """Every corpus case (expected values from independent sources, named in the files),
    evaluated through the Python binding with the corpus runner's rule."""
    root = os.path.join(os.environ["CUTEREF_SOURCE_DIR"], "corpus")
    checked = 0
    with open(os.path.join(root, path)) as f:
        for number, line in enumerate(f, 1):
            t = line.strip()
            if not t or t.startswith("#"):
                continue
            expr, _, expected = t.partition("=>")
            expr, expected = expr.strip(), expected.split("| claimed:")[0].strip()
            where = f"{path}:{number}: {expr}"
            checked += 1
            if expected.startswith("error"):
                needle = expected[6:].strip() if expected[5:6] == ":" else ""
                with pytest.raises(cuteref.Error) as e:
                    cuteref.eval(expr)
                assert needle in e.value.diagnostic, where
            elif expected in ("true", "false"):
                got = cuteref.eval(expr)
                assert got.kind == "verdict" and bool(got) == (expected == "true"), where
            else:
                assert cuteref.eval(expr) == cuteref.eval(expected), where
    assert checked > 0


def test_cli_and_python_print_the_same():
    """The binding is the CLI's model: `cuteref batch` and cuteref.eval print alike."""
    exprs = ["coalesce((2,(1,6)):(1,(6,2)))", "zipped_divide((8,8):(1,8), (2,4))", "complement((2,2):(1,6), 24)",
             "right_inverse((4,2):(2,1))", "gmma_atom(K, SW64, 8)", "(4,(2,3", "Sw<3,4,3>(896)"]
    out = subprocess.run([os.environ["CUTEREF_BIN"], "batch"], input="\n".join(exprs) + "\n",
                         capture_output=True, text=True, check=True).stdout.splitlines()
    assert len(out) == len(exprs)
    for expr, line in zip(exprs, out):
        try:
            mine = str(cuteref.eval(expr))
        except cuteref.Error as e:
            mine = "error: " + e.diagnostic
        assert mine == line, expr


def test_f2_layouts():
    # Sw<3,0,3> o (8,8):(1,8): the row r at 8r has bits 3..5 XOR-ed into bits 0..2, r x 9.
    F = cuteref.eval("(8,8):(F1,F9)")
    assert F.kind == "f2_layout"
    assert str(F) == "(8,8):(F1,F9)"
    assert F == "Sw<3,0,3> o (8,8):(1,8)"
    assert hash(F) == hash(cuteref.eval("Sw<3,0,3> o (8,8):(1,8)"))
    assert F((1, 1)) == 8  # 1 ^ 9
    assert F.shape == (8, 8)
    assert str(cuteref.to_f2("Sw<3,0,3> o (8,8):(1,8)")) == "(8,8):(F1,F9)"
    assert str(cuteref.from_f2(F)) == "Sw<3,0,3> o (8,8):(1,8)"
    # 2 x F1 = F2, 4 x F2 = F8: one mode of 16.
    assert str(cuteref.coalesce("(2,4,2):(F1,F2,F8)")) == "16:F1"
    with pytest.raises(cuteref.Error, match="F2 and non-zero integer strides cannot be mixed"):
        cuteref.eval("(8,8):(F1,9)")
