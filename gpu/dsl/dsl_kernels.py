#!/usr/bin/env python3
"""Compiles the CuTe DSL kernels of `cuteref-gpu dsl` ahead of time for sm_90a (no GPU needed) and
writes, per kernel, its cubin and manifest lines with what the DSL printed at compile time.

    dsl_kernels.py DSL_DIR OUT_DIR

DSL_DIR holds nvidia-cutlass-dsl (the project's .vendor/dsl). OUT_DIR receives KERNEL.cubin and
dsl_manifest.txt: one `KERNEL key value` line per fact (the cubin, the kernel's entry name and
parameter sizes, its dynamic shared memory, M, N, K, and the layouts the DSL computed: the SMEM
layouts of A and B, the TiledMMA's (thread, value) layouts).
The launcher (gpu/dsl_probe.cu) passes the kernel's pointer parameters in the order documented
at each kernel.

The kernel `wgmma_gemm_f16`: one warpgroup computes C = A B^T (M x N x K = 64 x 128 x 64, f16 in,
f32 out) with SS WGMMA: A (M, K) and B (N, K) K-major in global memory are copied element by
element into the SMEM layouts the DSL's Hopper helpers choose, the TiledMMA's descriptors read
them, and every thread writes its accumulator values to C (column-major M x N) through its
partition of C, and the (m, n) its partition of an identity tensor names for each value to
COORD (thread-major, m + M n).
Parameters: A, B, C, COORD (pointers to f16, f16, f32, i32).
"""
import os
import re
import sys

M, N, K = 64, 128, 64
THREADS = 128


def load_dsl(dsl_dir):
    sys.path.insert(0, dsl_dir)
    import nvidia_cutlass_dsl  # noqa: F401  (its .pth hook is not run for a --target folder)
    sys.path.insert(0, os.path.join(nvidia_cutlass_dsl.__path__[0], "dsl_packages"))


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    dsl_dir, out_dir = (os.path.abspath(a) for a in sys.argv[1:])
    os.makedirs(out_dir, exist_ok=True)
    os.environ["CUTE_DSL_KEEP"] = "cubin,ptx"
    os.environ["CUTE_DSL_DUMP_DIR"] = out_dir
    load_dsl(dsl_dir)
    import cutlass
    import cutlass.cute as cute
    import cutlass.utils.hopper_helpers as hopper
    from cutlass.cute.nvgpu import OperandMajorMode, warpgroup
    from cutlass.cute.runtime import make_ptr
    from cutlass.memory import SmemAllocator
    from cutlass.tensor_utils import LayoutEnum

    facts = []

    @cute.kernel
    def wgmma_gemm_f16(tiled_mma: cute.TiledMma, sa_layout: cute.ComposedLayout, sb_layout: cute.ComposedLayout,
                       gA: cute.Tensor, gB: cute.Tensor, gC: cute.Tensor, gCoord: cute.Tensor):
        tidx, _, _ = cute.arch.thread_idx()
        # The swizzle goes with the SMEM pointer, as the DSL's WGMMA partitioning expects.
        smem = SmemAllocator()
        sA = smem.allocate_tensor(cutlass.Float16, sa_layout.outer, byte_alignment=1024, swizzle=sa_layout.inner)
        sB = smem.allocate_tensor(cutlass.Float16, sb_layout.outer, byte_alignment=1024, swizzle=sb_layout.inner)
        # Global to shared by logical coordinate: the SMEM layout alone decides where each goes.
        for j in cutlass.range_constexpr(M * K // THREADS):
            sA[tidx + THREADS * j] = gA[tidx + THREADS * j]
        for j in cutlass.range_constexpr(N * K // THREADS):
            sB[tidx + THREADS * j] = gB[tidx + THREADS * j]
        # Ordinary stores read next by the tensor cores: the proxy fence, then the barrier.
        cute.arch.fence_proxy("async.shared", space="cta")
        cute.arch.sync_threads()
        thr = tiled_mma.get_slice(tidx)
        tCrA = tiled_mma.make_fragment_A(thr.partition_A(sA))
        tCrB = tiled_mma.make_fragment_B(thr.partition_B(sB))
        tCgC = thr.partition_C(gC)
        acc = tiled_mma.make_fragment_C(tCgC.shape)
        tiled_mma.set(warpgroup.Field.ACCUMULATE, False)
        warpgroup.fence()
        for kb in cutlass.range_constexpr(cute.size(tCrA, mode=[2])):
            cute.gemm(tiled_mma, acc, tCrA[None, None, kb], tCrB[None, None, kb], acc)
            tiled_mma.set(warpgroup.Field.ACCUMULATE, True)
        warpgroup.commit_group()
        warpgroup.wait_group(0)
        tCcC = thr.partition_C(cute.make_identity_tensor((M, N)))
        for i in cutlass.range_constexpr(cute.size(acc)):
            tCgC[i] = acc[i]
            m, n = tCcC[i]
            gCoord[tidx, i] = m + M * n

    @cute.jit
    def launch_wgmma_gemm_f16(pa: cute.Pointer, pb: cute.Pointer, pc: cute.Pointer, pcoord: cute.Pointer):
        tiled_mma = hopper.make_trivial_tiled_mma(cutlass.Float16, cutlass.Float16, OperandMajorMode.K,
                                                  OperandMajorMode.K, cutlass.Float32, (1, 1, 1), (M, N))
        sa_layout = cute.slice_(hopper.make_smem_layout_a(LayoutEnum.ROW_MAJOR, (M, N, K), cutlass.Float16, 1),
                                (None, None, 0))
        sb_layout = cute.slice_(hopper.make_smem_layout_b(LayoutEnum.ROW_MAJOR, (M, N, K), cutlass.Float16, 1),
                                (None, None, 0))
        values = M * N // THREADS
        gA = cute.make_tensor(pa, cute.make_layout((M, K), stride=(K, 1)))
        gB = cute.make_tensor(pb, cute.make_layout((N, K), stride=(K, 1)))
        gC = cute.make_tensor(pc, cute.make_layout((M, N), stride=(1, M)))
        gCoord = cute.make_tensor(pcoord, cute.make_layout((THREADS, values), stride=(values, 1)))
        facts.append(("smem_a", str(sa_layout)))
        facts.append(("smem_b", str(sb_layout)))
        facts.append(("tv_a", str(tiled_mma.tv_layout_A_tiled)))
        facts.append(("tv_b", str(tiled_mma.tv_layout_B_tiled)))
        facts.append(("tv_c", str(tiled_mma.tv_layout_C_tiled)))
        facts.append(("mma", str(tiled_mma).replace("\n", " | ")))
        smem_bytes = (M * K + N * K) * 2 + 2048
        wgmma_gemm_f16(tiled_mma, sa_layout, sb_layout, gA, gB, gC, gCoord).launch(
            grid=[1, 1, 1], block=[THREADS, 1, 1], smem=smem_bytes)

    ptrs = [make_ptr(t, 16, cute.AddressSpace.gmem, assumed_align=16)
            for t in (cutlass.Float16, cutlass.Float16, cutlass.Float32, cutlass.Int32)]
    cute.compile(launch_wgmma_gemm_f16, *ptrs, options="--gpu-arch sm_90a")
    stem = os.path.join(out_dir, "cutlass_launch_wgmma_gemm_f16_Ptrgmem_Ptrgmem_Ptrgmem_Ptrgmem.sm_90a")
    os.replace(stem + ".cubin", os.path.join(out_dir, "wgmma_gemm_f16.cubin"))
    entry, params = kernel_entry(stem + ".ptx")
    os.remove(stem + ".ptx")
    with open(os.path.join(out_dir, "dsl_manifest.txt"), "w") as f:
        f.write(f"wgmma_gemm_f16 cubin wgmma_gemm_f16.cubin\n")
        f.write(f"wgmma_gemm_f16 entry {entry}\n")
        f.write(f"wgmma_gemm_f16 params {' '.join(map(str, params))}\n")
        f.write(f"wgmma_gemm_f16 smem {(M * K + N * K) * 2 + 2048}\n")
        f.write(f"wgmma_gemm_f16 shape {M} {N} {K}\n")
        for key, value in facts:
            f.write(f"wgmma_gemm_f16 {key} {value}\n")


def kernel_entry(ptx_path):
    """The PTX's one kernel entry and its parameters' sizes in bytes (the launcher passes the
    pointers in order into the 8-byte parameters and zeros into the others, which are empty
    structs such as the TiledMMA)."""
    text = open(ptx_path).read()
    match = re.search(r"\.visible \.entry (\w+)\(([^)]*)\)", text)
    if not match:
        sys.exit(f"no kernel entry in {ptx_path}")
    sizes = [int(n) for n in re.findall(r"\.param \.align \d+ \.b8 \w+\[(\d+)\]", match.group(2))]
    return match.group(1), sizes


if __name__ == "__main__":
    main()
