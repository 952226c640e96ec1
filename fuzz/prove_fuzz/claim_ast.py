"""The claim language of `cuteref prove` (proofs/README.md) as a Python tree: a parser written
from the documented grammar, and printing back to claim text.

Grammar (C++ precedence, as proofs/claim.cpp documents it):
  claim        ::= side '==' side
  side         ::= layout_level
  layout_level ::= composed | expr [':' expr ('(' args ')')*]
  composed     ::= 'Sw<' expr ',' expr ',' expr '>' 'o' [expr 'o'] expr ':' expr ('(' args ')')*
                   (CuTe's ComposedLayout: the swizzle, an offset, a layout; the applications
                   apply the whole composed layout, as in EXPR)
  expr         ::= or;  or ::= xor ('|' xor)*;  xor ::= and ('^' and)*;  and ::= shift ('&' shift)*
  shift        ::= add (('<<' | '>>') add)*;  add ::= mul (('+' | '-') mul)*
  mul          ::= unary (('*' | '/' | '%') unary)*
  unary        ::= '-' unary (when not followed by a digit) | postfix
  postfix      ::= primary ('(' args ')')*   (not after a tuple or an integer: there the '('
                                             applies the enclosing layout, as in EXPR: `8:1(x)`)
  primary      ::= '(' args ')' | integer | '_' integer | 'Sw<' expr ',' expr ',' expr '>'
                 | name '(' args ')' | variable | Symbol
                 | word ('.' word)+   (a PTX instruction's name, a Symbol: `ldmatrix.x1`)
`(E)` with E an arithmetic result (a binary operation, or a negation of one; not a bare or
negated variable, literal or application) is a grouping; any other parenthesized list is a
tuple, `(x)`, `(-x)` and `(-5)` 1-tuples as in CuTe. A name with a capital
letter is a symbol passed to the model as written (`F9`, an F2 stride: `(8,8):(F1,F9)`).

Hypotheses (--assume, proofs/README.md): `EXPR OP EXPR` (OP one of == != <= >= < >, found at
the top level outside `Sw<...>` and `<<`/`>>`), `divides(A, B)`, `admissible(A, B)`,
`defined(EXPR)`, `injective(L)`.
"""

from dataclasses import dataclass, field
from typing import List, Optional, Union


@dataclass
class Int:
    value: int
    static: bool = False  # written `_8`


@dataclass
class Var:
    name: str


@dataclass
class BinOp:
    op: str
    lhs: "Node"
    rhs: "Node"


@dataclass
class Neg:
    arg: "Node"


@dataclass
class Tuple:
    elements: List["Node"]


@dataclass
class LayoutLit:
    shape: "Node"
    stride: "Node"


@dataclass
class Swizzle:
    b: "Node"
    m: "Node"
    s: "Node"


@dataclass
class Call:
    name: str
    args: List["Node"]


@dataclass
class Apply:
    fn: "Node"
    arg: "Node"


@dataclass
class Symbol:
    name: str


@dataclass
class Composed:
    """Sw<B,M,S> o [offset o] layout."""
    swizzle: "Swizzle"
    offset: Optional["Node"]
    layout: "LayoutLit"


Node = Union[Int, Var, BinOp, Neg, Tuple, LayoutLit, Swizzle, Call, Apply, Symbol, Composed]


@dataclass
class Claim:
    lhs: Node
    rhs: Node


class ClaimSyntaxError(Exception):
    pass


PRECEDENCE = {"|": 0, "^": 1, "&": 2, "<<": 3, ">>": 3, "+": 4, "-": 4, "*": 5, "/": 5, "%": 5}
LEVELS = [["|"], ["^"], ["&"], ["<<", ">>"], ["+", "-"], ["*", "/", "%"]]


def is_grouped(node: Node) -> bool:
    """An arithmetic result: `(node)` groups it instead of forming a 1-tuple. A negated
    operand is not one: `(-x)` is a 1-tuple, as `(x)` and `(-5)` are."""
    while isinstance(node, Neg):
        node = node.arg
    return isinstance(node, BinOp)


class _Parser:
    def __init__(self, text: str, functions: set):
        self.text = text
        self.pos = 0
        self.functions = functions

    def fail(self, what):
        raise ClaimSyntaxError(f"column {self.pos + 1}: {what}")

    def skip(self):
        while self.pos < len(self.text) and self.text[self.pos].isspace():
            self.pos += 1

    def peek(self):
        self.skip()
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def accept(self, tok):
        self.skip()
        if self.text.startswith(tok, self.pos):
            self.pos += len(tok)
            return True
        return False

    def side(self):
        node = self.layout_level()
        self.skip()
        if self.pos != len(self.text):
            self.fail(f"unexpected {self.text[self.pos]!r}")
        return node

    def composed(self):
        """`Sw<B,M,S> o [O o] S:D` when the text here has that form, else None (no input read)."""
        start = self.pos
        self.skip()
        if not self.text.startswith("Sw<", self.pos):
            self.pos = start
            return None
        sw = self.primary()
        if not self.accept_word("o"):
            self.pos = start
            return None
        offset = None
        first = self.expr()
        if self.accept_word("o"):
            offset, first = first, self.expr()
        if not self.accept(":"):
            self.fail("expected ':' in the layout of a composed layout")
        return Composed(sw, offset, LayoutLit(first, self.expr()))

    def accept_word(self, word):
        self.skip()
        end = self.pos + len(word)
        if self.text.startswith(word, self.pos) and not (end < len(self.text) and (self.text[end].isalnum() or self.text[end] == "_")):
            self.pos = end
            return True
        return False

    def layout_level(self):
        node = self.composed()
        if node is None:
            shape = self.expr()
            if not self.accept(":"):
                return shape
            node = LayoutLit(shape, self.expr())
        while self.peek() == "(":
            self.pos += 1
            args = self.arguments()
            if len(args) != 1:
                self.fail("application takes one index")
            node = Apply(node, args[0])
        return node

    def expr(self, level=0):
        if level == len(LEVELS):
            return self.unary()
        node = self.expr(level + 1)
        while True:
            self.skip()
            op = next((o for o in sorted(LEVELS[level], key=len, reverse=True) if self.text.startswith(o, self.pos)), None)
            # '<' and '>' alone are not operators; '|' is never doubled in the language
            if op is None:
                return node
            self.pos += len(op)
            node = BinOp(op, node, self.expr(level + 1))

    def unary(self):
        self.skip()
        if self.peek() == "-" and not (self.pos + 1 < len(self.text) and self.text[self.pos + 1].isdigit()):
            self.pos += 1
            return Neg(self.unary())
        return self.postfix()

    def postfix(self):
        node = self.primary()
        # An integer cannot be applied: a '(' after one (a stride: `8:1(x)`, `8:(c+2)(x)`)
        # applies the enclosing layout, as in the EXPR language; nor a tuple (`(8,2):(1,8)(x)`).
        while self.peek() == "(" and not isinstance(node, (Tuple, Int, Var, BinOp, Neg)):
            self.pos += 1
            args = self.arguments()
            if len(args) != 1:
                self.fail("application takes one index")
            node = Apply(node, args[0])
        return node

    def arguments(self):
        args = []
        if self.accept(")"):
            return args
        while True:
            args.append(self.layout_level())
            if self.accept(")"):
                return args
            if not self.accept(","):
                self.fail("expected ',' between arguments")

    def integer(self):
        start = self.pos
        if self.text[self.pos] == "-":
            self.pos += 1
        while self.pos < len(self.text) and self.text[self.pos].isdigit():
            self.pos += 1
        digits = self.text[start:self.pos]
        if digits in ("", "-"):
            self.fail("expected digits")
        return int(digits)

    def primary(self):
        c = self.peek()
        if c == "":
            self.fail("unexpected end")
        if c == "(":
            self.pos += 1
            elems = self.arguments()
            if len(elems) == 1 and is_grouped(elems[0]):
                return elems[0]
            return Tuple(elems)
        if c.isdigit() or c == "-":
            return Int(self.integer())
        if c == "_" and self.pos + 1 < len(self.text) and (self.text[self.pos + 1].isdigit() or self.text[self.pos + 1] == "-"):
            self.pos += 1
            return Int(self.integer(), static=True)
        if c.isalpha() or c == "_":
            start = self.pos
            while self.pos < len(self.text) and (self.text[self.pos].isalnum() or self.text[self.pos] == "_"):
                self.pos += 1
            # A PTX spelling's ".part"s (`ldmatrix.x1`, `ld.shared.v4.b32`) make the word an
            # instruction's name, a symbol, not a variable.
            dotted = False
            while (self.pos + 1 < len(self.text) and self.text[self.pos] == "."
                   and (self.text[self.pos + 1].isalnum() or self.text[self.pos + 1] == "_")):
                dotted = True
                self.pos += 1
                while self.pos < len(self.text) and (self.text[self.pos].isalnum() or self.text[self.pos] == "_"):
                    self.pos += 1
            name = self.text[start:self.pos]
            if dotted:
                return Symbol(name)
            if name == "Sw" and self.peek() == "<":
                self.pos += 1
                b = self.expr()
                if not self.accept(","):
                    self.fail("expected ','")
                m = self.expr()
                if not self.accept(","):
                    self.fail("expected ','")
                s = self.expr()
                if not self.accept(">"):
                    self.fail("expected '>'")
                return Swizzle(b, m, s)
            if self.peek() == "(" and name in self.functions:
                self.pos += 1
                return Call(name, self.arguments())
            if name[0].isupper():
                return Symbol(name)
            return Var(name)
        self.fail(f"unexpected {c!r}")


def split_claim(text: str):
    depth = 0
    for k in range(len(text) - 1):
        if text[k] == "(":
            depth += 1
        elif text[k] == ")":
            depth -= 1
        elif depth == 0 and text[k:k + 2] == "==":
            return text[:k], text[k + 2:]
    raise ClaimSyntaxError("the claim must have the form EXPR == EXPR")


def parse_claim(text: str, functions: set) -> Claim:
    lhs, rhs = split_claim(text)
    return Claim(_Parser(lhs, functions).side(), _Parser(rhs, functions).side())


def variables(node: Node, out: Optional[set] = None) -> set:
    out = set() if out is None else out
    if isinstance(node, Var):
        out.add(node.name)
    for child in children(node):
        variables(child, out)
    return out


def children(node: Node):
    if isinstance(node, BinOp):
        return [node.lhs, node.rhs]
    if isinstance(node, Neg):
        return [node.arg]
    if isinstance(node, Tuple):
        return node.elements
    if isinstance(node, LayoutLit):
        return [node.shape, node.stride]
    if isinstance(node, Swizzle):
        return [node.b, node.m, node.s]
    if isinstance(node, Call):
        return node.args
    if isinstance(node, Apply):
        return [node.fn, node.arg]
    if isinstance(node, Composed):
        return [node.swizzle] + ([node.offset] if node.offset is not None else []) + [node.layout]
    return []


def to_text(node: Node, minimal_parentheses: bool = False) -> str:
    """Claim text of a tree: arithmetic fully parenthesized, or (minimal_parentheses) only
    where C++ precedence needs it. Parses back to the same tree."""

    def arith(n: Node, parent_prec: int, right: bool) -> str:
        if isinstance(n, BinOp):
            p = PRECEDENCE[n.op]
            inner = f"{arith(n.lhs, p, False)} {n.op} {arith(n.rhs, p, True)}"
            if not minimal_parentheses or p < parent_prec or (p == parent_prec and right):
                return f"({inner})"
            return inner
        if isinstance(n, Neg):
            # Unparenthesized: `(- x)` would be a 1-tuple. Unary minus binds tighter than every
            # binary operator, and a binary operand is parenthesized (`-(a + b)`).
            return f"- {arith(n.arg, 99, False)}"
        return to_text(n, minimal_parentheses)

    if isinstance(node, Int):
        return ("_" if node.static else "") + str(node.value)
    if isinstance(node, Var):
        return node.name
    if isinstance(node, Symbol):
        return node.name
    if isinstance(node, (BinOp, Neg)):
        return arith(node, -1, False)
    if isinstance(node, Tuple):
        return "(" + ",".join(to_text(e, minimal_parentheses) for e in node.elements) + ")"
    if isinstance(node, LayoutLit):
        return f"{to_text(node.shape, minimal_parentheses)}:{to_text(node.stride, minimal_parentheses)}"
    if isinstance(node, Swizzle):
        return "Sw<" + ",".join(to_text(p, minimal_parentheses) for p in (node.b, node.m, node.s)) + ">"
    if isinstance(node, Call):
        return node.name + "(" + ", ".join(to_text(a, minimal_parentheses) for a in node.args) + ")"
    if isinstance(node, Apply):
        return f"{to_text(node.fn, minimal_parentheses)}({to_text(node.arg, minimal_parentheses)})"
    if isinstance(node, Composed):
        # the offset and the layout fully parenthesized: `Sw o O o S:D * a` would multiply the
        # composed layout, not the stride
        offset = "" if node.offset is None else to_text(node.offset) + " o "
        return f"{to_text(node.swizzle)} o {offset}{to_text(node.layout)}"
    raise TypeError(node)


def claim_text(claim: Claim, minimal_parentheses: bool = False) -> str:
    return f"{to_text(claim.lhs, minimal_parentheses)} == {to_text(claim.rhs, minimal_parentheses)}"


# ---- hypotheses (--assume) ------------------------------------------------------------------

@dataclass
class Hypothesis:
    kind: str                   # 'compare', 'divides', 'admissible', 'defined', 'injective'
    args: List[Node]
    op: str = ""                # compare only: == != <= >= < >


COMPARISONS = ["==", "!=", "<=", ">=", "<", ">"]


def split_comparison(text: str):
    """(lhs, op, rhs) at the first comparison at depth 0 outside `Sw<...>`, `<<` and `>>`."""
    depth, k = 0, 0
    while k < len(text):
        c = text[k]
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
        elif depth == 0 and text.startswith("Sw<", k):
            close = text.find(">", k)
            if close < 0:
                return None
            k = close + 1
            continue
        elif depth == 0 and text[k:k + 2] in ("<<", ">>"):
            k += 2
            continue
        elif depth == 0:
            for op in COMPARISONS:
                if text.startswith(op, k):
                    return text[:k], op, text[k + len(op):]
        k += 1
    return None


def parse_hypothesis(text: str, functions: set) -> Hypothesis:
    parts = split_comparison(text)
    if parts:
        lhs, op, rhs = parts
        return Hypothesis("compare", [_Parser(lhs, functions).side(), _Parser(rhs, functions).side()], op)
    stripped = text.strip()
    for kind, arity in (("divides", 2), ("admissible", 2), ("defined", 1), ("injective", 1)):
        if stripped.startswith(kind) and stripped[len(kind):].lstrip().startswith("("):
            p = _Parser(stripped[len(kind):], functions)
            p.accept("(")
            args = p.arguments()
            p.skip()
            if p.pos != len(p.text):
                p.fail("unexpected text after the hypothesis")
            if len(args) != arity:
                raise ClaimSyntaxError(f"{kind} takes {arity} argument(s)")
            return Hypothesis(kind, args)
    raise ClaimSyntaxError(f"not a hypothesis: {text!r}")


def hypothesis_text(h: Hypothesis, minimal_parentheses: bool = False) -> str:
    if h.kind == "compare":
        return f"{to_text(h.args[0], minimal_parentheses)} {h.op} {to_text(h.args[1], minimal_parentheses)}"
    return h.kind + "(" + ", ".join(to_text(a, minimal_parentheses) for a in h.args) + ")"
