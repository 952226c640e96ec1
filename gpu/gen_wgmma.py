#!/usr/bin/env python3
"""Writes the WGMMA probe's kernel instances (one per instruction shape and type).

wgmma's accumulator operand list has one register per accumulator value, so each
instruction shape needs its own inline-assembly statement; this script spells them out.
Usage: gen_wgmma.py OUTPUT.cu
"""
import sys

# (CuTe operation name stem, PTX type suffix, accumulator kind, K, 16-bit trans immediates?)
#   accumulator kind: f32 -> N/2 float registers, f16 -> N/4 .f16x2 registers, s32 -> N/2
FAMILIES = {
    "F32F16F16": (".f32.f16.f16", "f32", 16, True),
    "F32BF16BF16": (".f32.bf16.bf16", "f32", 16, True),
    "F16F16F16": (".f16.f16.f16", "f16", 16, True),
    "F32TF32TF32": (".f32.tf32.tf32", "f32", 8, False),
    "F32E4M3E4M3": (".f32.e4m3.e4m3", "f32", 32, False),
    "F32E5M2E5M2": (".f32.e5m2.e5m2", "f32", 32, False),
    "S32S8S8": (".s32.s8.s8", "s32", 32, False),
}

ALL_N = list(range(8, 257, 8))
SOME_N = [8, 64, 136, 256]


def instances():
    out = []
    for fam in ("F32F16F16", "F32BF16BF16"):
        for n in ALL_N:
            out.append((fam, n, "SS", 0, 0))
        for n in SOME_N:
            for ta, tb in ((0, 1), (1, 0), (1, 1)):
                out.append((fam, n, "SS", ta, tb))
            out.append((fam, n, "RS", 0, 0))
            out.append((fam, n, "RS", 0, 1))
    for fam in ("F16F16F16",):
        for n in SOME_N:
            out.append((fam, n, "SS", 0, 0))
            out.append((fam, n, "SS", 1, 1))
            out.append((fam, n, "RS", 0, 0))
    for fam in ("F32TF32TF32", "F32E4M3E4M3", "F32E5M2E5M2", "S32S8S8"):
        for n in SOME_N:
            if fam == "S32S8S8" and n == 136:
                continue  # integer wgmma allows N in {8,16,24,32} or multiples of 16
            out.append((fam, n, "SS", 0, 0))
            out.append((fam, n, "RS", 0, 0))
    return out


def cute_name(fam, n, form, ta, tb):
    ptx, acc, k, trans = FAMILIES[fam]
    name = f"SM90_64x{n}x{k}_{fam}_{form}"
    if trans:
        major = lambda t: "MN" if t else "K"
        if form == "SS":
            name += f"<{major(ta)},{major(tb)}>"
        else:
            name += f"<K,{major(tb)}>"
    else:
        name += "_TN"
    return name


def accumulator_registers(fam, n):
    """Accumulator registers per thread of wgmma m64nN of this family."""
    acc = FAMILIES[fam][1]
    return n // 4 if acc == "f16" else n // 2


def mma_statement(fam, n, form, ta, tb, d, a, desc_a, desc_b, scale_d):
    """One wgmma.mma_async as an inline-assembly statement (a list of C++ lines).

    d: the accumulator array; a: the RS A-register array expression, indexed a[0..3];
    desc_a, desc_b: descriptor expressions; scale_d: an int expression, 0 for D = A*B and
    nonzero for D = A*B + D.
    """
    ptx, acc, k, trans = FAMILIES[fam]
    nreg = accumulator_registers(fam, n)
    cons = "f" if acc == "f32" else "r"
    d_list = ", ".join(f"%{i}" for i in range(nreg))
    outs = ", ".join(f'"+{cons}"({d}[{i}])' for i in range(nreg))
    a_reg_count = 4  # 32 bits x 4 registers: 8 16-bit values, 16 8-bit values, 4 tf32 values
    base = nreg
    if form == "SS":
        operands = f"%{base}, %{base + 1}"
        ins = f'"l"({desc_a}), "l"({desc_b}), "r"({scale_d})'
        pred = f"%{base + 2}"
    else:
        operands = "{" + ", ".join(f"%{base + i}" for i in range(a_reg_count)) + f"}}, %{base + a_reg_count}"
        ins = ", ".join(f'"r"({a}[{i}])' for i in range(a_reg_count)) + f', "l"({desc_b}), "r"({scale_d})'
        pred = f"%{base + a_reg_count + 1}"
    if acc == "s32":
        imms = ""
    elif trans:
        imms = f", 1, 1, {ta}, {tb}" if form == "SS" else f", 1, 1, {tb}"
    else:
        imms = ", 1, 1"
    asm = (f'"{{\\n .reg .pred p;\\n setp.ne.b32 p, {pred}, 0;\\n'
           f' wgmma.mma_async.sync.aligned.m64n{n}k{k}{ptx} {{{d_list}}}, {operands}, p{imms};\\n}}\\n"')
    return [f"asm volatile({asm}", f"    : {outs}", f"    : {ins} : \"memory\");"]


def kernel(idx, fam, n, form, ta, tb):
    acc = FAMILIES[fam][1]
    nreg = accumulator_registers(fam, n)
    ctype = "float" if acc == "f32" else "std::uint32_t"
    a_reg_count = 4
    lines = []
    lines.append(f"__global__ void __launch_bounds__(128, 1) wgmma_kernel_{idx}(WgmmaArgs args) {{")
    lines.append(f"  {ctype} d[{nreg}];")
    lines.append(f"  for (int i = 0; i < {nreg}; ++i) d[i] = {ctype}(0);")
    lines.append("  std::uint64_t desc_a, desc_b;")
    lines.append("  stage_operands(args, desc_a, desc_b);")
    if form == "RS":
        lines.append(f"  std::uint32_t a[{a_reg_count}];")
        lines.append(f"  for (int i = 0; i < {a_reg_count}; ++i) a[i] = args.a_fragment[threadIdx.x * {a_reg_count} + i];")
    lines.append('  asm volatile("wgmma.fence.sync.aligned;" ::: "memory");')
    lines.extend("  " + line for line in mma_statement(fam, n, form, ta, tb, "d", "a", "desc_a", "desc_b", "0"))
    lines.append('  asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");')
    lines.append('  asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");')
    lines.append(f"  for (int i = 0; i < {nreg}; ++i) {{")
    lines.append(f"    std::uint32_t bits_out;")
    lines.append(f"    memcpy(&bits_out, &d[i], 4);")
    lines.append(f"    args.out[threadIdx.x * {nreg} + i] = bits_out;")
    lines.append("  }")
    lines.append("}")
    return "\n".join(lines), nreg


def main():
    insts = instances()
    body = ["// Generated by gen_wgmma.py: do not edit.", '#include "wgmma_kernels.cuh"', "",
            "namespace cuteref_gpu {", ""]
    table = []
    for idx, (fam, n, form, ta, tb) in enumerate(insts):
        text, nreg = kernel(idx, fam, n, form, ta, tb)
        body.append(text)
        body.append("")
        table.append(f'  {{"{cute_name(fam, n, form, ta, tb)}", {nreg}, wgmma_kernel_{idx}}},')
    body.append("const std::vector<WgmmaInstance>& wgmma_instances() {")
    body.append("  static const std::vector<WgmmaInstance> table = {")
    body.extend(table)
    body.append("  };")
    body.append("  return table;")
    body.append("}")
    body.append("")
    body.append("}  // namespace cuteref_gpu")
    with open(sys.argv[1], "w") as f:
        f.write("\n".join(body) + "\n")


if __name__ == "__main__":
    main()
