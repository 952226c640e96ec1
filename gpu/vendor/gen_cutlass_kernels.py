#!/usr/bin/env python3
"""Writes the CUTLASS SM90 GEMM kernels under test (issue 15), one .cu file per kernel, and the
registry that lists them.

    gen_cutlass_kernels.py OUTDIR            write kernel_NN.cu ... and registry.cu into OUTDIR
    gen_cutlass_kernels.py --list            print the table (name per line)
    gen_cutlass_kernels.py --count           print the number of kernels
    gen_cutlass_kernels.py --registry FILE I,J  the registry with kernels I, J, ... marked as not built

The table crosses element types (f16, bf16, e4m3, tf32, s8), operand majorness (TN, NT, NN, TT
where the hardware allows an MN-major operand: 16-bit types only), the three TMA warp-specialized
schedules, clusters 1x1, 2x1 and 1x2 (TMA multicast) and several CTA tiles; and RS kernels (A
through registers: e4m3, s8, tf32 with an M-major A, which CUTLASS's builder routes that way). Each
SS kernel fixes its stage count (what the model derives the SMEM layout from) instead of CUTLASS's
automatic count; the RS kernels (stages 0 in the table) take CUTLASS's count, read from the kernel
at run time (its RS builder accepts only StageCountAutoCarveout).
"""
import sys

TYPES = {
    # name: (CUTLASS element, accumulator, output, bits, model atom type word, atom K)
    "f16": ("cutlass::half_t", "float", "float", 16, "F32F16F16", 16),
    "bf16": ("cutlass::bfloat16_t", "float", "float", 16, "F32BF16BF16", 16),
    "e4m3": ("cutlass::float_e4m3_t", "float", "float", 8, "F32E4M3E4M3", 32),
    "tf32": ("float", "float", "float", 32, "F32TF32TF32", 8),
    "s8": ("int8_t", "int32_t", "int32_t", 8, "S32S8S8", 32),
}
SCHEDULES = {
    "ws": "cutlass::gemm::KernelTmaWarpSpecialized",
    "coop": "cutlass::gemm::KernelTmaWarpSpecializedCooperative",
    "pingpong": "cutlass::gemm::KernelTmaWarpSpecializedPingpong",
}
# (layout name, A K-major, B K-major): T = row-major A / N = column-major B are K-major.
LAYOUTS = {"TN": (True, True), "NT": (False, False), "NN": (False, True), "TT": (True, False)}
CLUSTERS = [(1, 1), (2, 1), (1, 2)]
SMEM_BUDGET = 200 * 1024


def tiles_for(schedule, bits):
    """CTA tiles (BM, BN, BK) per schedule; BK spans 128 bytes, or 64 for a narrower K atom."""
    k128 = 1024 // bits  # 128 bytes of K
    k64 = 512 // bits
    if schedule == "coop":  # two consumer warpgroups split M: BM a multiple of 128
        return [(128, 128, k128), (128, 256, k128), (256, 128, k64), (128, 96, k128)]
    if schedule == "pingpong":
        return [(64, 128, k128), (128, 128, k64), (64, 256, k128), (128, 96, k128)]
    return [(64, 128, k128), (128, 128, k128), (128, 64, k64), (64, 96, k128)]


def table():
    kernels = []
    index = 0
    for tname, (elem, acc, out, bits, word, atom_k) in TYPES.items():
        layouts = ["TN", "NT", "NN", "TT"] if bits == 16 else ["TN"]
        for lname in layouts:
            a_k, b_k = LAYOUTS[lname]
            for sname in SCHEDULES:
                tiles = tiles_for(sname, bits)
                # 16-bit types: one tile per (layout, schedule); others: two tiles per schedule.
                picks = [tiles[(index + j) % len(tiles)] for j in range(1 if bits == 16 else 2)]
                for bm, bn, bk in picks:
                    cm, cn = CLUSTERS[index % len(CLUSTERS)]
                    index += 1
                    stage_bytes = (bm + bn) * bk * bits // 8
                    stages = max(2, min(4, SMEM_BUDGET // stage_bytes))
                    atoms_m = 2 if sname == "coop" else 1
                    if bits == 16:
                        atom = f"SM90_64x{bn}x{atom_k}_{word}_SS<{'K' if a_k else 'MN'},{'K' if b_k else 'MN'}>"
                    else:
                        atom = f"SM90_64x{bn}x{atom_k}_{word}_SS_TN"
                    kernels.append(dict(
                        name=f"{tname}_{lname}_{sname}_{bm}x{bn}x{bk}_c{cm}x{cn}", type=tname, elem=elem, acc=acc,
                        out=out, bits=bits, a_k=a_k, b_k=b_k, bm=bm, bn=bn, bk=bk, cm=cm, cn=cn, schedule=sname,
                        stages=stages, atom=atom, atoms_m=atoms_m, rs=False))
    # RS kernels: CUTLASS's builder reads A through registers (MainloopSm90TmaGmmaRmemAWarpSpecialized)
    # when the operands are not 16-bit and not both K-major. NN keeps B K-major (8-bit and tf32 B
    # must be) and A M-major in SMEM; the TiledMMA is the RS atom with both operands K-major.
    for tname in ("e4m3", "s8", "tf32"):
        elem, acc, out, bits, word, atom_k = TYPES[tname]
        for sname in SCHEDULES:
            # CUTLASS's RS mainloop needs more than two MMA k-blocks per tile: BK of 128 bytes.
            tiles = [t for t in tiles_for(sname, bits) if t[2] == 1024 // bits]
            bm, bn, bk = tiles[index % len(tiles)]
            cm, cn = CLUSTERS[index % len(CLUSTERS)]
            index += 1
            stages = 0  # CUTLASS's own count: its RS builder takes only StageCountAutoCarveout
            kernels.append(dict(
                name=f"{tname}_NN_rs_{sname}_{bm}x{bn}x{bk}_c{cm}x{cn}", type=tname, elem=elem, acc=acc, out=out,
                bits=bits, a_k=False, b_k=True, bm=bm, bn=bn, bk=bk, cm=cm, cn=cn, schedule=sname, stages=stages,
                atom=f"SM90_64x{bn}x{atom_k}_{word}_RS_TN", atoms_m=2 if sname == "coop" else 1, rs=True))
    return kernels


def kernel_source(i, k):
    layout_a = "cutlass::layout::RowMajor" if k["a_k"] else "cutlass::layout::ColumnMajor"
    layout_b = "cutlass::layout::ColumnMajor" if k["b_k"] else "cutlass::layout::RowMajor"
    return f"""// Generated by gen_cutlass_kernels.py: {k['name']}
#include "cutlass_gemm_case.cuh"

namespace cuteref_gpu::vendor {{

using Config{i} = GemmConfig<{k['elem']}, {k['elem']}, {k['acc']}, {k['out']}, {layout_a}, {layout_b},
                             cute::Shape<cute::Int<{k['bm']}>, cute::Int<{k['bn']}>, cute::Int<{k['bk']}>>,
                             cute::Shape<cute::Int<{k['cm']}>, cute::Int<{k['cn']}>, cute::_1>, {SCHEDULES[k['schedule']]}, {k['stages']}>;

KernelReport run_kernel_{i}(const GemmSpec& s) {{ return run_gemm_case<Config{i}>(s); }}

}}  // namespace cuteref_gpu::vendor
"""


def registry_source(kernels, unbuilt=()):
    decls = "\n".join(f"KernelReport run_kernel_{i}(const GemmSpec&);" for i in range(len(kernels)) if i not in unbuilt)
    decls += """

// A kernel whose file did not compile: reported as a failed comparison, never skipped.
KernelReport run_unbuilt(const GemmSpec&) {
  KernelReport r;
  r.add("host", "build", false, "the kernel's source did not compile (see the build log)");
  return r;
}"""
    rows = []
    for i, k in enumerate(kernels):
        rows.append(
            f'      {{{{"{k["name"]}", "{k["type"]}", {str(k["a_k"]).lower()}, {str(k["b_k"]).lower()}, {k["bm"]}, {k["bn"]}, '
            f'{k["bk"]}, {k["cm"]}, {k["cn"]}, "{k["schedule"]}", {k["stages"]}, {k["bits"]}, "{k["atom"]}", {k["atoms_m"]}, '
            f'{str(k["rs"]).lower()}}}, '
            f"{'run_unbuilt' if i in unbuilt else f'run_kernel_{i}'}}},")
    return f"""// Generated by gen_cutlass_kernels.py: the {len(kernels)} kernels under test.
#include "vendor_case.hpp"

namespace cuteref_gpu::vendor {{

{decls}

const std::vector<RegisteredKernel>& registered_kernels() {{
  static const std::vector<RegisteredKernel> kernels = {{
{chr(10).join(rows)}
  }};
  return kernels;
}}

}}  // namespace cuteref_gpu::vendor
"""


def main():
    kernels = table()
    if sys.argv[1:] == ["--list"]:
        for k in kernels:
            print(k["name"], k["atom"], k["stages"])
        return
    if sys.argv[1:] == ["--count"]:
        print(len(kernels))
        return
    if len(sys.argv) == 4 and sys.argv[1] == "--registry":  # --registry OUT UNBUILT(comma-separated indices)
        unbuilt = {int(x) for x in sys.argv[3].split(",") if x}
        with open(sys.argv[2], "w") as f:
            f.write(registry_source(kernels, unbuilt))
        return
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    out = sys.argv[1]
    for i, k in enumerate(kernels):
        with open(f"{out}/kernel_{i:02d}.cu", "w") as f:
            f.write(kernel_source(i, k))
    with open(f"{out}/registry.cu", "w") as f:
        f.write(registry_source(kernels))


if __name__ == "__main__":
    main()
