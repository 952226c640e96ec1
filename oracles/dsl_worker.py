#!/usr/bin/env python3
"""The CuTe DSL (nvidia-cutlass-dsl 4.8.1) as an oracle: one process that answers many cases.

    dsl_worker.py DSL_DIR   < cases (JSON lines)   > answers (JSON lines, in the order asked)

DSL_DIR is the pip --target folder that ./run installs (.vendor/dsl). Each input line is
    {"i": ID, "op": NAME, "a": [ARG, ...]}      ("e": 1 added: evaluate the answer too, below)
where a layout argument is {"L": [SHAPE, STRIDE]} (nested lists of ints), a composed layout
{"C": [B, M, S, OFFSET, SHAPE, STRIDE]}, and anything else (an integer, a shape, a tiler
list whose elements are layouts, ints or null for `_`) is passed as nested tuples.
Each answer line is
    {"i": ID, "ok": true, "parts": [TEXT, ...]}      str() of each part of the DSL's result
    {"i": ID, "ok": false, "error": "Type: message"}  the DSL raised
and, for a case marked "e" that the DSL answers with a layout or composed layout,
"self": [SIZE, [V0, V1, ...]]: the DSL's own evaluation of its result at every index, so
that the driver can check that the printout it evaluates is the function the DSL computed.
The driver marks the sample (not a count kept here), so that a case's answer is the same
whichever worker answers it and whatever it answered before (the answers are recorded).

The DSL computes static layouts while it traces a @cute.jit function on the host (no GPU):
every operation on Python ints folds to a static result whose str() is CuTe notation with
static integers printed without `_`. All cases run inside one traced call; the trace is
abandoned at the end (nothing is compiled). A case that crashes the process (the DSL
segfaults on some inputs) ends the output early: the driver restarts after it.
"""

import json
import os
import sys


def load_dsl(dsl_dir):
    sys.path.insert(0, dsl_dir)
    import nvidia_cutlass_dsl  # noqa: F401  (its .pth hook is not run for a --target folder)
    sys.path.insert(0, os.path.join(nvidia_cutlass_dsl.__path__[0], "dsl_packages"))
    import cutlass.cute as cute
    return cute


class _TraceDone(Exception):
    """Raised after the last case so that the traced function is never compiled."""


def tup(x):
    if isinstance(x, list):
        return tuple(tup(e) for e in x)
    return x


def build(cute, a):
    """A JSON argument as a DSL object (inside the trace)."""
    if isinstance(a, dict) and "L" in a:
        shape, stride = a["L"]
        return cute.make_layout(tup(shape), stride=tup(stride))
    if isinstance(a, dict) and "C" in a:
        b, m, s, off, shape, stride = a["C"]
        return cute.make_composed_layout(cute.make_swizzle(b, m, s), off,
                                         cute.make_layout(tup(shape), stride=tup(stride)))
    if isinstance(a, dict) and "T" in a:  # a tiler: a tuple of layouts / ints / None (`_`)
        return tuple(build(cute, e) if isinstance(e, dict) else e for e in a["T"])
    return tup(a)


def run_op(cute, op, args):
    """The DSL's answer to one case, as a tuple of parts."""
    if op in ("coalesce", "filter", "filter_zeros", "right_inverse", "left_inverse", "nullspace", "cosize"):
        return (getattr(cute, op)(args[0]),)
    if op == "coalesce_profile":
        return (cute.coalesce(args[0], target_profile=args[1]),)
    if op in ("composition", "composition_tiler", "composed_composition"):
        return (cute.composition(args[0], args[1]),)
    if op == "complement":
        return (cute.complement(args[0], args[1]),)
    if op in ("logical_divide", "zipped_divide", "tiled_divide", "flat_divide", "logical_product",
              "zipped_product", "tiled_product", "flat_product", "blocked_product", "raked_product"):
        return (getattr(cute, op)(args[0], args[1]),)
    if op == "composed_logical_divide":
        return (cute.logical_divide(args[0], args[1]),)
    if op in ("tile_to_shape", "composed_tile_to_shape"):
        return (cute.tile_to_shape(args[0], args[1], args[2]),)
    if op in ("max_common_vector", "max_common_layout"):
        return (getattr(cute, op)(args[0], args[1]),)
    if op in ("recast_layout", "composed_recast_layout"):  # args: layout, old bits, new bits
        return (cute.recast_layout(args[2], args[1], args[0]),)
    if op == "make_layout_tv":
        tiler, tv = cute.make_layout_tv(args[0], args[1])
        return (tiler, tv)
    if op == "slice_and_offset":
        layout, offset = cute.slice_and_offset(args[0], args[1])
        return (layout, offset)
    if op == "make_ordered_layout":
        return (cute.make_ordered_layout(args[0], order=args[1]),)
    raise ValueError(f"dsl_worker: unknown operation {op}")


def text(x):
    if isinstance(x, tuple):
        return "(" + ",".join(text(e) for e in x) + ")"
    return str(x)


def self_values(cute, r):
    """The DSL's own evaluation of a layout-like result at every index, or None."""
    if not (isinstance(r, cute.Layout) or isinstance(r, cute.ComposedLayout)):
        return None
    n = cute.size(r)
    if not isinstance(n, int):
        return None
    return [n, [int(r(i)) for i in range(n)]]


def describe(e):
    return f"{type(e).__name__}: " + str(e).replace("\n", " ")[:300]


def main():
    dsl_dir = sys.argv[1]
    cute = load_dsl(dsl_dir)
    cases = [json.loads(line) for line in sys.stdin if line.strip()]
    out = sys.stdout

    def body():
        for c in cases:
            try:
                args = [build(cute, a) for a in c["a"]]
                parts = run_op(cute, c["op"], args)
                ans = {"i": c["i"], "ok": True, "parts": [text(p) for p in parts]}
            except Exception as e:  # the DSL signals bad input with Python exceptions
                ans = {"i": c["i"], "ok": False, "error": describe(e)}
            if ans["ok"] and c.get("e"):
                layout_part = parts[0] if c["op"] == "slice_and_offset" else parts[-1]
                try:
                    sv = self_values(cute, layout_part)
                    if sv is not None:
                        ans["self"] = sv
                except Exception as e:  # the DSL cannot evaluate what it returned
                    ans["self_error"] = describe(e)
            out.write(json.dumps(ans) + "\n")
            out.flush()  # a crash on a later case keeps every earlier answer
        raise _TraceDone()

    @cute.jit
    def trace():
        body()

    try:
        trace()
    except _TraceDone:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
