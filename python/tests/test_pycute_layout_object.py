"""cuteref.pycute.Layout's objects (python/src/pycute_layout_object.cpp): the model's layout
inline in a plain CPython object, freed objects kept on a free list for the next result.
Results made while many others are alive, freed and made again must each be their own
layout; the type's reference count must not drift over that churn; an object that holds no
layout (Layout.__new__, a subclass whose __init__ never calls Layout.__init__) is a TypeError
wherever it is read, never a crash or a default layout. Expected layouts are hand-derived in
the comments."""
import sys

import pytest

import cuteref
from cuteref import pycute as pc
from conftest import REPORT

# Far beyond the free list's 64 entries: results alive at once come from fresh allocations,
# their release fills the list and spills over.
ALIVE = 300


def merged(k):
    """coalesce((2,k):(1,2)): mode 1's stride 2 is mode 0's 2*1, so the two merge to 2k:1 (for
    k == 1, the size-1 mode drops and 2:1 is left, also 2k:1)."""
    return pc.coalesce(pc.Layout((2, k), (1, 2)))


def test_results_stay_their_own_through_the_free_list():
    type_refs = []
    checked = 0
    for _ in range(4):
        alive = [merged(k) for k in range(1, ALIVE + 1)]
        for k, result in enumerate(alive, start=1):
            assert type(result) is pc.Layout and str(result) == f"{2 * k}:1", (k, result)
            checked += 1
        # Free every other one, then make new results into the freed objects: the survivors
        # keep their layouts, the new ones hold theirs.
        for k in range(0, ALIVE, 2):
            alive[k] = None
        # composition(16:1, k:2) is k:2 (the offsets 0, 2, ..., 2(k-1) of a contiguous 16).
        fresh = [pc.composition(pc.Layout(16, 1), pc.Layout(k, 2)) for k in range(1, 9)]
        for k, result in enumerate(fresh, start=1):
            assert str(result) == f"{k}:2", (k, result)
            checked += 1
        for k in range(1, ALIVE, 2):
            assert str(alive[k]) == f"{2 * (k + 1)}:1", (k, alive[k])
            checked += 1
        del alive, fresh, result
        type_refs.append(sys.getrefcount(pc.Layout))
    # Every object of the type holds one reference to it and gives it back when freed (an
    # object on the free list keeps it until it is reused or dropped, and the list holds at
    # most 64): after the first round (which fills the list), each round ends with the same count.
    assert len(set(type_refs[1:])) == 1, type_refs
    REPORT.append(f"pycute Layout objects: {checked} results checked while {ALIVE} were alive, freed and made "
                  "again; the type's reference count unchanged")


class NoInit(pc.Layout):
    """A subclass whose __init__ never calls Layout.__init__: its objects hold no layout."""

    def __init__(self, n):
        self.n = n


READERS = {
    "coalesce": lambda o: pc.coalesce(o),
    "composition (left)": lambda o: pc.composition(o, pc.Layout(2, 1)),
    "composition (right)": lambda o: pc.composition(pc.Layout(8, 1), o),
    "complement": lambda o: pc.complement(o, 16),
    "logical_divide": lambda o: pc.logical_divide(o, pc.Layout(2, 1)),
    "logical_product": lambda o: pc.logical_product(pc.Layout(2, 1), o),
    "size": lambda o: pc.size(o),
    "== a layout": lambda o: pc.Layout(2, 1) == o,
    "cuteref.Value": lambda o: cuteref.Value(o),
    "make_layout": lambda o: pc.make_layout(o, pc.Layout(2, 1)),
}


@pytest.mark.parametrize("make", [lambda: pc.Layout.__new__(pc.Layout), lambda: NoInit(4)], ids=["__new__", "subclass"])
def test_an_object_without_a_layout_is_a_type_error(make):
    for name, read in READERS.items():
        with pytest.raises(TypeError, match="holds no layout"):
            read(make())
    # Its own methods find no layout to bind to: nanobind's refusal of the call.
    with pytest.raises(TypeError, match="incompatible function arguments"):
        make().size()
    REPORT.append(f"pycute Layout objects without a layout: {len(READERS) + 1} readers refused")


def test_init_again_replaces_the_layout_and_checks_self():
    L = pc.Layout(4)  # 4:1
    L.__init__((2, 3), (3, 1))  # as pycute's Layout: __init__ sets shape and stride anew
    assert str(L) == "(2, 3):(3, 1)" and L(1, 2) == 5  # 1*3 + 2*1
    with pytest.raises(TypeError, match="self must be a Layout"):
        pc.Layout.__init__(3, 4)
    o = pc.Layout.__new__(pc.Layout)
    o.__init__(8, 2)
    assert str(pc.coalesce(o)) == "8:2"
