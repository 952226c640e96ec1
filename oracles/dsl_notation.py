#!/usr/bin/env python3
"""The CuTe DSL's printouts paste into the model (`cuteref batch`).

    dsl_notation.py --cuteref build/cli/cuteref --dsl .vendor/dsl

The DSL (nvidia-cutlass-dsl, ./run installs it) prints objects it builds on the host: plain
and nested layouts, swizzled composed layouts (`S<3,4,3> o 0 o (8,64):(64,1)`), identity
layouts with scaled-basis strides (`1@0`), the warpgroup SMEM layout atoms of every kind and
element width, and layouts with run-time values (`?`). Each printout is pasted into the
model, which must read it as the same function as the model's own spelling of that object
(`PRINTOUT == EXPR` is `true`), or, for a run-time `?` and for the DSL's print of a swizzle
with a negative shift (no closing '>'), refuse it with a diagnostic that says why.
Exit 0 when every case passes, 1 otherwise, 77 (skip) without the DSL.
"""

import argparse
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cuteref", required=True)
    ap.add_argument("--dsl", required=True)
    args = ap.parse_args()
    import dsl_oracle
    if not dsl_oracle.dsl_present(args.dsl):
        print(f"vendor_dsl_notation: SKIP: nvidia-cutlass-dsl is not at {args.dsl} (./run installs it)")
        return 77
    import dsl_worker
    cute = dsl_worker.load_dsl(args.dsl)
    import cutlass
    from cutlass.cute.nvgpu import warpgroup

    M = cute.make_layout
    # (what, the DSL object's printout, the model expression of the same object or
    #  ("error", substring of the model's diagnostic) or ("differs", the model expression of
    #  a function the printout must be read as, and differ from))
    cases = []

    def body():
        def add(what, obj, expect):
            cases.append((what, str(obj), expect))

        add("flat layout", M((4, 8), stride=(8, 1)), "(4,8):(8,1)")
        add("nested layout", M((4, (2, 3)), stride=(1, (4, 8))), "(4,(2,3)):(1,(4,8))")
        add("rank-1 tuple", cute.composition(M((12, 32), stride=(32, 1)), (M(4, stride=2),)), "(4):(64)")
        add("negative stride", M((4, 2), stride=(-1, 4)), "(4,2):(-1,4)")
        add("swizzle", cute.make_swizzle(3, 4, 3), "Sw<3,4,3>")
        add("composed layout", cute.make_composed_layout(cute.make_swizzle(3, 4, 3), 0, M((8, 64), stride=(64, 1))),
            "Sw<3,4,3> o 0 o (8,64):(64,1)")
        add("composed layout with an offset",
            cute.make_composed_layout(cute.make_swizzle(2, 4, 3), 96, M((8, 32), stride=(32, 1))),
            "Sw<2,4,3> o 96 o (8,32):(32,1)")
        add("identity layout", cute.make_identity_layout((4, 8)), "make_identity_layout((4,8))")
        add("identity layout, 3 modes", cute.make_identity_layout((2, 3, 4)), "make_identity_layout((2,3,4))")
        # the GMMA SMEM layout atoms: the model's gmma_atom(MN|K, SWIZZLE, BITS) is CuTe C++'s
        # (checked against it in oracles/atoms); here the DSL's must be the same functions
        kinds = {"MN_INTER": ("MN", "INTER"), "MN_SW32": ("MN", "SW32"), "MN_SW64": ("MN", "SW64"),
                 "MN_SW128": ("MN", "SW128"), "K_INTER": ("K", "INTER"), "K_SW32": ("K", "SW32"),
                 "K_SW64": ("K", "SW64"), "K_SW128": ("K", "SW128")}
        # The DSL's atom keeps the swizzle in bytes (Swizzle<3,4,3> for SW128 at every element
        # width) over an element layout, and prints offset 0 where CuTe C++ prints
        # smem_ptr[16b](unset): read with the swizzle on byte addresses it is the model's (C++'s)
        # atom; pasted as printed it is another function of the element offset for any width
        # but 8 bits (corpus/vendor/dsl_disagreements.txt), except the non-swizzled INTER.
        for name, (major, sw) in kinds.items():
            for ty, bits in ((cutlass.Float16, 16), (cutlass.Float8E4M3FN, 8), (cutlass.Float32, 32)):
                atom = str(warpgroup.make_smem_layout_atom(getattr(warpgroup.SmemLayoutAtomKind, name), ty))
                on_bytes = atom.replace(" o 0 o ", f" o smem_ptr[{bits}b](unset) o ", 1)
                add(f"make_smem_layout_atom({name}, {bits}-bit), swizzle on bytes", on_bytes,
                    f"gmma_atom({major}, {sw}, {bits})")
                differs = bits != 8 and sw != "INTER"
                add(f"make_smem_layout_atom({name}, {bits}-bit) as printed", atom,
                    ("differs", f"gmma_atom({major}, {sw}, {bits})") if differs else f"gmma_atom({major}, {sw}, {bits})")
        # the DSL's print of a negative shift lacks its '>' (corpus/vendor/dsl_disagreements.txt)
        add("swizzle with a negative shift",
            cute.make_composed_layout(cute.make_swizzle(2, 0, -3), 0, M(8, stride=1)), ("error", "write S<2,0,-3>"))
        dyn = cutlass.Int32(4)
        add("run-time shape", M((dyn, 8), stride=(1, dyn)), ("error", "known only at run time"))
        add("run-time stride", M((4, 8), stride=(1, dyn)), ("error", "known only at run time"))
        raise dsl_worker._TraceDone()

    @cute.jit
    def trace():
        body()

    try:
        trace()
    except dsl_worker._TraceDone:
        pass

    lines = []
    for what, printout, expect in cases:
        if isinstance(expect, tuple) and expect[0] == "differs":  # must be read, and differ
            lines.append(f"{printout} == {expect[1]}")
        else:
            lines.append(printout if isinstance(expect, tuple) else f"{printout} == {expect}")
    out = subprocess.run([args.cuteref, "batch"], input="\n".join(lines) + "\n", capture_output=True,
                         text=True, check=True).stdout.splitlines()
    bad = 0
    for (what, printout, expect), line, got in zip(cases, lines, out):
        if isinstance(expect, tuple) and expect[0] == "differs":
            ok = got.startswith("false:")
        elif isinstance(expect, tuple):
            ok = got.startswith("error:") and expect[1] in got
        else:
            ok = got == "true"
        bad += not ok
        print(f"{'ok  ' if ok else 'FAIL'} {what}: {printout}  ->  {got}")
    if len(out) != len(cases):
        print(f"FAIL: cuteref answered {len(out)} lines for {len(cases)}")
        bad += 1
    print(f"vendor_dsl_notation: {len(cases) - bad} passed, {bad} failed ({len(cases)} DSL printouts pasted)")
    return 1 if bad or not cases else 0


if __name__ == "__main__":
    sys.exit(main())
