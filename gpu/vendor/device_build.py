#!/usr/bin/env python3
"""Builds cuteref-gpu with the CUTLASS kernels (issue 15) and CUTLASS's Hopper FMHA (issue 25) on
the GPU machine, where meson's other dependencies (Z3, RapidCheck) are absent: writes a ninja file
that compiles the model with g++, the harness, the generated kernels, the CuTe probes and the FMHA
probe with nvcc (sm_90a), and links them with the static CUDA runtime, as gpu/meson.build does with
-Dgpu_vendor=enabled -Dgpu_fmha=enabled.

    device_build.py SOURCE_ROOT BUILD_DIR CUTLASS_DIR [ninja args...]

CUTLASS_DIR holds include/, tools/util/include and examples/88_hopper_fmha. The harness is
BUILD_DIR/cuteref-gpu.
"""
import filecmp
import glob
import os
import shutil
import subprocess
import sys


def replace_changed(fresh, dest):
    """Moves each file of `fresh` into `dest` where `dest` has no file of that name or one with
    other bytes; an identical file in `dest` keeps its timestamp. Post: `fresh` is empty."""
    for name in sorted(os.listdir(fresh)):
        src, dst = os.path.join(fresh, name), os.path.join(dest, name)
        if os.path.exists(dst) and filecmp.cmp(src, dst, shallow=False):
            os.remove(src)
        else:
            os.replace(src, dst)


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    root, build, cutlass = (os.path.abspath(a) for a in sys.argv[1:4])
    fmha_example = os.path.join(cutlass, "examples", "88_hopper_fmha")
    if not os.path.isdir(fmha_example):
        sys.exit(f"device_build.py: {fmha_example} is missing (the FMHA probe needs CUTLASS's example 88)")
    os.makedirs(build, exist_ok=True)
    gen = os.path.join(build, "gen")
    os.makedirs(gen, exist_ok=True)
    # The generators write into a fresh folder; only files whose text changed replace those in
    # gen/, so a second build of the same tree (a new unpack, a resumed build) keeps ninja's
    # objects instead of recompiling every generated kernel for a new timestamp.
    fresh = os.path.join(build, "gen.fresh")
    shutil.rmtree(fresh, ignore_errors=True)
    os.makedirs(fresh)
    subprocess.run([sys.executable, os.path.join(root, "gpu/vendor/gen_cutlass_kernels.py"), fresh], check=True)
    subprocess.run([sys.executable, os.path.join(root, "gpu/gen_wgmma.py"), os.path.join(fresh, "wgmma_instances.cu")], check=True)
    subprocess.run([sys.executable, os.path.join(root, "gpu/gen_attention_chain.py"),
                    os.path.join(fresh, "attention_chain_instances.cu")], check=True)
    replace_changed(fresh, gen)
    nvcc = "/usr/local/cuda/bin/nvcc" if os.path.exists("/usr/local/cuda/bin/nvcc") else "nvcc"
    cuda_lib = os.path.join(os.path.dirname(os.path.dirname(os.path.realpath(subprocess.run(
        ["sh", "-c", f"command -v {nvcc}"], capture_output=True, text=True, check=True).stdout.strip()))), "lib64")
    # The model (model/core, algebra, atoms, f2) and the expression language (lang/), as meson builds them.
    model_cpp = sorted(glob.glob(os.path.join(root, "model/*/*.cpp")) + glob.glob(os.path.join(root, "lang/*.cpp")))
    model_cpp = [s for s in model_cpp if "/tests/" not in s]
    gpu_cu = sorted(glob.glob(os.path.join(root, "gpu/*.cu"))) + [os.path.join(gen, "wgmma_instances.cu"),
                                                                 os.path.join(gen, "attention_chain_instances.cu")]
    # cuteref-fmha-host (fmha_host.cu) is a program of its own (the FMHA's host checks without a GPU).
    vendor = sorted(s for s in glob.glob(os.path.join(root, "gpu/vendor/*.cu")) + glob.glob(os.path.join(root, "gpu/vendor/*.cpp"))
                    if os.path.basename(s) != "fmha_host.cu")
    kernels = sorted(glob.glob(os.path.join(gen, "kernel_*.cu")))
    inc = (f"-I{root}/model -I{root}/model/core -I{root}/model/generic -I{root}/model/algebra -I{root}/model/f2 "
           f"-I{root}/lang -I{root}/gpu")
    vinc = f"{inc} -I{root}/gpu/vendor -I{cutlass}/include -I{cutlass}/tools/util/include -I{fmha_example}"
    arch = "-gencode=arch=compute_90a,code=sm_90a"
    lines = [
        f"rule cxx\n  command = g++ -std=c++20 -O2 {inc} -MD -MF $out.d -c $in -o $out\n  depfile = $out.d\n",
        f"rule nvcc\n  command = {nvcc} -std=c++20 -O2 {arch} -DCUTEREF_GPU_VENDOR -DCUTEREF_GPU_FMHA {inc} -MD -MF $out.d -c $in -o $out\n"
        "  depfile = $out.d\n",
        f"rule vnvcc\n  command = {nvcc} -std=c++20 -O2 {arch} --expt-relaxed-constexpr -DCUTLASS_ENABLE_DIRECT_CUDA_DRIVER_CALL=1 "
        f"-DCUTEREF_GPU_VENDOR -w {vinc} -MD -MF $out.d -c $in -o $out\n  depfile = $out.d\n",
        f"rule link\n  command = g++ -o $out $in -L{cuda_lib} -lcudart_static -ldl -lpthread -lrt\n",
    ]
    objects = []

    def add(rule, src, tag):
        obj = os.path.join(build, "obj", tag + "_" + os.path.basename(src) + ".o")
        lines.append(f"build {obj}: {rule} {src}\n")
        objects.append(obj)

    for s in model_cpp:
        add("cxx", s, "model_" + os.path.basename(os.path.dirname(s)))
    for s in gpu_cu:
        add("nvcc", s, "gpu")
    for s in vendor:
        add("vnvcc", s, "vendor")
    kernel_objects = {}
    for s in kernels:
        add("vnvcc", s, "kernel")
        kernel_objects[s] = objects.pop()
    # Phase 1: every object (ninja -k 0 keeps going past a kernel that does not compile).
    os.makedirs(os.path.join(build, "obj"), exist_ok=True)
    with open(os.path.join(build, "build.ninja"), "w") as f:
        f.write("\n".join(lines) + f"build all_objects: phony {' '.join(objects + list(kernel_objects.values()))}\n"
                "default all_objects\n")
    subprocess.run(["ninja", "-C", build] + sys.argv[4:])
    # Phase 2: a kernel that did not compile stays in the registry as a failure; then link.
    unbuilt = [i for i, s in enumerate(k for k in kernels if "kernel_" in k) if not os.path.exists(kernel_objects[s])]
    if unbuilt:
        print("kernels that did not compile:", unbuilt, flush=True)
    registry = os.path.join(gen, "registry_built.cu")
    subprocess.run([sys.executable, os.path.join(root, "gpu/vendor/gen_cutlass_kernels.py"), "--registry",
                    os.path.join(fresh, "registry_built.cu"), ",".join(map(str, unbuilt))], check=True)
    replace_changed(fresh, gen)
    add("vnvcc", registry, "kernel")
    built = [o for s, o in kernel_objects.items() if os.path.exists(o) and "registry.cu" not in s]
    lines.append(f"build {build}/cuteref-gpu: link {' '.join(objects + built)}\n")
    lines.append(f"default {build}/cuteref-gpu\n")
    with open(os.path.join(build, "build.ninja"), "w") as f:
        f.write("\n".join(lines))
    subprocess.run(["ninja", "-C", build] + sys.argv[4:], check=True)


if __name__ == "__main__":
    main()
