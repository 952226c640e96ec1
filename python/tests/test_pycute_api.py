"""cuteref.pycute's API surface and where it deliberately answers as CuTe C++ rather than
as pycute (each case with its derivation)."""
import inspect
import os

import pytest

import cuteref
from cuteref import pycute as pc


def test_names_and_signatures_match_pycute(pycute_vendor):
    """Every public name of pycute exists in cuteref.pycute, and every pycute function's
    parameters (names and defaults) are accepted under the same names."""
    public = [n for n in dir(pycute_vendor) if not n.startswith("_")]
    missing = [n for n in public if not hasattr(pc, n)]
    assert not missing
    checked = 0
    for name in public:
        theirs = getattr(pycute_vendor, name)
        if not inspect.isfunction(theirs) or theirs.__module__.split(".")[0] != "pycute":
            continue
        params = [p for p in inspect.signature(theirs).parameters.values() if p.kind == p.POSITIONAL_OR_KEYWORD]
        mine = getattr(pc, name)
        try:
            sig = inspect.signature(mine)
        except (TypeError, ValueError):
            continue  # a C++ function without a Python signature: called by keyword below
        names = list(sig.parameters)
        assert [p.name for p in params] == names[:len(params)] or "args" in names, name
        checked += 1
    # C++-bound functions: called with pycute's keyword names.
    L = pc.Layout((4, 2), (2, 1))
    assert pc.coalesce(layout=L, profile=None) == pc.coalesce(L)
    assert pc.composition(layoutA=L, layoutB=pc.Layout(2, 4)) == pc.composition(L, pc.Layout(2, 4))
    assert pc.complement(layout=pc.Layout(4, 2), max_idx=16) == pc.complement(pc.Layout(4, 2), 16)
    assert pc.logical_divide(layoutA=pc.Layout(16), layoutB=pc.Layout(4)) == pc.logical_divide(pc.Layout(16), 4)
    assert pc.slice_and_offset(crd=(None, 1), layout=L) == pc.slice_and_offset((None, 1), L)
    assert pc.Layout(_shape=(2, 3), _stride=(1, 2)) == pc.Layout((2, 3), (1, 2))
    assert checked >= 10


def test_printing_is_pycute_s():
    L = pc.Layout((2, (3, 4)), (1, (2, 6)))
    assert str(L) == "(2, (3, 4)):(1, (2, 6))"
    assert repr(L) == "Layout((2, (3, 4)),(1, (2, 6)))"
    assert str(pc.Layout(8, 1)) == "8:1"
    assert str(pc.Swizzle(2, 4, 3)) == "SW_2_4_3" and repr(pc.Swizzle(2, 4, 3)) == "Swizzle(2,4,3)"
    C = pc.ComposedLayout(pc.Swizzle(1, 0, 1), 0, pc.Layout(4, 1))
    assert str(C) == "SW_1_0_1 o 0 o 4:1"


def test_layouts_are_values_of_the_model():
    L = pc.Layout((4, 2), (2, 1))
    v = cuteref.Value(L)  # any cuteref function takes a pycute layout
    assert str(v) == "(4,2):(2,1)"
    assert str(cuteref.coalesce(L)) == "(4,2):(2,1)"  # 4*2 != 1: nothing merges
    C = pc.ComposedLayout(pc.Swizzle(3, 4, 3), 0, pc.Layout((8, 64), (64, 1)))
    assert str(cuteref.Value(C)) == "Sw<3,4,3> o 0 o (8,64):(64,1)"
    assert hash(pc.Layout((2, 3))) == hash(pc.Layout((2, 3), (1, 2)))


def test_errors_are_assertion_errors_with_the_diagnostic():
    with pytest.raises(AssertionError) as e:
        pc.complement(pc.Layout((2, 2), (1, 1)), 8)  # not injective: CuTe's precondition
    assert isinstance(e.value, cuteref.Error) and "complement" in e.value.diagnostic
    with pytest.raises(AssertionError):
        pc.Layout(2, 1)[1]  # pycute: `assert i == 0` for a leaf shape
    with pytest.raises(TypeError):
        pc.Layout("8")
    with pytest.raises(cuteref.Error, match="64 bits"):
        pc.Layout(1 << 64)


def test_where_pycute_and_cute_differ():
    # 1. pycute's product asserts nothing where CuTe's "Shape Divisibility Condition" fails and
    #    answers a layout of the wrong size: zipped_product((2,2):(1,2), (2:1, 3:1)) must have
    #    size 4 * 6 = 24 elements; pycute gives 16. cuteref.pycute refuses with CuTe's diagnostic.
    with pytest.raises(pc.PycuteError, match="Divisibility"):
        pc.zipped_product(pc.Layout((2, 2), (1, 2)), (pc.Layout(2, 1), pc.Layout(3, 1)))
    # 2. logical_product(A, n): pycute's code divides; CuTe multiplies: 2:1 x 3 = (2,3):(1,2).
    assert pc.logical_product(pc.Layout(2, 1), 3) == pc.Layout((2, 3), (1, 2))
    # 3. right_inverse keeps CuTe's whole inverse: (2,2):(2,1) is a bijection of [0,4), its
    #    inverse has size 4 (R(j) for j = 0..3 is 0, 2, 1, 3).
    R = pc.right_inverse(pc.Layout((2, 2), (2, 1)))
    assert [R(j) for j in range(pc.size(R))] == [0, 2, 1, 3]
    # 4. pycute's composition keeps A's modes past a short tiler (CuTe 4.2 drops them);
    #    cuteref.pycute answers pycute's question: (2,8,4):(8,1,16) with (2:1,) -> (2,8,4):(8,1,16).
    R = pc.composition(pc.Layout((2, 8, 4), (8, 1, 16)), (pc.Layout(2, 1),))
    assert R == pc.Layout((2, 8, 4), (8, 1, 16))


def test_none_forms():
    L = pc.Layout((4, 6), (1, 4))
    assert pc.composition(L, None) is L
    assert pc.logical_divide(L, None) is L
    assert pc.right_inverse(None) is None and pc.left_inverse(None) is None
    # (None, 2): mode 0 kept, mode 1 divided by 2:1 -> (2,3):(4,8).
    assert pc.logical_divide(L, (None, 2)) == pc.Layout((4, (2, 3)), (1, (4, 8)))
    assert L(None) == pc.Layout((4, 6), (1, 4))
