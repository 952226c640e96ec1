"""Example property tests with cuteref.strategies, and the strategies' own guarantees
(each checked by enumeration on the model), and how well they shrink."""
import collections

from hypothesis import HealthCheck, given, settings, find
from hypothesis import strategies as st

import cuteref
from cuteref import strategies as cs
from conftest import REPORT

# Derandomized (the same examples every run), no example database: CI runs are reproducible.
PROPERTY = settings(max_examples=150, derandomize=True, database=None, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])
COUNTS = collections.Counter()


def values(L):
    return [int(L(i)) for i in range(int(cuteref.size(L)))]


@PROPERTY
@given(cs.layouts())
def test_coalesce_preserves_the_function(L):
    COUNTS["coalesce_preserves_the_function"] += 1
    C = cuteref.coalesce(L)
    assert C == L  # functional ==: same size, same value at every index
    assert int(cuteref.depth(C)) <= 1


@PROPERTY
@given(cs.injective_layouts())
def test_injective_layouts_are_injective_and_complement_tiles(L):
    COUNTS["injective_layouts_complement"] += 1
    v = values(L)
    assert len(set(v)) == len(v)
    # complement(L, M) with M = cosize(L): L and its complement are disjoint and (L, C) injective.
    M = int(cuteref.cosize(L))
    C = cuteref.complement(L, M)
    joint = values(cuteref.make_layout(L, C))
    assert len(set(joint)) == len(joint)
    assert max(joint) + 1 >= M


@PROPERTY
@given(cs.compact_layouts())
def test_compact_layouts_are_bijections_and_invert(L):
    COUNTS["compact_layouts_inverse"] += 1
    assert sorted(values(L)) == list(range(int(cuteref.size(L))))
    R = cuteref.right_inverse_full(L)  # by the values: the strategies' integers are run-time ones
    assert all(int(L(R(j))) == j for j in range(int(cuteref.size(R))))
    assert int(cuteref.size(R)) == int(cuteref.size(L))  # a bijection's right inverse is whole
    Rc = cuteref.right_inverse(L)  # CuTe's, static strides only: smaller, still a right inverse
    assert all(int(L(Rc(j))) == j for j in range(int(cuteref.size(Rc))))


@PROPERTY
@given(cs.layouts_and_dividing_tilers())
def test_logical_divide_by_a_dividing_tiler_partitions(pair):
    A, T = pair
    COUNTS["dividing_tilers_partition"] += 1
    D = cuteref.logical_divide(A, T)  # raises cuteref.Error if a divisibility condition failed
    assert int(cuteref.size(D)) == int(cuteref.size(A))
    # a re-indexing of A's domain: the same multiset of values.
    assert sorted(values(D)) == sorted(values(A))


@PROPERTY
@given(cs.swizzles(), st.integers(0, 1 << 16))
def test_swizzles_are_involutions(sw, x):
    COUNTS["swizzle_involution"] += 1
    assert int(sw(sw(x))) == x


@PROPERTY
@given(cs.composed_layouts())
def test_composed_layout_is_swizzle_of_offset_plus_layout(C):
    COUNTS["composed_layouts"] += 1
    text = str(C)
    sw = cuteref.parse(text.split(" o ")[0])
    offset = int(text.split(" o ")[1])
    inner = cuteref.parse(text.split(" o ", 2)[2])
    assert all(int(C(i)) == int(sw(offset + int(inner(i)))) for i in range(int(cuteref.size(C))))
    # coalesce acts on the inner layout: the same function.
    assert cuteref.coalesce(C) == C


@PROPERTY
@given(cs.tv_layouts())
def test_tv_layouts_cover_their_tile(tv):
    COUNTS["tv_layouts"] += 1
    m, n = tv.tile_shape
    assert sorted(values(tv.layout)) == list(range(m * n))
    assert tv.threads * tv.values == m * n
    # layout((t, v)): thread t's value v, inside the tile.
    assert all(0 <= int(tv.layout((t, v))) < m * n for t in range(tv.threads) for v in range(tv.values))


@PROPERTY
@given(cs.pycute_layouts(cs.compact_layouts()))
def test_pycute_layouts(L):
    from cuteref import pycute
    COUNTS["pycute_layouts"] += 1
    assert sorted(L(i) for i in range(pycute.size(L))) == list(range(pycute.size(L)))


QUIET = settings(derandomize=True, database=None, max_examples=2000, deadline=None)


def test_shrinking_finds_minimal_examples():
    """False properties shrink to the smallest counterexample there is."""
    # The smallest non-injective layout: two indices, stride 0.
    L = find(cs.layouts(), lambda L: len(set(values(L))) < len(values(L)), settings=QUIET)
    assert str(L) == "2:0"
    # The smallest layout coalesce cannot merge into one mode: (2,2) with non-matching strides.
    L = find(cs.layouts(), lambda L: int(cuteref.rank(cuteref.coalesce(L))) > 1, settings=QUIET)
    assert int(cuteref.size(L)) == 4 and str(cuteref.shape(L)) == "(2,2)"
    # The smallest illegal-looking... swizzle that moves an offset: one bit.
    sw = find(cs.swizzles(), lambda s: any(int(s(x)) != x for x in range(64)), settings=QUIET)
    assert str(sw) == "Sw<1,0,1>"
    REPORT.append("strategies: shrinking examples 2:0, " + str(L) + ", " + str(sw))


def test_report_counts():
    # Runs after the properties in this file (pytest keeps file order): how many examples each checked.
    assert COUNTS and all(v > 0 for v in COUNTS.values())
    REPORT.append("strategies property examples: " + ", ".join(f"{k} {v}" for k, v in sorted(COUNTS.items())))
