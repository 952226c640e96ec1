#!/usr/bin/env python3
"""The CuTe DSL's MMA atoms against the model's (model/atoms/mma_atom).

    dsl_atoms.py --cuteref build/cli/cuteref --dsl .vendor/dsl

For every warp and warpgroup MMA operation the DSL (nvidia-cutlass-dsl, ./run installs it)
offers for Ampere and Hopper -- every instruction shape, element type combination, operand
source (SS / RS) and operand major mode it accepts -- the DSL builds the atom on the host
(cute.make_mma_atom inside @cute.jit) and prints its shape_mnk, thr_id and the (thread, value)
layouts tv_layout_A/B/C, and the ldmatrix copy atoms (LdMatrix8x8x16bOp) their thr_id and
source/destination layouts; for six tiled MMAs, every thread's partition_A/B/C of a tensor. Each is compared with the model's atom of CuTe C++'s Operation name
(mma_shape, mma_thrid, mma_layout; copy_thrid, copy_layout recast to 16-bit): layouts by printout, and as functions (`==`) where the
printouts differ; the shape by value. The model's atoms are themselves checked against CuTe
C++'s MMA_Traits (oracles/atoms). An Op that both the DSL and the model refuse (integer wgmma
with N = 40, which PTX does not have) counts as agreeing; one only the DSL refuses fails. DSL
atoms the model has no Operation for are listed and counted apart, never as passed.
Exit 0 when every compared atom agrees, 1 otherwise, 77 (skip) without the DSL.
"""

import argparse
import os
import subprocess
import sys
from collections import defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

TYPE = {"Float16": "F16", "BFloat16": "BF16", "Float32": "F32", "Float8E4M3FN": "E4M3",
        "Float8E5M2": "E5M2", "Int8": "S8", "Uint8": "U8", "Int32": "S32", "TFloat32": "TF32"}


def ops(cutlass, warp, warpgroup, major):
    """(family, the model's Operation name or None, a thunk making the DSL's Op)."""
    t = lambda x: TYPE[x.__name__]
    F16, BF16, F32 = cutlass.Float16, cutlass.BFloat16, cutlass.Float32
    out = []
    for ab, acc in ((F16, F16), (F16, F32), (BF16, F32)):
        for k in (8, 16):
            out.append(("warp F16/BF16", f"SM80_16x8x{k}_{t(acc)}{t(ab)}{t(ab)}{t(acc)}_TN",
                        lambda ab=ab, acc=acc, k=k: warp.MmaF16BF16Op(ab, acc, (16, 8, k))))
    for k in (4, 8):
        out.append(("warp TF32", f"SM80_16x8x{k}_F32TF32TF32F32_TN", lambda k=k: warp.MmaTF32Op((16, 8, k))))
    for ab in (cutlass.Float8E4M3FN, cutlass.Float8E5M2):
        for acc in (cutlass.Float16, F32):
            for k in (16, 32):
                out.append(("warp FP8 (SM89)", f"SM89_16x8x{k}_{t(acc)}{t(ab)}{t(ab)}{t(acc)}_TN",
                            lambda ab=ab, acc=acc, k=k: warp.MmaFP8Op(ab, acc, (16, 8, k))))
    SMEM, RMEM = warpgroup.OperandSource.SMEM, warpgroup.OperandSource.RMEM
    K, MN = major.K, major.MN
    for n in range(8, 257, 8):
        for ab, acc in ((F16, F16), (F16, F32), (BF16, F32)):
            for src, majors in ((SMEM, ((K, K), (K, MN), (MN, K), (MN, MN))), (RMEM, ((K, K), (K, MN)))):
                for am, bm in majors:
                    tmpl = "" if (am, bm) == (K, K) else f"<{am.name},{bm.name}>"
                    name = f"SM90_64x{n}x16_{t(acc)}{t(ab)}{t(ab)}_{'SS' if src == SMEM else 'RS'}{tmpl}"
                    out.append(("warpgroup F16/BF16", name, lambda ab=ab, acc=acc, n=n, src=src, am=am, bm=bm:
                                warpgroup.MmaF16BF16Op(ab, acc, (64, n, 16), src, am, bm)))
        for a in (cutlass.Float8E4M3FN, cutlass.Float8E5M2):
            for b in (cutlass.Float8E4M3FN, cutlass.Float8E5M2):
                for acc in (cutlass.Float16, F32):
                    for src in (SMEM, RMEM):
                        name = f"SM90_64x{n}x32_{t(acc)}{t(a)}{t(b)}_{'SS' if src == SMEM else 'RS'}_TN"
                        out.append(("warpgroup FP8", name, lambda a=a, b=b, acc=acc, n=n, src=src:
                                    warpgroup.MmaF8Op(a, b, acc, (64, n, 32), src, K, K)))
        for a in (cutlass.Int8, cutlass.Uint8):
            for b in (cutlass.Int8, cutlass.Uint8):
                for src in (SMEM, RMEM):
                    name = f"SM90_64x{n}x32_S32{t(a)}{t(b)}_{'SS' if src == SMEM else 'RS'}_TN"
                    out.append(("warpgroup INT8", name, lambda a=a, b=b, n=n, src=src:
                                warpgroup.MmaI8Op(a, b, cutlass.Int32, (64, n, 32), src, K, K)))
    return out


# Tiled MMAs (a subset of oracles/atoms/dump_tiled_mma.cpp's, without permutations): the model's
# Operation name, the DSL's Op, the atom layout (MNK) and the tensors partitioned, (M,K), (N,K),
# (M,N) with padded strides; every thread's partition_A/B/C layout is compared (the thread's
# offset is not: the DSL's pointer offsets are run-time values, `?`).
def tiled_partitions(cute, cutlass, warp, warpgroup, major, out):
    SMEM, RMEM = warpgroup.OperandSource.SMEM, warpgroup.OperandSource.RMEM
    F16, BF16, F32 = cutlass.Float16, cutlass.BFloat16, cutlass.Float32
    configs = [
        ("SM90_64x64x16_F16F16F16_SS<MN,MN>", lambda: warpgroup.MmaF16BF16Op(F16, F16, (64, 64, 16), SMEM, major.MN, major.MN),
         ((2, 1, 1), (1, 2, 2))),
        ("SM90_64x128x16_F32BF16BF16_SS", lambda: warpgroup.MmaF16BF16Op(BF16, F32, (64, 128, 16), SMEM, major.K, major.K),
         ((1, 1, 1), (1, 1, 1))),
        ("SM90_64x96x32_S32S8S8_SS_TN", lambda: warpgroup.MmaI8Op(cutlass.Int8, cutlass.Int8, cutlass.Int32, (64, 96, 32),
                                                                 SMEM, major.K, major.K), ((1, 2, 1), (1, 1, 2))),
        ("SM90_64x32x16_F32BF16BF16_RS<K,MN>", lambda: warpgroup.MmaF16BF16Op(BF16, F32, (64, 32, 16), RMEM, major.K, major.MN),
         ((1, 1, 1), (1, 1, 1))),
        ("SM80_16x8x16_F32F16F16F32_TN", lambda: warp.MmaF16BF16Op(F16, F32, (16, 8, 16)), ((2, 2, 1), (2, 1, 0))),
        ("SM80_16x8x8_F32TF32TF32F32_TN", lambda: warp.MmaTF32Op((16, 8, 8)), ((1, 4, 1), (1, 1, 4))),
    ]
    ptr = cute.make_ptr(F16, 0, cute.AddressSpace.gmem, assumed_align=16)
    for name, make, (shape, stride) in configs:
        t = cute.make_tiled_mma(make(), cute.make_layout(shape, stride=stride))
        m, n, k = (t.get_tile_size(i) for i in range(3))
        tensors = {"A": ((m, k), (1, m + 8)), "B": ((n, k), (1, n + 8)), "C": ((m, n), (1, m + 8))}
        al = f"({','.join(map(str, shape))}):({','.join(map(str, stride))})"
        for tid in range(t.size):
            thr = t.get_slice(tid)
            for which, (sh, st) in tensors.items():
                ten = cute.make_tensor(ptr, cute.make_layout(sh, stride=st))
                part = getattr(thr, f"partition_{which}")(ten)
                out.append((f"partition_{which}(make_tiled_mma({name}, {al}), {tid}, ({sh[0]},{sh[1]}):({st[0]},{st[1]}))",
                            str(part.layout)))


def batch(cuteref, lines):
    """`cuteref batch`: one answer line per expression."""
    if not lines:
        return []
    out = subprocess.run([cuteref, "batch"], input="\n".join(lines) + "\n", capture_output=True,
                         text=True, check=True).stdout.splitlines()
    if len(out) != len(lines):
        raise RuntimeError(f"cuteref batch answered {len(out)} lines for {len(lines)}")
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cuteref", required=True)
    ap.add_argument("--dsl", required=True)
    args = ap.parse_args()
    import dsl_oracle
    if not dsl_oracle.dsl_present(args.dsl):
        print(f"vendor_dsl_atoms: SKIP: nvidia-cutlass-dsl is not at {args.dsl} (./run installs it)")
        return 77
    os.environ["CUTE_DSL_ARCH"] = "sm_90a"  # the warpgroup (wgmma) operations are sm_90a's
    import dsl_worker
    cute = dsl_worker.load_dsl(args.dsl)
    import cutlass
    from cutlass.cute.nvgpu import OperandMajorMode, warp, warpgroup

    atoms = []  # (family, name, {what: printout}) or (family, name, error)
    tiled = []  # (model expression, DSL printout) of every thread's partitions
    copies = []  # (name, {what: printout}) of the ldmatrix copy atoms

    def body():
        # ldmatrix: the model's copy atoms count bits; recast(.., 1, 16) gives 16-bit elements,
        # the DSL's unit for a Float16 copy atom. N: U32x{1,2,4}; T: U16x{2,4,8}.
        for transpose in (False, True):
            for n in (1, 2, 4):
                name = f"SM75_U16x{2 * n}_LDSM_T" if transpose else f"SM75_U32x{n}_LDSM_N"
                c = cute.make_copy_atom(warp.LdMatrix8x8x16bOp(transpose, n), cutlass.Float16)
                copies.append((name, {"thrid": str(c.thr_id), "Src": str(c.layout_src_tv), "Dst": str(c.layout_dst_tv)}))
        for family, name, make in ops(cutlass, warp, warpgroup, OperandMajorMode):
            try:
                a = cute.make_mma_atom(make())
                atoms.append((family, name, {"shape": str(tuple(a.shape_mnk)), "thrid": str(a.thr_id),
                                             "A": str(a.tv_layout_A), "B": str(a.tv_layout_B),
                                             "C": str(a.tv_layout_C)}))
            except Exception as e:  # an Op the DSL refuses: reported, never compared
                atoms.append((family, name, f"{type(e).__name__}: {str(e).splitlines()[0][:200]}"))
        tiled_partitions(cute, cutlass, warp, warpgroup, OperandMajorMode, tiled)
        raise dsl_worker._TraceDone()

    @cute.jit
    def trace():
        body()

    try:
        trace()
    except dsl_worker._TraceDone:
        pass

    # the model's side: does it have the atom? (mma_shape answers or refuses)
    names = [n for _, n, _ in atoms]
    have = batch(args.cuteref, [f"mma_shape({n})" for n in names])
    lines, owners = [], []
    tally = defaultdict(lambda: defaultdict(int))
    missing, refused_by_dsl = defaultdict(list), []
    bad = 0
    for (family, name, got), shape in zip(atoms, have):
        if isinstance(got, str):
            if shape.startswith("error:"):  # both refuse (e.g. integer wgmma with N = 40)
                tally[family]["both refuse"] += 1
            else:
                refused_by_dsl.append(f"{name}: the DSL raised {got}; the model answers {shape}")
                tally[family]["failed"] += 1
            continue
        if shape.startswith("error:"):
            missing[family].append(name)
            tally[family]["not in the model"] += 1
            continue
        for what in ("thrid", "A", "B", "C"):
            lines.append(f"mma_thrid({name})" if what == "thrid" else f"mma_layout({name}, {what})")
            owners.append((family, name, what, got[what]))
        owners.append((family, name, "shape", got["shape"]))
        lines.append(f"mma_shape({name})")
    for name, got in copies:
        for what in ("thrid", "Src", "Dst"):
            lines.append(f"copy_thrid({name})" if what == "thrid" else f"recast(copy_layout({name}, {what}), 1, 16)")
            owners.append(("warp ldmatrix (copy)", name, what, got[what]))
        tally["warp ldmatrix (copy)"]  # listed even when empty
    for expr, text in tiled:
        lines.append(expr)
        owners.append(("tiled MMA partitions", expr, "partition", text))
    out = batch(args.cuteref, lines)
    # The same printout (static marks aside) is the same layout; a different one is compared
    # as a function (`==`, which enumerates: the SS operand layouts have up to 2^19 elements).
    plain = lambda x: x.replace("_", "").replace(" ", "")
    recheck = [k for k, ((_, _, what, dsl_text), answer) in enumerate(zip(owners, out))
               if what != "shape" and plain(answer) != plain(dsl_text)]
    verdict = dict(zip(recheck, batch(args.cuteref, [f"{owners[k][3]} == {lines[k]}" for k in recheck])))
    per_atom = defaultdict(bool)
    for k, ((family, name, what, dsl_text), answer) in enumerate(zip(owners, out)):
        if what == "shape":
            ok = plain(answer) == plain(dsl_text)
        else:
            ok = k not in verdict or verdict[k] == "true"
            answer = verdict.get(k, answer)
        if not ok:
            bad += 1
            per_atom[(family, name)] = True
            print(f"FAIL {name} {what}: DSL {dsl_text}, model: {answer}")
    for (family, name, got), shape in zip(atoms, have):
        if isinstance(got, dict) and not shape.startswith("error:"):
            tally[family]["failed" if per_atom[(family, name)] else "agree"] += 1
    for name, _ in copies:
        tally["warp ldmatrix (copy)"]["failed" if per_atom[("warp ldmatrix (copy)", name)] else "agree"] += 1
    for expr, _ in tiled:  # one count per thread's partition of A, B or C
        tally["tiled MMA partitions"]["failed" if per_atom[("tiled MMA partitions", expr)] else "agree"] += 1
    print(f"{'family':22s} {'agree':>6s} {'both refuse':>12s} {'failed':>6s} {'not in the model':>17s}")
    for family in sorted(tally):
        c = tally[family]
        print(f"{family:22s} {c['agree']:6d} {c['both refuse']:12d} {c['failed']:6d} {c['not in the model']:17d}")
    for family, names_ in sorted(missing.items()):
        print(f"not compared ({family}, the model has no such Operation): {', '.join(names_)}")
    for r in refused_by_dsl:
        print(f"FAIL {r}")
        bad += 1
    agree = sum(c["agree"] + c["both refuse"] for c in tally.values())
    print(f"vendor_dsl_atoms: {agree} passed, {sum(c['failed'] for c in tally.values())} failed "
          f"({len(out)} comparisons: shape, thr_id, the A/B/C (copies: Src/Dst) thread-value layouts and the "
          f"tiled partitions, {len(recheck)} of "
          f"them as functions; "
          f"{sum(c['not in the model'] for c in tally.values())} DSL atoms not in the model, not counted)")
    return 1 if bad or agree == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
