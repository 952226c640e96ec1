"""pycute's public API, backed by cuteref's model: replace `import pycute` (or
`from pycute import *`) by `from cuteref import pycute` (`from cuteref.pycute import *`).

Names, signatures and Python forms are pycute's (nvidia-cutlass 4.2.0.0): Layout(shape,
stride=None) with .shape/.stride as ints and tuples, L(coord), L(None, j) slicing, L[i],
len(L), L.size(), L.cosize(); make_layout, size, cosize, coalesce, filter, composition,
complement, right_inverse, left_inverse, logical_divide, logical_product, hier_unzip,
zipped_divide, tiled_divide, zipped_product, tiled_product, slice_and_offset; Swizzle,
ComposedLayout; the integer-tuple helpers (crd2idx, idx2crd, prefix_product, shape_div, ...).
Beyond pycute 4.2, PyCuTe's (NVlabs/CuTe) layout_add, greatest_common_domain, common_refinement,
common_coarsening and coalesce_z, under PyCuTe's names and argument order.

The layouts and every layout function are the C++ model's (CuTe C++'s semantics). Results
equal pycute's as functions (size and value at every index), with the model's answer where
pycute is wrong (oracles/known_defects.py: pycute's smaller or invalid inverses, its
complement of shape 0, its logical_product(A, n), which divides) and CuTe's profile where
pycute drops unit modes. A precondition failure raises cuteref.pycute.PycuteError, an
AssertionError (as pycute asserts) and a cuteref.Error carrying the model's diagnostic.
"""

from abc import ABC
from functools import reduce  # noqa: F401  (pycute's star import exports it)
from itertools import chain  # noqa: F401
from typing import Union  # noqa: F401

from .. import PycuteError, Value
from .._cuteref import pycute_core as _core

__all__ = [
    "Integer", "is_int", "is_tuple", "flatten", "signum", "product", "inner_product", "tuple_max", "elem_scale",
    "shape_div", "prefix_product", "idx2crd", "crd2idx", "crd2crd", "slice_", "has_none",
    "LayoutBase", "is_layout", "Layout", "make_layout", "size", "cosize", "coalesce", "filter", "composition",
    "complement", "right_inverse", "left_inverse", "logical_divide", "logical_product", "hier_unzip",
    "zipped_divide", "tiled_divide", "zipped_product", "tiled_product", "slice_and_offset",
    "shiftr", "shiftl", "Swizzle", "ComposedLayout", "PycuteError",
    # PyCuTe's (NVlabs/CuTe, the CuTe whitepaper's reference package) operations beyond pycute 4.2
    "layout_add", "greatest_common_domain", "common_refinement", "common_coarsening", "coalesce_z",
]


class Integer(ABC):
    """pycute.typing.Integer: isinstance(x, Integer) for ints, not bools."""

    @classmethod
    def __subclasshook__(cls, c):
        if c in (bool, float):
            return False
        return issubclass(c, int)


# ---- integer tuples -----------------------------------------------------------------------

def is_int(x):
    return isinstance(x, Integer)


def is_tuple(x):
    return isinstance(x, tuple)


def flatten(t):
    """The leaves of t in order, as a tuple ((t,) for a leaf)."""
    if not is_tuple(t):
        return (t,)
    return tuple(leaf for element in t for leaf in flatten(element))


def signum(a):
    return (a > 0) - (a < 0)


product = _core.product          # the model's product (checked 64-bit arithmetic)
crd2idx = _core.crd2idx          # the model's crd2idx; stride None: compact column-major


def prefix_product(a, init=1):
    """Exclusive prefix product congruent to a: the model's compact column-major strides."""
    return _core.prefix_product(a, init)


def inner_product(a, b):
    """Sum of the products of corresponding leaves. @pre a and b congruent."""
    if is_tuple(a):
        if not is_tuple(b) or len(a) != len(b):
            raise PycuteError(f"inner_product: {a} and {b} are not congruent")
        return sum(inner_product(x, y) for x, y in zip(a, b))
    if is_tuple(b):
        raise PycuteError(f"inner_product: {a} and {b} are not congruent")
    return a * b


def tuple_max(a):
    return max(tuple_max(x) for x in a) if is_tuple(a) else a


def elem_scale(a, b):
    """a scaled leaf by leaf by b (a leaf of a scales by the product of b's subtree)."""
    if is_tuple(a):
        if not is_tuple(b) or len(a) != len(b):
            raise PycuteError(f"elem_scale: {b} does not match the tuple {a}")
        return tuple(elem_scale(x, y) for x, y in zip(a, b))
    return a * product(b)


def shape_div(a, b):
    """CuTe's shape_div: a divided by b from the left, mode by mode, with ceiling
    (b's remaining divisor passes to the next mode). @pre at each leaf one divides the other."""
    if is_tuple(a):
        if is_tuple(b):
            if len(a) != len(b):
                raise PycuteError(f"shape_div: {a} and {b} have different ranks")
            return tuple(shape_div(x, y) for x, y in zip(a, b))
        out = []
        for element in a:
            out.append(shape_div(element, b))
            b = shape_div(b, product(element))
        return tuple(out)
    if is_tuple(b):
        return shape_div(a, product(b))
    if a % b != 0 and b % a != 0:
        raise PycuteError(f"shape_div: neither of {a} and {b} divides the other")
    return -(-a // b)


def idx2crd(idx, shape, stride=None):
    """The coordinate of idx in shape: the model's idx2crd (colexicographic, the last mode
    takes the rest of the quotient, as CuTe's); with an explicit stride, (idx // d) % s per leaf."""
    if stride is None:
        return _core.idx2crd(idx, shape)
    if is_tuple(idx):
        if not (is_tuple(shape) and len(idx) == len(shape) == len(stride)):
            raise PycuteError(f"idx2crd: {idx} does not match the shape {shape}")
        return tuple(idx2crd(i, s, d) for i, s, d in zip(idx, shape, stride))
    if is_tuple(shape):
        if len(shape) != len(stride):
            raise PycuteError(f"idx2crd: shape {shape} and stride {stride} have different ranks")
        return tuple(idx2crd(idx, s, d) for s, d in zip(shape, stride))
    return (idx // stride) % shape


def crd2crd(crd, dst_shape, src_shape=None):
    """crd transformed into dst_shape's coordinates (through an index where the ranks differ)."""
    if is_tuple(crd):
        if is_tuple(dst_shape):
            if len(crd) != len(dst_shape):
                raise PycuteError(f"crd2crd: {crd} does not match {dst_shape}")
            return tuple(crd2crd(x, y) for x, y in zip(crd, dst_shape))
        if src_shape is None:
            raise PycuteError("crd2crd: a tuple coordinate into an integer shape needs src_shape")
        return crd2idx(crd, src_shape)
    if is_tuple(dst_shape):
        return idx2crd(crd, dst_shape)
    if not crd < dst_shape:
        raise PycuteError(f"crd2crd: {crd} is outside {dst_shape}")
    return crd


def slice_(crd, trg):
    """The parts of trg that crd marks with None, spliced as CuTe's filter_tuple: a
    tuple (a None leaf keeps its target as a 1-tuple, an integer drops it)."""
    if is_tuple(crd):
        if not is_tuple(trg) or len(crd) != len(trg):
            raise PycuteError(f"slice_: {crd} does not match {trg}")
        return tuple(x for c, s in zip(crd, trg) for x in slice_(c, s))
    return (trg,) if crd is None else ()


def has_none(a):
    return any(has_none(v) for v in a) if is_tuple(a) else a is None


# ---- layouts ------------------------------------------------------------------------------

class LayoutBase(ABC):
    """pycute's LayoutBase: Layout and ComposedLayout are instances."""


Layout = _core.Layout
LayoutBase.register(Layout)


def is_layout(x):
    return isinstance(x, LayoutBase)


make_layout = _core.make_layout
size = _core.size
cosize = _core.cosize
coalesce = _core.coalesce
filter = _core.filter  # noqa: A001  (pycute's name)
composition = _core.composition
complement = _core.complement
right_inverse = _core.right_inverse
left_inverse = _core.left_inverse
logical_divide = _core.logical_divide
logical_product = _core.logical_product
zipped_divide = _core.zipped_divide
tiled_divide = _core.tiled_divide
zipped_product = _core.zipped_product
tiled_product = _core.tiled_product
slice_and_offset = _core.slice_and_offset
layout_add = _core.layout_add
greatest_common_domain = _core.greatest_common_domain
common_refinement = _core.common_refinement
common_coarsening = _core.common_coarsening
coalesce_z = _core.coalesce_z


def hier_unzip(splitter, layoutA, layoutB):
    """splitter (a function returning a rank-2 layout) applied by mode as the tiler layoutB
    says, the results gathered into (tiles, rests): the zipped form. For pycute's two
    splitters this is the model's zipped_divide / zipped_product; any other splitter is
    applied mode by mode here."""
    if splitter is logical_divide:
        return zipped_divide(layoutA, layoutB)
    if splitter is logical_product:
        return zipped_product(layoutA, layoutB)
    if layoutB is None:
        return make_layout(Layout(1, 0), layoutA)
    if is_tuple(layoutB):
        if len(layoutA) < len(layoutB):
            raise PycuteError(f"hier_unzip: the tiler {layoutB} has more modes than {layoutA}")
        split = [hier_unzip(splitter, layoutA[i], layoutB[i]) for i in range(len(layoutB))]
        tiles = make_layout(s[0] for s in split)
        rests = make_layout([s[1] for s in split] + [layoutA[i] for i in range(len(layoutB), len(layoutA))])
        return make_layout(tiles, rests)
    return splitter(layoutA, layoutB)


# ---- swizzles -----------------------------------------------------------------------------

def shiftr(a, s):
    return a >> s if s > 0 else shiftl(a, -s)


def shiftl(a, s):
    return a << s if s > 0 else shiftr(a, -s)


class Swizzle(_core.Swizzle):
    """pycute's Swizzle(bits, base, shift): the model's Swizzle<B,M,S> (bits [M+S, M+S+B) of an
    offset XOR-ed into bits [M, M+B)); |shift| >= bits is checked."""

    def size(self):
        return 1 << (self.bits + self.base + abs(self.shift))

    def cosize(self):
        return self.size()

    def __str__(self):
        return f"SW_{self.bits}_{self.base}_{self.shift}"

    def __repr__(self):
        return f"Swizzle({self.bits},{self.base},{self.shift})"


class ComposedLayout(LayoutBase):
    """pycute's ComposedLayout(layoutB, offset, layoutA): x -> layoutB(offset + layoutA(x)).
    With a Swizzle outside, an int offset and a Layout inside it is the model's composed layout
    (`__cuteref_value__`, CuTe's Sw<B,M,S> o offset o layout)."""

    def __init__(self, layoutB, offset, layoutA):
        self.layoutB = layoutB
        self.offset = offset
        self.layoutA = layoutA

    def __eq__(self, other):
        if not isinstance(other, ComposedLayout):
            return NotImplemented
        return self.layoutB == other.layoutB and self.offset == other.offset and self.layoutA == other.layoutA

    __hash__ = None

    def __len__(self):
        return len(self.layoutA)

    def __call__(self, *args):
        return self.layoutB(self.offset + self.layoutA(*args))

    def __getitem__(self, i):
        return ComposedLayout(self.layoutB, self.offset, self.layoutA[i])

    def size(self):
        return size(self.layoutA)

    def cosize(self):
        return cosize(self.layoutB)

    def __str__(self):
        return f"{self.layoutB} o {self.offset} o {self.layoutA}"

    def __repr__(self):
        return f"ComposedLayout({self.layoutB!r},{self.offset!r},{self.layoutA!r})"

    def __cuteref_value__(self) -> Value:
        if isinstance(self.layoutB, _core.Swizzle) and isinstance(self.layoutA, Layout) and is_int(self.offset):
            return _core.make_composed(self.layoutB, self.offset, self.layoutA)
        raise TypeError(f"{self!r}: only Swizzle o int o Layout is a model value")


# pycute's submodules, for `from pycute.layout import Layout` and the like.
from . import int_tuple, layout, swizzle, typing  # noqa: E402,F401
