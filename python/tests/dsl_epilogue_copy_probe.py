"""Run with the CuTe DSL importable: compiles, for sm_90a (no GPU needed), quack's GEMM epilogue
copies under cuteref.dsl's tracer and writes the trace.

    dsl_epilogue_copy_probe.py DSL_DIR OUT_DIR [--perturb-mma]

The kernel (one 64x64x16 f16 warpgroup, 128 threads): the epilogue's copies as quack makes them,
an stmatrix.x4 atom over the MMA's C partition restricted to the atom's footprint
(make_tiled_copy_C_atom), the register-to-shared copy of a bf16 atom over it (make_tiled_copy_S),
and that copy's partitions of a swizzled (64,32) SMEM epilogue tile and of a coordinate tensor.
With --perturb-mma (a negative control), make_tiled_copy_C_atom is called with a tiled MMA of
two warpgroups along M while the decision keeps the one-warpgroup MMA asked for.
Writes OUT_DIR/trace.json.
"""
import os
import sys


def main():
    if len(sys.argv) not in (3, 4) or (len(sys.argv) == 4 and sys.argv[3] != "--perturb-mma"):
        sys.exit(__doc__)
    dsl_dir, out_dir = (os.path.abspath(a) for a in sys.argv[1:3])
    perturb = len(sys.argv) == 4
    os.makedirs(out_dir, exist_ok=True)
    from cuteref.dsl.__main__ import dsl_path
    dsl_path(dsl_dir)
    import cutlass
    import cutlass.cute as cute
    import cutlass.utils.hopper_helpers as hopper
    from cutlass.cute.nvgpu import warp, warpgroup
    from cutlass.cute.nvgpu import OperandMajorMode
    from cutlass.cute.runtime import make_ptr
    from cutlass.memory import SmemAllocator
    from cutlass.tensor_utils import LayoutEnum

    from cuteref.dsl import Perturbation, Tracer

    shared = {}

    @cute.kernel
    def epilogue(mma: cute.TiledMma, sD_layout: cute.ComposedLayout):
        tidx, _, _ = cute.arch.thread_idx()
        if cutlass.const_expr(perturb):
            shared["other_mma"] = hopper.make_trivial_tiled_mma(cutlass.Float16, cutlass.Float16, OperandMajorMode.K,
                                                                OperandMajorMode.K, cutlass.Float32, (2, 1, 1), (64, 64))
        smem = SmemAllocator()
        sD = smem.allocate_tensor(cutlass.BFloat16, sD_layout.outer, byte_alignment=1024, swizzle=sD_layout.inner)
        atom_c = cute.make_copy_atom(warp.StMatrix8x8x16bOp(transpose=False, num_matrices=4), cutlass.Float16)
        atom_r2s = cute.make_copy_atom(warp.StMatrix8x8x16bOp(transpose=False, num_matrices=4), cutlass.BFloat16)
        tiled_c = cute.make_tiled_copy_C_atom(atom_c, mma)
        thr = cute.make_tiled_copy_S(atom_r2s, tiled_c).get_slice(tidx)
        thr.partition_D(sD)
        thr.partition_S(cute.make_identity_tensor((64, 32)))

    @cute.jit
    def launch(p: cute.Pointer):
        mma = hopper.make_trivial_tiled_mma(cutlass.Float16, cutlass.Float16, OperandMajorMode.K, OperandMajorMode.K,
                                            cutlass.Float32, (1, 1, 1), (64, 64))
        atom = warpgroup.make_smem_layout_atom(hopper.get_smem_layout_atom(LayoutEnum.ROW_MAJOR, cutlass.BFloat16, 32),
                                               cutlass.BFloat16)
        sD = cute.tile_to_shape(atom, (64, 32), order=(0, 1))
        epilogue(mma, sD).launch(grid=[1, 1, 1], block=[128, 1, 1], smem=64 * 32 * 2 + 1024)
        cute.make_tensor(p, cute.make_layout(8))

    controls = []
    if perturb:
        def other_mma(arguments):
            arguments["mma"] = shared["other_mma"]
        controls.append(Perturbation("tiled_copy", "a tiled MMA of two warpgroups along M", other_mma,
                                     when=lambda arguments: "mma" in arguments))
    with Tracer(controls) as t:
        t.section("epilogue copy probe")
        cute.compile(launch, make_ptr(cutlass.BFloat16, 16, cute.AddressSpace.gmem, assumed_align=16),
                     options="--gpu-arch sm_90a")
    if perturb and not all(c.applied for c in controls):
        sys.exit("the control was not applied")
    with open(os.path.join(out_dir, "trace.json"), "w") as f:
        f.write(t.trace.to_json())


if __name__ == "__main__":
    main()
