"""Hypothesis strategies for CuTe layouts, as cuteref values (cuteref.Value; the pycute-API
forms are `pycute_layouts` and `.map(cuteref.pycute_layout)`).

Every strategy is built from integers, lists and permutations only, never by filtering, so
Hypothesis shrinks a failing example towards small extents (1 or 2), few modes, shallow
nesting, stride 0 or compact strides, identity permutations and Sw<0,0,0>:

    layouts()                 any layout: nested shapes, strides of any sign (0 included)
    injective_layouts()       distinct values at every index (permuted compact strides with gaps)
    compact_layouts()         bijections onto [0, size) (permuted compact strides)
    dividing_tilers(A)        by-mode tilers T (layouts b:s) such that logical_divide(A, T)
                              is a partition of A's domain (CuTe's divisibility conditions hold)
    layouts_and_dividing_tilers()   (A, T) pairs
    swizzles()                legal Sw<B,M,S> (|S| >= B)
    composed_layouts()        Sw<B,M,S> o offset o L
    tv_layouts()              thread-value layouts: ((threads),(values)) -> a tile's index,
                              a bijection onto the tile (TVLayout: layout, tile shape, counts)

Sizes are bounded (max_size, default 256: extents are clamped in order, a map of the drawn
data, not a filter), so that enumerating a layout's values in a property stays cheap.
"""

from dataclasses import dataclass
from typing import Tuple

from hypothesis import strategies as st

import cuteref

__all__ = ["shapes", "layouts", "injective_layouts", "compact_layouts", "dividing_tilers",
           "layouts_and_dividing_tilers", "swizzles", "composed_layouts", "tv_layouts", "TVLayout",
           "pycute_layouts"]

class _Leaf:
    """A leaf of a drawn tree, carrying its data (e.g. (extent, stride))."""

    def __init__(self, data):
        self.data = data


def _trees(leaf, max_depth: int, max_rank: int):
    """Trees whose leaves carry draws of `leaf`: a leaf, or a tuple of 1..max_rank subtrees, at
    most max_depth deep. Each leaf's data is drawn with it, so deleting a subtree while
    shrinking deletes its data too; a leaf comes first (one_of shrinks to its first branch)."""
    if max_depth == 0:
        return leaf.map(_Leaf)
    sub = _trees(leaf, max_depth - 1, max_rank)
    return st.one_of(leaf.map(_Leaf), st.lists(sub, min_size=1, max_size=max_rank).map(tuple))


def _flat(tree):
    return [tree] if not isinstance(tree, tuple) else [x for t in tree for x in _flat(t)]


def _map_tree(tree, f):
    return tuple(_map_tree(t, f) for t in tree) if isinstance(tree, tuple) else f(tree)


def _text(tree) -> str:
    if isinstance(tree, tuple):
        return "(" + ",".join(_text(t) for t in tree) + ")"
    return str(tree)


def _layout(shape_tree, stride_tree) -> cuteref.Value:
    return cuteref.parse(_text(shape_tree) + ":" + _text(stride_tree))


def _bounded(tree, max_size: int, extent=lambda d: d[0], rebuild=lambda d, e: (e,) + tuple(d[1:])):
    """The tree with each leaf's extent clamped, in order, so that the product of all extents
    stays <= max_size (a map of the drawn data, not a filter: shrinking is unaffected)."""
    budget = [max_size]

    def clamp(leaf):
        e = max(1, min(extent(leaf.data), budget[0]))
        budget[0] //= e
        return _Leaf(rebuild(leaf.data, e))

    return _map_tree(tree, clamp)


def shapes(max_rank: int = 3, max_depth: int = 2, max_extent: int = 8, max_size: int = 256):
    """Nested shapes (Python ints and tuples) with extents in [1, max_extent], product <= max_size."""
    return _trees(st.tuples(st.integers(1, max_extent)), max_depth, max_rank).map(
        lambda t: _map_tree(_bounded(t, max_size), lambda l: l.data[0]))


def layouts(max_rank: int = 3, max_depth: int = 2, max_extent: int = 8, max_stride: int = 16,
            nonnegative: bool = False, max_size: int = 256):
    """Any layout: extents in [1, max_extent] (shrinking to 1), size <= max_size, strides in
    [-max_stride, max_stride] ([0, max_stride] if nonnegative; shrinking to 0)."""
    leaf = st.tuples(st.integers(1, max_extent), st.integers(0 if nonnegative else -max_stride, max_stride))

    def build(tree):
        tree = _bounded(tree, max_size)
        return _layout(_map_tree(tree, lambda l: l.data[0]), _map_tree(tree, lambda l: l.data[1]))

    return _trees(leaf, max_depth, max_rank).map(build)


@st.composite
def _permuted_compact(draw, max_rank, max_depth, max_extent, max_gap, max_size):
    tree = draw(_trees(st.tuples(st.integers(1, max_extent), st.integers(1, max_gap)), max_depth, max_rank))
    tree = _bounded(tree, max_size)
    leaves = _flat(tree)
    order = draw(st.permutations(range(len(leaves))))  # shrinks to the identity: column-major
    stride_of = {}
    running = 1
    for k in order:  # leaf k's stride: the product of the extents (and gaps) before it in order
        extent, gap = leaves[k].data
        running *= gap
        stride_of[id(leaves[k])] = running
        running *= extent
    return _layout(_map_tree(tree, lambda l: l.data[0]), _map_tree(tree, lambda l: stride_of[id(l)]))


def injective_layouts(max_rank: int = 3, max_depth: int = 2, max_extent: int = 8, max_gap: int = 3,
                      max_size: int = 256):
    """Layouts with distinct values at every index: strides compact in a permuted order,
    each multiplied by a gap in [1, max_gap] (shrinking to compact column-major)."""
    return _permuted_compact(max_rank, max_depth, max_extent, max_gap, max_size)


def compact_layouts(max_rank: int = 3, max_depth: int = 2, max_extent: int = 8, max_size: int = 256):
    """Bijections onto [0, size): compact strides in a permuted order."""
    return _permuted_compact(max_rank, max_depth, max_extent, 1, max_size)


def _divisors(n: int):
    return [d for d in range(1, n + 1) if n % d == 0]


def _prefix_divisor(draw, extents):
    """A divisor d of product(extents) compatible with every prefix: d = e0*...*e(k-1)*c with
    c | e_k (CuTe's composition divisibility along these extents). Returns (d, the extents
    left after dividing d out from the front)."""
    k = draw(st.integers(0, len(extents)))  # how many whole leading extents d spans
    if k == len(extents):
        d = 1
        for e in extents:
            d *= e
        return d, []
    c = draw(st.sampled_from(_divisors(extents[k])))
    d = c
    for e in extents[:k]:
        d *= e
    rest = [extents[k] // c] + list(extents[k + 1:])
    return d, rest


def _mode_tiler(draw, mode_extents, allow_stride):
    """A tiler b:s for a mode with these flat extents: s, then b, prefix-compatible."""
    s, rest = _prefix_divisor(draw, mode_extents) if allow_stride and draw(st.booleans()) else (1, mode_extents)
    b, _ = _prefix_divisor(draw, rest) if rest else (1, [])
    return cuteref.parse(f"{b}:{s}")


@st.composite
def dividing_tilers(draw, layout, allow_stride: bool = True):
    """A by-mode tiler (a tuple of layouts b:s, one per leading top-level mode of `layout`,
    or one layout for a rank-1 layout) such that logical_divide(layout, tiler) satisfies CuTe's
    divisibility conditions: b and s are prefix-compatible divisors of the mode's flat extents
    (see _prefix_divisor), so the divide partitions the layout's domain."""
    shape = cuteref.Value(layout).shape.to_python()
    modes = list(shape) if isinstance(shape, tuple) else [shape]
    if not isinstance(shape, tuple):
        return _mode_tiler(draw, _flat(shape), allow_stride)
    count = draw(st.integers(1, len(modes))) if modes else 0
    return cuteref.Value(tuple(_mode_tiler(draw, _flat(m), allow_stride) for m in modes[:count]))


@st.composite
def layouts_and_dividing_tilers(draw, layout_strategy=None, allow_stride: bool = True):
    """(A, T): a layout from layout_strategy (default: layouts with non-negative strides) and a
    tiler dividing it."""
    a = draw(layout_strategy if layout_strategy is not None else layouts(nonnegative=True))
    return a, draw(dividing_tilers(a, allow_stride))


@st.composite
def swizzles(draw, max_bits: int = 3, max_base: int = 4, max_extra_shift: int = 3):
    """Legal Sw<B,M,S>: 0 <= B <= max_bits, 0 <= M <= max_base, B <= |S| <= B + max_extra_shift."""
    b = draw(st.integers(0, max_bits))
    m = draw(st.integers(0, max_base))
    s = b + draw(st.integers(0, max_extra_shift))
    if draw(st.booleans()):
        s = -s
    return cuteref.parse(f"Sw<{b},{m},{s}>")


@st.composite
def composed_layouts(draw, layout_strategy=None, max_offset: int = 64):
    """Sw<B,M,S> o offset o L, with L from layout_strategy (default: injective layouts)."""
    sw = draw(swizzles())
    offset = draw(st.integers(0, max_offset))
    inner = draw(layout_strategy if layout_strategy is not None else injective_layouts())
    return cuteref.parse(f"{sw} o {offset} o {inner}")


@dataclass(frozen=True)
class TVLayout:
    """A thread-value layout: layout((t, v)) is the index, in the tile (column-major over
    tile_shape), of value v of thread t; a bijection from (threads, values) onto the tile."""
    layout: cuteref.Value
    tile_shape: Tuple[int, int]
    threads: int
    values: int


@st.composite
def tv_layouts(draw, max_thread_leaves: int = 3, max_value_leaves: int = 2, max_extent: int = 4):
    """TV layouts ((T0,T1,..),(V0,..)):(..) whose values are a permutation of the tile's
    indices [0, M*N), with the tile's M a prefix product of the extents."""
    t_ext = draw(st.lists(st.integers(1, max_extent), min_size=1, max_size=max_thread_leaves))
    v_ext = draw(st.lists(st.integers(1, max_extent), min_size=1, max_size=max_value_leaves))
    extents = t_ext + v_ext
    order = draw(st.permutations(range(len(extents))))
    strides = [0] * len(extents)
    running = 1
    for k in order:
        strides[k] = running
        running *= extents[k]
    total = running
    m_leaves = draw(st.integers(0, len(order)))  # the tile's M: the extents of the first leaves in order
    m = 1
    for k in order[:m_leaves]:
        m *= extents[k]
    shape = (tuple(t_ext), tuple(v_ext))
    stride = (tuple(strides[:len(t_ext)]), tuple(strides[len(t_ext):]))
    threads = 1
    for e in t_ext:
        threads *= e
    return TVLayout(_layout(shape, stride), (m, total // m), threads, total // threads)


def pycute_layouts(strategy=None):
    """Layouts as cuteref.pycute.Layout objects (default: layouts())."""
    from . import pycute

    def to_pycute(v):
        shape, stride = cuteref.Value(v).to_python()
        return pycute.Layout(shape, stride)

    return (strategy if strategy is not None else layouts()).map(to_pycute)
