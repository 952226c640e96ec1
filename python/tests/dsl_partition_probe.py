"""Run with the CuTe DSL importable: compiles, for sm_90a (no GPU needed), one kernel under
cuteref.dsl's tracer and writes its trace and the shared-memory accesses of its PTX.

    dsl_partition_probe.py DSL_DIR OUT_DIR [--perturb-view]

The kernel (one thread, bf16):
- partitions a shared-memory tile with its swizzle on the pointer (Sw<3,4,3>, the SW128 atom
  (8,64):(64,1)) and a coordinate tensor (make_identity_tensor) by one tiled copy: the trace
  then holds an smem_partition and a coord_partition;
- stores two values through a tensor whose swizzle sits in its layout over a plain pointer,
  S<3,4,3> o 0 o (8,64):(64,1), at coordinates (1,0) and (2,8): the PTX's store offsets show
  which offsets the DSL's generated code swizzles (bytes or elements);
- makes the transposed views (quack's transpose_view, a stand-in here) of both tensors: the
  trace then holds two transpose_view decisions (with --perturb-view, the first is made of the
  tile with its strides exchanged while the decision keeps the tile: a negative control).
Writes OUT_DIR/trace.json and OUT_DIR/smem_accesses.txt (the PTX lines with st.shared).
"""
import glob
import os
import sys


def main():
    if len(sys.argv) not in (3, 4) or (len(sys.argv) == 4 and sys.argv[3] != "--perturb-view"):
        sys.exit(__doc__)
    dsl_dir, out_dir = (os.path.abspath(a) for a in sys.argv[1:3])
    perturb_view = len(sys.argv) == 4
    os.makedirs(out_dir, exist_ok=True)
    os.environ["CUTE_DSL_KEEP"] = "ptx"
    os.environ["CUTE_DSL_DUMP_DIR"] = out_dir
    from cuteref.dsl.__main__ import dsl_path
    dsl_path(dsl_dir)
    import cutlass
    import cutlass.cute as cute
    from cutlass.cute.runtime import make_ptr
    from cutlass.memory import SmemAllocator

    from cuteref.dsl import Perturbation, Tracer

    # A stand-in for quack.layout_utils (quack is not installed here): its transpose_view is
    # the tensor composed with the ordered layout that swaps the first two modes; the tracer
    # hooks it by that module path, as it hooks quack's own.
    import types
    stand_in = types.ModuleType("quack.layout_utils")

    def transpose_view(a):
        return cute.composition(a, cute.make_ordered_layout((a.shape[1], a.shape[0]), order=(1, 0)))

    stand_in.transpose_view = transpose_view
    sys.modules.setdefault("quack", types.ModuleType("quack"))
    sys.modules["quack.layout_utils"] = stand_in
    sys.modules["quack"].layout_utils = stand_in

    @cute.kernel
    def probe(g: cute.Tensor):
        tidx, _, _ = cute.arch.thread_idx()
        atom_layout = cute.make_layout((8, 64), stride=(64, 1))
        smem = SmemAllocator()
        tile = smem.allocate_tensor(cutlass.BFloat16, atom_layout, byte_alignment=1024,
                                    swizzle=cute.make_swizzle(3, 4, 3))
        plain = smem.allocate_tensor(cutlass.BFloat16, cute.make_layout(512), byte_alignment=1024)
        copy = cute.make_tiled_copy_tv(cute.make_copy_atom(cute.nvgpu.CopyUniversalOp(), cutlass.BFloat16,
                                                           num_bits_per_copy=128),
                                       cute.make_layout((8, 8), stride=(8, 1)), cute.make_layout((1, 8), stride=(0, 1)))
        thr = copy.get_slice(tidx)
        thr.partition_D(tile)
        thr.partition_S(cute.make_identity_tensor((32, 64)))
        in_layout = cute.make_tensor(cute.recast_ptr(plain.iterator, dtype=cutlass.BFloat16),
                                     cute.make_composed_layout(cute.make_swizzle(3, 4, 3), 0, atom_layout))
        stand_in.transpose_view(tile)
        stand_in.transpose_view(in_layout)
        in_layout[(1, 0)] = g[0]
        in_layout[(2, 8)] = g[1]
        cute.arch.sync_threads()
        g[2] = plain[5]

    @cute.jit
    def launch(p: cute.Pointer):
        probe(cute.make_tensor(p, cute.make_layout(8))).launch(grid=[1, 1, 1], block=[64, 1, 1], smem=4096)

    controls = []
    if perturb_view:
        def other_strides(arguments):
            # The first view is made of the tile with its strides exchanged, (8,64):(1,8),
            # while the decision keeps the tile asked for.
            tile = arguments["a"]
            arguments["a"] = cute.make_tensor(tile.iterator, cute.make_layout((8, 64), stride=(1, 8)))
        controls.append(Perturbation("transpose_view", "the viewed tile's strides exchanged", other_strides))
    with Tracer(controls) as t:
        t.section("partition probe")
        cute.compile(launch, make_ptr(cutlass.BFloat16, 16, cute.AddressSpace.gmem, assumed_align=16),
                     options="--gpu-arch sm_90a")
    with open(os.path.join(out_dir, "trace.json"), "w") as f:
        f.write(t.trace.to_json())
    lines = [line.strip() for ptx in glob.glob(os.path.join(out_dir, "*.ptx")) for line in open(ptx)
             if "st.shared" in line]
    with open(os.path.join(out_dir, "smem_accesses.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
