"""The oracle's own checks, run before any claim: hand-derived values of its arithmetic, its
layout evaluation, its reading of printed values and of claim texts. A wrong oracle would
report defects that are not there or miss ones that are."""

from claim_ast import Apply, BinOp, Int, LayoutLit, Tuple, Var, claim_text, parse_claim
from oracle import PLayout, PointError, arithmetic, compare_layouts, layout_size, layout_value, parse_printed

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
        (parse_claim("8:1(x+1) == 2", functions).lhs,
         Apply(LayoutLit(Int(8), Int(1)), BinOp("+", Var("x"), Int(1)))),
        (parse_claim("a | b ^ c & d << 1 + 2 * 3 == 0", functions).lhs,
         BinOp("|", Var("a"), BinOp("^", Var("b"), BinOp("&", Var("c"), BinOp(
             "<<", Var("d"), BinOp("+", Int(1), BinOp("*", Int(2), Int(3)))))))),
    ]
    for k, (got, want) in enumerate(checks):
        assert got == want, f"oracle self-test {k}: got {got!r}, expected {want!r}"
    # printing round-trips, with and without the optional parentheses
    c = parse_claim("x - (y - 1) << 2 == (x - y) - 1 << 2", functions)
    for minimal in (False, True):
        assert parse_claim(claim_text(c, minimal), functions) == c, f"round trip of {claim_text(c, minimal)}"
    return len(checks) + 2
