#!/usr/bin/env python3
"""The CuTe DSL's SM100 (tcgen05) host-side facts against the model's.

    dsl_sm100.py --cuteref build/cli/cuteref --dsl .vendor/dsl

Inside one @cute.jit trace (CUTE_DSL_ARCH=sm_100a, nothing compiled) the DSL (nvidia-cutlass-dsl
4.8.1) builds: its UMMA SMEM layout atoms (tcgen05.make_smem_layout_atom, every
SmemLayoutAtomKind, 8-, 16-, 32-bit elements); tcgen05 MMA atoms (MmaF16BF16Op, MmaTF32Op,
MmaI8Op, MmaF8F6F4Op; one and two CTAs, A from SMEM or TMEM, both majors): shape_mnk, thr_id and
tv_layout_A/B/C; and the TMEM copy atoms (Ld/St 32x32b, 16x64b, 16x128b, 16x256b, 16x32bx2, x1
to the largest repeat, packed or not) of 32-bit elements: thr_id, layout_src_tv, layout_dst_tv.
Each is compared with the model's value of CuTe C++'s name (umma_atom, mma_*, copy_layout recast
to 32-bit elements): by printout (static marks, `smem_ptr[..](unset)` and the DSL's `0` offset
aside), and as functions (`==` in the model) where the printouts differ. The model's values are
themselves checked against CuTe C++ (oracles/atoms/dump_sm100). A difference fails unless
corpus/vendor/dsl_disagreements.txt records it (the case is listed there); exit 0 when every
value agrees or is recorded, 1 otherwise, 77 (skip) without the DSL.
"""

import argparse
import os
import subprocess
import sys
from collections import defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

CPP_TYPE = {"Float16": "half_t", "BFloat16": "bfloat16_t", "TFloat32": "tfloat32_t", "Float32": "float",
            "Int8": "int8_t", "Uint8": "uint8_t", "Int32": "int32_t", "Float8E4M3FN": "float_e4m3_t",
            "Float8E5M2": "float_e5m2_t"}


def batch(cuteref, lines):
    """`cuteref batch`: one answer line per expression."""
    if not lines:
        return []
    out = subprocess.run([cuteref, "batch"], input="\n".join(lines) + "\n", capture_output=True, text=True,
                         check=True).stdout.splitlines()
    if len(out) != len(lines):
        raise RuntimeError(f"cuteref batch answered {len(out)} lines for {len(lines)}")
    return out


def plain(text):
    """A printout without what differs only in spelling between the model and the DSL."""
    import re
    text = re.sub(r"smem_ptr\[\d+b\]\(unset\)", "0", text).replace("Sw<", "S<")
    return text.replace("_", "").replace(" ", "")


def recorded(path):
    """The expressions corpus/vendor/dsl_disagreements.txt records (`EXPR => ...` lines)."""
    out = set()
    with open(path) as f:
        for line in f:
            if " => " in line and not line.startswith("#"):
                out.add(line.split(" => ")[0].strip())
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cuteref", required=True)
    ap.add_argument("--dsl", required=True)
    ap.add_argument("--verbose", action="store_true", help="list the cases that agree only as functions")
    ap.add_argument("--recorded", default=os.path.join(HERE, "..", "corpus", "vendor", "dsl_disagreements.txt"))
    args = ap.parse_args()
    import dsl_oracle
    if not dsl_oracle.dsl_present(args.dsl):
        print(f"vendor_dsl_sm100: SKIP: nvidia-cutlass-dsl is not at {args.dsl} (./run installs it)")
        return 77
    os.environ["CUTE_DSL_ARCH"] = "sm_100a"
    import dsl_worker
    cute = dsl_worker.load_dsl(args.dsl)
    import cutlass
    from cutlass.cute.nvgpu import OperandMajorMode, tcgen05

    cases = []  # (kind, model expression, DSL printout)
    refused = []  # DSL refusals of what the model answers

    def body():
        for kind in tcgen05.SmemLayoutAtomKind:
            major, swizzle = kind.name.split("_", 1)
            for t in (cutlass.Int8, cutlass.Float16, cutlass.Float32):
                cases.append(("umma_atom", f"umma_atom({major}, {swizzle}, {t.width})",
                              str(tcgen05.make_smem_layout_atom(kind, t))))
        K, MN = OperandMajorMode.K, OperandMajorMode.MN
        SMEM, TMEM = tcgen05.OperandSource.SMEM, tcgen05.OperandSource.TMEM
        ONE, TWO = tcgen05.CtaGroup.ONE, tcgen05.CtaGroup.TWO
        mmas = []
        for (m, n, group) in ((64, 8, ONE), (128, 256, ONE), (64, 136, ONE), (128, 16, TWO), (256, 256, TWO), (256, 96, TWO)):
            for src in (SMEM, TMEM):
                if src == TMEM and (n % (32 if group == TWO else 16 if m == 128 else 8)) != 0:
                    continue
                for am, bm in ((K, K), (K, MN), (MN, K)):
                    if src == TMEM and am == MN:
                        continue
                    mmas.append(("F16BF16", lambda m=m, n=n, g=group, s=src, am=am, bm=bm:
                                 tcgen05.MmaF16BF16Op(cutlass.Float16, cutlass.Float32, (m, n, 16), g, s, am, bm),
                                 "half_t,half_t,float", m, n, group, src, am, bm))
                mmas.append(("TF32", lambda m=m, n=n, g=group, s=src:
                             tcgen05.MmaTF32Op((m, n, 8), g, s, K, K), "tfloat32_t,tfloat32_t,float", m, n, group, src, K, K))
        for (m, n, group) in ((128, 256, ONE), (64, 8, ONE), (256, 64, TWO)):
            mmas.append(("S8", lambda m=m, n=n, g=group:
                         tcgen05.MmaI8Op(cutlass.Int8, (m, n, 32), g, SMEM, K, K), "int8_t,int8_t,int32_t", m, n, group, SMEM, K, K))
            mmas.append(("F8F6F4", lambda m=m, n=n, g=group:
                         tcgen05.MmaF8F6F4Op(cutlass.Float8E4M3FN, cutlass.Float8E4M3FN, cutlass.Float32, (m, n, 32), g, SMEM, K, K),
                         "float_e4m3_t,float_e4m3_t,float", m, n, group, SMEM, K, K))
        for kind, make, types, m, n, group, src, am, bm in mmas:
            name = (f"SM100_MMA_{kind}{'_2x1SM' if group == TWO else ''}_{'TS' if src == TMEM else 'SS'}"
                    f"<{types},{m},{n},{'MN' if am == MN else 'K'},{'MN' if bm == MN else 'K'}>")
            try:
                a = cute.make_mma_atom(make())
            except Exception as e:
                refused.append(f"{name}: the DSL raised {type(e).__name__}: {str(e).splitlines()[0][:160]}")
                continue
            cases.append(("umma_mma", f"mma_shape({name})", str(tuple(a.shape_mnk))))
            cases.append(("umma_mma", f"mma_thrid({name})", str(a.thr_id)))
            for w, l in (("A", a.tv_layout_A), ("B", a.tv_layout_B), ("C", a.tv_layout_C)):
                cases.append(("umma_mma", f"mma_layout({name}, {w})", str(l)))
        shapes = (("32dp32b", "32x32b", 128), ("16dp64b", "16x64b", 128), ("16dp128b", "16x128b", 64),
                  ("16dp256b", "16x256b", 32), ("16dp32b", "16x32bx2", 128))
        for model_shape, dsl_shape, max_r in shapes:
            r = 1
            while r <= max_r:
                rep = getattr(tcgen05.Repetition, f"x{r}")
                for packed in (False, True):
                    for load in (True, False):
                        cls = getattr(tcgen05, f"{'Ld' if load else 'St'}{dsl_shape}Op")
                        kw = ({"pack": tcgen05.Pack.PACK_16b_IN_32b} if load else {"unpack": tcgen05.Unpack.UNPACK_32b_IN_16b}) if packed else {}
                        name = f"SM100_TMEM_{'LOAD' if load else 'STORE'}_{model_shape}{r}x{'_16b' if packed else ''}"
                        try:
                            op = cls(rep, **kw)
                            c = cute.make_copy_atom(op, cutlass.Float32)
                        except Exception as e:
                            refused.append(f"{name}: the DSL raised {type(e).__name__}: {str(e).splitlines()[0][:160]}")
                            continue
                        cases.append(("tmem_copy", f"copy_thrid({name})", str(c.thr_id)))
                        cases.append(("tmem_copy", f"recast(copy_layout({name}, Src), 1, 32)", str(c.layout_src_tv)))
                        cases.append(("tmem_copy", f"recast(copy_layout({name}, Dst), 1, 32)", str(c.layout_dst_tv)))
                r *= 2
        raise dsl_worker._TraceDone()

    @cute.jit
    def trace():
        body()

    try:
        trace()
    except dsl_worker._TraceDone:
        pass

    known = recorded(args.recorded)
    model = batch(args.cuteref, [e for _, e, _ in cases])
    tally = defaultdict(lambda: defaultdict(int))
    differing = []  # (kind, expr, model, dsl, comparable as functions)
    for (kind, expr, dsl), got in zip(cases, model):
        if got.startswith("error:"):
            differing.append((kind, expr, got, dsl, None))
        elif plain(got) == plain(dsl):
            tally[kind]["agree (printout)"] += 1
        else:
            differing.append((kind, expr, got, dsl, True))
    # Different printouts: the same function? (the DSL's notation pasted into the model's ==)
    eq_lines = []
    for kind, expr, got, dsl, comparable in differing:
        if comparable:
            eq_lines.append(f"{expr} == {dsl.replace('S<', 'Sw<')}")
    eq = iter(batch(args.cuteref, eq_lines))
    bad = 0
    for kind, expr, got, dsl, comparable in differing:
        verdict = next(eq) if comparable else got
        if verdict == "true":
            tally[kind]["agree (function)"] += 1
            if args.verbose:
                print(f"same function: {expr}: model {got}, DSL {dsl}")
        elif expr in known:
            tally[kind]["recorded"] += 1
        else:
            tally[kind]["differ"] += 1
            bad += 1
            if bad <= 30:
                print(f"DIFFER {kind}: {expr}: model {got} vs DSL {dsl}: {verdict}")
    for line in refused:
        print(f"DSL REFUSES: {line}")
    total = 0
    for kind in sorted(tally):
        n = sum(tally[kind].values())
        total += n
        print(f"vendor dsl sm100 {kind}: {n} cases, " + ", ".join(f"{v} {k}" for k, v in sorted(tally[kind].items())))
    print(f"vendor dsl sm100 total: {total} cases checked, {bad} new disagreements, {len(refused)} DSL refusals")
    if total == 0:
        print("FAIL: no case was checked")
        return 1
    return 0 if bad == 0 and not refused else 1


if __name__ == "__main__":
    sys.exit(main())
