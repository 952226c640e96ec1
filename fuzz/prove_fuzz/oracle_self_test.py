"""The oracle's own checks, run before any claim: hand-derived values of its arithmetic, its
layout evaluation, its reading of printed values and of claim texts. A wrong oracle would
report defects that are not there or miss ones that are."""

from claim_ast import (Apply, BinOp, Composed, Hypothesis, Int, LayoutLit, Neg, Swizzle, Tuple, Var, claim_text, parse_claim,
                       parse_hypothesis)
from oracle import (PComposed, PF2Layout, PLayout, PointError, PointEvaluator, PointResult, arithmetic, carryless,
                    compare_layouts, hypothesis_holds, layout_size, layout_value, literal_divisor, parse_printed,
                    parse_printed_function, swizzle_value)
from verdict_check import Request, Run, check_run

INT_MAX = 2**63 - 1


def expect_error(op, a, b):
    try:
        arithmetic(op, a, b)
    except PointError:
        return True
    return False


def raises(f):
    try:
        f()
    except PointError:
        return True
    return False


def run_self_test(functions) -> int:
    """Returns the number of checks; raises AssertionError naming the first that fails."""
    checks = [
        # C++ truncation: -7 / 2 = -3 and -7 % 2 = -1 (the remainder takes the dividend's sign)
        (arithmetic("/", -7, 2), -3), (arithmetic("%", -7, 2), -1), (arithmetic("%", 7, -2), 1),
        (arithmetic("%", -2**63, -1), 0),                       # the model's CheckedInt: a % -1 is 0
        (arithmetic("<<", 3, 4), 48), (arithmetic(">>", 48, 4), 3),
        (arithmetic("|", 5, 10), 15), (arithmetic("^", -1, 5), -6), (arithmetic("&", -8, 12), 8),
        (arithmetic("<<", 1, 62), 2**62),
        (expect_error("<<", 1, 63), True),                      # into bit 63: overflow
        (expect_error("<<", -1, 0), True),                      # << of a negative value
        (expect_error(">>", -1, 1), True),                      # >> of a negative value
        (expect_error("<<", 1, 64), True), (expect_error(">>", 1, -1), True),
        (expect_error("/", -2**63, -1), True), (expect_error("/", 1, 0), True),
        (expect_error("%", 1, 0), True), (expect_error("+", INT_MAX, 1), True),
        (expect_error("*", 2**32, 2**31), True), (expect_error("-", -2**63, 1), True),
        # (2,3):(3,1): index i = (i % 2, i / 2) -> 3*(i%2) + i/2: 0,3,1,4,2,5
        ([layout_value(PLayout((2, 3), (3, 1)), i) for i in range(6)], [0, 3, 1, 4, 2, 5]),
        # ((2,2),3):((1,6),2): leaves 2,2,3 strides 1,6,2; index 7 = (1,1,1): 1+6+2 = 9
        (layout_value(PLayout(((2, 2), 3), ((1, 6), 2)), 7), 9),
        (layout_size(PLayout(((2, 2), 3), ((1, 6), 2))), 12),
        # 2 * 2^32 * 2^32 elements: past int64, as the model's checked size
        (raises(lambda: layout_size(PLayout((2, (2**32, 2**32)), (4, (4, 16))))), True),
        # index 1 of 2:(2^62): 2^62 fits; index 1 of (2,2):(2^62,2^62) at 3 = 2^62 + 2^62 does not
        (layout_value(PLayout(2, 2**62), 1), 2**62),
        (raises(lambda: layout_value(PLayout((2, 2), (2**62, 2**62)), 3)), True),
        # 3:2^62 and 3:(2^62+1) differ at index 1, and index 2 (2^63) is past int64: both
        (compare_layouts(PLayout(3, 2**62), PLayout(3, 2**62 + 1)), ("differ+error", f"at index 1: {2**62} and {2**62 + 1}")),
        (parse_printed("(_2,(3,_-1)):(1,(_0,4))"), PLayout((2, (3, -1)), (1, (0, 4)))),
        (parse_printed("(3)"), (3,)), (parse_printed("_8"), 8), (parse_printed("Sw<3,4,3>"), "Sw<3,4,3>"),
        # the grammar: `(a*b)` groups, `(x)` is a 1-tuple, `8:1(x)` applies the layout
        (parse_claim("(a*b) == (x)", functions).lhs, BinOp("*", Var("a"), Var("b"))),
        (parse_claim("(a*b) == (x)", functions).rhs, Tuple([Var("x")])),
        # a negated operand is not arithmetic: `(-x)` and `(- 5)` are 1-tuples, as `(-5)` is;
        # a negated arithmetic result groups
        (parse_claim("(-x) == (- 5)", functions).lhs, Tuple([Neg(Var("x"))])),
        (parse_claim("(-x) == (- 5)", functions).rhs, Tuple([Neg(Int(5))])),
        (parse_claim("(-(a+b)) == (-a*b)", functions).lhs, Neg(BinOp("+", Var("a"), Var("b")))),
        (parse_claim("(-(a+b)) == (-a*b)", functions).rhs, BinOp("*", Neg(Var("a")), Var("b"))),
        (parse_claim("8:1(x+1) == 2", functions).lhs,
         Apply(LayoutLit(Int(8), Int(1)), BinOp("+", Var("x"), Int(1)))),
        (parse_claim("a | b ^ c & d << 1 + 2 * 3 == 0", functions).lhs,
         BinOp("|", Var("a"), BinOp("^", Var("b"), BinOp("&", Var("c"), BinOp(
             "<<", Var("d"), BinOp("+", Int(1), BinOp("*", Int(2), Int(3)))))))),
        # the carry-less product: 3 x 3 = 5 (0b11 x 0b11 = 0b101), 6 x 3 = 10
        (carryless(3, 3), 5), (carryless(6, 3), 10),
        # Sw<3,4,3>: bits 7-9 XOR-ed into bits 4-6: 560 = 0b1000110000 -> 624 (proofs/README.md)
        (swizzle_value(3, 4, 3, 560), 624),
        # Sw<2,0,-2>: bits 0-1 XOR-ed into bits 2-3: 5 = 0b0101 -> 0b0001
        (swizzle_value(2, 0, -2, 5), 1),
        # (8,8):(F1,F9) is Sw<3,0,3> o (8,8):(1,8): index 9 = (1,1) -> 1 ^ 9 = 8
        (layout_value(parse_printed_function("(8,8):(F1,F9)"), 9), 8),
        (parse_printed_function("(8,8):(F1,F9)"), PF2Layout((8, 8), (1, 9))),
        # Sw<3,4,3> o 5 o (8,8):(8,1) at 3: L(3) = 24, 5 + 24 = 29, bits 7-9 of 29 are 0
        (layout_value(parse_printed_function("Sw<3,4,3> o _5 o (8,_8):(8,_1)"), 3), 29),
        (parse_printed_function("Sw<3,4,3> o (8,8):(8,1)"), PComposed(3, 4, 3, 0, PLayout((8, 8), (8, 1)))),
        (parse_printed_function("(8,8):(8,1)"), None),
        # static leaves keep their `_` in the text given to the model
        (PointEvaluator({"a": 3}, {}).eval(parse_claim("(a,2):(1,a) == (_6,_2)", functions).rhs), ("expr", "(_6,_2)")),
        (parse_claim("Sw<3,4,3> o a o (8,8):(8,1)(x) == 1", functions).lhs,
         Apply(Composed(Swizzle(Int(3), Int(4), Int(3)), Var("a"), LayoutLit(Tuple([Int(8), Int(8)]), Tuple([Int(8), Int(1)]))),
               Var("x"))),
        # hypotheses
        (parse_hypothesis("a << 2 >= b", functions), Hypothesis("compare", [BinOp("<<", Var("a"), Int(2)), Var("b")], ">=")),
        (literal_divisor(parse_hypothesis("divides(-2, a)", functions)), -2),
        (literal_divisor(parse_hypothesis("divides(b, a)", functions)), None),
        (hypothesis_holds(PointEvaluator({"a": 6, "b": 4}, {}), parse_hypothesis("divides(3, a)", functions)), True),
        (hypothesis_holds(PointEvaluator({"a": 6, "b": 4}, {}), parse_hypothesis("divides(b, a)", functions)), False),
        (hypothesis_holds(PointEvaluator({"a": 0, "b": 0}, {}), parse_hypothesis("divides(b, a)", functions)), False),
        (hypothesis_holds(PointEvaluator({"a": 6, "b": 0}, {}), parse_hypothesis("a / b > 1", functions)), False),
        (hypothesis_holds(PointEvaluator({"a": 6, "b": 4}, {}), parse_hypothesis("a != b", functions)), True),
    ]
    # the verdict rules: a `proved` with no point where the hypotheses hold, or one point where
    # they hold and the model refuses, is false; `vacuous` with such a point is false
    proved = Run(0, "proved (1 ms)\n  for: every a in [1, 2]\n  replayed: the model agrees at 1 point(s) where the "
                    "hypotheses hold, of 2 (the whole box)\n  assuming: a > 1\n", "", 0.1)
    request = Request("a == a", {"a": (1, 2)}, 2.0, ["a > 1"])
    box = [{"a": 1}, {"a": 2}]
    checks += [
        (check_run(request, proved, box, [PointResult("outside"), PointResult("equal")]), []),
        (len(check_run(request, proved, box, [PointResult("outside"), PointResult("outside")])) > 0, True),
        (len(check_run(request, proved, box, [PointResult("outside"), PointResult("error", "refused")])) > 0, True),
        (len(check_run(request, Run(3, "vacuous: none\n  assuming: a > 1\n", "", 0.1), box,
                       [PointResult("outside"), PointResult("equal")])) > 0, True),
        (check_run(request, Run(3, "vacuous: none\n  assuming: a > 1\n", "", 0.1), box,
                   [PointResult("outside"), PointResult("outside")]), []),
        (len(check_run(request, Run(3, "vacuous: none\n", "", 0.1), box, [], "a literal divisor < 1")) > 0, True),
    ]
    for k, (got, want) in enumerate(checks):
        assert got == want, f"oracle self-test {k}: got {got!r}, expected {want!r}"
    # printing round-trips, with and without the optional parentheses
    texts = ["x - (y - 1) << 2 == (x - y) - 1 << 2", "-x - -(y * 2) == (-x, - 3) * 0 - - - y"]
    for text in texts:
        c = parse_claim(text, functions)
        for minimal in (False, True):
            assert parse_claim(claim_text(c, minimal), functions) == c, f"round trip of {claim_text(c, minimal)}"
    return len(checks) + 2 * len(texts)
