"""Patterns and cases for the CuTe C++ oracle.

Three kinds of pattern, by what CuTe needs static:
  dyn     A with dynamic shapes and strides (some static leaves): coalesce (both forms),
          filter, composition with a layout and with a tiler, the divides (tiler of rank-1
          layouts, whose complement CuTe can take at run time), up/downcast, swizzle and
          composed-layout evaluation, complement of rank-1 layouts.
  semi    A with static strides and dynamic shapes (CuTe's complement of rank > 1 needs
          static strides): complement, every product, tile_to_shape.
  static  A and B fully static: max_common_vector / max_common_layout (CuTe answers only the
          static prefix of the common vector: 1 for dynamic layouts, less than the model's
          answer for partly static ones; corpus/vendor/cute_quirks.txt), both inverses
          (CuTe's need static strides), complement. One template instantiation per pair:
          the first --static-full pairs check all five ops, the others max_common_* only.
A case supplies the dynamic values; its model expressions are the same calls in the
model's notation. Every op of every case goes through the model first (`cuteref batch`);
CuTe runs only the ops the model accepts, because CuTe does not check run-time
preconditions (it would compute garbage or trap); the refusals are counted per op.
"""

import math
import random
from dataclasses import dataclass, field
from typing import Callable, Dict, List, Tuple

import layouts as L
from cute_programs import CppOp, Pattern

SWIZZLES = [(1, 0, 1), (2, 1, 3), (3, 4, 3), (2, 4, 3), (3, 3, 3), (1, 2, -1), (2, 0, -3), (3, 4, -4),
            (0, 4, 3), (2, 2, 2)]


@dataclass
class Case:
    values: List[int]
    exprs: Dict[int, str]  # op index -> model expression
    # op index -> the result size the op's definition fixes (checked by known_defects)
    expected_size: Dict[int, int] = field(default_factory=dict)


@dataclass
class CasePattern:
    pattern: Pattern
    make_case: Callable[[random.Random], Case]


def _top(t):
    return t if isinstance(t, list) else [t]


def _rank(t) -> int:
    return len(t) if isinstance(t, list) else 1


def _sub_box(rng: random.Random, shapes: List[int], target: L.Tree) -> None:
    """Fill target's leaves (all dynamic) with modes of a compact refinement of `shapes`."""
    ls = L.leaves(target)
    pool = []
    acc = 1
    for s in shapes:
        if s == 1:
            continue
        ds = [d for d in range(2, s) if s % d == 0]
        if ds and rng.random() < 0.4:
            d = rng.choice(ds)
            pool += [(d, acc), (s // d, acc * d)]
        else:
            pool.append((s, acc))
        acc *= s
    rng.shuffle(pool)
    for l in ls:
        if l.stride_static:  # a static broadcast mode (CuTe divides by a dynamic 0 stride)
            l.shape = rng.choice([1, 2, 3])
        elif pool and rng.random() < 0.9:
            l.shape, l.stride = pool.pop()
        else:
            l.shape, l.stride = 1, 1


def _draw_static_tree(rng: random.Random, max_leaves: int, kinds: List[str]) -> L.Tree:
    t = L.random_nesting(rng, max_leaves=max_leaves)
    L.fill_shapes(rng, t)
    L.assign_strides(rng, t, rng.choice(kinds))
    for l in L.leaves(t):
        l.shape_static = l.stride_static = True
    return t


# ---------------------------------------------------------------- dyn
def dyn_pattern(rng: random.Random, key: str) -> CasePattern:
    A = L.random_nesting(rng)
    for i, l in enumerate(L.leaves(A)):
        if rng.random() < 0.25:
            l.shape_static, l.shape = True, rng.choice(L.SHAPES)
        if i == 0 and rng.random() < 0.6:
            l.stride_static, l.stride = True, 1
        elif rng.random() < 0.15:
            l.stride_static, l.stride = True, 0
    B = L.random_nesting(rng, max_rank=3, max_depth=2, max_leaves=4)
    for l in L.leaves(B):
        if rng.random() < 0.12:
            l.stride_static, l.stride = True, 0
    T = [L.Leaf(1, 0) for _ in range(rng.randint(1, _rank(A)))]
    B1 = L.Leaf(1, 0)
    b, m, s = rng.choice(SWIZZLES)
    r = rng.choice([2, 4])
    # CuTe's up/downcast find the contiguous mode by a static _1 stride (downcast
    # static-asserts one); without one the ops are not compiled (nor given expressions).
    has_unit = any(l.stride_static and l.stride == 1 for l in L.leaves(A))
    slot = [0]
    pre = [f"auto A = {L.cpp(A, slot)};",
           f"auto B = {L.cpp(B, slot)};"]
    tiles = []
    for i, t in enumerate(T):
        pre.append(f"auto T{i} = {L.cpp(t, slot)};")
        tiles.append(f"T{i}")
    pre.append(f"auto B1 = {L.cpp(B1, slot)};")
    off_slot, n_slot, m_slot = slot[0], slot[0] + 1, slot[0] + 2
    n_values = slot[0] + 3
    tile = "make_tile(" + ", ".join(tiles) + ")"
    sw = f"Swizzle<{b},{m},{s}>{{}}"
    ops = [CppOp("coalesce", "coalesce(A)", check_rank=False),
           CppOp("filter", "filter(A)", check_rank=False),
           # CuTe promises composition's rank only by mode (B a tuple); for a leaf B the
           # result is merely size-compatible with B.
           CppOp("composition", "composition(A, B)", check_rank=isinstance(B, list)),
           CppOp("composition_tiler", f"composition(A, {tile})"),
           CppOp("logical_divide", "logical_divide(A, B1)"),
           CppOp("logical_divide", f"logical_divide(A, {tile})"),
           CppOp("zipped_divide", f"zipped_divide(A, {tile})"),
           CppOp("tiled_divide", f"tiled_divide(A, {tile})"),
           CppOp("flat_divide", f"flat_divide(A, {tile})"),
           CppOp("upcast", f"upcast<{r}>(A)" if has_unit else "Int<0>{}", integer=not has_unit),
           CppOp("downcast", f"downcast<{r}>(A)" if has_unit else "Int<0>{}", integer=not has_unit),
           CppOp("composed_layout", f"make_composed_layout({sw}, int(v[{off_slot}]), A)", check_rank=False),
           CppOp("swizzle", f"make_composed_layout({sw}, int(v[{off_slot}]), make_layout(int(v[{n_slot}])))",
                 check_rank=False)]
    if isinstance(A, list):
        ones = ", ".join(["_1{}"] * len(A))
        ops.append(CppOp("coalesce_profile", f"coalesce(A, make_tuple({ones}))"))
    else:
        ops.append(CppOp("complement", f"complement(A, int(v[{m_slot}]))", check_rank=False))
    pattern = Pattern(key, pre, ops, n_values)

    def make_case(rng: random.Random) -> Case:
        a = L.copy_tree(A)
        L.fill_shapes(rng, a)
        L.assign_strides(rng, a, rng.choice(L.STRIDE_KINDS), zero_ok=False)
        if has_unit and rng.random() < 0.5:
            # scale the other strides by r: inside CuTe's upcast domain (and still a layout
            # with gaps for every other op)
            for l in L.leaves(a):
                if not l.stride_static:
                    l.stride *= r
        bb = L.copy_tree(B)
        _sub_box(rng, L.flat_shapes(a), bb)
        ts = []
        for i, t in enumerate(T):
            tt = L.copy_tree(t)
            _sub_box(rng, L.flat_shapes(_top(a)[i]), tt)
            ts.append(tt)
        b1 = L.copy_tree(B1)
        _sub_box(rng, L.flat_shapes(a), b1)
        off = rng.choice([0, 0, rng.randint(0, 4096)])
        n = rng.randint(1, 1 << min(12, b + m + abs(s) + 1))
        cot = rng.choice([L.size(a), 2 * L.size(a), rng.randint(1, 512)]) * max(1, abs(L.leaves(a)[0].stride))
        values = L.dynamic_values(a) + L.dynamic_values(bb)
        for tt in ts:
            values += L.dynamic_values(tt)
        values += L.dynamic_values(b1) + [off, n, cot]
        As, Bs, B1s = L.model(a), L.model(bb), L.model(b1)
        tile_s = "(" + ", ".join(L.model(tt) for tt in ts) + ")"
        swz = f"Sw<{b},{m},{s}>"
        exprs = {0: f"coalesce({As})", 1: f"filter({As})", 2: f"composition({As}, {Bs})",
                 3: f"composition({As}, {tile_s})", 4: f"logical_divide({As}, {B1s})",
                 5: f"logical_divide({As}, {tile_s})", 6: f"zipped_divide({As}, {tile_s})",
                 7: f"tiled_divide({As}, {tile_s})", 8: f"flat_divide({As}, {tile_s})",
                 11: f"{swz} o {off} o {As}", 12: f"{swz} o {off} o {n}:1"}
        dyn = [l.stride for l in L.leaves(a) if not l.stride_static]
        # CuTe's documented assumption for upcast: "dynamic strides are larger than N and
        # divisible" (outside it CuTe answers garbage: corpus/vendor/cute_quirks.txt).
        if has_unit and all(d % r == 0 and abs(d) >= r for d in dyn):
            exprs[9] = f"upcast({As}, {r})"
        # downcast scales every run-time stride, a run-time +-1 too, as the model does.
        if has_unit:
            exprs[10] = f"downcast({As}, {r})"
        if isinstance(A, list):
            exprs[13] = f"coalesce({As}, (" + ",".join(["1"] * len(A)) + "))"
        else:
            exprs[13] = f"complement({As}, {cot})"
        return Case(values, exprs)

    return CasePattern(pattern, make_case)


# ---------------------------------------------------------------- semi
def semi_pattern(rng: random.Random, key: str) -> CasePattern:
    # A and B are tuples at the top: CuTe's blocked/raked_product do not compile for a
    # rank-1 tuple against a bare leaf (zip of mismatched ranks).
    A = _top(L.random_nesting(rng, max_leaves=5))
    L.fill_shapes(rng, A)
    L.assign_strides(rng, A, rng.choice(["compact", "permuted", "gapped", "stride0"]))
    maxes = []
    for l in L.leaves(A):
        l.stride_static = True
        l.shape_static = l.shape == 1 or rng.random() < 0.3
        maxes.append(l.shape)
    B = _top(L.random_nesting(rng, max_rank=3, max_depth=2, max_leaves=4))
    for l in L.leaves(B):
        if rng.random() < 0.12:
            l.stride_static, l.stride = True, 0
    ra = _rank(A)
    slot = [0]
    pre = [f"auto A = {L.cpp(A, slot)};", f"auto B = {L.cpp(B, slot)};"]
    m_slot = slot[0]
    t_slots = list(range(m_slot + 1, m_slot + 1 + ra))
    n_values = m_slot + 1 + ra
    tgt = "make_shape(" + ", ".join(f"int(v[{k}])" for k in t_slots) + ")"
    ops = [CppOp("complement", f"complement(A, int(v[{m_slot}]))", check_rank=False),
           CppOp("logical_product", "logical_product(A, B)"),
           CppOp("zipped_product", "zipped_product(A, B)"),
           CppOp("tiled_product", "tiled_product(A, B)"),
           CppOp("flat_product", "flat_product(A, B)"),
           CppOp("blocked_product", "blocked_product(A, B)"),
           CppOp("raked_product", "raked_product(A, B)"),
           CppOp("tile_to_shape", f"tile_to_shape(A, {tgt})"),
           CppOp("coalesce", "coalesce(A)", check_rank=False),
           CppOp("filter", "filter(A)", check_rank=False)]
    pattern = Pattern(key, pre, ops, n_values)

    def make_case(rng: random.Random) -> Case:
        a = L.copy_tree(A)
        # Run-time shapes are divisors > 1 of the pattern's: CuTe cannot drop a mode whose
        # shape is 1 only at run time, so its stride still shapes complement (and every
        # product built on it); corpus/vendor/cute_quirks.txt shows that case on its own.
        for l, mx in zip(L.leaves(a), maxes):
            if not l.shape_static:
                l.shape = rng.choice([d for d in range(2, mx + 1) if mx % d == 0] or [mx])
        bb = L.copy_tree(B)
        L.fill_shapes(rng, bb)
        L.assign_strides(rng, bb, rng.choice(["compact", "permuted", "gapped", "stride0"]), zero_ok=False)
        cosize = 1 + sum((l.shape - 1) * abs(l.stride) for l in L.leaves(a))
        cot = rng.choice([cosize, 2 * cosize, L.size(a) * 4, rng.randint(1, 1024)])
        tg = [L.size(m) * rng.choice([1, 2, 3]) for m in _top(a)]
        values = L.dynamic_values(a) + L.dynamic_values(bb) + [cot] + tg
        As, Bs = L.model(a), L.model(bb)
        tg_s = "(" + ",".join(str(x) for x in tg) + ")" if ra > 1 else str(tg[0])
        exprs = {0: f"complement({As}, {cot})", 1: f"logical_product({As}, {Bs})",
                 2: f"zipped_product({As}, {Bs})", 3: f"tiled_product({As}, {Bs})",
                 4: f"flat_product({As}, {Bs})", 5: f"blocked_product({As}, {Bs})",
                 6: f"raked_product({As}, {Bs})", 7: f"tile_to_shape({As}, {tg_s})",
                 8: f"coalesce({As})", 9: f"filter({As})"}
        prod = L.size(a) * L.size(bb)
        expected = {1: prod, 2: prod, 3: prod, 4: prod, 5: prod, 6: prod, 7: math.prod(tg)}
        return Case(values, exprs, expected)

    return CasePattern(pattern, make_case)


# ---------------------------------------------------------------- static
def static_pair(rng: random.Random) -> Tuple[L.Tree, L.Tree, int]:
    A = _draw_static_tree(rng, 5, ["compact", "permuted", "gapped", "stride0", "negative"])
    if rng.random() < 0.7:
        B = L.copy_tree(A)  # same shape, another stride order: where max_common is interesting
        L.assign_strides(rng, B, rng.choice(["compact", "permuted", "gapped", "compact"]))
        for l in L.leaves(B):
            l.stride_static = True
    else:
        B = _draw_static_tree(rng, 5, ["compact", "permuted"])
    cosize = 1 + sum((l.shape - 1) * abs(l.stride) for l in L.leaves(A))
    M = rng.choice([cosize, 2 * cosize, 4 * L.size(A)])
    return A, B, M


def distinct_static_pairs(rng: random.Random, n: int) -> List[Tuple[L.Tree, L.Tree, int]]:
    """n pairs, pairwise distinct (a repeated pair would be counted twice for one check).
    Pre: n is far below the number of distinct pairs static_pair can draw."""
    out, seen = [], set()
    while len(out) < n:
        A, B, M = static_pair(rng)
        key = (L.model(A), L.model(B), M)
        if key not in seen:
            seen.add(key)
            out.append((A, B, M))
    return out


def compilation_order(pairs, full: int) -> List[int]:
    """The static pairs' indices in the order they are dealt into translation units: the
    first `full` pairs (five ops each) apart from the rest, each group sorted by B's and then
    A's flattened leaves. Neighbours then often share CuTe's instantiations for B's
    right_inverse and for the flattened prefixes that coalesce and composition fold over,
    which a unit compiles once (11% less compile CPU over the 28 units, measured).
    Only the grouping changes: every pair is compiled and checked as before."""
    def key(i):
        A, B, _ = pairs[i]
        return ([(l.shape, l.stride) for l in L.leaves(B)], [(l.shape, l.stride) for l in L.leaves(A)],
                L.model(B), L.model(A))
    first = min(full, len(pairs))
    return sorted(range(first), key=key) + sorted(range(first, len(pairs)), key=key)


STATIC_OPS = ["max_common_vector", "max_common_layout", "right_inverse", "left_inverse", "complement"]
MAX_COMMON_OPS = 2  # the first two of STATIC_OPS: the only ones of a max_common-only pair


def static_exprs(A, B, M, full: bool = True) -> Dict[int, str]:
    """The model expressions of a static pair; without `full`, max_common_* only (the pairs
    beyond --static-full, which exist for max_common's volume: each costs compile time)."""
    As, Bs = L.model(A), L.model(B)
    e = {0: f"max_common_vector({As}, {Bs})", 1: f"max_common_layout({As}, {Bs})"}
    if full:
        e.update({2: f"right_inverse({As})", 3: f"left_inverse({As})", 4: f"complement({As}, _{M})"})
    return e


def static_pattern(key: str, A, B, M, accepted: List[int]) -> Pattern:
    slot = [0]
    pre = [f"auto A = {L.cpp(A, slot)};", f"auto B = {L.cpp(B, slot)};"]
    all_ops = [CppOp("max_common_vector", "max_common_vector(A, B)", integer=True),
               CppOp("max_common_layout", "max_common_layout(A, B)", check_rank=False),
               CppOp("right_inverse", "right_inverse(A)", check_rank=False),
               CppOp("left_inverse", "left_inverse(A)", check_rank=False),
               CppOp("complement", f"complement(A, Int<{M}>{{}})", check_rank=False)]
    # An op the model refuses is not compiled: CuTe would stop the build with a static assert;
    # nor is an op the pair was not drawn for (static_exprs without `full`).
    ops = [op if i in accepted else CppOp(op.name, "Int<0>{}", integer=True) for i, op in enumerate(all_ops)]
    return Pattern(key, pre, ops, 0)
