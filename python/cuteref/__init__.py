"""cuteref: the reference model of CuTe's layout algebra, from Python.

Every value and operation is the C++ model's (the same library as the `cuteref` CLI), bound
with nanobind as `cuteref._cuteref`:

    >>> import cuteref
    >>> print(cuteref.eval("coalesce((2,(1,6)):(1,(6,2)))"))
    12:1
    >>> L = cuteref.eval("(4,2):(2,1)")
    >>> L(5), L(None, 1), cuteref.coalesce(L)          # application, slicing, any function
    >>> cuteref.eval("4:2 == (2,2):(2,4)")            # functional ==: true / false: first index
    >>> cuteref.batch(["coalesce(8:1)", "(4,(2,3"])   # many EXPRs in one call, errors in place
    >>> cuteref.prove("coalesce((a,b):(1,a)) == (a*b):1", where={"a": (1, 4096), "b": (1, 4096)})

Values (`cuteref.Value`) print in CuTe's notation; `==` compares layouts as functions
(`Value.equal` gives the verdict with the first differing index). Python ints, tuples, None
(CuTe's `_`) and EXPR strings are accepted wherever a value is. Every function of the EXPR
language is a function of this module (`cuteref.functions()` lists them with signatures).
Errors are `cuteref.Error`: `.diagnostic` is the model's message, `.column` the 1-based
column of the expression it points at (None when the error has no place in a text).

Submodules: `cuteref.pycute` (pycute's API, backed by the model), `cuteref.strategies`
(Hypothesis strategies; needs hypothesis).
"""

from typing import Dict, Iterable, List, Optional, Sequence, Tuple, Union


class Error(Exception):
    """A diagnostic of the model: `diagnostic` (the message) and `column` (1-based, or None)."""

    def __init__(self, diagnostic: str, column: Optional[int] = None):
        super().__init__(diagnostic)
        self.diagnostic = diagnostic
        self.column = column


class PycuteError(Error, AssertionError):
    """A model diagnostic raised through cuteref.pycute: also an AssertionError, which is
    what pycute raises where its preconditions fail."""


from . import _cuteref  # noqa: E402  (the classes above must exist first)

_cuteref._set_error_classes(Error, PycuteError)

Value = _cuteref.Value
functions = _cuteref.functions
call = _cuteref.call
_ = _cuteref.Value(None)  # CuTe's underscore, for slicing and tilers (None works too)


def eval(expr: str) -> Value:  # noqa: A001  (cuteref.eval mirrors `cuteref eval`)
    """The value of EXPR, as `cuteref eval 'EXPR'` prints it (str() of the result)."""
    return _cuteref.evaluate(expr)


def batch(exprs: Sequence[str]) -> List[Union[Value, Error]]:
    """The value of each EXPR of a list (or tuple) of strings, computed in one call, as
    `cuteref batch` answers one line per input: the list holds, in order, each expression's
    Value, or the cuteref.Error it raised (returned, not raised, so that one bad expression
    does not lose the others' answers). A non-str element is a TypeError before any
    evaluation."""
    values, errors = _cuteref.evaluate_batch(exprs)
    for index, message, column in errors:
        values[index] = Error(message, column)
    return values


def parse(text: str) -> Value:
    """A literal in CuTe's printed notation (`(4,2):(1,4)`, `Sw<3,4,3> o _0 o 8:1`, `(_4,8)`);
    function calls are refused."""
    return _cuteref.parse(text)


def layout(shape, stride=None) -> Value:
    """The layout shape:stride from Python ints and tuples (stride None: compact column-major)."""
    return call("make_layout", shape) if stride is None else call("make_layout", shape, stride)


def equal(a, b) -> Value:
    """The verdict of a == b (functional for layouts): str() is `true` or `false: ...`."""
    return Value(a).equal(b)


class ProofResult:
    """The outcome of `cuteref.prove`: `status` is 'proved', 'refuted', 'vacuous' (the hypotheses
    and ranges cannot hold together: nothing was proved) or 'unknown'; `text` is
    what `cuteref prove` prints; `counterexample` maps each variable to its value when refuted,
    and `element_index` is the layouts' index where the sides differ (None where the refutation
    names none). `counterexample` also maps `index` to that element index, unless the claim has
    a variable of that name: then it is the variable's value. bool() is True only when proved."""

    def __init__(self, status: str, text: str, counterexample: Dict[str, int], ms: Optional[int],
                 element_index: Optional[int] = None):
        self.status, self.text, self.counterexample, self.ms = status, text, counterexample, ms
        self.element_index = element_index

    def __bool__(self) -> bool:
        return self.status == "proved"

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"ProofResult({self.status!r}, {self.text!r})"


WhereSpec = Union[None, str, Dict[str, Tuple[int, int]], Iterable[str]]


def _where_clauses(where: WhereSpec):
    if where is None:
        return []
    if isinstance(where, str):
        return [where]
    if isinstance(where, dict):
        out = []
        for name, bounds in where.items():
            lo, hi = bounds
            out.append(f"{name} in [{int(lo)},{int(hi)}]")
        return out
    return [str(w) for w in where]


def prove(claim: str, where: WhereSpec = None, timeout: Optional[float] = None, smt2: Optional[str] = None,
          assume: Optional[List[str]] = None) -> ProofResult:
    """`cuteref prove`: prove CLAIM (`EXPR == EXPR` with integer arithmetic and free lower-case
    variables) with Z3 for all values, or refute it with a counterexample replayed on the model.
    `where` bounds variables: {"a": (1, 4096)} or ["a in [1,4096]"]; a variable without a bound
    ranges over [0, 2^63-1]. `timeout` bounds the whole proof, in seconds: None is the CLI's
    default (60 s), otherwise in [0.001, 86400]; a proof that runs out of time is "unknown".
    `smt2` a file for the queries; `assume` hypotheses as `cuteref prove --assume` takes them. A malformed claim (exit 64 of `cuteref prove`) or a prover
    failure (70, 74) raises cuteref.Error."""
    seconds = 60.0 if timeout is None else float(timeout)
    if not 0.001 <= seconds <= 86400:
        raise Error(f"prove: timeout {timeout!r} is outside [0.001, 86400] seconds")
    rc, out, err = _cuteref.prove_command(claim, _where_clauses(where), seconds, smt2 or "", list(assume or []))
    if rc in (64, 70, 74) or (rc == 2 and not out.startswith("unknown")):
        message = err.strip()
        if message.startswith("error: "):
            message = message[len("error: "):]
        column = None
        if message.startswith("column "):
            head = message[len("column "):].split(":", 1)[0]
            column = int(head) if head.isdigit() else None
        raise Error(message, column)
    text = out.rstrip("\n")
    if rc == 0:
        ms = None
        first = text.splitlines()[0] if text else ""
        if "(" in first and first.endswith(" ms)"):
            ms = int(first[first.rindex("(") + 1:-len(" ms)")])
        return ProofResult("proved", text, {}, ms)
    if rc == 1:
        # `name = 5` is a variable's value; `index = 3: lhs(3) = ..., rhs(3) = ...` the layouts'
        # element index, which a variable named `index` must not be mistaken for.
        values = {}
        element_index = None
        for line in text.splitlines()[1:]:
            name, sep, value = line.strip().partition(" = ")
            if sep and name.isidentifier() and value.lstrip("-").isdigit():
                values[name] = int(value)
            elif sep and name == "index" and ":" in value:
                element_index = int(value.split(":", 1)[0])
        if element_index is not None:
            values.setdefault("index", element_index)
        return ProofResult("refuted", text, values, None, element_index)
    if rc == 3:
        return ProofResult("vacuous", text, {}, None)
    return ProofResult("unknown", text, {}, None)


def _make_function(name: str, signature: str):
    def function(*args):
        return _cuteref.call(name, *args)

    function.__name__ = name
    function.__qualname__ = name
    function.__doc__ = f"{signature}\n\nThe model's `{name}` (as in `cuteref eval`); arguments are " \
                       "cuteref values, Python ints/tuples/None, or EXPR strings."
    return function


def _export_functions(namespace):
    names = []
    for name, signature in functions():
        if name not in namespace:  # eval, parse, layout, ... are this module's own
            namespace[name] = _make_function(name, signature)
            names.append(name)
    return names


_exported = _export_functions(globals())

__all__ = ["Error", "PycuteError", "Value", "ProofResult", "eval", "batch", "parse", "layout", "equal", "prove",
           "functions", "call", "_"] + _exported


def from_dsl(obj, bits: Optional[int] = None, elements: bool = False) -> Value:
    """A CuTe DSL object (nvidia-cutlass-dsl: a layout, a composed layout, a shape, e.g. inside a
    @cute.jit function) or its printout, as a cuteref value. The DSL prints CuTe's notation with
    static integers unmarked and swizzles as `S<B,M,S>`; a run-time value prints as `?` and
    cannot be converted (cuteref.Error at its column).

    A swizzled SMEM layout prints as `S<3,4,3> o 0 o L`, but on the GPU the DSL applies that
    swizzle to the byte address of L's element (the swizzle travels with the SMEM pointer). Give
    `bits`, the element width, to get that function: `Sw<3,4,3> o smem_ptr[16b](unset) o L` for
    bits=16. `elements=True` reads the swizzle on element indices, as printed. A swizzled layout
    with neither is refused: the two readings are different functions."""
    text = obj if isinstance(obj, str) else str(obj)
    if "?" in text:
        raise Error(f"from_dsl: `{text}` has run-time values (printed `?`): only static values convert",
                    text.index("?") + 1)
    if bits is not None and (isinstance(bits, bool) or not isinstance(bits, int) or bits not in (4, 6, 8, 16, 32, 64)):
        raise Error(f"from_dsl: bits={bits!r} is not an element width (4, 6, 8, 16, 32 or 64)")
    if bits is not None and elements:
        raise Error("from_dsl: give bits (the swizzle on byte addresses, as on the GPU) or elements=True, not both")
    import re
    swizzle = re.match(r"\s*S<(-?\d+),(-?\d+),(-?\d+)>\s+o\s+", text)
    if swizzle is None:
        return parse(text)
    if bits is None and not elements:
        raise Error(f"from_dsl: `{text}` is a swizzled layout: on the GPU the DSL applies its swizzle to "
                    "byte addresses; give bits= (the element width) for that function, or elements=True "
                    "to read the swizzle on element indices as printed", 1)
    head = "Sw<" + ",".join(swizzle.groups()) + "> o "
    rest = text[swizzle.end():]
    if elements:
        return parse(head + rest)
    offset = re.match(r"(-?\d+)\s+o\s+", rest)
    if offset is None or int(offset.group(1)) != 0:
        raise Error(f"from_dsl: `{text}` has no zero offset between swizzle and layout: an SMEM layout "
                    "read on byte addresses needs the offset 0 (slice it with its offset applied first)")
    return parse(head + f"smem_ptr[{bits}b](unset) o " + rest[offset.end():])


__all__.append("from_dsl")
