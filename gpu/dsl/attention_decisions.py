#!/usr/bin/env python3
"""The layout decisions of an FA3-style Hopper attention forward, made through the CuTe DSL's
public API in one @cute.jit host function and compiled for sm_90a (no GPU, no kernel launched):
SMEM layouts of Q (tile_m x hdim), K and V (tile_n x hdim, `stages` stages, V's also read
MN-major by the PV MMA), TMA atoms for Q, K, V and O over (seqlen, hdim, heads, batch) GMEM
tensors whose seqlen, heads, batch and strides are run-time values, the QK TiledMMA (SS) and
the PV TiledMMA (A from registers), and O's epilogue store into a swizzled SMEM tile by
stmatrix (one kernel, compiled, never launched). It is written here, as a test input for
cuteref.dsl.

    attention_decisions.py DSL_DIR [--dtype f16|bf16] [--hdim D] [--tile-m M] [--tile-n N]
                           [--stages S] [--control NAME] [--trace OUT.json]

Without --trace it only compiles. With --trace it records the decisions under cuteref.dsl's
tracer (cuteref must be importable) and writes them. --control applies one negative control
through the tracer's hooks: `narrow_swizzle` (K's SMEM atom one swizzle narrower),
`other_major` (V's SMEM layout asked with the other majorness), `box_minus_atom` (K's TMA box
one SMEM atom shorter in the sequence mode). Exit 64 for a bad command line.
"""
import argparse
import os
import sys

CONTROLS = ("narrow_swizzle", "other_major", "box_minus_atom")


def load_dsl(dsl_dir):
    sys.path.insert(0, dsl_dir)
    import nvidia_cutlass_dsl
    for sub in ("python_packages", "dsl_packages"):
        p = os.path.join(nvidia_cutlass_dsl.__path__[0], sub)
        if os.path.isdir(p):
            sys.path.insert(0, p)


def parse(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("dsl_dir")
    ap.add_argument("--dtype", choices=("f16", "bf16"), default="bf16")
    ap.add_argument("--hdim", type=int, default=128)
    ap.add_argument("--tile-m", type=int, default=128)
    ap.add_argument("--tile-n", type=int, default=128)
    ap.add_argument("--stages", type=int, default=2)
    ap.add_argument("--control", choices=CONTROLS)
    ap.add_argument("--trace")
    try:
        args = ap.parse_args(argv)
    except SystemExit as e:  # argparse's usage errors: exit 64, as the project's commands
        sys.exit(64 if e.code == 2 else e.code)
    for name in ("hdim", "tile_m", "tile_n"):
        if getattr(args, name) <= 0 or getattr(args, name) % 64:
            print(f"attention_decisions.py: --{name.replace('_', '-')} must be a positive multiple of 64", file=sys.stderr)
            sys.exit(64)
    if args.stages < 1:
        print("attention_decisions.py: --stages must be at least 1", file=sys.stderr)
        sys.exit(64)
    return args


def perturbations(name, dsl):
    """The control NAME as a cuteref.dsl.Perturbation on the DSL call it changes."""
    from cuteref.dsl import Perturbation
    from cutlass.cute.nvgpu import warpgroup
    from cutlass.tensor_utils import LayoutEnum
    import cutlass.cute as cute
    if name == "narrow_swizzle":
        # The second SMEM atom made is K's (Q's is first): SW128 -> SW64, same majorness.
        narrower = {"SW128": "SW64", "SW64": "SW32", "SW32": "INTER"}

        def narrow(a):
            major, sw = a["kind"].name.split("_")
            a["kind"] = getattr(warpgroup.SmemLayoutAtomKind, f"{major}_{narrower[sw]}")
        return [Perturbation("smem_layout_atom", "K's SMEM atom one swizzle narrower", narrow, nth=1)]
    if name == "other_major":
        def flip(a):
            a["b_layout"] = LayoutEnum.COL_MAJOR if a["b_layout"] == LayoutEnum.ROW_MAJOR else LayoutEnum.ROW_MAJOR
        return [Perturbation("smem_layout_b", "V's SMEM layout asked with the other majorness", flip)]
    if name == "box_minus_atom":
        def shorter(a):
            layout = a["smem_layout_"]
            rows = cute.size(layout, mode=[0])
            a["smem_layout_"] = cute.tile_to_shape(dsl["k_atom"], (rows - 8, cute.size(layout, mode=[1])), order=(0, 1))
            a["cta_tiler"] = (rows - 8, a["cta_tiler"][1])
        return [Perturbation("tma_atom", "K's TMA box one SMEM atom (8 rows) shorter", shorter, nth=1)]
    raise ValueError(name)


def main(argv):
    args = parse(argv)
    load_dsl(args.dsl_dir)
    import cutlass
    import cutlass.cute as cute
    import cutlass.utils.hopper_helpers as hopper
    from cutlass.cute.nvgpu import OperandMajorMode, cpasync, warp, warpgroup
    from cutlass.cute.runtime import make_ptr
    from cutlass.memory import SmemAllocator
    from cutlass.tensor_utils import LayoutEnum

    dtype = cutlass.BFloat16 if args.dtype == "bf16" else cutlass.Float16
    M, N, D, S = args.tile_m, args.tile_n, args.hdim, args.stages
    shared = {}

    @cute.kernel
    def epilogue(mma_pv: cute.TiledMma, sO_layout: cute.ComposedLayout):
        # O's accumulator, converted, stored into a swizzled O tile by stmatrix through the PV
        # MMA's C partition: the SMEM partition whose wavefronts the audit reports.
        tidx, _, _ = cute.arch.thread_idx()
        smem = SmemAllocator()
        sO = smem.allocate_tensor(dtype, sO_layout.outer, byte_alignment=1024, swizzle=sO_layout.inner)
        thr_mma = mma_pv.get_slice(tidx)
        acc = mma_pv.make_fragment_C(thr_mma.partition_shape_C((M, D)))
        acc.fill(0.0)
        rO = cute.make_fragment_like(acc, dtype)
        rO.store(acc.load().to(dtype))
        atom = cute.make_copy_atom(warp.StMatrix8x8x16bOp(transpose=False, num_matrices=4), dtype)
        thr_copy = cute.make_tiled_copy_C(atom, mma_pv).get_slice(tidx)
        cute.copy(atom, thr_copy.retile(rO), thr_copy.partition_D(sO))

    @cute.jit
    def decide(pq: cute.Pointer, pk: cute.Pointer, pv: cute.Pointer, po: cute.Pointer,
               seqlen: cutlass.Int32, heads: cutlass.Int32, batch: cutlass.Int32):
        # (seqlen, hdim, heads, batch), hdim contiguous, as FA's tensors: rows of heads*hdim.
        def gmem(p):
            return cute.make_tensor(p, cute.make_layout((seqlen, D, heads, batch),
                                                        stride=(heads * D, 1, D, seqlen * heads * D)))
        q_atom = warpgroup.make_smem_layout_atom(hopper.get_smem_layout_atom(LayoutEnum.ROW_MAJOR, dtype, D), dtype)
        k_atom = warpgroup.make_smem_layout_atom(hopper.get_smem_layout_atom(LayoutEnum.ROW_MAJOR, dtype, D), dtype)
        shared["k_atom"] = k_atom
        sQ = cute.tile_to_shape(q_atom, (M, D), order=(0, 1))
        sK = cute.tile_to_shape(k_atom, (N, D, S), order=(0, 1, 2))
        # V as the PV MMA's B operand (hdim x tile_n, hdim contiguous: MN-major), staged.
        sV = hopper.make_smem_layout_b(LayoutEnum.COL_MAJOR, (M, D, N), dtype, S)
        mma_qk = hopper.make_trivial_tiled_mma(dtype, dtype, OperandMajorMode.K, OperandMajorMode.K, cutlass.Float32,
                                           (M // 64, 1, 1), (64, N))
        mma_pv = hopper.make_trivial_tiled_mma(dtype, dtype, OperandMajorMode.K, OperandMajorMode.MN, cutlass.Float32,
                                           (M // 64, 1, 1), (64, D), a_source=warpgroup.OperandSource.RMEM)
        g2s, s2g = cpasync.CopyBulkTensorTileG2SOp(), cpasync.CopyBulkTensorTileS2GOp()
        cpasync.make_tiled_tma_atom(g2s, gmem(pq), sQ, (M, D))
        cpasync.make_tiled_tma_atom(g2s, gmem(pk), cute.select(sK, mode=[0, 1]), (N, D), 1)
        cpasync.make_tiled_tma_atom(g2s, gmem(pv), cute.select(sK, mode=[0, 1]), (N, D), 1)
        cpasync.make_tiled_tma_atom(s2g, gmem(po), sQ, (M, D))
        sO = cute.tile_to_shape(q_atom, (M, D), order=(0, 1))
        epilogue(mma_pv, sO).launch(grid=[1, 1, 1], block=[M // 64 * 128, 1, 1],
                                    smem=M * D * (dtype.width // 8) + 1024)
        del sV, mma_qk

    ptrs = [make_ptr(dtype, 16, cute.AddressSpace.gmem, assumed_align=16) for _ in range(4)]
    ints = [cutlass.Int32(1024), cutlass.Int32(4), cutlass.Int32(2)]
    if args.trace is None:
        cute.compile(decide, *ptrs, *ints, options="--gpu-arch sm_90a")
        return 0
    from cuteref.dsl import Tracer
    controls = perturbations(args.control, shared) if args.control else []
    with Tracer(controls) as t:
        t.section(f"attention decisions {args.dtype} hdim {D} tile {M}x{N} stages {S}"
                  + (f" control {args.control}" if args.control else ""))
        cute.compile(decide, *ptrs, *ints, options="--gpu-arch sm_90a")
    with open(args.trace, "w") as f:
        f.write(t.trace.to_json())
    applied = [p.name for p in controls if p.applied]
    print(f"recorded {len(t.trace.decisions)} decisions; controls applied: {applied or 'none'}")
    return 0 if len(applied) == len(controls) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
