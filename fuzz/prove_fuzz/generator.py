"""Random claims for `cuteref prove`, deterministic by seed.

A claim is drawn from one of several families, so that a good share is true (laws of the
algebra, arithmetic rewrites, results generalized from one point) and the rest false in
small ways (a constant off by one, an operator changed):
  arith        E == E' with E' a rewrite of E (+ and * commuted, x*2^k as x<<k, x/2^k as
               x>>k, (x/a)/b as x/(a*b), x as x/1, x%2^k as x&(2^k-1), ...) or a mutation of E
  layout_law   coalesce(L) == L, size(coalesce(L)) == size(L), coalesce(coalesce(L)) ==
               coalesce(L), composition(A, B)(x) == A(B(x)), L(x) == its crd2idx sum
  generalized  OP(...) == the model's value at one point of the box with leaves equal to a
               variable (or a product of two) written as it: coalesce, complement,
               composition, logical_divide, size
  swizzle      Sw<B,M,S>(Sw<B,M,S>(x)) == x, Sw<B,M,S>(x) == its bit formula, legal or not
  tuple        integer tuples rewritten or mutated leaf by leaf; size((...)) == the product
  random       two random expressions of one kind
  tiling       the operations with a target or a tiler: tile_to_shape(L, TARGET) with static
               (`(_6,_2)`, `_8`), dynamic, symbolic and mixed (`(_6,a)`) targets; the four
               divides and six products by an integer, a layout, a tuple and a tuple of
               layouts: the model's value at one point generalized (sometimes of the result applied
               at or past its size), size laws, tile_to_shape's
               size as the product of each mode's block times the rounded-up number of copies;
               upcast and downcast by a factor, a stride often the static `_1`
  assume       a claim of another family, or one true only under its hypothesis (divides,
               comparisons, defined(tile_to_shape(..)), admissible(A, B), injective(L)), with
               --assume hypotheses: comparisons, divides(A, B) (A a positive literal, a
               variable, 2*B, or a literal <= 0, which makes the request malformed),
               defined(E), admissible(A, B), injective(L); sometimes unsatisfiable within the
               box (a bound past the range, `v + 1 <= v`, a divisor past the range)
  composed     Sw<B,M,S> o [O o] L: application against Sw(O + L's crd2idx sum), size against
               size(L), composition with a layout and the composed layout itself at one point
               generalized; F2 layouts `(8,8):(F1,F9)`: application against the XOR of the
               carry-less products, from_f2, to_f2 and composition at one point generalized
  banks        smem_wavefronts(INSTR, (a0, ...), BITS) == the model's count at one point: ld/st
               of 4-16 bytes and ldmatrix/stmatrix, element offsets aligned or not, constant or
               through a variable, ldmatrix's ADDR sometimes longer than its lanes
Layout leaves are sometimes CuTe's static integers (`_4`). Every variable gets a small --where
range (at most MAX_POINTS points in the box), mostly near 0, sometimes near 2^31, 2^62 or 2^63
for overflow, or straddling 3037000500, where x*x starts to overflow (an operation that
overflows at some points of the box only: prove's intervals are clamped there).
"""

import random
from typing import Dict, List, Optional, Tuple as Tup

from claim_ast import (Apply, BinOp, Call, Claim, Composed, Hypothesis, Int, LayoutLit, Neg, Node, Swizzle, Symbol,
                       Tuple, Var, claim_text, hypothesis_text, is_grouped, variables)
from oracle import PComposed, PF2Layout, PLayout, parse_printed, parse_printed_function

NAMES = ["a", "b", "c", "x", "y"]
ARITH_OPS = ["+", "-", "*", "/", "%", "&", "|", "^", "<<", ">>"]
MAX_POINTS = 256


class ClaimGenerator:
    FAMILIES = ("arith", "layout_law", "generalized", "swizzle", "tuple", "random", "tiling", "assume", "composed", "banks")

    def __init__(self, seed: int, families=FAMILIES):
        self.rng = random.Random(seed)
        self.families = set(families)
        self.vars: List[str] = []
        self.where: Dict[str, Tup[int, int]] = {}

    # ---- variables and ranges -----------------------------------------------------------

    def new_box(self):
        r = self.rng
        n = r.choice([1, 1, 2, 2, 3])
        self.vars = r.sample(NAMES, n)
        self.where = {}
        budget = MAX_POINTS
        for v in self.vars:
            width = r.choice([0, 1, 2, 3, 4, 7, 8, 15])
            width = min(width, max(0, budget // 2 - 1))
            kind = r.random()
            if kind < 0.75:
                lo = r.choice([0, 1, 1, 2, 2, 3, 4, 8])
            elif kind < 0.85:
                # near an overflow threshold; 3037000500 is the least x with x*x > 2^63 - 1,
                # so that box holds points on both sides of x*x's overflow
                lo = r.choice([2**31 - 2, 2**32 - 1, 2**62 - 2, 2**63 - 1 - width, 3037000500 - 1 - width // 2])
            elif kind < 0.95:
                lo = -r.choice([1, 2, 4, 8])
            else:
                lo = -2**63 + r.choice([0, 1])
            self.where[v] = (lo, lo + width)
            budget //= width + 1

    def var(self) -> Var:
        return Var(self.rng.choice(self.vars))

    def const(self, small=True) -> Int:
        r = self.rng
        if small or r.random() < 0.8:
            return Int(r.choice([0, 1, 1, 2, 2, 3, 4, 4, 5, 6, 7, 8, 8, 16, 32]))
        return Int(r.choice([-1, -2, -8, 63, 64, 2**31, 2**32, 2**62, 2**63 - 1, -2**63]))

    # ---- integer expressions -------------------------------------------------------------

    def int_expr(self, depth: int) -> Node:
        r = self.rng
        if depth <= 0 or r.random() < 0.3:
            return self.var() if r.random() < 0.65 else self.const(small=r.random() < 0.7)
        k = r.random()
        if k < 0.7:
            return BinOp(r.choice(ARITH_OPS), self.int_expr(depth - 1), self.int_expr(depth - 1))
        if k < 0.75:
            return Neg(self.int_expr(depth - 1))
        if k < 0.85:
            return Call("size", [self.layout_expr(depth - 1)])
        if k < 0.93:
            # an application usable as an operand: of a call's value (a literal `S:D(x)`
            # cannot be an operand: `(S:D(x))` is a 1-tuple)
            return Apply(Call("coalesce", [self.layout_literal(depth - 1)]), self.index_expr())
        return Apply(self.swizzle(), self.int_expr(depth - 1))

    def index_expr(self) -> Node:
        r = self.rng
        if r.random() < 0.6:
            return self.var()
        return BinOp(r.choice(["+", "*", "%", "-"]), self.var(), self.const())

    # ---- layouts -----------------------------------------------------------------------------

    def computed_int(self) -> Node:
        """An integer a function computes on symbolic values, whose static flag is the model's
        (`size(_6:x)` is the static `_6`, `size(6:x)` a run-time 6): prove must not guess it
        where a function reads it (tile_to_shape's target, right_inverse, downcast, recast)."""
        r = self.rng
        shape = Int(r.choice([1, 2, 4, 6, 8]), static=r.random() < 0.7)
        stride = self.var() if r.random() < 0.7 else Int(r.choice([1, 2]), static=r.random() < 0.5)
        return Call(r.choice(["size", "size", "cosize"]), [LayoutLit(shape, stride)])

    def leaf(self, shape: bool) -> Node:
        r = self.rng
        if r.random() < 0.06:
            return self.computed_int()
        k = r.random()
        if k < 0.35:
            return self.var()
        if k < 0.65:
            return Int(r.choice([1, 2, 2, 3, 4, 8]) if shape else r.choice([0, 1, 1, 2, 4, 8, 16]),
                       static=r.random() < 0.3)
        if k < 0.8:
            return BinOp("*", self.var(), Int(r.choice([2, 4, 8])))
        if k < 0.9:
            return BinOp("+", self.var(), Int(r.choice([1, 2])))
        a, b = self.rng.sample(self.vars, 2) if len(self.vars) > 1 else (self.vars[0], self.vars[0])
        return BinOp("*", Var(a), Var(b))

    def layout_literal(self, depth: int = 1) -> LayoutLit:
        r = self.rng
        rank = r.choice([1, 1, 2, 2, 2, 3])

        def mode(nested: bool):
            if nested and r.random() < 0.25:
                inner = [mode(False) for _ in range(2)]
                return Tuple([m[0] for m in inner]), Tuple([m[1] for m in inner])
            return self.leaf(True), self.leaf(False)

        modes = [mode(depth > 0) for _ in range(rank)]
        if rank == 1 and r.random() < 0.7:
            shape, stride = modes[0]
            return LayoutLit(shape, stride)
        shape = Tuple([m[0] for m in modes])
        stride = Tuple([m[1] for m in modes])
        # a 1-tuple holding an arithmetic expression cannot be written: `(a*2)` groups
        for t in (shape, stride):
            if len(t.elements) == 1 and is_grouped(t.elements[0]):
                t.elements[0] = self.var()
        return LayoutLit(shape, stride)

    def layout_expr(self, depth: int) -> Node:
        r = self.rng
        if depth <= 0 or r.random() < 0.4:
            return self.layout_literal(depth)
        k = r.random()
        if k < 0.3:
            return Call("coalesce", [self.layout_expr(depth - 1)])
        if k < 0.55:
            return Call("composition", [self.layout_expr(depth - 1), self.layout_literal(0)])
        if k < 0.8:
            return Call("complement", [self.layout_literal(0), self.cotarget()])
        return Call("logical_divide", [self.layout_literal(0), self.layout_literal(0)])

    def cotarget(self) -> Node:
        r = self.rng
        k = r.random()
        if k < 0.4:
            return self.var()
        if k < 0.7:
            return Int(r.choice([8, 16, 32, 64]))
        if k < 0.85:
            return BinOp("*", self.var(), Int(r.choice([2, 4, 8, 16])))
        return Tuple([self.leaf(True), self.leaf(True)])

    def swizzle(self) -> Swizzle:
        r = self.rng
        if r.random() < 0.8:  # legal: |S| >= B
            b = r.choice([0, 1, 2, 3])
            s = r.choice([b, b, b + 1, 3]) * r.choice([1, 1, 1, -1])
            if abs(s) < b:
                s = b
            m = r.choice([0, 1, 2, 3, 4])
        else:
            b, m, s = r.choice([1, 2, 3]), r.choice([0, 2, 4, 62 - 3]), r.choice([0, 1, -1])
        return Swizzle(Int(b), Int(m), Int(s))

    # ---- claim families --------------------------------------------------------------------

    def rewrite(self, e: Node) -> Node:
        """An arithmetic rewrite of e (equal in value where both sides are defined, or not
        quite: the oracle decides)."""
        r = self.rng
        if isinstance(e, BinOp) and r.random() < 0.6:
            a, b = e.lhs, e.rhs
            op = e.op
            if op in "+*&|^" and r.random() < 0.5:
                return BinOp(op, self.rewrite(b), self.rewrite(a))
            if op == "*" and isinstance(b, Int) and b.value > 0 and b.value & (b.value - 1) == 0:
                return BinOp("<<", self.rewrite(a), Int(b.value.bit_length() - 1))
            if op == "/" and isinstance(b, Int) and b.value > 0 and b.value & (b.value - 1) == 0:
                return BinOp(">>", self.rewrite(a), Int(b.value.bit_length() - 1))
            if op == "%" and isinstance(b, Int) and b.value > 0 and b.value & (b.value - 1) == 0:
                return BinOp("&", self.rewrite(a), Int(b.value - 1))
            if op == "/" and isinstance(a, BinOp) and a.op == "/":
                return BinOp("/", a.lhs, BinOp("*", a.rhs, b))
            if op == "-":
                return BinOp("+", self.rewrite(a), Neg(self.rewrite(b)))
            return BinOp(op, self.rewrite(a), self.rewrite(b))
        k = r.random()
        if k < 0.1:
            return BinOp("/", e, Int(1))
        if k < 0.15:
            return BinOp("*", Int(1), e)
        if k < 0.2:
            return BinOp("+", e, Int(0))
        return e

    def mutate(self, e: Node) -> Node:
        r = self.rng
        if isinstance(e, Int):
            return Int(e.value + r.choice([-1, 1, 2]))
        if isinstance(e, Var):
            return BinOp("+", e, Int(1)) if r.random() < 0.5 else self.var()
        if isinstance(e, BinOp):
            k = r.random()
            if k < 0.3:
                return BinOp(r.choice(ARITH_OPS), e.lhs, e.rhs)
            if k < 0.65:
                return BinOp(e.op, self.mutate(e.lhs), e.rhs)
            return BinOp(e.op, e.lhs, self.mutate(e.rhs))
        return BinOp("+", e, Int(1))

    def family_arith(self) -> Claim:
        e = self.int_expr(self.rng.choice([1, 2, 2, 3]))
        k = self.rng.random()
        if k < 0.55:
            return Claim(e, self.rewrite(e))
        if k < 0.85:
            return Claim(e, self.mutate(e))
        return Claim(e, self.int_expr(2))

    def expansion(self, layout: LayoutLit, x: Node) -> Node:
        """L(x) as the sum over its flattened modes of ((x / prefix) % shape) * stride, the
        last mode without the %."""
        def leaves(n):
            return [l for e in n.elements for l in leaves(e)] if isinstance(n, Tuple) else [n]

        shapes, strides = leaves(layout.shape), leaves(layout.stride)
        total: Optional[Node] = None
        prefix: Optional[Node] = None
        for k, (s, d) in enumerate(zip(shapes, strides)):
            coord: Node = x if prefix is None else BinOp("/", x, prefix)
            if k + 1 < len(shapes):
                coord = BinOp("%", coord, s)
            term = BinOp("*", coord, d)
            total = term if total is None else BinOp("+", total, term)
            prefix = s if prefix is None else BinOp("*", prefix, s)
        return total

    def family_layout_law(self) -> Claim:
        r = self.rng
        k = r.random()
        L = self.layout_literal(1)
        if k < 0.2:
            return Claim(Call("coalesce", [L]), L)
        if k < 0.35:
            return Claim(Call("size", [Call("coalesce", [L])]), Call("size", [L]))
        if k < 0.45:
            return Claim(Call("coalesce", [Call("coalesce", [L])]), Call("coalesce", [L]))
        if k < 0.65:
            B = self.layout_literal(0)
            x = self.index_expr()
            return Claim(Apply(Call("composition", [L, B]), x), Apply(L, Apply(B, x)))
        x = self.index_expr()
        rhs = self.expansion(L, x)
        if r.random() < 0.3:
            rhs = self.mutate(rhs)
        return Claim(Apply(L, x), rhs)

    def family_swizzle(self) -> Claim:
        r = self.rng
        sw = self.swizzle()
        x = self.var() if r.random() < 0.8 else self.int_expr(1)
        k = r.random()
        if k < 0.4:
            return Claim(Apply(sw, Apply(sw, x)), x)
        b, m, s = sw.b.value, sw.m.value, sw.s.value
        if k < 0.8:
            # Sw<B,M,S>(x) = x ^ ((x & yyy) >> S) with yyy the B bits at M + max(S, 0) (S >= 0)
            mask = ((1 << b) - 1) << (m + max(s, 0))
            if s >= 0:
                moved = BinOp(">>", BinOp("&", x, Int(mask)), Int(s))
            else:
                moved = BinOp("<<", BinOp("&", x, Int(mask)), Int(-s))
            rhs: Node = BinOp("^", x, moved)
            if r.random() < 0.25:
                rhs = self.mutate(rhs)
            return Claim(Apply(sw, x), rhs)
        return Claim(Apply(sw, x), x)

    def generalize(self, value, point: Dict[str, int]) -> Optional[Node]:
        """A claim side for a printed value: each leaf equal to a variable's value at
        `point` (or a product of two) written as that variable, at random."""
        r = self.rng

        def leaf(v: int, allow_grouped: bool) -> Node:
            if r.random() < 0.8 and abs(v) > 1:
                same = [n for n in self.vars if point[n] == v]
                if same:
                    return Var(r.choice(same))
                if allow_grouped:
                    prods = [(a, b) for a in self.vars for b in self.vars if a <= b and point[a] * point[b] == v]
                    if prods:
                        a, b = r.choice(prods)
                        return BinOp("*", Var(a), Var(b))
                    doubled = [n for n in self.vars if point[n] * 2 == v]
                    if doubled:
                        return BinOp("*", Var(r.choice(doubled)), Int(2))
            return Int(v)

        def tree(t):
            if isinstance(t, tuple):
                return Tuple([tree_elem(e, len(t) != 1) for e in t])
            return leaf(t, True)

        def tree_elem(e, allow_grouped):
            return tree(e) if isinstance(e, tuple) else leaf(e, allow_grouped)

        if isinstance(value, int):
            return leaf(value, True)
        if isinstance(value, tuple):
            return tree(value)
        if isinstance(value, PLayout):
            return LayoutLit(tree(value.shape), tree(value.stride))
        if isinstance(value, str):
            f = parse_printed_function(value)
            if isinstance(f, PComposed):
                offset = None if f.offset == 0 and r.random() < 0.5 else leaf(f.offset, False)
                return Composed(Swizzle(Int(f.b), Int(f.m), Int(f.s)), offset,
                                LayoutLit(tree(f.layout.shape), tree(f.layout.stride)))
            if isinstance(f, PF2Layout):
                def f2(t):
                    return Tuple([f2(e) for e in t]) if isinstance(t, tuple) else Symbol(f"F{t}")
                return LayoutLit(tree(f.shape), f2(f.stride))
        return None

    def family_generalized(self, evaluate_at) -> Optional[Claim]:
        """`evaluate_at(node, point)` gives the model's printed value of node at point."""
        r = self.rng
        k = r.random()
        if k < 0.2:
            lhs: Node = Call("coalesce", [self.layout_literal(1)])
        elif k < 0.45:
            lhs = Call("complement", [self.layout_literal(0), self.cotarget()])
        elif k < 0.7:
            lhs = Call("composition", [self.layout_literal(1), self.layout_literal(0)])
        elif k < 0.9:
            lhs = Call("logical_divide", [self.layout_literal(1), self.layout_literal(0)])
        else:
            lhs = Call("size", [self.layout_expr(1)])
        point = {v: r.randint(lo, hi) for v, (lo, hi) in self.where.items()}
        printed = evaluate_at(lhs, point)
        if printed is None:
            return Claim(lhs, self.layout_literal(0))
        rhs = self.generalize(parse_printed(printed), point)
        if rhs is None:
            return None
        if r.random() < 0.15:
            rhs = self.mutate_layout(rhs)
        return Claim(lhs, rhs)

    def mutate_layout(self, n: Node) -> Node:
        if isinstance(n, LayoutLit):
            if any(isinstance(l, Symbol) for l in self.tree_leaves(n.stride)):
                return LayoutLit(self.mutate_tree(n.shape), n.stride)  # F2 strides: mutate the shape
            return LayoutLit(n.shape, self.mutate_tree(n.stride))
        if isinstance(n, Composed):
            if self.rng.random() < 0.5:
                return Composed(n.swizzle, n.offset, self.mutate_layout(n.layout))
            return Composed(n.swizzle, self.mutate(n.offset if n.offset is not None else Int(0)), n.layout)
        return self.mutate(n)

    def replace_leaf(self, t: Node, leaf: Node) -> Node:
        """t with one of its leaves, at random, replaced by `leaf`."""
        n = len(self.tree_leaves(t))
        target = self.rng.randrange(n)
        count = 0

        def walk(u: Node) -> Node:
            nonlocal count
            if isinstance(u, Tuple):
                return Tuple([walk(e) for e in u.elements])
            count += 1
            return leaf if count - 1 == target else u

        return walk(t)

    @staticmethod
    def tree_leaves(t: Node) -> List[Node]:
        return [l for e in t.elements for l in ClaimGenerator.tree_leaves(e)] if isinstance(t, Tuple) else [t]

    def mutate_tree(self, t: Node) -> Node:
        if isinstance(t, Tuple) and t.elements:
            k = self.rng.randrange(len(t.elements))
            e = list(t.elements)
            e[k] = self.mutate_tree(e[k])
            return Tuple(e)
        if isinstance(t, Tuple):
            return t
        m = self.mutate(t)
        return m

    def family_tuple(self) -> Claim:
        """Integer tuples: leaf-by-leaf rewrites or mutations, nested or not; size of a tuple
        against the product of its leaves."""
        r = self.rng

        def tuple_of(depth):
            elems = [tuple_of(depth - 1) if depth > 0 and r.random() < 0.3 else self.int_expr(1)
                     for _ in range(r.choice([2, 2, 3]))]
            return Tuple(elems)

        t = tuple_of(1)

        def leaves(n):
            return [l for e in n.elements for l in leaves(e)] if isinstance(n, Tuple) else [n]

        def rewritten(n, mutate_one):
            if isinstance(n, Tuple):
                return Tuple([rewritten(e, mutate_one) for e in n.elements])
            return self.mutate(n) if mutate_one and r.random() < 0.4 else self.rewrite(n)

        k = r.random()
        if k < 0.6:
            return Claim(t, rewritten(t, k < 0.2))
        product: Node = Int(1)
        for l in leaves(t):
            product = BinOp("*", product, l)
        return Claim(Call("size", [t]), product if k < 0.9 else self.mutate(product))

    def family_random(self) -> Claim:
        if self.rng.random() < 0.5:
            return Claim(self.layout_expr(2), self.layout_expr(1))
        return Claim(self.int_expr(2), self.int_expr(2))


    # ---- tiling: targets and tilers -------------------------------------------------------

    DIVIDES = ("logical_divide", "zipped_divide", "tiled_divide", "flat_divide")
    PRODUCTS = ("logical_product", "blocked_product", "raked_product", "zipped_product", "tiled_product", "flat_product")

    def target(self) -> Node:
        """A target shape of tile_to_shape: all static (`(_6,_2)`, `_8`: the model checks that
        the block divides it), dynamic, symbolic or mixed (`(_6,a)`)."""
        r = self.rng
        k = r.random()
        static = k < 0.45
        mixed = k > 0.8

        def leaf() -> Node:
            if r.random() < 0.12:
                return self.computed_int()
            if not static and r.random() < 0.35:
                return self.var() if r.random() < 0.7 else BinOp("*", self.var(), Int(2))
            return Int(r.choice([2, 3, 4, 6, 8, 12, 16]), static=static or (mixed and r.random() < 0.5))

        if r.random() < 0.35:
            return leaf()
        return Tuple([leaf() for _ in range(r.choice([2, 2, 3]))])

    def block_for(self, target: Node) -> LayoutLit:
        """A layout of rank <= the target's (tile_to_shape's precondition), flat modes."""
        r = self.rng
        rank = len(target.elements) if isinstance(target, Tuple) else 1
        rank = r.randint(1, rank)
        modes = [(self.leaf(True), self.leaf(False)) for _ in range(rank)]
        if rank == 1 and (not isinstance(target, Tuple) or r.random() < 0.5):
            return LayoutLit(modes[0][0], modes[0][1])
        shape, stride = Tuple([m[0] for m in modes]), Tuple([m[1] for m in modes])
        for t in (shape, stride):
            if len(t.elements) == 1 and is_grouped(t.elements[0]):
                t.elements[0] = self.var()
        return LayoutLit(shape, stride)

    def tiler(self) -> Node:
        """A divide's or product's tiler: an integer, a layout, a tuple of integers or of layouts."""
        r = self.rng

        def integer() -> Node:
            k = r.random()
            if k < 0.08:
                return self.computed_int()
            if k < 0.4:
                return self.var()
            if k < 0.85:
                return Int(r.choice([1, 2, 2, 3, 4, 8]), static=r.random() < 0.5)
            return BinOp("*", self.var(), Int(2))

        def layout() -> LayoutLit:
            return LayoutLit(integer(), Int(r.choice([1, 1, 2]), static=r.random() < 0.3) if r.random() < 0.7 else self.var())

        k = r.random()
        if k < 0.25:
            return integer()
        if k < 0.5:
            return layout()
        n = r.choice([1, 2, 2])
        if k < 0.75:
            t = Tuple([integer() for _ in range(n)])
            if n == 1 and is_grouped(t.elements[0]):
                t.elements[0] = self.var()
            return t
        return Tuple([layout() for _ in range(n)])

    def tile_size(self, block: LayoutLit, target: Node) -> Node:
        """size(tile_to_shape(block, target)) where the model accepts it: per target mode, the
        block's extent times the rounded-up number of copies."""
        def leaves(n):
            return [l for e in n.elements for l in leaves(e)] if isinstance(n, Tuple) else [n]

        def product(ns):
            out = ns[0]
            for n in ns[1:]:
                out = BinOp("*", out, n)
            return out

        targets = target.elements if isinstance(target, Tuple) else [target]
        blocks = block.shape.elements if isinstance(block.shape, Tuple) else [block.shape]
        terms = []
        for k, t in enumerate(targets):
            if k >= len(blocks):
                terms.append(t)
                continue
            b = product(leaves(blocks[k]))
            copies = BinOp("/", BinOp("-", BinOp("+", t, b), Int(1)), b)
            terms.append(BinOp("*", b, copies))
        return product(terms)

    def family_tiling(self, evaluate_at) -> Optional[Claim]:
        r = self.rng
        k = r.random()
        if k < 0.35:
            target = self.target()
            block = self.block_for(target)
            lhs: Node = Call("tile_to_shape", [block, target])
            if r.random() < 0.45:
                rhs = self.tile_size(block, target)
                if r.random() < 0.2:
                    rhs = self.mutate(rhs)
                return Claim(Call("size", [lhs]), rhs)
        elif k < 0.45:
            # upcast, downcast, recast and right_inverse: the model reads the static strides
            layout = self.layout_literal(0)
            if r.random() < 0.7:
                layout = LayoutLit(layout.shape, self.replace_leaf(layout.stride, Int(1, static=True)))
            kind = r.random()
            if kind < 0.6:
                lhs = Call(r.choice(["upcast", "downcast"]), [layout, Int(r.choice([2, 2, 4, 3]))])
            elif kind < 0.8:
                lhs = Call("recast", [layout, Int(r.choice([8, 16, 32])), Int(r.choice([8, 16, 32]))])
            else:
                lhs = Call("right_inverse", [layout])
            if r.random() < 0.3:
                return Claim(Call("size", [lhs]), Call("size", [layout]))
        elif k < 0.7:
            lhs = Call(r.choice(self.DIVIDES), [self.layout_literal(1), self.tiler()])
            if r.random() < 0.3:
                return Claim(Call("size", [lhs]), Call("size", [lhs.args[0]]))
        else:
            lhs = Call(r.choice(self.PRODUCTS), [self.layout_literal(1), self.tiler()])
            if r.random() < 0.3:
                return Claim(Call("size", [lhs]), BinOp("*", Call("size", [lhs.args[0]]), Call("size", [lhs.args[1]])))
        if r.random() < 0.2:
            # Applied at or past its size, where the last mode is unbounded: a layout equality
            # compares [0, size) only, and a static _1's stride _0 (make_layout) shows only here.
            size = Call("size", [lhs])
            index = BinOp("+", size, self.const()) if r.random() < 0.5 else BinOp("*", size, Int(r.choice([1, 2, 3])))
            return self.generalized_at_point(Apply(lhs, index), evaluate_at, integer=True)
        return self.generalized_at_point(lhs, evaluate_at)

    def generalized_at_point(self, lhs: Node, evaluate_at, integer: bool = False) -> Optional[Claim]:
        """lhs == the model's value of lhs at one point of the box, its leaves written as
        variables (sometimes mutated); a literal of the family (a layout, or 1 for an integer
        lhs) when the model refuses there."""
        r = self.rng
        point = {v: r.randint(lo, hi) for v, (lo, hi) in self.where.items()}
        printed = evaluate_at(lhs, point)
        if printed is None:
            return Claim(lhs, Int(1) if integer else self.layout_literal(0))
        rhs = self.generalize(parse_printed(printed), point)
        if rhs is None:
            return None
        if r.random() < 0.15:
            rhs = self.mutate(rhs) if integer else self.mutate_layout(rhs)
        return Claim(lhs, rhs)

    # ---- shared-memory bank counts -----------------------------------------------------------

    # (instruction, bytes per thread's access, matrices: 0 for a thread-per-address access)
    SMEM_INSTRUCTIONS = (("ld.shared.b32", 4, 0), ("ld.shared.v2.b32", 8, 0), ("ld.shared.v4.b32", 16, 0),
                         ("st.shared.v4.b32", 16, 0), ("ld.shared.b64", 8, 0), ("ldmatrix.x1", 16, 1),
                         ("ldmatrix.x2", 16, 2), ("ldmatrix.x4", 16, 4), ("stmatrix.x4", 16, 4))

    def family_banks(self, evaluate_at) -> Optional[Claim]:
        """smem_wavefronts(INSTR, (a0, ...), BITS) == the model's count at one point: element
        offsets aligned or not, constant or through a variable, and for ldmatrix sometimes
        entries past its 8 * N lanes, which the model checks too."""
        r = self.rng
        name, access, matrices = r.choice(self.SMEM_INSTRUCTIONS)
        bits = 16 if matrices else r.choice([b for b in (8, 16, 32, 64) if (8 * access) % b == 0])
        per = 8 * access // bits  # elements per thread's access
        lanes = 8 * matrices if matrices else r.choice([1, 2, 4, 8, 32])
        n = min(32, lanes + (r.choice([0, 0, 1, 2]) if matrices else 0))  # ADDR holds at most 32
        entries: List[Node] = []
        for t in range(n):
            k = r.random()
            if k < 0.45:
                entries.append(Int(t * per * r.choice([1, 1, 2, 3])))
            elif k < 0.8:
                entries.append(BinOp("+", BinOp("*", self.var(), Int(per)), Int(t * per)))
            elif k < 0.9:
                entries.append(self.var())
            else:
                entries.append(self.index_expr())
        lhs = Call("smem_wavefronts", [Symbol(name), Tuple(entries), Int(bits)])
        return self.generalized_at_point(lhs, evaluate_at, integer=True)

    # ---- composed and F2 layouts ----------------------------------------------------------

    def composed(self) -> Composed:
        r = self.rng
        sw = self.swizzle() if r.random() < 0.3 else Swizzle(Int(r.choice([1, 2, 3])), Int(r.choice([0, 1, 2, 3, 4])),
                                                              Int(r.choice([1, 2, 3, -2, -3])))
        if abs(sw.s.value) < sw.b.value:
            sw = Swizzle(sw.b, sw.m, Int(sw.b.value))
        k = r.random()
        offset = None if k < 0.4 else self.var() if k < 0.7 else Int(r.choice([0, 1, 5, 16, 64]), static=r.random() < 0.3)
        return Composed(sw, offset, self.layout_literal(0))

    def f2_layout(self) -> LayoutLit:
        r = self.rng
        rank = r.choice([1, 2, 2, 3])
        shapes = [Int(r.choice([2, 4, 4, 8])) if r.random() < 0.8 else self.var() for _ in range(rank)]
        strides = [Symbol(f"F{r.choice([0, 1, 2, 3, 4, 5, 8, 9, 12, 16])}") for _ in range(rank)]
        if rank == 1:
            return LayoutLit(shapes[0], strides[0])
        return LayoutLit(Tuple(shapes), Tuple(strides))

    def f2_expansion(self, f: LayoutLit, x: Node) -> Node:
        """F(x): per mode the coordinate c, and c x d (carry-less) as the XOR of c << j over
        the set bits j of d; the modes combined by XOR."""
        shapes = f.shape.elements if isinstance(f.shape, Tuple) else [f.shape]
        strides = f.stride.elements if isinstance(f.stride, Tuple) else [f.stride]
        total: Node = Int(0)
        prefix: Optional[Node] = None
        for k, (s, d) in enumerate(zip(shapes, strides)):
            coord: Node = x if prefix is None else BinOp("/", x, prefix)
            if k + 1 < len(shapes):
                coord = BinOp("%", coord, s)
            value = int(d.name[1:])
            for j in range(value.bit_length()):
                if value >> j & 1:
                    total = BinOp("^", total, BinOp("<<", coord, Int(j)) if j else coord)
            prefix = s if prefix is None else BinOp("*", prefix, s)
        return total

    def family_composed(self, evaluate_at) -> Optional[Claim]:
        r = self.rng
        k = r.random()
        if k < 0.7:
            c = self.composed()
            kk = r.random()
            if kk < 0.35:
                x = self.index_expr()
                inner = self.expansion(c.layout, x)
                if c.offset is not None:
                    inner = BinOp("+", c.offset, inner)
                rhs: Node = Apply(c.swizzle, inner)
                if r.random() < 0.25:
                    rhs = self.mutate(rhs)
                return Claim(Apply(c, x), rhs)
            if kk < 0.5:
                return Claim(Call("size", [c]), Call("size", [c.layout]))
            if kk < 0.8:
                return self.generalized_at_point(Call("composition", [c, self.layout_literal(0)]), evaluate_at)
            return self.generalized_at_point(c, evaluate_at)
        f = self.f2_layout()
        kk = r.random()
        if kk < 0.4:
            x = self.index_expr()
            rhs = self.f2_expansion(f, x)
            if r.random() < 0.25:
                rhs = self.mutate(rhs)
            return Claim(Apply(f, x), rhs)
        if kk < 0.6:
            return self.generalized_at_point(Call("from_f2", [f]), evaluate_at)
        if kk < 0.8:
            return self.generalized_at_point(Call("to_f2", [self.composed()]), evaluate_at)
        return self.generalized_at_point(Call("composition", [f, self.layout_literal(0)]), evaluate_at)

    # ---- hypotheses -----------------------------------------------------------------------

    def hypothesis(self, used: List[str]) -> Hypothesis:
        """A hypothesis over the claim's variables `used` only (prove refuses any other)."""
        box_vars = self.vars
        self.vars = list(used)
        try:
            return self._hypothesis(used)
        finally:
            self.vars = box_vars

    def _hypothesis(self, used: List[str]) -> Hypothesis:
        r = self.rng
        v = r.choice(used)
        lo, hi = self.where[v]
        k = r.random()
        if k < 0.3:
            op = r.choice(["==", "!=", "<", "<=", ">", ">="])
            if len(used) > 1 and r.random() < 0.4:
                other: Node = Var(r.choice([u for u in used if u != v]))
            else:
                other = Int(r.choice([lo, hi, (lo + hi) // 2, lo + 1, hi - 1]))
            return Hypothesis("compare", [Var(v), other], op)
        if k < 0.55:
            kk = r.random()
            if kk < 0.45:
                divisor: Node = Int(r.choice([1, 2, 2, 3, 4, 8]))
            elif kk < 0.75 and len(used) > 1:
                divisor = Var(r.choice([u for u in used if u != v]))
            elif kk < 0.88:
                divisor = Int(r.choice([0, -1, -2, -4]))   # malformed: exit 64
            else:
                divisor = BinOp("*", Var(v), Int(2))       # a variable divisor that may never divide
            return Hypothesis("divides", [divisor, Var(v)])
        if k < 0.7:  # unsatisfiable within the box
            kk = r.random()
            if kk < 0.4:
                return Hypothesis("compare", [Var(v), Int(hi)], ">") if r.random() < 0.5 else \
                    Hypothesis("compare", [Var(v), Int(lo)], "<")
            if kk < 0.7:
                return Hypothesis("compare", [BinOp("+", Var(v), Int(1)), Var(v)], r.choice(["<=", "=="]))
            return Hypothesis("divides", [Int(max(2, abs(hi) + 1 + r.choice([0, 3]))), Var(v)])
        if k < 0.8:
            return Hypothesis("defined", [self.int_expr(1) if r.random() < 0.5 else self.layout_expr(1)])
        if k < 0.9:
            return Hypothesis("admissible", [self.layout_literal(0), self.layout_literal(0)])
        return Hypothesis("injective", [self.layout_literal(0)])

    def conditional_claim(self) -> Tup[Claim, List[Hypothesis]]:
        """A claim that holds under its natural hypothesis (which the caller may replace)."""
        r = self.rng
        vs = list(self.vars)
        x = Var(r.choice(vs))
        t = Var(r.choice(vs))
        k = r.random()
        if k < 0.15:
            return Claim(BinOp("*", BinOp("/", x, t), t), x), [Hypothesis("divides", [t, x])]
        if k < 0.25:
            return Claim(BinOp("%", x, t), Int(0)), [Hypothesis("divides", [t, x])]
        if k < 0.4:
            return (Claim(Call("logical_divide", [LayoutLit(Tuple([x, Int(2)]), Tuple([Int(1), x])), LayoutLit(t, Int(1))]),
                          LayoutLit(Tuple([t, BinOp("/", BinOp("*", x, Int(2)), t)]), Tuple([Int(1), t]))),
                    [Hypothesis("divides", [t, x])])
        if k < 0.5:
            return Claim(Call("composition", [LayoutLit(x, Int(1)), LayoutLit(t, Int(1))]), LayoutLit(t, Int(1))), \
                [Hypothesis("divides", [t, x])]
        if k < 0.6:
            return Claim(BinOp("%", x, t), x), [Hypothesis("compare", [x, t], "<")]
        if k < 0.7:
            return Claim(BinOp("/", x, t), Int(0)), [Hypothesis("compare", [x, t], "<")]
        if k < 0.7:
            return (Claim(BinOp("|", x, t), BinOp("+", x, t)),
                    [Hypothesis("compare", [BinOp("&", x, t), Int(0)], "==")])
        if k < 0.77:
            # true where the model accepts tile_to_shape: defined(...) restricts to those points
            target = self.target()
            block = self.block_for(target)
            tiled = Call("tile_to_shape", [block, target])
            return Claim(Call("size", [tiled]), self.tile_size(block, target)), [Hypothesis("defined", [tiled])]
        if k < 0.84:
            # composition keeps B's shape where the model composes A and B
            a, b = self.layout_literal(0), self.layout_literal(0)
            return (Claim(Call("size", [Call("composition", [a, b])]), Call("size", [b])),
                    [Hypothesis("admissible", [a, b])])
        if k < 0.9:
            # a left inverse of an injective layout composed with it is the identity
            layout = LayoutLit(Tuple([x, Int(2)]), Tuple([Int(1), t]))
            return (Claim(Call("composition", [Call("left_inverse", [layout]), layout]), LayoutLit(BinOp("*", Int(2), x), Int(1))),
                    [Hypothesis("injective", [layout])])
        n = Int(r.choice([4, 6, 8]), static=True)
        return (Claim(Call("size", [Call("tile_to_shape", [LayoutLit(x, Int(1)), n])]), n),
                [Hypothesis("divides", [x, Int(n.value)])])

    def family_assume(self, evaluate_at) -> Optional[Tup[Claim, List[Hypothesis]]]:
        r = self.rng
        k = r.random()
        if k < 0.45:
            c, hyps = self.conditional_claim()
            claim_vars = sorted(variables(c.lhs) | variables(c.rhs))
            # (a claim without variables keeps its own hypotheses: a random one needs a variable)
            if r.random() < 0.35 and claim_vars:
                hyps = [self.hypothesis(claim_vars)]
        else:
            c = self.family_arith() if k < 0.6 else self.family_tiling(evaluate_at) if k < 0.8 else self.family_layout_law()
            if c is None:
                return None
            hyps = []
        used = sorted(variables(c.lhs) | variables(c.rhs))
        if not used:
            return None
        for _ in range(r.choice([0, 1, 1, 2]) if hyps else r.choice([1, 1, 2])):
            hyps.append(self.hypothesis(used))
        return c, hyps

    WEIGHTS = (("arith", 0.18), ("layout_law", 0.12), ("generalized", 0.14), ("swizzle", 0.05), ("tuple", 0.05),
               ("random", 0.04), ("tiling", 0.16), ("assume", 0.16), ("composed", 0.10), ("banks", 0.04))

    def claim(self, evaluate_at) -> Tup[str, Dict[str, Tup[int, int]], str, List[str]]:
        """(claim text, --where ranges, family, --assume texts); every variable of the claim
        has a range."""
        chosen = [(f, w) for f, w in self.WEIGHTS if f in self.families]
        while True:
            self.new_box()
            family = self.rng.choices([f for f, _ in chosen], weights=[w for _, w in chosen])[0]
            hyps: List[Hypothesis] = []
            if family == "arith":
                c = self.family_arith()
            elif family == "layout_law":
                c = self.family_layout_law()
            elif family == "generalized":
                c = self.family_generalized(evaluate_at)
            elif family == "swizzle":
                c = self.family_swizzle()
            elif family == "tuple":
                c = self.family_tuple()
            elif family == "tiling":
                c = self.family_tiling(evaluate_at)
            elif family == "composed":
                c = self.family_composed(evaluate_at)
            elif family == "banks":
                c = self.family_banks(evaluate_at)
            elif family == "assume":
                pair = self.family_assume(evaluate_at)
                c, hyps = pair if pair else (None, [])
            else:
                c = self.family_random()
            if c is None:
                continue
            minimal = self.rng.random() < 0.5
            text = claim_text(c, minimal_parentheses=minimal)
            used = variables(c.lhs) | variables(c.rhs)
            if not used:
                continue  # no variable: not a symbolic claim
            return text, {v: self.where[v] for v in sorted(used)}, family, [hypothesis_text(h, minimal) for h in hyps]

