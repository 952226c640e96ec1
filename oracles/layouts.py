"""Random layouts for the vendor differential, and their three spellings.

A layout is a tree: a Leaf, or a list of trees (a tuple mode). Each leaf carries its shape
and stride and whether each is static (CuTe's `_4` / `Int<4>{}`) or dynamic (`4` / `int`).
The same tree is spelled three ways: in the model's notation (`cuteref batch`), as a CuTe
C++ expression, and as pycute's nested tuples. Nothing here computes layout algebra: the
generator only draws inputs; every answer comes from the model or from a vendor.

A *pattern* is a tree whose static leaves are fixed and whose dynamic leaves are holes;
one compiled CuTe program serves every case of a pattern (values read at run time).
"""

import random
from dataclasses import dataclass, field
from typing import List, Optional, Union


@dataclass
class Leaf:
    shape: int
    stride: int
    shape_static: bool = False
    stride_static: bool = False


Tree = Union[Leaf, list]


def leaves(t: Tree) -> List[Leaf]:
    if isinstance(t, Leaf):
        return [t]
    out = []
    for c in t:
        out.extend(leaves(c))
    return out


def size(t: Tree) -> int:
    n = 1
    for l in leaves(t):
        n *= l.shape
    return n


def _int(v: int, static: bool) -> str:
    return ("_" if static else "") + str(v)


def model_tree(t: Tree, part: str) -> str:
    if isinstance(t, Leaf):
        return _int(t.shape, t.shape_static) if part == "shape" else _int(t.stride, t.stride_static)
    return "(" + ",".join(model_tree(c, part) for c in t) + ")"


def model(t: Tree) -> str:
    """The layout in the model's notation, e.g. `(_4,(3,2)):(1,(_4,12))`."""
    return model_tree(t, "shape") + ":" + model_tree(t, "stride")


def pycute_tree(t: Tree, part: str):
    if isinstance(t, Leaf):
        return t.shape if part == "shape" else t.stride
    return tuple(pycute_tree(c, part) for c in t)


# ---- CuTe C++ spelling of a pattern: static leaves inline, dynamic leaves read v[k] ----

def _cpp_int(v: int, static: bool, slot: List[int]) -> str:
    if static:
        return f"Int<{v}>{{}}"
    k = slot[0]
    slot[0] += 1
    return f"int(v[{k}])"


def cpp_tree(t: Tree, part: str, slot: List[int]) -> str:
    if isinstance(t, Leaf):
        return _cpp_int(t.shape if part == "shape" else t.stride,
                        t.shape_static if part == "shape" else t.stride_static, slot)
    maker = "make_shape" if part == "shape" else "make_stride"
    return maker + "(" + ", ".join(cpp_tree(c, part, slot) for c in t) + ")"


def cpp(t: Tree, slot: List[int]) -> str:
    """A CuTe expression building the layout; dynamic values are read from v[slot...].
    The order of the slots is dynamic_values(t)'s."""
    shape = cpp_tree(t, "shape", slot)
    stride = cpp_tree(t, "stride", slot)
    return f"make_layout({shape}, {stride})"


def dynamic_values(t: Tree) -> List[int]:
    """The run-time values of a pattern's holes, in the order cpp() reads them."""
    ls = leaves(t)
    return [l.shape for l in ls if not l.shape_static] + [l.stride for l in ls if not l.stride_static]


def signature(t: Tree) -> str:
    """What a compiled program fixes about a layout: nesting, static values, dynamic holes."""
    if isinstance(t, Leaf):
        s = _int(t.shape, True) if t.shape_static else "?"
        d = _int(t.stride, True) if t.stride_static else "?"
        return s + ":" + d
    return "(" + ",".join(signature(c) for c in t) + ")"


# ---- drawing ----

def random_nesting(rng: random.Random, max_rank: int = 4, max_depth: int = 3, max_leaves: int = 6) -> Tree:
    """A random tuple structure of Leaf placeholders: rank 1..max_rank per level,
    depth up to max_depth, at most max_leaves leaves in all."""
    budget = [max_leaves]

    def draw(depth: int, top: bool) -> Tree:
        if not top and (depth >= max_depth or budget[0] <= 1 or rng.random() < 0.6):
            budget[0] -= 1
            return Leaf(1, 0)
        r = rng.randint(1, max_rank)
        kids = []
        for _ in range(r):
            if budget[0] <= 0:
                break
            kids.append(draw(depth + 1, False))
        return kids if kids else Leaf(1, 0)

    t = draw(0, True)
    if isinstance(t, list) and len(t) == 1 and rng.random() < 0.5:
        return t[0]  # sometimes a bare leaf at the top
    return t


SHAPES = [1, 2, 2, 3, 4, 4, 5, 6, 8]


def draw_shape(rng: random.Random, n_leaves: int) -> int:
    if n_leaves >= 5:
        return rng.choice([1, 2, 2, 3, 4])
    return rng.choice(SHAPES)


STRIDE_KINDS = ["compact", "permuted", "gapped", "stride0", "negative", "random"]


def assign_strides(rng: random.Random, t: Tree, kind: str, zero_ok: bool = True) -> None:
    """Set every dynamic stride of t by the scheme `kind`, honouring static strides:
    a static _0 leaf is a broadcast, a static _1 leaf comes first in stride order.
    zero_ok = False: no dynamic stride is 0 (CuTe C++ divides by dynamic strides; only a
    static _0 is known to be a broadcast).
    Pre: every static stride of t is 0 or 1."""
    ls = leaves(t)
    order = list(range(len(ls)))
    if kind not in ("compact",):
        rng.shuffle(order)
    firsts = [i for i in order if ls[i].stride_static and ls[i].stride == 1]
    order = firsts + [i for i in order if i not in firsts]
    acc = 1
    for i in order:
        l = ls[i]
        if l.stride_static:
            if l.stride == 0:
                continue
            acc = l.shape
            continue
        if kind == "stride0" and zero_ok and rng.random() < 0.35:
            l.stride = 0
            continue
        if kind == "gapped" and rng.random() < 0.5:
            acc *= rng.choice([2, 3, 4])
        if kind == "random":
            l.stride = rng.choice([0, 1, 2, 3, 4, 6, 8, 16, -1, -2][0 if zero_ok else 1:])
            continue
        l.stride = acc
        if kind == "negative" and rng.random() < 0.4:
            l.stride = -acc
        acc *= l.shape


MAX_SIZE = 512  # keeps enumeration (every index of every result) cheap


def fill_shapes(rng: random.Random, t: Tree, max_size: int = MAX_SIZE) -> None:
    """Draw every dynamic shape; redraw while the layout's size exceeds max_size
    (static shapes alone may exceed it; then the dynamic ones end up small)."""
    ls = leaves(t)
    for attempt in range(20):
        for l in ls:
            if not l.shape_static:
                l.shape = draw_shape(rng, len(ls)) if attempt < 10 else rng.choice([1, 2])
        if size(t) <= max_size:
            return


def copy_tree(t: Tree) -> Tree:
    if isinstance(t, Leaf):
        return Leaf(t.shape, t.stride, t.shape_static, t.stride_static)
    return [copy_tree(c) for c in t]


def flat_shapes(t: Tree) -> List[int]:
    return [l.shape for l in leaves(t)]
