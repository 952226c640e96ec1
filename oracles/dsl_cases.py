"""Cases for the CuTe DSL oracle (nvidia-cutlass-dsl, oracles/dsl_worker.py).

The DSL computes layouts on Python ints, which are static integers to it, so every case
here is fully static: the model is asked the same question with static leaves (`_4`),
which is also how CuTe C++ answers static layouts. The operands are drawn with the same
generators as the C++ and pycute sides (layouts.py, cpp_cases._sub_box, the swizzle list).

A case has one or more *parts*: what the model is asked (an expression) for each part of
the DSL's answer (slice_and_offset and make_layout_tv answer a pair). A part is compared
as a function (a layout or composed layout: same size and values, plus rank where CuTe
promises it), as an integer, or as an integer tuple (by value).
"""

import random
from dataclasses import dataclass, field
from typing import Any, List, Optional

import layouts as L
from cpp_cases import SWIZZLES, _sub_box, _top

OPS = ["coalesce", "coalesce_profile", "filter", "filter_zeros", "composition", "composition_tiler",
       "complement", "right_inverse", "left_inverse", "logical_divide", "zipped_divide",
       "tiled_divide", "flat_divide", "logical_product", "zipped_product", "tiled_product",
       "flat_product", "blocked_product", "raked_product", "tile_to_shape", "max_common_vector",
       "max_common_layout", "recast_layout", "make_ordered_layout", "slice_and_offset",
       "composed_composition", "composed_logical_divide", "composed_tile_to_shape",
       "composed_recast_layout", "cosize", "nullspace", "make_layout_tv"]


@dataclass
class Part:
    expr: str            # the model's expression for this part of the DSL's answer
    kind: str = "layout"  # layout | int | tuple
    check_rank: bool = False


@dataclass
class DslCase:
    op: str
    args: List[Any]      # JSON arguments of dsl_worker.py
    parts: List[Part]
    # the pycute operands, for the recognisers of known_defects.py (plain layouts only)
    A: Optional[L.Tree] = None
    cotarget: Optional[int] = None
    expected_size: Optional[int] = None


def static(t: L.Tree) -> L.Tree:
    """t with every leaf static: the DSL's ints are static, and the model is asked alike."""
    t = L.copy_tree(t)
    for l in L.leaves(t):
        l.shape_static = l.stride_static = True
    return t


def spec(t: L.Tree) -> dict:
    return {"L": [L.pycute_tree(t, "shape"), L.pycute_tree(t, "stride")]}


def m(t: L.Tree) -> str:
    return L.model(static(t))


def draw_layout(rng, kinds=None, max_leaves=6, max_size=128) -> L.Tree:
    t = L.random_nesting(rng, max_leaves=max_leaves)
    L.fill_shapes(rng, t, max_size=max_size)
    L.assign_strides(rng, t, rng.choice(kinds or L.STRIDE_KINDS))
    return t


def tuple_layout(rng, kinds=None, max_leaves=5, max_size=64) -> list:
    """A layout whose top level is a tuple (blocked/raked products, tile_to_shape)."""
    t = _top(L.random_nesting(rng, max_leaves=max_leaves))
    L.fill_shapes(rng, t, max_size=max_size)
    L.assign_strides(rng, t, rng.choice(kinds or ["compact", "permuted", "gapped", "stride0"]))
    return t


def sub_layout(rng, a: L.Tree, max_rank=3) -> L.Tree:
    """A right operand inside A's domain: modes of a compact refinement of A's shapes."""
    b = L.random_nesting(rng, max_rank=max_rank, max_depth=2, max_leaves=3)
    _sub_box(rng, L.flat_shapes(a), b)
    return b


def tiler(rng, a: L.Tree):
    """A tuple tiler of leaf layouts, one per leading top mode of A: (spec, model text)."""
    ts = []
    for i in range(rng.randint(1, len(_top(a)))):
        t = L.Leaf(1, 0)
        _sub_box(rng, L.flat_shapes(_top(a)[i]), t)
        ts.append(t)
    return {"T": [spec(t) for t in ts]}, "(" + ", ".join(m(t) for t in ts) + ")"


def composed(rng, a: L.Tree):
    """A swizzled composed layout over A: (spec, model text)."""
    b, mm, s = rng.choice(SWIZZLES)
    off = rng.choice([0, 0, rng.randint(0, 4096)])
    return ({"C": [b, mm, s, off, L.pycute_tree(a, "shape"), L.pycute_tree(a, "stride")]},
            f"Sw<{b},{mm},{s}> o {off} o {m(a)}")


def _order(rng, n):
    o = list(range(n))
    rng.shuffle(o)
    return o


def _tup(xs):
    return "(" + ",".join(str(x) for x in xs) + ")" if len(xs) != 1 else str(xs[0])


def draw_case(rng: random.Random, op: str) -> DslCase:
    if op in ("coalesce", "filter", "filter_zeros", "cosize"):
        a = draw_layout(rng)
        return DslCase(op, [spec(a)], [Part(f"{op}({m(a)})", "int" if op == "cosize" else "layout")], a)
    if op == "coalesce_profile":
        a = tuple_layout(rng, L.STRIDE_KINDS, max_leaves=6, max_size=128)
        prof = [1] * len(a)
        return DslCase(op, [spec(a), prof], [Part(f"coalesce({m(a)}, {_tup(prof) if len(prof) > 1 else '(1)'})",
                                                   check_rank=True)], a)
    if op in ("right_inverse", "left_inverse"):
        a = draw_layout(rng, ["compact", "permuted", "compact", "gapped", "negative", "stride0"])
        return DslCase(op, [spec(a)], [Part(f"{op}({m(a)})")], a)
    if op == "complement":
        a = draw_layout(rng, ["compact", "permuted", "gapped", "stride0"], max_leaves=5)
        cosize = 1 + sum((l.shape - 1) * abs(l.stride) for l in L.leaves(a))
        mm = rng.choice([cosize, 2 * cosize, L.size(a) * 4, rng.randint(1, 1024)])
        return DslCase(op, [spec(a), mm], [Part(f"complement({m(a)}, _{mm})")], a, mm)
    if op in ("composition", "logical_divide", "zipped_divide", "tiled_divide", "flat_divide"):
        a = draw_layout(rng)
        if op == "composition" or rng.random() < 0.5:
            b = sub_layout(rng, a)
            return DslCase(op, [spec(a), spec(b)],
                           [Part(f"{op}({m(a)}, {m(b)})", check_rank=op != "composition" or isinstance(b, list))], a)
        t, ts = tiler(rng, a)
        return DslCase(op, [spec(a), t], [Part(f"{op}({m(a)}, {ts})", check_rank=True)], a)
    if op == "composition_tiler":
        a = draw_layout(rng)
        t, ts = tiler(rng, a)
        return DslCase(op, [spec(a), t], [Part(f"composition({m(a)}, {ts})", check_rank=True)], a)
    if op in ("logical_product", "zipped_product", "tiled_product", "flat_product"):
        a = draw_layout(rng, ["compact", "permuted", "gapped", "stride0"], max_leaves=4, max_size=32)
        b = draw_layout(rng, ["compact", "permuted", "gapped", "stride0"], max_leaves=3, max_size=16)
        return DslCase(op, [spec(a), spec(b)], [Part(f"{op}({m(a)}, {m(b)})", check_rank=True)], a,
                       expected_size=L.size(a) * L.size(b))
    if op in ("blocked_product", "raked_product"):
        a = tuple_layout(rng, max_size=32)
        b = tuple_layout(rng, ["compact", "permuted", "gapped"], max_leaves=3, max_size=16)
        return DslCase(op, [spec(a), spec(b)], [Part(f"{op}({m(a)}, {m(b)})", check_rank=True)], a,
                       expected_size=L.size(a) * L.size(b))
    if op == "tile_to_shape":
        a = tuple_layout(rng, max_size=32)
        tg = [L.size(x) * rng.choice([1, 2, 3]) for x in a]
        order = _order(rng, len(a))
        return DslCase(op, [spec(a), tg, order],
                       [Part(f"tile_to_shape({m(a)}, {_tup(tg) if len(tg) > 1 else '(' + str(tg[0]) + ')'}, "
                             f"{_tup(order) if len(order) > 1 else '(' + str(order[0]) + ')'})", check_rank=True)],
                       a)
    if op in ("max_common_vector", "max_common_layout"):
        from cpp_cases import static_pair
        a, b, _ = static_pair(rng)
        kind = "int" if op == "max_common_vector" else "layout"
        return DslCase(op, [spec(a), spec(b)], [Part(f"{op}({m(a)}, {m(b)})", kind)], a)
    if op == "recast_layout":
        a = draw_layout(rng, ["compact", "permuted", "gapped", "compact"])
        old, new = rng.choice([(8, 16), (16, 8), (8, 32), (32, 8), (16, 32), (32, 16), (4, 8), (16, 16)])
        return DslCase(op, [spec(a), old, new], [Part(f"recast({m(a)}, {old}, {new})")], a)
    if op == "nullspace":
        a = draw_layout(rng, ["stride0", "stride0", "compact", "random"])
        return DslCase(op, [spec(a)], [Part(f"nullspace({m(a)})")], a)
    if op == "make_layout_tv":
        # tuples at the top, as for the C++ products: raked_product of a bare leaf and a
        # tuple is refused by the DSL and CuTe C++ (corpus/vendor/dsl_disagreements.txt)
        thr = tuple_layout(rng, ["compact", "permuted"], max_leaves=4, max_size=32)
        val = tuple_layout(rng, ["compact", "permuted"], max_leaves=3, max_size=8)
        e = f"make_layout_tv({m(thr)}, {m(val)})"
        return DslCase(op, [spec(thr), spec(val)], [Part(f"mode({e}, 0)", "tuple"), Part(f"mode({e}, 1)")])
    if op == "make_ordered_layout":
        n = rng.randint(1, 4)
        shape = [rng.choice(L.SHAPES) for _ in range(n)]
        order = _order(rng, n)
        return DslCase(op, [shape, order], [Part(f"make_ordered_layout({_tup(shape) if n > 1 else '(' + str(shape[0]) + ')'}, "
                                                  f"{_tup(order) if n > 1 else '(' + str(order[0]) + ')'})",
                                                  check_rank=True)])
    if op == "slice_and_offset":
        a = draw_layout(rng)
        coord, cs = _slice_coord(rng, a)
        e = f"slice_and_offset({cs}, {m(a)})"
        return DslCase(op, [coord, spec(a)], [Part(f"mode({e}, 0)"), Part(f"mode({e}, 1)", "int")], a)
    if op.startswith("composed_"):
        a = draw_layout(rng, ["compact", "permuted", "gapped"], max_size=256)
        c, cs = composed(rng, a)
        base = op[len("composed_"):]
        if base == "composition":
            b = sub_layout(rng, a)
            return DslCase(op, [c, spec(b)], [Part(f"composition({cs}, {m(b)})")])
        if base == "logical_divide":
            b = sub_layout(rng, a)
            return DslCase(op, [c, spec(b)], [Part(f"logical_divide({cs}, {m(b)})", check_rank=True)])
        if base == "tile_to_shape":
            a = tuple_layout(rng, ["compact", "permuted"], max_size=32)
            c, cs = composed(rng, a)
            tg = [L.size(x) * rng.choice([1, 2]) for x in a]
            order = _order(rng, len(a))
            return DslCase(op, [c, tg, order],
                           [Part(f"tile_to_shape({cs}, {_tup(tg) if len(tg) > 1 else '(' + str(tg[0]) + ')'}, "
                                 f"{_tup(order) if len(order) > 1 else '(' + str(order[0]) + ')'})", check_rank=True)])
        if base == "recast_layout":
            old, new = rng.choice([(8, 16), (16, 8), (16, 32), (32, 16)])
            return DslCase(op, [c, old, new], [Part(f"recast({cs}, {old}, {new})")])
    raise ValueError(op)


def _slice_coord(rng, a: L.Tree):
    """A coordinate congruent to A's top level, each mode `_` or an in-range index:
    (the DSL's spelling, None for `_`; the model's)."""
    def one(t):
        if rng.random() < 0.5:
            return None, "_"
        if isinstance(t, list) and rng.random() < 0.5:
            parts = [one(c) for c in t]
            return [p for p, _ in parts], "(" + ",".join(s for _, s in parts) + ")"
        k = rng.randrange(L.size(t))
        return k, str(k)
    if not isinstance(a, list):
        return one(a)
    parts = [one(c) for c in a]
    return [p for p, _ in parts], "(" + ",".join(s for _, s in parts) + ")"
