"""pycute side of the differential: what CuTe C++ cannot express at run time.

pycute has no static integers, so every layout here is fully dynamic: complement of
rank > 1 layouts with run-time strides, both inverses of run-time layouts, products of
run-time layouts -- all things CuTe C++ refuses (static_assert) or answers only partly.
pycute drops unit modes where CuTe keeps them, so results are compared as functions only.

Known pycute defects are recognised by `pycute_defect` and counted apart, each with its
evidence in corpus/vendor/pycute_defects.txt; anything else that differs is a failure.
"""

import random
from typing import List, Optional, Tuple

import layouts as L

OPS = ["coalesce", "coalesce_profile", "filter", "composition", "composition_tiler", "complement",
       "right_inverse", "left_inverse", "logical_divide", "zipped_divide", "tiled_divide",
       "logical_product", "zipped_product", "tiled_product", "composed_layout", "swizzle"]


def fnv(values) -> int:
    """value_hash.hpp's fingerprint, restated."""
    h = 14695981039346656037
    for v in values:
        h ^= v & 0xFFFFFFFFFFFFFFFF
        h = (h * 1099511628211) & 0xFFFFFFFFFFFFFFFF
    return h


def draw_layout(rng: random.Random, kinds=None, max_leaves: int = 6) -> L.Tree:
    t = L.random_nesting(rng, max_leaves=max_leaves)
    L.fill_shapes(rng, t, max_size=128)  # pycute enumerates in pure Python
    L.assign_strides(rng, t, rng.choice(kinds or L.STRIDE_KINDS))
    return t


def to_pycute(pc, t: L.Tree):
    return pc.Layout(L.pycute_tree(t, "shape"), L.pycute_tree(t, "stride"))


class PycuteCase:
    """One op on one input: the model expression and the pycute thunk."""

    def __init__(self, op: str, expr: str, thunk, A=None, cotarget=None, B=None):
        self.op, self.expr, self.thunk = op, expr, thunk
        self.A, self.B, self.cotarget = A, B, cotarget  # for the recognisers (known_defects.py)


def draw_case(pc, rng: random.Random, op: str) -> PycuteCase:
    from cpp_cases import SWIZZLES, _sub_box, _top  # the same operand draws as the C++ side
    if op in ("right_inverse", "left_inverse"):
        a = draw_layout(rng, ["compact", "permuted", "compact", "gapped", "negative", "stride0"])
    elif op in ("complement", "logical_product", "zipped_product", "tiled_product"):
        a = draw_layout(rng, ["compact", "permuted", "gapped", "stride0"], max_leaves=5)
    else:
        a = draw_layout(rng)
    A, As = to_pycute(pc, a), L.model(a)
    if op == "coalesce":
        return PycuteCase(op, f"coalesce({As})", lambda: pc.coalesce(A))
    if op == "coalesce_profile":
        prof = tuple(1 for _ in _top(a))
        return PycuteCase(op, f"coalesce({As}, ({','.join('1' for _ in prof)}))",
                          lambda: pc.coalesce(A, prof if isinstance(a, list) else 1))
    if op == "filter":
        return PycuteCase(op, f"filter({As})", lambda: pc.filter(A))
    if op == "right_inverse":
        # pycute has no static integers: it follows every stride, as right_inverse_full does
        # (the model's right_inverse follows CuTe C++, static strides only).
        return PycuteCase(op, f"right_inverse_full({As})", lambda: pc.right_inverse(A), A)
    if op == "left_inverse":
        return PycuteCase(op, f"left_inverse({As})", lambda: pc.left_inverse(A), A)
    if op == "complement":
        cosize = 1 + sum((l.shape - 1) * abs(l.stride) for l in L.leaves(a))
        m = rng.choice([cosize, 2 * cosize, L.size(a) * 4, rng.randint(1, 1024)])
        return PycuteCase(op, f"complement({As}, {m})", lambda: pc.complement(A, m), A, m)
    if op in ("composition", "logical_divide", "zipped_divide", "tiled_divide"):
        b = L.random_nesting(rng, max_rank=3, max_depth=2, max_leaves=3)
        _sub_box(rng, L.flat_shapes(a), b)
        B, Bs = to_pycute(pc, b), L.model(b)
        fn = getattr(pc, op)
        return PycuteCase(op, f"{op}({As}, {Bs})", lambda: fn(A, B))
    if op == "composition_tiler":
        ts = []
        for i in range(rng.randint(1, len(_top(a)))):
            t = L.Leaf(1, 0)
            _sub_box(rng, L.flat_shapes(_top(a)[i]), t)
            ts.append(t)
        T = tuple(to_pycute(pc, t) for t in ts)
        # pycute keeps A's modes past the tiler (CuTe C++ 4.2 drops them): the model is asked
        # the same question by padding the tiler with `_` (corpus/vendor/pycute_defects.txt).
        pad = ["_"] * (len(_top(a)) - len(ts))
        Ts = "(" + ", ".join([L.model(t) for t in ts] + pad) + ")"
        return PycuteCase(op, f"composition({As}, {Ts})", lambda: pc.composition(A, T))
    if op in ("logical_product", "zipped_product", "tiled_product"):
        b = draw_layout(rng, ["compact", "permuted", "gapped", "stride0"], max_leaves=4)
        B, Bs = to_pycute(pc, b), L.model(b)
        fn = getattr(pc, op)
        return PycuteCase(op, f"{op}({As}, {Bs})", lambda: fn(A, B), A, None, B)
    if op in ("composed_layout", "swizzle"):
        bb, mm, ss = rng.choice(SWIZZLES)
        off = rng.choice([0, rng.randint(0, 4096)])
        if op == "swizzle":
            n = rng.randint(1, 1 << min(12, bb + mm + abs(ss) + 1))
            a = L.Leaf(n, 1)
            A, As = to_pycute(pc, a), L.model(a)
        return PycuteCase(op, f"Sw<{bb},{mm},{ss}> o {off} o {As}",
                          lambda: pc.ComposedLayout(pc.Swizzle(bb, mm, ss), off, A))
    raise ValueError(op)


def evaluate(pc, result) -> Tuple[str, int, int]:
    """pycute's result as (printout, size, hash of its values by pycute's own evaluation)."""
    n = pc.size(result) if not isinstance(result, pc.ComposedLayout) else pc.size(result.layoutA)
    return str(result), n, fnv(result(i) for i in range(n))
