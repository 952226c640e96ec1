#!/usr/bin/env python3
"""Where FlashAttention's K tile lands in shared memory, read back from the hardware.

    placement.py --out FILE.json.gz [--configs NAME...]

FlashAttention's SM90 forward builds K's SMEM layout with quack's make_smem_layout(dtype,
ROW_MAJOR, (tile_n, hdim), stages) and K's TMA atom with cpasync.make_tiled_tma_atom over the
(seqlen, hdim, heads, batch) GMEM tensor (hdim contiguous, the rest run-time), one stage as the
box. This program makes the same two calls with the parameters FA chose for each configuration
(recorded in gpu/flash/traces), loads the first `stages` K tiles of head 1, batch 0 into the
stages with that TMA atom in a one-CTA kernel of its own, and copies the raw shared memory out
(no swizzle applied on the way out). GMEM holds element ids (the 16-bit pattern
((row * hdim + col) mod 65521)), so the dump says which GMEM element each SMEM slot received.
placement_check.py compares each slot with the model's layout; this program only runs the
hardware and writes FILE (JSON, gzip): per configuration the calls' parameters and the dump.

Needs torch, an SM90 GPU, the CuTe DSL and quack (exit 77 with the reason otherwise).
"""
import argparse
import base64
import gzip
import json
import sys
import time

# name: (dtype, tile_n, hdim, stages), as FA chose them (traces/flash_trace.json.gz, forward).
CONFIGS = {
    "bf16-d64": ("bf16", 128, 64, 2),
    "bf16-d96": ("bf16", 144, 96, 2),
    "bf16-d128": ("bf16", 128, 128, 2),
    "bf16-d192": ("bf16", 112, 192, 2),
    "bf16-d256": ("bf16", 80, 256, 2),
    "f16-d128": ("f16", 128, 128, 2),
}
ID_MODULUS = 65521
HEADS, BATCH, SEQLEN = 2, 1, 512


def element_id(row, col, hdim):
    return (row * hdim + col) % ID_MODULUS


def skip(reason):
    print(f"placement: skipped: {reason}")
    sys.exit(77)


def build(cfg):
    """The @cute.jit launcher for configuration CFG and a dict that receives the DSL's printout
    of the SMEM layout at compile time. Needs the DSL and quack, not torch or a GPU."""
    import cutlass
    import cutlass.cute as cute
    import quack.sm90_utils as quack_sm90
    from cutlass.cute.nvgpu import cpasync
    from cutlass.memory import SmemAllocator
    from cutlass.tensor_utils import LayoutEnum
    dt, tile_n, D, stages = cfg
    dtype = cutlass.BFloat16 if dt == "bf16" else cutlass.Float16
    threads = 128
    shared = {}

    @cute.kernel
    def load_k(tma_atom: cute.CopyAtom, mK: cute.Tensor, s_layout: cute.ComposedLayout, out: cute.Tensor):
        tidx, _, _ = cute.arch.thread_idx()
        smem = SmemAllocator()
        cosize = cute.cosize(s_layout.outer)
        raw = smem.allocate_array(dtype, cosize, byte_alignment=1024)
        bar = smem.allocate_array(cutlass.Int64, 1, byte_alignment=8)
        sK = cute.make_tensor(cute.recast_ptr(raw, swizzle_=s_layout.inner), s_layout.outer)
        flat = cute.make_tensor(raw, cute.make_layout(cosize))
        if tidx == 0:
            cute.arch.mbarrier_init(bar, 1)
        cute.arch.mbarrier_init_fence()
        cute.arch.sync_threads()
        gK = cute.local_tile(mK[None, None, 1, 0], (tile_n, D), (None, 0))
        tKsK, tKgK = cpasync.tma_partition(tma_atom, 0, cute.make_layout(1), cute.group_modes(sK, 0, 2),
                                           cute.group_modes(gK, 0, 2))
        for s in cutlass.range_constexpr(stages):
            if tidx == 0:
                cute.arch.mbarrier_arrive_and_expect_tx(bar, tile_n * D * (dtype.width // 8))
                cute.copy(tma_atom, tKgK[None, s], tKsK[None, s], tma_bar_ptr=bar)
            cute.arch.mbarrier_wait(bar, s % 2)
        cute.arch.sync_threads()
        for i in cutlass.range_constexpr(cute.size(flat) // threads):
            out[tidx + threads * i] = flat[tidx + threads * i]

    @cute.jit
    def launch(pk: cute.Pointer, pout: cute.Pointer, seqlen: cutlass.Int32, heads: cutlass.Int32, batch: cutlass.Int32):
        mK = cute.make_tensor(pk, cute.make_layout((seqlen, D, heads, batch), stride=(heads * D, 1, D, seqlen * heads * D)))
        # FA's two calls (flash_fwd_sm90: K's SMEM layout, then K's TMA atom over one stage).
        sK_layout = quack_sm90.make_smem_layout(dtype, LayoutEnum.ROW_MAJOR, (tile_n, D), stages)
        tma_atom, mK_tma = cpasync.make_tiled_tma_atom(cpasync.CopyBulkTensorTileG2SOp(), mK,
                                                       cute.select(sK_layout, mode=[0, 1]), (tile_n, D), 1)
        shared["layout"] = str(sK_layout)
        cosize = cute.cosize(sK_layout.outer)
        out = cute.make_tensor(pout, cute.make_layout(cosize))
        load_k(tma_atom, mK_tma, sK_layout, out).launch(grid=[1, 1, 1], block=[threads, 1, 1],
                                                        smem=cosize * (dtype.width // 8) + 1024 + 64)

    return launch, shared, dtype


def compile_only(cfg):
    """Compiles configuration CFG for sm_90a without a GPU (placement's own test)."""
    import cutlass
    import cutlass.cute as cute
    from cutlass.cute.runtime import make_ptr
    launch, shared, dtype = build(cfg)
    ptrs = [make_ptr(dtype, 16, cute.AddressSpace.gmem, assumed_align=16) for _ in range(2)]
    cute.compile(launch, *ptrs, cutlass.Int32(SEQLEN), cutlass.Int32(HEADS), cutlass.Int32(BATCH),
                 options="--gpu-arch sm_90a")
    return shared["layout"]


def run_one(torch, name, cfg):
    """Compiles, runs and dumps configuration CFG on the GPU."""
    import cutlass
    import cutlass.cute as cute
    from cutlass.cute.runtime import make_ptr
    dt, tile_n, D, stages = cfg
    launch, shared, dtype = build(cfg)
    rows = SEQLEN
    ids = torch.full((BATCH, SEQLEN, HEADS, D), -1, dtype=torch.int32)  # (batch, seqlen, heads, hdim): FA's order
    r = torch.arange(rows).view(-1, 1)
    c = torch.arange(D).view(1, -1)
    ids[0, :, 1, :] = (r * D + c) % ID_MODULUS
    k = ids.to(torch.int16).to("cuda")  # the bit patterns, carried as 16-bit elements
    cos = tile_n * D * stages + 4096
    out = torch.full((cos,), -1, dtype=torch.int16, device="cuda")
    ptr = lambda t: make_ptr(dtype, t.data_ptr(), cute.AddressSpace.gmem, assumed_align=16)  # noqa: E731
    t0 = time.time()
    compiled = cute.compile(launch, ptr(k), ptr(out), cutlass.Int32(SEQLEN), cutlass.Int32(HEADS), cutlass.Int32(BATCH),
                            options="--gpu-arch sm_90a")
    compiled(ptr(k), ptr(out), cutlass.Int32(SEQLEN), cutlass.Int32(HEADS), cutlass.Int32(BATCH))
    torch.cuda.synchronize()
    dump = out.cpu().numpy().astype("<u2").tobytes()
    return {"dtype": dt, "tile_n": tile_n, "hdim": D, "stages": stages, "id_modulus": ID_MODULUS,
            "dsl_layout": shared.get("layout"), "wall_s": round(time.time() - t0, 2),
            "dump_u16_le_b64": base64.b64encode(dump).decode()}


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--configs", nargs="*", default=list(CONFIGS))
    try:
        args = ap.parse_args(argv)
    except SystemExit as e:
        sys.exit(64 if e.code == 2 else e.code)
    unknown = [n for n in args.configs if n not in CONFIGS]
    if unknown:
        print(f"placement: unknown configurations {unknown}; known: {list(CONFIGS)}", file=sys.stderr)
        return 64
    try:
        import torch
    except ImportError:
        skip("torch is not installed")
    if not torch.cuda.is_available() or torch.cuda.get_device_capability() != (9, 0):
        skip("no compute capability 9.0 GPU")
    try:
        import quack.sm90_utils  # noqa: F401
        import cutlass.cute  # noqa: F401
    except ImportError as e:
        skip(f"the CuTe DSL or quack is not importable ({e})")
    result, failed = {}, 0
    for name in args.configs:
        try:
            result[name] = run_one(torch, name, CONFIGS[name])
            print(f"placement {name}: dumped {len(result[name]['dump_u16_le_b64']) * 3 // 8} bytes "
                  f"({result[name]['wall_s']} s)", flush=True)
        except Exception as e:  # noqa: BLE001
            failed += 1
            import traceback
            result[name] = {"error": f"{type(e).__name__}: {e}", "traceback": traceback.format_exc()[-3000:]}
            print(f"placement {name}: FAILED {result[name]['error']}\n{result[name]['traceback']}", flush=True)
    with gzip.open(args.out, "wt") as f:
        json.dump({"format": "cuteref placement dump 1", "heads": HEADS, "batch": BATCH, "seqlen": SEQLEN,
                   "configs": result}, f)
    print(f"placement: {len(result) - failed} dumped, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
