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

    chain_facts = []

    @cute.kernel
    def attention_chain_f16(qk_mma: cute.TiledMma, pv_mma: cute.TiledMma, sq_layout: cute.ComposedLayout,
                            sk_layout: cute.ComposedLayout, sv_layout: cute.ComposedLayout, gQ: cute.Tensor,
                            gK: cute.Tensor, gV: cute.Tensor, gO: cute.Tensor):
        tidx, _, _ = cute.arch.thread_idx()
        smem = SmemAllocator()
        sQ = smem.allocate_tensor(cutlass.Float16, sq_layout.outer, byte_alignment=1024, swizzle=sq_layout.inner)
        sK = smem.allocate_tensor(cutlass.Float16, sk_layout.outer, byte_alignment=1024, swizzle=sk_layout.inner)
        sV = smem.allocate_tensor(cutlass.Float16, sv_layout.outer, byte_alignment=1024, swizzle=sv_layout.inner)
        for j in cutlass.range_constexpr(M * K // THREADS):
            sQ[tidx + THREADS * j] = gQ[tidx + THREADS * j]
        for j in cutlass.range_constexpr(N * K // THREADS):
            sK[tidx + THREADS * j] = gK[tidx + THREADS * j]
            sV[tidx + THREADS * j] = gV[tidx + THREADS * j]
        cute.arch.fence_proxy("async.shared", space="cta")
        cute.arch.sync_threads()
        # S = Q K^T (SS).
        thr_qk = qk_mma.get_slice(tidx)
        tSrQ = qk_mma.make_fragment_A(thr_qk.partition_A(sQ))
        tSrK = qk_mma.make_fragment_B(thr_qk.partition_B(sK))
        acc_s = qk_mma.make_fragment_C(thr_qk.partition_shape_C((M, N)))
        qk_mma.set(warpgroup.Field.ACCUMULATE, False)
        warpgroup.fence()
        for kb in cutlass.range_constexpr(cute.size(tSrQ, mode=[2])):
            cute.gemm(qk_mma, acc_s, tSrQ[None, None, kb], tSrK[None, None, kb], acc_s)
            qk_mma.set(warpgroup.Field.ACCUMULATE, True)
        warpgroup.commit_group()
        warpgroup.wait_group(0)
        # P = S in f16, value i of the accumulator into value i of the PV MMA's A fragment.
        thr_pv = pv_mma.get_slice(tidx)
        tOrP = pv_mma.make_fragment_A(thr_pv.partition_shape_A((M, N)))
        for i in cutlass.range_constexpr(cute.size(acc_s)):
            tOrP[i] = acc_s[i].to(cutlass.Float16)
        # O = P V (RS).
        tOrV = pv_mma.make_fragment_B(thr_pv.partition_B(sV))
        tOgO = thr_pv.partition_C(gO)
        acc_o = pv_mma.make_fragment_C(tOgO.shape)
        pv_mma.set(warpgroup.Field.ACCUMULATE, False)
        warpgroup.fence()
        for kb in cutlass.range_constexpr(cute.size(tOrP, mode=[2])):
            cute.gemm(pv_mma, acc_o, tOrP[None, None, kb], tOrV[None, None, kb], acc_o)
            pv_mma.set(warpgroup.Field.ACCUMULATE, True)
        warpgroup.commit_group()
        warpgroup.wait_group(0)
        for i in cutlass.range_constexpr(cute.size(acc_o)):
            tOgO[i] = acc_o[i]

    @cute.jit
    def launch_attention_chain_f16(pq: cute.Pointer, pk: cute.Pointer, pv: cute.Pointer, po: cute.Pointer):
        # Q (M, D), K (N, D), V (N, D) row-major; O (M, D) column-major; D = K here.
        qk_mma = hopper.make_trivial_tiled_mma(cutlass.Float16, cutlass.Float16, OperandMajorMode.K,
                                               OperandMajorMode.K, cutlass.Float32, (1, 1, 1), (M, N))
        pv_mma = hopper.make_trivial_tiled_mma(cutlass.Float16, cutlass.Float16, OperandMajorMode.K,
                                               OperandMajorMode.MN, cutlass.Float32, (1, 1, 1), (M, K),
                                               a_source=warpgroup.OperandSource.RMEM)
        sq_layout = cute.slice_(hopper.make_smem_layout_a(LayoutEnum.ROW_MAJOR, (M, N, K), cutlass.Float16, 1),
                                (None, None, 0))
        sk_layout = cute.slice_(hopper.make_smem_layout_b(LayoutEnum.ROW_MAJOR, (M, N, K), cutlass.Float16, 1),
                                (None, None, 0))
        sv_layout = cute.slice_(hopper.make_smem_layout_b(LayoutEnum.COL_MAJOR, (M, K, N), cutlass.Float16, 1),
                                (None, None, 0))
        gQ = cute.make_tensor(pq, cute.make_layout((M, K), stride=(K, 1)))
        gK = cute.make_tensor(pk, cute.make_layout((N, K), stride=(K, 1)))
        gV = cute.make_tensor(pv, cute.make_layout((K, N), stride=(1, K)))  # V^T: (D, N), D contiguous
        gO = cute.make_tensor(po, cute.make_layout((M, K), stride=(1, M)))
        chain_facts.append(("smem_v", str(sv_layout)))
        chain_facts.append(("tv_s", str(qk_mma.tv_layout_C_tiled)))
        chain_facts.append(("tv_p", str(pv_mma.tv_layout_A_tiled)))
        chain_facts.append(("tv_o", str(pv_mma.tv_layout_C_tiled)))
        smem_bytes = (M * K + 2 * N * K) * 2 + 3072
        attention_chain_f16(qk_mma, pv_mma, sq_layout, sk_layout, sv_layout, gQ, gK, gV, gO).launch(
            grid=[1, 1, 1], block=[THREADS, 1, 1], smem=smem_bytes)

    ptrs = [make_ptr(t, 16, cute.AddressSpace.gmem, assumed_align=16)
            for t in (cutlass.Float16, cutlass.Float16, cutlass.Float32, cutlass.Int32)]
    cute.compile(launch_wgmma_gemm_f16, *ptrs, options="--gpu-arch sm_90a")
    chain_ptrs = [make_ptr(t, 16, cute.AddressSpace.gmem, assumed_align=16)
                  for t in (cutlass.Float16, cutlass.Float16, cutlass.Float16, cutlass.Float32)]
    cute.compile(launch_attention_chain_f16, *chain_ptrs, options="--gpu-arch sm_90a")
    with open(os.path.join(out_dir, "dsl_manifest.txt"), "w") as f:
        for name, launcher, smem, kernel_facts in (
                ("wgmma_gemm_f16", "launch_wgmma_gemm_f16", (M * K + N * K) * 2 + 2048, facts),
                ("attention_chain_f16", "launch_attention_chain_f16", (M * K + 2 * N * K) * 2 + 3072, chain_facts)):
            stem = os.path.join(out_dir, f"cutlass_{launcher}_Ptrgmem_Ptrgmem_Ptrgmem_Ptrgmem.sm_90a")
            os.replace(stem + ".cubin", os.path.join(out_dir, f"{name}.cubin"))
            entry, params = kernel_entry(stem + ".ptx")
            os.remove(stem + ".ptx")
            f.write(f"{name} cubin {name}.cubin\n")
            f.write(f"{name} entry {entry}\n")
            f.write(f"{name} params {' '.join(map(str, params))}\n")
            f.write(f"{name} smem {smem}\n")
            f.write(f"{name} shape {M} {N} {K}\n")
            for key, value in kernel_facts:
                f.write(f"{name} {key} {value}\n")


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
