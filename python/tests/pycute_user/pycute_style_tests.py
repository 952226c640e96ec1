"""A pycute user's test file: unittest cases written for pycute's API (nvidia-cutlass
4.2.0.0), importing it the usual way. test_pycute_user_file.py runs this file twice: as it
is, against pycute itself, and with only the import line changed to cuteref.pycute.

Expected values are hand derivations (in the comments) or the operations' defining
properties checked at every index.
"""
from pycute import *
import unittest


class LayoutFunctionAssertions(unittest.TestCase):
    def assertSameFunction(self, R, f, n):
        """R has size n and R(i) == f(i) for every index."""
        self.assertEqual(size(R), n)
        for i in range(n):
            self.assertEqual(R(i), f(i), f"index {i}")


class TestIntTuple(unittest.TestCase):
    def test_product_flatten_prefix_product(self):
        self.assertEqual(product((2, (3, 4))), 24)
        self.assertEqual(product(7), 7)
        self.assertEqual(flatten((2, (3, (4, 5)))), (2, 3, 4, 5))
        # exclusive prefix products: 1, then 2, then 2*3.
        self.assertEqual(prefix_product((2, (3, 4))), (1, (2, 6)))
        self.assertEqual(prefix_product((2, 3), 5), (5, 10))

    def test_crd2idx_idx2crd(self):
        shape = (4, (2, 3))
        for i in range(product(shape)):
            self.assertEqual(crd2idx(idx2crd(i, shape), shape), i)
        # (1,(1,2)) with strides (1,(4,8)): 1 + 4 + 16 = 21.
        self.assertEqual(crd2idx((1, (1, 2)), (4, (2, 3)), (1, (4, 8))), 21)
        # 13 in (4,(2,3)): 13 % 4 = 1, 13 // 4 = 3 -> (3 % 2, 3 // 2) = (1, 1).
        self.assertEqual(idx2crd(13, (4, (2, 3))), (1, (1, 1)))

    def test_shape_div_and_helpers(self):
        # (6,4) / 12: 6 absorbs 6 (-> 1), the remaining 2 divides 4 (-> 2).
        self.assertEqual(shape_div((6, 4), 12), (1, 2))
        self.assertEqual(inner_product((1, (2, 3)), (4, (5, 6))), 4 + 10 + 18)
        self.assertEqual(tuple_max((3, (9, 2))), 9)
        self.assertEqual(elem_scale((2, 3), (4, 5)), (8, 15))
        self.assertEqual(slice_((None, 1), (4, 8)), (4,))
        self.assertTrue(has_none((1, (None, 2))))
        self.assertFalse(has_none((1, (3, 2))))
        self.assertTrue(is_int(3) and not is_int((3,)) and is_tuple((3,)))


class TestLayout(LayoutFunctionAssertions):
    def test_construction_and_queries(self):
        self.assertEqual(Layout((4, 2)).stride, (1, 4))  # compact column-major
        self.assertEqual(Layout(8).stride, 1)
        L = Layout((4, 2), (2, 1))
        self.assertEqual((L.shape, L.stride), ((4, 2), (2, 1)))
        # 5 -> coordinate (1,1) -> 1*2 + 1*1 = 3.
        self.assertEqual(L(5), 3)
        self.assertEqual(L(1, 1), 3)
        self.assertEqual(L((1, 1)), 3)
        self.assertEqual(size(L), 8)
        self.assertEqual(cosize(L), 8)  # L(7) + 1 = 3*2 + 1 + 1
        self.assertEqual(len(L), 2)
        self.assertEqual(L[0], Layout(4, 2))
        self.assertEqual(L[1], Layout(2, 1))
        self.assertEqual(str(Layout((2, 3), (1, 2))), "(2, 3):(1, 2)")
        self.assertTrue(is_layout(L))
        self.assertEqual(make_layout(Layout(2, 1), Layout(3, 2)), Layout((2, 3), (1, 2)))

    def test_slicing(self):
        L = Layout((4, 2), (2, 1))
        # keep mode 0; the offset 1*1 of the fixed mode is dropped (slice_and_offset keeps it).
        self.assertEqual(L(None, 1), Layout((4,), (2,)))
        self.assertEqual(slice_and_offset((None, 1), L), (Layout((4,), (2,)), 1))

    def test_coalesce(self):
        # (2,1,6):(1,6,2): the 1 goes; 2:1 and 6:2 merge (2*1 == 2): 12:1.
        self.assertEqual(coalesce(Layout((2, (1, 6)), (1, (6, 2)))), Layout(12, 1))
        L = Layout((2, (3, 4)), (12, (1, 3)))
        self.assertSameFunction(coalesce(L), L, 24)
        # by mode: mode 1 (3,4):(1,3) becomes 12:1, mode 0 stays.
        self.assertEqual(coalesce(L, (1, 1)), Layout((2, 12), (12, 1)))

    def test_filter(self):
        # stride-0 and size-1 modes go: (2,3,1):(0,1,5) -> 3:1.
        self.assertEqual(filter(Layout((2, 3, 1), (0, 1, 5))), Layout(3, 1))

    def test_composition(self):
        A = Layout((6, 2), (8, 2))
        B = Layout((4, 3), (3, 1))
        R = composition(A, B)
        self.assertSameFunction(R, lambda i: A(B(i)), size(B))
        # 2:4 takes 0, 4; (4,2):(2,1) maps 4 = (0,1) to 1: 2:1.
        self.assertSameFunction(composition(Layout((4, 2), (2, 1)), Layout(2, 4)), lambda i: i, 2)
        # by-mode tiler: mode 0 (8:1) by 2:2 -> 2:2, mode 1 kept.
        self.assertEqual(composition(Layout((8, 4), (1, 8)), (Layout(2, 2),)), Layout((2, 4), (2, 8)))

    def test_complement(self):
        A = Layout((2, 2), (1, 6))  # takes 0, 1, 6, 7
        C = complement(A, 24)
        values = sorted(make_layout(A, C)(i) for i in range(size(A) * size(C)))
        self.assertEqual(values, list(range(24)))  # A and its complement tile [0, 24)

    def test_divide(self):
        # 4:2 in 16:1: the tile takes 0,2,4,6; its complement in 16 is (2,2):(1,8).
        R = logical_divide(Layout(16, 1), Layout(4, 2))
        self.assertSameFunction(R, Layout((4, (2, 2)), (2, (1, 8))), 16)
        self.assertEqual(len(R), 2)
        # (8,8):(1,8) by (2,4): mode 0 -> (2,4):(1,2), mode 1 -> (4,2):(8,32), zipped.
        Z = zipped_divide(Layout((8, 8), (1, 8)), (Layout(2, 1), Layout(4, 1)))
        self.assertEqual(Z, Layout(((2, 4), (4, 2)), ((1, 8), (2, 32))))
        T = tiled_divide(Layout((8, 8), (1, 8)), (Layout(2, 1), Layout(4, 1)))
        self.assertEqual(T, Layout(((2, 4), 4, 2), ((1, 8), 2, 32)))
        self.assertEqual(hier_unzip(logical_divide, Layout((8, 8), (1, 8)), (Layout(2, 1), Layout(4, 1))), Z)

    def test_product(self):
        # 3 copies of 2:1, each shifted by the complement's step 2: (2,3):(1,2).
        self.assertEqual(logical_product(Layout(2, 1), Layout(3, 1)), Layout((2, 3), (1, 2)))
        # by mode: 2:1 x 2:1 = (2,2):(1,2); 2:2 x 2:1 = (2,2):(2,1) (the complement of 2:2 in
        # 4 is 2:1): 16 elements, zipped into (blocks, copies), tiled into (blocks, c0, c1).
        P = zipped_product(Layout((2, 2), (1, 2)), (Layout(2, 1), Layout(2, 1)))
        self.assertEqual(size(P), 16)
        self.assertEqual(len(P), 2)
        self.assertEqual(len(tiled_product(Layout((2, 2), (1, 2)), (Layout(2, 1), Layout(2, 1)))), 3)

    def test_inverses(self):
        L = Layout((4, 2), (2, 1))  # 0,2,4,6,1,3,5,7: a bijection of [0, 8)
        R = right_inverse(L)
        self.assertEqual(size(R), 8)
        for j in range(size(R)):
            self.assertEqual(L(R(j)), j)
        Li = left_inverse(L)
        for i in range(size(L)):
            self.assertEqual(Li(L(i)), i)


class TestSwizzle(unittest.TestCase):
    def test_swizzle(self):
        # 896 = 0b1110000000: bits 7..9 XOR into bits 4..6: 896 + 112 = 1008.
        self.assertEqual(Swizzle(3, 4, 3)(896), 1008)
        self.assertEqual(Swizzle(3, 4, 3).size(), 1 << 10)
        self.assertEqual(str(Swizzle(3, 4, 3)), "SW_3_4_3")
        with self.assertRaises(AssertionError):
            Swizzle(3, 4, 2)  # |shift| < bits

    def test_composed_layout(self):
        # Sw<1,0,1>: bit 1 into bit 0: 0,1,2,3 -> 0,1,3,2.
        C = ComposedLayout(Swizzle(1, 0, 1), 0, Layout(4, 1))
        self.assertEqual([C(i) for i in range(4)], [0, 1, 3, 2])
        self.assertEqual(C.size(), 4)
        self.assertTrue(is_layout(C))
        # offset 4 first: 4..7 -> 4,5,7,6.
        self.assertEqual([ComposedLayout(Swizzle(1, 0, 1), 4, Layout(4, 1))(i) for i in range(4)], [4, 5, 7, 6])


if __name__ == "__main__":
    unittest.main()
