"""Known vendor defects and quirks: each recogniser returns a short name, or None.

A recogniser never trusts the model: it checks the operation's defining property by
enumeration, evaluating both answers with pycute's own crd2idx (independent of the model),
and explains a disagreement only when the model's answer has the property and the
vendor's answer lacks it (a defect), or both have it and the operation does not fix a
unique answer (a quirk). Every name has a minimal case and its evidence in corpus/vendor/.
A disagreement that no recogniser explains is a failure of the suite.
"""

import ast
import math
import re


def parse_layout(pc, text: str):
    """A printed layout `S:D` (the model's or pycute's notation) as a pycute Layout, or None.
    Only plain integer layouts; `_` static marks are dropped."""
    text = text.replace("_", "").replace(" ", "")
    depth = 0
    for i, c in enumerate(text):
        depth += c == "("
        depth -= c == ")"
        if c == ":" and depth == 0:
            try:
                return pc.Layout(ast.literal_eval(text[:i]), ast.literal_eval(text[i + 1:]))
            except (ValueError, SyntaxError):
                return None
    return None


def _values(L):
    return [L(i) for i in range(L.size())]


def right_inverse_ok(A, R) -> bool:
    """@post A(R(i)) == i for every i < size(R)."""
    return all(A(R(i)) == i for i in range(R.size()))


def left_inverse_ok(A, R) -> bool:
    """@post A(R(A(i))) == A(i) for every i < size(A) (a left inverse on A's image)."""
    return all(A(R(A(i))) == A(i) for i in range(A.size()))


def complement_ok(pc, A, C, cotarget) -> bool:
    """CuTe's complement: C's strides are positive and its values ascend (ordered), A and C
    together are injective on their domain, and they cover at least the cotarget."""
    if C.size() < 1 or 0 in pc.flatten(C.shape if isinstance(C.shape, tuple) else (C.shape,)):
        return False
    cv = _values(C)
    if any(cv[i] >= cv[i + 1] for i in range(len(cv) - 1)):
        return False
    av = set(_values(A))
    seen = set()
    for c in cv:
        for a in av:
            if a + c in seen:
                return False
            seen.add(a + c)
    return max(seen) + 1 >= cotarget


def explain(oracle: str, op: str, expr: str, vendor_text: str, verdict: str, ctx: dict):
    """ctx: pc (pycute), A (pycute input layout, pycute side), vendor (pycute result),
    model_text, expected_size (the size the op's definition fixes, where known),
    vendor_size, cotarget."""
    pc = ctx.get("pc")
    model = parse_layout(pc, ctx.get("model_text", "")) if pc else None
    exp = ctx.get("expected_size")
    if oracle == "cute" and exp is not None and ctx.get("vendor_size") != exp and model is not None \
            and model.size() == exp:
        # CuTe does not check run-time divisibility; the answer's size breaks the op's own
        # post-condition (size(product) = size(A)*size(B), size(tile_to_shape) = size(target)).
        return "cute-unchecked-precondition-size"
    if oracle == "cute" and op == "complement" and _negative_shape(vendor_text) and model is not None \
            and all(v >= 0 for v in _values(model)):
        # CuTe's run-time complement divides by the strides as they are: a negative stride
        # (even on a mode of shape 1) yields negative shapes, which is not a layout at all.
        return "cute-complement-negative-stride"
    if oracle == "dsl" and model is not None:
        return _explain_dsl_difference(pc, op, vendor_text, ctx, model)
    if oracle != "pycute" or model is None:
        return None
    if op in ("logical_product", "zipped_product", "tiled_product") and verdict == "vendor raised" \
            and vendor_text.startswith("AssertionError") and product_ok(pc, ctx["A"], ctx["B"], model):
        # pycute's composition asserts `shape % stride == 0 or stride % shape == 0` on the
        # complement's modes, stricter than CuTe C++, which answers as the model does.
        return "pycute-product-composition-assert"
    A, V = ctx.get("A"), ctx.get("vendor")
    if op == "right_inverse" and V is not None and right_inverse_ok(A, model):
        if not right_inverse_ok(A, V):
            return "pycute-right-inverse-invalid"
        if V.size() < model.size():
            return "pycute-right-inverse-smaller"
    if op == "left_inverse" and V is not None and left_inverse_ok(A, model):
        if not left_inverse_ok(A, V):
            return "pycute-left-inverse-invalid"
        return "left-inverse-unconstrained-off-image"
    if op == "complement" and V is not None and V.size() == 0 and complement_ok(pc, A, model, ctx["cotarget"]):
        return "pycute-complement-shape-0"
    return None


def product_ok(pc, A, B, P) -> bool:
    """logical_product's definition, checked on values: P = (A, complement(A) o B) has
    size(A)*size(B) elements, its first size(A) values are A's, and every block of
    size(A) values is A shifted by one offset (A(i) + P(size(A)*j) ), offsets that are
    pairwise distinct when B's values are."""
    na, nb = A.size(), B.size()
    if P.size() != na * nb:
        return False
    av = _values(A)
    offsets = []
    for j in range(nb):
        off = P(na * j)
        if [P(na * j + i) for i in range(na)] != [a + off for a in av]:
            return False
        offsets.append(off)
    bv = _values(B)
    return len(set(bv)) != nb or len(set(offsets)) == nb


def model_limit(op: str, verdict: str):
    """A refusal by the model where the vendor answers, known and accepted: a name, or None.

    None at present (corpus/vendor/model_limits.txt): the last one, swizzles of negative
    offsets, was lifted; every refusal where the vendor answers is now a disagreement."""
    return None


def _negative_shape(text: str) -> bool:
    """Whether a printed layout's shape (before the top-level ':') has a negative entry."""
    depth = 0
    for i, c in enumerate(text):
        depth += c == "("
        depth -= c == ")"
        if c == ":" and depth == 0:
            return "-" in text[:i]
    return False


def explain_dsl(case, what: str, model_parts, pc, vendor_text: str = ""):
    """A DSL exception, crash-free failure or unreadable answer on an input the model
    accepts, known and checked: a short name, or None (a failure of the suite).
    case: dsl_cases.DslCase; what: the DSL's error or the problem with its answer;
    model_parts: the model's printed answer to each part; vendor_text: the DSL's printout."""
    if case.op == "nullspace" and case.A is not None and not isinstance(case.A, list) \
            and "has no len()" in what:
        # The DSL's nullspace takes len() of the stride, which a rank-1 leaf layout does not
        # have. The model's answer is checked by its definition: every index it lists goes to
        # 0, and it has size(A) / size(filter_zeros(A)) elements (s if the stride is 0, else 1).
        A = _pycute_layout(pc, case.A)
        R = parse_layout(pc, model_parts[0])
        want = case.A.shape if case.A.stride == 0 else 1
        if R is not None and R.size() == want and all(A(R(i)) == 0 for i in range(R.size())):
            return "dsl-nullspace-of-a-leaf-raises"
    if case.op == "composed_recast_layout" and "not a readable layout" in what:
        # Upcasting a swizzle Sw<B,M,S> by N with M < log2(N): CuTe C++ gives
        # Sw<max(B + M - log2 N, 0), 0, S> (swizzle_layout.hpp), the model too; the DSL's base
        # M - log2 N wraps around as an unsigned 32-bit value (S<2,4294967295,-3>, printed cut
        # to `S<2,4294`), a swizzle that moves no bit of any offset below 2^32.
        b, mm, sh, old, new = _composed_recast_operands(case)
        num = new // math.gcd(old, new)
        log2n = num.bit_length() - 1
        wrapped = re.match(r"^S<\d+,(\d+)", vendor_text)
        if wrapped and int(wrapped.group(1)) > 64 and mm < log2n \
                and model_parts[0].startswith(f"Sw<{max(b + mm - log2n, 0)},0,{sh}>"):
            return "dsl-upcast-swizzle-base-wraps"
    return None


def _composed_recast_operands(case):
    """(B, M, S, old bits, new bits) of a composed_recast_layout case."""
    b, mm, sh = case.args[0]["C"][:3]
    return b, mm, sh, case.args[1], case.args[2]


def _pycute_layout(pc, t):
    """A layouts.py tree as a pycute Layout (for enumeration with pycute's own crd2idx)."""
    import layouts as L
    return pc.Layout(L.pycute_tree(t, "shape"), L.pycute_tree(t, "stride"))


def _explain_dsl_difference(pc, op, vendor_text, ctx, model):
    """A DSL answer that is a different function from the model's (CuTe C++'s), explained
    only by checking the operation's defining property on both by enumeration."""
    case = ctx.get("dsl_case")
    V = parse_layout(pc, vendor_text)
    if case is None or case.A is None or V is None:
        return None
    A = _pycute_layout(pc, case.A)
    if op == "left_inverse" and left_inverse_ok(A, model):
        return "left-inverse-unconstrained-off-image" if left_inverse_ok(A, V) else "dsl-left-inverse-invalid"
    if op == "right_inverse" and right_inverse_ok(A, model):
        if not right_inverse_ok(A, V):
            return "dsl-right-inverse-invalid"
        if V.size() < model.size():
            return "dsl-right-inverse-smaller"
    return None


# ---------------------------------------------------------------- the DSL on inputs the model refuses

def _tup(x):
    return tuple(_tup(e) for e in x) if isinstance(x, list) else x


def _spec_layout(pc, spec):
    """A dsl_cases argument {"L": [shape, stride]} as a pycute Layout."""
    shape, stride = spec["L"]
    return pc.Layout(_tup(shape), _tup(stride))


def _injective(L) -> bool:
    v = _values(L)
    return len(set(v)) == len(v)


def _covered_bits(L, bits):
    return {bits * v + t for v in _values(L) for t in range(bits)}


PRODUCTS = ("logical_product", "zipped_product", "tiled_product", "flat_product", "blocked_product",
            "raked_product")


def explain_dsl_on_refused(case, dsl_text: str, model_error: str, pc):
    """The DSL answered an input the model refuses (CuTe C++'s preconditions fail): a short name
    when the DSL's answer is checked, by enumeration, not to be what the operation defines
    (or, for max_common_vector, to be the trivial answer); None otherwise (a failure of the
    suite: the model may refuse an input that has an answer)."""
    op = case.op
    # a composed layout's answer: its inner layout (the swizzle and offset move with the unit)
    R = parse_layout(pc, dsl_text.rpartition(" o ")[2] if op.startswith("composed_") else dsl_text)
    if op == "max_common_vector" and dsl_text.strip().isdigit():
        # The DSL's max_common_vector keeps "only the static identity component" of
        # coalesce(composition(A, right_inverse(B))) (1 when there is none), computed where
        # the model refuses that composition because CuTe's preconditions fail. Its answer n
        # is checked to be a common vector by enumeration: for each i < n, B takes the value i
        # at exactly one index j, and A(j) == i.
        A, B = _spec_layout(pc, case.args[0]), _spec_layout(pc, case.args[1])
        n = int(dsl_text)
        bv = _values(B)
        for i in range(n):
            js = [j for j, v in enumerate(bv) if v == i]
            if len(js) != 1 or A(js[0]) != i:
                return None
        return "dsl-max-common-where-composition-preconditions-fail"
    if R is None:
        return None
    if op == "complement":
        A = _spec_layout(pc, case.args[0])
        if not _injective(A) and not complement_ok(pc, A, R, case.args[1]):
            # A is not injective, so no complement exists (CuTe static-asserts); the DSL's
            # answer is not one (0 extents, or A and it together not injective).
            return "dsl-complement-of-non-injective"
        return None
    if op in PRODUCTS or op == "tile_to_shape":
        A = _spec_layout(pc, case.args[0])
        if op == "tile_to_shape":
            want = math.prod(case.args[1])
            if R.size() != want or (_injective(A) and not _injective(R)):
                return "dsl-product-outside-cute-preconditions"
            return None
        B = _spec_layout(pc, case.args[1])
        if not _injective(A):
            # The complement inside a product does not exist for a non-injective A.
            return "dsl-product-outside-cute-preconditions"
        # Every product is a rearrangement of logical_product(A, B) = (A, C o B) with
        # C = complement(A, size(A) * cosize(B)): its values are A(a) + C(B(b)), each pair once.
        # C is pycute's complement of an injective A; C(B(b)) is evaluated point by point.
        C = pc.complement(A, A.size() * B.cosize())
        want = sorted(a + C(B(b)) for a in _values(A) for b in range(B.size()))
        if sorted(_values(R)) != want:
            # The DSL computes C o B through a composition whose preconditions fail (B's
            # strides do not divide C's shapes) and gets other values.
            return "dsl-product-outside-cute-preconditions"
        return None
    if op == "max_common_layout":
        A, B = _spec_layout(pc, case.args[0]), _spec_layout(pc, case.args[1])
        if all(A(R(i)) == i and B(R(i)) == i for i in range(R.size())):
            # A valid common layout (A(R(i)) == i == B(R(i)), by enumeration), perhaps not the
            # largest; the model refuses composition(A, right_inverse(B)) where CuTe's
            # preconditions fail. The DSL keeps the static-stride-1 prefix it can read.
            return "dsl-max-common-where-composition-preconditions-fail"
        return None
    if op in ("recast_layout", "composed_recast_layout"):
        if op == "recast_layout":
            A = _spec_layout(pc, case.args[0])
        else:  # the inner layouts
            shape, stride = case.args[0]["C"][4:]
            A = pc.Layout(_tup(shape), _tup(stride))
        old, new = case.args[1], case.args[2]
        if _covered_bits(R, new) != _covered_bits(A, old):
            # A recast covers exactly the bits the layout covers (in new-width elements); the
            # DSL's answer covers other bits (a downcast without a unit-stride mode scales only
            # the strides; an upcast by a non-dividing stride rounds).
            return "dsl-recast-covers-other-bits"
        return None
    return None
