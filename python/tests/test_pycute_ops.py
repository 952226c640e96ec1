"""PyCuTe's operations (NVlabs/CuTe) in cuteref (EXPR functions) and cuteref.pycute (PyCuTe's names
and Python forms), and the two right inverses. Expected values are PyCuTe's documented examples,
each derived by hand in model/tests/pycute_ops_test.cpp and corpus/algebra/pycute_ops.txt."""
import pytest

import cuteref
from cuteref import pycute as pc


def test_layout_add():
    # (4,3):(1,4) is i; on (4,3) the strides of the sum are 1+3 and 4+1.
    assert str(cuteref.layout_add("(4,3):(1,4)", "(4,3):(3,1)")) == "(4,3):(4,5)"
    R = pc.layout_add(pc.Layout((4, 3), (1, 4)), pc.Layout((4, 3), (3, 1)))
    assert (R.shape, R.stride) == ((4, 3), (4, 5))
    assert [R(i) for i in range(12)] == [i + ((i % 4) * 3 + (i // 4)) for i in range(12)]
    assert pc.layout_add(pc.Layout(12, 1), None) == pc.Layout(12, 1)  # PyCuTe: None is the identity
    with pytest.raises(cuteref.Error, match="no common refinement"):
        cuteref.layout_add("(2,3):(1,10)", "(3,2):(1,10)")
    with pytest.raises(pc.PycuteError, match="no common refinement"):
        pc.layout_add(pc.Layout((2, 3), (1, 10)), pc.Layout((3, 2), (1, 10)))


def test_greatest_common_domain():
    # gcd(4,8) = 4 at 1, then 6 against the rest 2 at 4, then 3 against the rest 3 at 8.
    G = pc.greatest_common_domain((4, 6), (8, 3))
    assert (G.shape, G.stride) == ((4, 2, 3), (1, 4, 8))
    assert pc.size(G) == 24
    assert str(cuteref.greatest_common_domain("(4,6):(1,4)", "(8,3):(1,8)")) == "(4,2,3):(1,4,8)"
    G = pc.greatest_common_domain(pc.Layout((5, 3, 4)), (10, 6))  # a layout stands for its shape
    assert (G.shape, G.stride) == ((5, 2), (1, 30))
    G = pc.greatest_common_domain((5, 3), (3, 5))
    assert (G.shape, G.stride) == ((1,), (0,))


def test_common_refinement_and_coarsening():
    assert pc.common_refinement(((2, 3), 20), (6, (4, 5))) == ((2, 3), (4, 5))
    assert pc.common_refinement(10, (10,)) == (10,)
    with pytest.raises(pc.PycuteError, match="the integers 6 and 2 differ"):
        pc.common_refinement((6, 5), (2, 15))
    assert pc.common_coarsening((4, (3, 5)), ((2, 2), 15)) == (4, 15)
    assert pc.common_coarsening((2, 3), (2, 3, 1)) == 6
    with pytest.raises(pc.PycuteError, match="the sizes 3 and 4 differ"):
        pc.common_coarsening(3, 4)
    assert str(cuteref.common_coarsening("(2,15)", "(2,(3,5))")) == "(2,15)"


def test_coalesce_z():
    # The trailing 1:0 is kept: index 12 maps to 0 (the last coordinate takes 12 // 12 = 1, times 0).
    Z = pc.coalesce_z(pc.Layout((2, 1, 6, 1), (1, 7, 8, 0)))
    assert (Z.shape, Z.stride) == ((2, 6, 1), (1, 8, 0))
    Z = pc.coalesce_z(pc.Layout((3, (2, 6)), (1, (3, 6))), (1, 1))
    assert (Z.shape, Z.stride) == ((3, 12), (1, 3))
    assert str(cuteref.coalesce_z("(2,1,6,1):(1,7,8,0)")) == "(2,6,1):(1,8,0)"


def test_right_inverse_static_and_full():
    # CuTe follows static strides only: the chain stops at the run-time 4 after 4:_1.
    assert str(cuteref.right_inverse("(4,2):(_1,4)")) == "4:_1"
    assert str(cuteref.right_inverse_full("(4,2):(_1,4)")) == "8:_1"
    # pycute's right_inverse has no static integers: every stride is followed.
    R = pc.right_inverse(pc.Layout((4, 2), (1, 4)))
    assert [R(i) for i in range(pc.size(R))] == list(range(8))
