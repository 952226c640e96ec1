"""cuteref.pycute's fast entry points (python/src/pycute_fast_calls.cpp): coalesce,
composition, complement, logical_divide and logical_product called with positional pycute
layouts (and complement's int) go straight to the model; every other form goes to the general
binding. Each drawn case is called through both (positional: fast; keywords: general), with
layouts of a Layout subclass, and with pycute (the oracle): the two entry points must give the
same layout or the same refusal, and the answer must equal pycute's as a function (size and
every value, each side evaluating its own result)."""
import os
import random
import sys

import pytest

import cuteref
from cuteref import pycute as pc
from conftest import REPORT

sys.path.insert(0, os.path.join(os.environ.get("CUTEREF_SOURCE_DIR", ""), "oracles"))
import pycute_cases  # noqa: E402

CASES_PER_OP = 150
OPS = ["coalesce", "composition", "complement", "logical_divide", "logical_product"]
KEYWORDS = {"coalesce": ["layout", "profile"], "complement": ["layout", "max_idx"]}


class SubLayout(pc.Layout):
    """A user's subclass: accepted wherever a Layout is (the fast path checks subtypes)."""


class Recorder:
    """cuteref.pycute for pycute_cases.draw_case, remembering the arguments of the op's call."""

    def __init__(self, op):
        self.op, self.args = op, None

    def __getattr__(self, name):
        real = getattr(pc, name)
        if name != self.op:
            return real

        def record(*args):
            self.args = args
            return real(*args)
        return record


def as_function(api, layout):
    return [layout(i) for i in range(api.size(layout))]


def outcome(call):
    """("ok", result) or ("refused", the error's type and diagnostic)."""
    try:
        return "ok", call()
    except cuteref.Error as e:
        return "refused", f"{type(e).__name__}: {e.diagnostic}"


def subclassed(arg):
    return SubLayout(arg.shape, arg.stride) if isinstance(arg, pc.Layout) else arg


@pytest.mark.parametrize("op", OPS)
def test_fast_and_general_entry_points_agree(pycute_vendor, op):
    """The vendor suite's pycute cases (oracles/pycute_cases.py, the same draws as the
    differential test, which compares the positional calls with pycute): the positional call,
    the keyword call and the call on subclass instances give the same layout (or the same
    refusal); the count equal to pycute's as functions is reported."""
    fast_path, same_as_pycute = 0, 0
    for k in range(CASES_PER_OP):
        seed = (k * 7919 + len(op) * 104729) ^ 0xFA57
        recorder = Recorder(op)
        case = pycute_cases.draw_case(recorder, random.Random(seed), op)
        fast = outcome(case.thunk)
        args = recorder.args
        names = KEYWORDS.get(op, ["layoutA", "layoutB"])
        general = outcome(lambda: getattr(pc, op)(**dict(zip(names, args))))
        sub = outcome(lambda: getattr(pc, op)(*[subclassed(a) for a in args]))
        assert fast[0] == general[0] == sub[0], f"{case.expr}: {fast} / {general} / {sub}"
        if fast[0] == "refused":
            assert fast[1] == general[1] == sub[1] and fast[1].startswith("PycuteError: "), case.expr
            continue
        assert type(fast[1]) is pc.Layout and type(sub[1]) is pc.Layout, case.expr
        assert repr(fast[1]) == repr(general[1]) == repr(sub[1]), case.expr
        assert fast[1] == general[1] and hash(fast[1]) == hash(general[1]), case.expr
        fast_path += isinstance(args[0], pc.Layout) and (len(args) == 1 or not isinstance(args[1], tuple))
        vcase = pycute_cases.draw_case(pycute_vendor, random.Random(seed), op)
        try:
            theirs = vcase.thunk()
        except AssertionError:
            continue
        same_as_pycute += (pycute_vendor.size(theirs), as_function(pycute_vendor, theirs)) == \
            (pc.size(fast[1]), as_function(pc, fast[1]))
    assert fast_path > CASES_PER_OP // 2 and same_as_pycute > 0
    REPORT.append(f"pycute fast entry points, {op}: {CASES_PER_OP} cases alike through the positional, keyword and "
                  f"subclass calls ({fast_path} answered on the fast path); {same_as_pycute} equal to pycute's")


def test_forms_the_fast_path_hands_over(pycute_vendor):
    """Operand forms other than (layout, layout) / (layout, int): the general binding answers,
    as pycute does (hand derivations in the comments)."""
    L = pc.Layout((4, 2), (1, 4))
    assert pc.composition(L, None) is L and pc.logical_divide(L, None) is L  # pycute: B None is A
    assert str(pc.coalesce(L, None)) == "8:1"  # (4,2):(1,4): 1*4 == 4, the modes merge
    assert str(pc.coalesce(L, (1, 1))) == "(4, 2):(1, 4)"  # by mode: each mode alone
    assert str(pc.complement(pc.Layout(4, 2))) == str(pycute_vendor.complement(pycute_vendor.Layout(4, 2))) == "2:1"
    # An int tiler is n:1: 8:1 divided by 4 is ((4,2)):((1,4)).
    assert pc.logical_divide(pc.Layout(8, 1), 4) == pc.Layout((4, 2), (1, 4))
    # A tuple tiler applies by mode: (4:1, 2:1) on (4,2):(1,4) leaves it as it is.
    assert pc.composition(L, (pc.Layout(4, 1), pc.Layout(2, 1))) == L
    with pytest.raises(TypeError, match="complement max_idx"):
        pc.complement(L, True)  # a bool is not an int here (as before the fast path)
    with pytest.raises(cuteref.Error, match="does not fit in 64 bits"):
        pc.complement(L, 2 ** 70)
    with pytest.raises(TypeError, match="coalesce"):
        pc.coalesce((4, 2))
    with pytest.raises(TypeError):
        pc.composition(L)  # a missing argument: the general binding's TypeError
    with pytest.raises(TypeError):
        pc.logical_product(L, L, L)


def test_a_layout_changed_from_python_is_read_as_changed(pycute_vendor):
    """The model's layout lives in the Python object: setting .shape / .stride changes what
    the next call computes (pycute's Layout is mutable the same way)."""
    mine, theirs = pc.Layout((4, 2), (1, 4)), pycute_vendor.Layout((4, 2), (1, 4))
    for obj in (mine, theirs):
        obj.stride = (2, 8)
    assert str(pc.coalesce(mine)) == str(pycute_vendor.coalesce(theirs)) == "8:2"  # 2*4 == 8 merges
    for obj in (mine, theirs):
        obj.shape = (4, 3)
    # (4,3):(2,8) is 12:2 (the even offsets below 24); within 48 its complement is (2,2):(1,24):
    # j + 2*i + 24*k, j, k < 2, i < 12, covers 0..47 once.
    assert as_function(pc, pc.complement(mine, 48)) == as_function(pycute_vendor, pycute_vendor.complement(theirs, 48))
    assert as_function(pc, pc.complement(mine, 48)) == [0, 1, 24, 25]


def call_both(op, args, kwargs):
    return outcome(lambda: getattr(pc, op)(*args)), outcome(lambda: getattr(pc, op)(**kwargs))


def test_refusals_are_the_same_through_both_entry_points():
    """A refused call raises the general binding's PycuteError, whichever entry point it took."""
    A = pc.Layout((2, 2), (1, 1))  # not injective: 0 1 1 2
    fast, general = call_both("complement", [A, 8], {"layout": A, "max_idx": 8})
    assert fast == general and fast[0] == "refused" and "injective" in fast[1]
    # logical_product(A, B) composes complement(A) = (2,2):(2,8) (A = (2,2):(1,4) covers 0 1 4 5)
    # with B = 3:1: B's 3 elements split over a first mode of 2, and 3 % 2 != 0: CuTe's Shape
    # Divisibility Condition.
    A, B = pc.Layout((2, 2), (1, 4)), pc.Layout(3, 1)
    fast, general = call_both("logical_product", [A, B], {"layoutA": A, "layoutB": B})
    assert fast == general and fast[0] == "refused" and "Shape Divisibility Condition" in fast[1]
