"""The concrete oracle: a claim's two sides at one point of its --where box, evaluated without
the prover.

Integer arithmetic is evaluated here with the documented semantics (proofs/README.md: C++
precedence, / and % truncate, 64-bit overflow is an error; as the model's CheckedInt: a % -1
is 0, << of a negative value or a bit shifted into bit 63 is an overflow, >> of a negative
value is an error, shift counts outside [0, 63] are errors). Everything else (layouts,
functions, application, swizzles) is substituted into EXPR text and evaluated by
`cuteref batch`, one process per round for every point of the box. `==` is then decided
here: integers by value, integer tuples leaf by leaf, layouts as functions (equal size,
equal value at every index, enumerated here from the printed layouts: integer layouts, F2
layouts (strides `Fd`: the carry-less product of each coordinate with d, the modes combined by
XOR) and composed layouts `Sw<B,M,S> o [O o] L` (Sw(O + L(i)))). A leaf written `_N` keeps its
`_` in the substituted text (the model checks some operations only on static values).

Hypotheses (--assume) are decided at each point the same way: a comparison or divides(A, B)
(A >= 1 and A divides B) holds where both sides evaluate to integers and the relation holds;
defined(E) where the model evaluates E; admissible(A, B) where it evaluates composition(A, B);
injective(L) where L's values at its indices are distinct. A point where one does not hold lies
outside the claim's domain.
"""

import re
import subprocess
from dataclasses import dataclass
from typing import Dict, List, Optional, Tuple as Tup

from claim_ast import (Apply, BinOp, Call, Claim, Composed, Hypothesis, Int, LayoutLit, Neg, Node, Swizzle, Symbol,
                       Tuple, Var, hypothesis_text, variables)

INT_MIN, INT_MAX = -2**63, 2**63 - 1
# Layouts larger than this are compared by the model's own `==` (which compares mode by mode
# or enumerates) instead of here.
MAX_ENUMERATED_SIZE = 1 << 16


class PointError(Exception):
    """The model (or the documented arithmetic) rejects the claim at this point."""


class NeedModel(Exception):
    """The value of an EXPR text is needed before evaluation can go on."""

    def __init__(self, text):
        super().__init__(text)
        self.text = text


class Undecided(Exception):
    """The oracle cannot decide this point (e.g. a resource bound of the model)."""


def checked(v: int) -> int:
    if v < INT_MIN or v > INT_MAX:
        raise PointError("arithmetic overflow")
    return v


def trunc_div(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def arithmetic(op: str, a: int, b: int) -> int:
    try:
        return _arithmetic(op, a, b)
    except PointError as e:
        raise PointError(f"{a} {op} {b}: {e} (the documented arithmetic)") from None


def _arithmetic(op: str, a: int, b: int) -> int:
    if op == "+":
        return checked(a + b)
    if op == "-":
        return checked(a - b)
    if op == "*":
        return checked(a * b)
    if op == "/":
        if b == 0:
            raise PointError("division by zero")
        return checked(trunc_div(a, b))
    if op == "%":
        if b == 0:
            raise PointError("modulo by zero")
        return a - b * trunc_div(a, b)
    if op == "&":
        return a & b
    if op == "^":
        return a ^ b
    if op == "|":
        return a | b
    if op == "<<":
        if b < 0 or b > 63:
            raise PointError("shift count")
        if a < 0 or (b > 0 and (a >> (63 - b)) != 0):
            raise PointError("arithmetic overflow in <<")
        return a << b
    if op == ">>":
        if a < 0:
            raise PointError(">> of a negative value")
        if b < 0 or b > 63:
            raise PointError("shift count")
        return a >> b
    raise ValueError(op)


# ---- printed values ---------------------------------------------------------------------

@dataclass
class PLayout:
    shape: object   # int or tuple (nested Python tuples)
    stride: object


def parse_printed(text: str):
    """A printed model value: int, tuple (Python tuple), PLayout, or the text itself for
    anything else (swizzles, composed layouts, symbols)."""
    pos = 0

    def node():
        nonlocal pos
        if pos < len(text) and text[pos] == "(":
            pos += 1
            elems = []
            if text[pos] == ")":
                pos += 1
                return ()
            while True:
                elems.append(node())
                if text[pos] == ")":
                    pos += 1
                    return tuple(elems)
                if text[pos] != ",":
                    raise ValueError
                pos += 1
        m = re.compile(r"_?(-?\d+)").match(text, pos)
        if not m:
            raise ValueError
        pos = m.end()
        return int(m.group(1))

    try:
        first = node()
        if pos == len(text):
            return first
        if text[pos] == ":":
            pos += 1
            stride = node()
            if pos == len(text):
                return PLayout(first, stride)
    except (ValueError, IndexError):
        pass
    return text


@dataclass
class PF2Layout:
    """An F2 layout: stride leaves are the F2 values d of `Fd`."""
    shape: object
    stride: object


@dataclass
class PComposed:
    """Sw<b,m,s> o offset o layout (an integer layout)."""
    b: int
    m: int
    s: int
    offset: int
    layout: PLayout


F2_PRINTED = re.compile(r"F(\d+)")
COMPOSED_PRINTED = re.compile(r"Sw<(-?\d+),(-?\d+),(-?\d+)> o (?:(_?-?\d+) o )?(.*)")


def parse_printed_function(text: str):
    """A printed F2 layout or composed layout (PF2Layout, PComposed), else None."""
    m = COMPOSED_PRINTED.fullmatch(text)
    if m:
        inner = parse_printed(m.group(5))
        if not isinstance(inner, PLayout):
            return None
        offset = int(m.group(4).lstrip("_")) if m.group(4) else 0
        return PComposed(int(m.group(1)), int(m.group(2)), int(m.group(3)), offset, inner)
    if ":" in text and "F" in text:
        shape_text, stride_text = text.split(":", 1)
        shape = parse_printed(shape_text)
        converted = F2_PRINTED.sub(lambda g: g.group(1), stride_text)
        if F2_PRINTED.sub("", stride_text).strip("(),_0123456789") != "":
            return None
        stride = parse_printed(converted)
        if isinstance(shape, (int, tuple)) and isinstance(stride, (int, tuple)) and congruent(shape, stride):
            return PF2Layout(shape, stride)
    return None


def carryless(a: int, b: int) -> int:
    out = 0
    while b:
        if b & 1:
            out ^= a
        a <<= 1
        b >>= 1
    return out


def swizzle_value(b: int, m: int, s: int, x: int) -> int:
    """CuTe's Swizzle<B,M,S>: the B bits at M + max(S, 0) XOR-ed into those at M - min(S, 0)."""
    yyy = ((1 << b) - 1) << (m + max(s, 0))
    moved = x & yyy
    return x ^ (moved >> s if s >= 0 else moved << -s)


def flatten(t) -> List[int]:
    if isinstance(t, tuple):
        return [x for e in t for x in flatten(e)]
    return [t]


def layout_size(layout) -> int:
    """size(L); PointError where it does not fit in int64 (the model's checked product)."""
    if isinstance(layout, PComposed):
        layout = layout.layout
    n = 1
    for s in flatten(layout.shape):
        n = checked(n * s)
    return n


def layout_value(layout, index: int) -> int:
    """L(index) for 0 <= index < size(L): colexicographic coordinates, dotted with the strides,
    every product and partial sum checked as the model's int64; an F2 layout XORs the
    carry-less products; a composed layout is Sw(O + L(index))."""
    if isinstance(layout, PComposed):
        return swizzle_value(layout.b, layout.m, layout.s, checked(layout.offset + layout_value(layout.layout, index)))
    if isinstance(layout, PF2Layout):
        value = 0
        for s, d in zip(flatten(layout.shape), flatten(layout.stride)):
            value ^= carryless(index % s, d)
            index //= s
        return value
    value = 0
    for s, d in zip(flatten(layout.shape), flatten(layout.stride)):
        value = checked(value + checked((index % s) * d))
        index //= s
    return value


def congruent(a, b) -> bool:
    if isinstance(a, tuple) != isinstance(b, tuple):
        return False
    if isinstance(a, tuple):
        return len(a) == len(b) and all(congruent(x, y) for x, y in zip(a, b))
    return True


# ---- evaluation at one point ----------------------------------------------------------

STATIC_INT = re.compile(r"_-?\d+")


class PointEvaluator:
    """Evaluates a claim's side at one point. Values: int, or ('expr', TEXT) for a model
    value not yet needed as a number. `results` maps EXPR texts to `cuteref batch` answers."""

    def __init__(self, point: Dict[str, int], results: Dict[str, str]):
        self.point = point
        self.results = results

    def model_value(self, text: str):
        if text not in self.results:
            raise NeedModel(text)
        answer = self.results[text]
        if answer.startswith("error: "):
            if "enumerat" in answer or "at most" in answer or "limit" in answer:
                raise Undecided(answer)
            raise PointError(answer)
        return parse_printed(answer)

    def as_int(self, v) -> int:
        if isinstance(v, int):
            return v
        if STATIC_INT.fullmatch(v[1]):
            return int(v[1][1:])
        value = self.model_value(v[1])
        if not isinstance(value, int):
            raise PointError(f"expected an integer, got {v[1]}")
        return value

    @staticmethod
    def text(v) -> str:
        return str(v) if isinstance(v, int) else v[1]

    def eval(self, node: Node):
        if isinstance(node, Int):
            return ("expr", f"_{node.value}") if node.static else node.value
        if isinstance(node, Var):
            return self.point[node.name]
        if isinstance(node, BinOp):
            a = self.as_int(self.eval(node.lhs))
            b = self.as_int(self.eval(node.rhs))
            return arithmetic(node.op, a, b)
        if isinstance(node, Neg):
            return arithmetic("-", 0, self.as_int(self.eval(node.arg)))
        if isinstance(node, Symbol):
            return ("expr", node.name)
        if isinstance(node, Tuple):
            return ("expr", "(" + ",".join(self.text(self.eval(e)) for e in node.elements) + ")")
        if isinstance(node, LayoutLit):
            return ("expr", f"{self.text(self.eval(node.shape))}:{self.text(self.eval(node.stride))}")
        if isinstance(node, Swizzle):
            b, m, s = (self.as_int(self.eval(p)) for p in (node.b, node.m, node.s))
            return ("expr", f"Sw<{b},{m},{s}>")
        if isinstance(node, Call):
            return ("expr", node.name + "(" + ", ".join(self.text(self.eval(a)) for a in node.args) + ")")
        if isinstance(node, Composed):
            sw = self.text(self.eval(node.swizzle))
            offset = "" if node.offset is None else self.text(self.eval(node.offset)) + " o "
            return ("expr", f"{sw} o {offset}{self.text(self.eval(node.layout))}")
        if isinstance(node, Apply):
            fn = self.eval(node.fn)
            if isinstance(fn, int):
                raise PointError("an integer cannot be applied")
            return ("expr", f"{fn[1]}({self.text(self.eval(node.arg))})")
        raise TypeError(node)

    def side(self, node: Node):
        """The side's printed value, parsed (int, tuple, PLayout or text)."""
        v = self.eval(node)
        if isinstance(v, int):
            return v
        if STATIC_INT.fullmatch(v[1]):
            return int(v[1][1:])
        return self.model_value(v[1])


def hypothesis_holds(ev: "PointEvaluator", h: Hypothesis) -> bool:
    """Whether h holds at ev's point (NeedModel: a model value is needed first; Undecided: a
    resource bound)."""
    try:
        if h.kind == "compare":
            a, b = ev.side(h.args[0]), ev.side(h.args[1])
            if not isinstance(a, int) or not isinstance(b, int):
                raise Undecided(f"a comparison of non-integers in --assume: {a!r}, {b!r}")
            return {"==": a == b, "!=": a != b, "<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}[h.op]
        if h.kind == "divides":
            d, n = ev.side(h.args[0]), ev.side(h.args[1])
            if not isinstance(d, int) or not isinstance(n, int):
                raise Undecided(f"divides of non-integers in --assume: {d!r}, {n!r}")
            return d >= 1 and n % d == 0
        if h.kind == "defined":
            ev.side(h.args[0])
            return True
        if h.kind == "admissible":
            ev.side(Call("composition", h.args))
            return True
        if h.kind == "injective":
            f = as_function(ev.side(h.args[0]))
            if not isinstance(f, FUNCTIONS):
                raise Undecided(f"injective of a value that is not a layout: {f!r}")
            n = layout_size(f)
            if n > MAX_ENUMERATED_SIZE:
                raise Undecided(f"injective of {n} elements")
            return len({layout_value(f, i) for i in range(n)}) == n
    except PointError:
        return False
    raise ValueError(h.kind)


def literal_divisor(h: Hypothesis) -> Optional[int]:
    """divides(A, B) with A free of variables: A's value (None for any other hypothesis, or an
    A the documented arithmetic cannot evaluate alone)."""
    if h.kind != "divides" or variables(h.args[0]):
        return None
    try:
        v = PointEvaluator({}, {}).side(h.args[0])
    except (PointError, NeedModel, Undecided):
        return None
    return v if isinstance(v, int) else None


@dataclass
class PointResult:
    status: str                 # 'equal', 'differ', 'error', 'undecided', 'outside' (a hypothesis fails)
    why: str = ""
    lhs: object = None
    rhs: object = None
    # 'differ' only: the model also rejects some index (a value past int64 at another index
    # than a differing one): a refutation may name either
    also_rejects: bool = False


def compare_layouts(a: PLayout, b: PLayout) -> Tup[str, str]:
    """Layouts as functions: equal size and equal value at every index; a value that does not
    fit in int64 is the model's rejection (PointError) unless the sides differ elsewhere
    ('differ+error')."""
    na, nb = layout_size(a), layout_size(b)
    if na != nb:
        return "differ", f"sizes {na} and {nb}"
    first_error = first_difference = None
    for i in range(na):  # every index: a refutation may name a difference or a rejection
        try:
            va, vb = layout_value(a, i), layout_value(b, i)
        except PointError as e:
            first_error = first_error or f"at index {i}: {e}"
            continue
        if va != vb and first_difference is None:
            first_difference = f"at index {i}: {va} and {vb}"
    if first_difference:
        return ("differ+error" if first_error else "differ"), first_difference
    if first_error:
        raise PointError(first_error)
    return "equal", ""


FUNCTIONS = (PLayout, PF2Layout, PComposed)


def as_function(v):
    """A printed value as a function of an index (PLayout, PF2Layout, PComposed), or v."""
    if isinstance(v, str):
        f = parse_printed_function(v)
        return v if f is None else f
    return v


def compare(a, b, comparisons: Dict[str, str], a_text: str, b_text: str) -> Tup[str, str]:
    """('equal' | 'differ' | 'differ+error' | 'undecided' | 'need', why) for the claim's `==`;
    PointError where the model rejects the comparison."""
    a, b = as_function(a), as_function(b)
    if isinstance(a, FUNCTIONS) and isinstance(b, FUNCTIONS):
        if layout_size(a) <= MAX_ENUMERATED_SIZE and layout_size(b) <= MAX_ENUMERATED_SIZE:
            return compare_layouts(a, b)
        key = f"{a_text} == {b_text}"
        if key not in comparisons:
            return "need", key
        answer = comparisons[key]
        if answer == "true":
            return "equal", ""
        if answer.startswith("false"):
            return "differ", answer
        return "undecided", answer
    if isinstance(a, int) and isinstance(b, int):
        return ("equal", "") if a == b else ("differ", f"{a} and {b}")
    if isinstance(a, tuple) and isinstance(b, tuple):
        if congruent(a, b) and flatten(a) == flatten(b):
            return "equal", ""
        return "differ", f"{a} and {b}"
    if isinstance(a, str) and isinstance(b, str):
        # swizzles, composed layouts: decided only when printed alike
        return ("equal", "") if a == b else ("undecided", f"{a} and {b} compared as text")
    return "differ", f"values of different kinds: {a!r} and {b!r}"


class Batch:
    """`cuteref batch`, one process per call; counts processes and lines."""

    def __init__(self, cuteref: str):
        self.cuteref = cuteref
        self.processes = 0
        self.lines = 0

    def run(self, texts: List[str]) -> Dict[str, str]:
        if not texts:
            return {}
        for t in texts:
            if "\n" in t:
                raise ValueError("a batch line holds a line break")
        proc = subprocess.run([self.cuteref, "batch"], input="\n".join(texts) + "\n", capture_output=True,
                              text=True, timeout=600)
        self.processes += 1
        self.lines += len(texts)
        answers = proc.stdout.split("\n")
        if proc.returncode != 0 or len(answers) < len(texts):
            raise RuntimeError(f"cuteref batch failed (exit {proc.returncode}): {proc.stderr.strip()}")
        return dict(zip(texts, answers))


def evaluate_points(claim: Claim, points: List[Dict[str, int]], batch: Batch,
                    hypotheses: Optional[List[Hypothesis]] = None) -> List[PointResult]:
    """Each point's verdict on the concrete model, in rounds of one `cuteref batch` each:
    'outside' where a hypothesis does not hold, else the claim's comparison."""
    results: Dict[str, str] = {}
    comparisons: Dict[str, str] = {}
    out: List[Optional[PointResult]] = [None] * len(points)
    for _ in range(64):  # rounds: one per level of model values used as numbers
        needed, needed_cmp = set(), set()
        for k, point in enumerate(points):
            if out[k] is not None:
                continue
            ev = PointEvaluator(point, results)
            try:
                try:
                    failed = next((h for h in hypotheses or [] if not hypothesis_holds(ev, h)), None)
                except Undecided as e:
                    out[k] = PointResult("undecided", f"a hypothesis is undecided: {e}")
                    continue
                if failed is not None:
                    out[k] = PointResult("outside", f"{hypothesis_text(failed)} does not hold")
                    continue
                a, b = ev.side(claim.lhs), ev.side(claim.rhs)
                a_text = ev.eval(claim.lhs)
                b_text = ev.eval(claim.rhs)
                status, why = compare(a, b, comparisons, PointEvaluator.text(a_text), PointEvaluator.text(b_text))
                if status == "need":
                    needed_cmp.add(why)
                    continue
                if status == "differ+error":
                    out[k] = PointResult("differ", why, a, b, also_rejects=True)
                else:
                    out[k] = PointResult(status, why, a, b)
            except NeedModel as need:
                needed.add(need.text)
            except PointError as e:
                out[k] = PointResult("error", str(e))
            except Undecided as e:
                out[k] = PointResult("undecided", str(e))
        if not needed and not needed_cmp:
            return out  # type: ignore[return-value]
        results.update(batch.run(sorted(needed)))
        comparisons.update(batch.run(sorted(needed_cmp)))
    raise RuntimeError("the claim needs more than 64 rounds of model evaluation")


def claim_variables(claim: Claim) -> List[str]:
    return sorted(variables(claim.lhs) | variables(claim.rhs))
