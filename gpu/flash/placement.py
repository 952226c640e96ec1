#!/usr/bin/env python3
"""Where FlashAttention's operand tiles land in shared memory, read back from the hardware.

    placement.py --out FILE.json.gz [--configs NAME...] [--tensors Q K V]
    placement.py --backward --out FILE.json.gz [--configs NAME...] [--tensors Q dO K V]
    placement.py --stores --out FILE.json.gz [--configs NAME...] [--tensors O]
    placement.py --backward --stores --out FILE.json.gz [--configs NAME...] [--tensors dK dV]

FlashAttention's SM90 forward builds each operand's SMEM layout with quack's
make_smem_layout(dtype, ROW_MAJOR, (tile, hdim), stages) (Q: one tile, no stage mode; K and V:
`stages` tiles) and its TMA atom with cpasync.make_tiled_tma_atom over the (seqlen, hdim,
heads, batch) GMEM tensor (hdim contiguous): Q's over its whole SMEM layout, K's and V's over
one stage. Its producer warp issues each load through quack's tma_get_copy_fn. This program
makes the same calls with the parameters FA chose for each configuration (recorded in
gpu/flash/traces/flash_trace.json.gz, forward), in a one-CTA kernel of its own per tensor: one
warp loads Q's tile of block Q_BLOCK, or K's (V's) tiles of blocks KV_BLOCKS into the stages, of
head HEAD, batch BATCH_INDEX; then every thread copies the raw shared memory out (no swizzle on
the way out). GMEM holds element ids in that (head, batch) slice, the 16-bit pattern
((row * hdim + col) mod 65521), and OTHER_SLICE elsewhere; shared memory is filled with
SMEM_POISON before the loads. So the dump says which GMEM element each SMEM slot received.

The loads are waited for with a bounded poll (MAX_POLLS mbarrier tests per load): a load that
never completes is reported in `completed`, never a hang. The TMA copy is issued by a whole warp:
the DSL's TMA copy elects its issuing lane with elect.sync over the full warp, so issuing it from
one thread (`if tidx == 0`) deadlocks that warp.

--backward does the same for FlashAttention's SM90 backward (flash_bwd_sm90, parameters from the
trace's backward sections): Q and dO with make_smem_layout(dtype, ROW_MAJOR, (tile_m, hdim),
Q_stage or dO_stage, major_mode_size) (the size that lets the same tile serve as Q and Q^T), K
with (tile_n, hdim), no stage and its own major_mode_size, V with (tile_n, hdim) and neither;
each TMA atom over the first two modes of its layout; Q and dO loaded per m-block into their
stages (M_BLOCKS, ascending as FA's loop), K and V once (N_BLOCK, tma_get_copy_fn(...,
single_stage=True)). LSE and dPsum are not loaded here: FA moves them with 1-D bulk copies
(cpasync_bulk_get_copy_fn), not TMA tiles of an SMEM layout.

--stores reads back the epilogues' TMA stores (shared memory to GMEM) instead: the forward's O
(make_smem_layout(dtype, ROW_MAJOR, (tile_m, hdim)), no stage, the atom made with
CopyBulkTensorTileS2GOp over the whole layout; FA's sO is the same layout as sQ) and the
backward's dK and dV, which FA stores from sK's and sV's buffers through their layouts (K's
with its major_mode_size), each atom over modes 0 and 1. Every slot of the tile's 1024-byte
aligned buffer holds its own slot index (plain 16-bit shared-memory stores over the raw buffer,
not through the layout under test); then fence.proxy.async.shared::cta (FA's
fence_view_async_shared), a barrier, and one warp issues the store through tma_get_copy_fn(...,
single_stage=True) to tile O_BLOCK (dK, dV: N_BLOCK) of head HEAD, batch BATCH_INDEX, commits
the bulk group and waits for it (cp.async.bulk.wait_group 0: the writes done, not only the
reads). GMEM is GMEM_POISON everywhere before; the whole GMEM tensor is dumped, so the dump says
which slot each GMEM element received and that nothing outside the tile was written.

placement_check.py compares each slot with the model's layout; this program only runs the
hardware and writes FILE (JSON, gzip): per configuration and tensor, the calls' parameters, the
DSL's printout of the SMEM layout, which loads (the store) completed, and the dump. Exit 0
when every kernel ran and every load or store completed, 1 otherwise, 64 for a bad command
line. A store's bulk-group wait has no bounded form: a store that never completes stops the
program, so run --stores under a timeout (meson's, or `timeout`).

Needs torch, an SM90 GPU, the CuTe DSL and quack (exit 77 with the reason otherwise).
"""
import argparse
import base64
import gzip
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sm90_environment import require_sm90, skip as _skip  # noqa: E402

# name: (dtype, hdim, tile_m (Q), tile_n (K and V), stages), as FA chose them (forward).
CONFIGS = {
    "bf16-d64": ("bf16", 64, 192, 128, 2),
    "bf16-d96": ("bf16", 96, 192, 144, 2),
    "bf16-d128": ("bf16", 128, 128, 128, 2),
    "bf16-d192": ("bf16", 192, 128, 112, 2),
    "bf16-d256": ("bf16", 256, 128, 80, 2),
    "f16-d128": ("f16", 128, 128, 128, 2),
}
TENSORS = ("Q", "K", "V")
# name: (dtype, hdim, tile_m (Q, dO), tile_n (K, V), Q_stage, dO_stage, major_mode_size of Q and
# dO, of K), as FA's backward chose them (V's make_smem_layout has no major_mode_size).
BACKWARD_CONFIGS = {
    "bwd-bf16-d64": ("bf16", 64, 128, 128, 2, 2, 64, 64),
    "bwd-bf16-d96": ("bf16", 96, 64, 128, 2, 2, 96, 96),
    "bwd-bf16-d128": ("bf16", 128, 80, 128, 2, 2, 128, 64),
    "bwd-bf16-d128-causal": ("bf16", 128, 64, 128, 2, 2, 128, 64),
    "bwd-bf16-d192": ("bf16", 192, 64, 96, 2, 1, 192, 96),
    "bwd-bf16-d256": ("bf16", 256, 64, 48, 2, 1, 128, 128),
    "bwd-f16-d128": ("f16", 128, 80, 128, 2, 2, 128, 64),
}
BACKWARD_TENSORS = ("Q", "dO", "K", "V")
# The epilogues' TMA stores and the load whose SMEM layout and TMA atom shape each one shares:
# FA's sO is make_smem_layout over (tile_m, hdim) as sQ; dK and dV leave through sK and sV.
STORE_TENSORS = ("O",)
BACKWARD_STORE_TENSORS = ("dK", "dV")
STORE_LAYOUT_OF = {"O": "Q", "dK": "K", "dV": "V"}
ID_MODULUS = 65521
OTHER_SLICE = 0xFFFF  # GMEM outside the loaded (head, batch) slice: never an id (ids < 65521)
SMEM_POISON = 0xFFFE  # shared memory before the loads
OUT_POISON = 0xFFFD  # the output buffer before the copy out
GMEM_POISON = 0xFFFC  # the stores' GMEM before the store: never a slot index (cosize < 2^15)
HEADS, BATCHES, SEQLEN = 2, 2, 512
HEAD, BATCH_INDEX = 1, 1
Q_BLOCK = 1  # Q's tile: rows [tile_m, 2 tile_m)
KV_BLOCKS = (2, 1)  # stage s holds K's (V's) tile KV_BLOCKS[s], in the descending order FA loads
M_BLOCKS = (1, 2)  # backward: stage s holds Q's (dO's) tile M_BLOCKS[s], ascending as FA loads
N_BLOCK = 2  # backward: K's and V's tile, and the dK and dV tiles stored
O_BLOCK = 1  # forward: O's tile stored (rows [tile_m, 2 tile_m))
THREADS = 128
MAX_POLLS = 1 << 24


def element_id(row, col, hdim):
    return (row * hdim + col) % ID_MODULUS


def skip(reason):
    _skip("placement", reason)


def is_backward(cfg):
    return len(cfg) == 8


def tensor_plan(cfg, tensor):
    """(tile rows, stages or None, the GMEM tile index each stage receives (a store: the one
    tile it writes), major_mode_size or None) of TENSOR in configuration CFG (forward or
    backward)."""
    if tensor in STORE_LAYOUT_OF:
        tile, stages, _, mms = tensor_plan(cfg, STORE_LAYOUT_OF[tensor])
        assert stages is None, "FA's stores leave from one unstaged tile"
        return tile, None, ((N_BLOCK,) if is_backward(cfg) else (O_BLOCK,)), mms
    if is_backward(cfg):
        _, _, tile_m, tile_n, q_stage, do_stage, mms_q, mms_k = cfg
        if tensor in ("Q", "dO"):
            stages = q_stage if tensor == "Q" else do_stage
            return tile_m, stages, M_BLOCKS[:stages], mms_q
        return tile_n, None, (N_BLOCK,), (mms_k if tensor == "K" else None)
    _, _, tile_m, tile_n, stages = cfg
    if tensor == "Q":
        return tile_m, None, (Q_BLOCK,), None
    return tile_n, stages, KV_BLOCKS[:stages], None


def build(cfg, tensor, one_thread=False):
    """The @cute.jit launcher loading TENSOR's tiles of configuration CFG, and a dict that
    receives the DSL's printout of the SMEM layout at compile time. Needs the DSL and quack,
    not torch or a GPU. ONE_THREAD issues the loads from thread 0 alone instead of warp 0 (the
    earlier version of this program, which hung: --one-thread-issue)."""
    import cutlass
    import cutlass.cute as cute
    import quack.copy_utils as quack_copy
    from cutlass.cute.nvgpu import cpasync
    from cutlass.memory import SmemAllocator
    dt, D = cfg[0], cfg[1]
    backward = is_backward(cfg)
    tile, stages, blocks, mms = tensor_plan(cfg, tensor)
    dtype = cutlass.BFloat16 if dt == "bf16" else cutlass.Float16
    loads = len(blocks)
    shared = {}

    @cute.kernel
    def load_tiles(tma_atom: cute.CopyAtom, mX: cute.Tensor, s_layout: cute.ComposedLayout,
                   out: cute.Tensor, completed: cute.Tensor):
        tidx, _, _ = cute.arch.thread_idx()
        warp = cute.arch.make_warp_uniform(cute.arch.warp_idx())
        smem = SmemAllocator()
        cosize = cute.cosize(s_layout.outer)
        raw = smem.allocate_array(dtype, cosize, byte_alignment=1024)
        bars = smem.allocate_array(cutlass.Int64, loads, byte_alignment=8)
        sX = cute.make_tensor(cute.recast_ptr(raw, swizzle_=s_layout.inner), s_layout.outer)
        flat = cute.make_tensor(cute.recast_ptr(raw, dtype=cutlass.Uint16), cute.make_layout(cosize))
        for i in cutlass.range(cosize // THREADS):
            flat[tidx + THREADS * i] = cutlass.Uint16(SMEM_POISON)
        if tidx == 0:
            for s in cutlass.range_constexpr(loads):
                cute.arch.mbarrier_init(bars + s, 1)
        cute.arch.mbarrier_init_fence()
        # The poison (generic proxy) is ordered before the TMA's writes (async proxy).
        cute.arch.fence_proxy("async.shared", space="cta")
        cute.arch.sync_threads()
        mX_cur = mX[None, None, HEAD, BATCH_INDEX]
        issuing = (tidx == 0) if one_thread else (warp == 0)
        if issuing:
            if cutlass.const_expr(stages is None):
                # FA's forward Q, backward K and V: one tile, tma_get_copy_fn(..., single_stage=True).
                gX = cute.local_tile(mX_cur, (tile, D), (blocks[0], 0))
                copy_q, _, _ = quack_copy.tma_get_copy_fn(tma_atom, 0, cute.make_layout(1), gX, sX,
                                                          single_stage=True)
                with cute.arch.elect_one():
                    cute.arch.mbarrier_arrive_and_expect_tx(bars, cute.size_in_bytes(dtype, s_layout))
                copy_q(tma_bar_ptr=bars)
            else:
                # FA's forward K and V, backward Q and dO: the tiles along seqlen, one stage each.
                gX = cute.local_tile(mX_cur, (tile, D), (None, 0))
                copy_kv, _, _ = quack_copy.tma_get_copy_fn(tma_atom, 0, cute.make_layout(1), gX, sX)
                for s in cutlass.range_constexpr(loads):
                    with cute.arch.elect_one():
                        cute.arch.mbarrier_arrive_and_expect_tx(
                            bars + s, cute.size_in_bytes(dtype, cute.select(s_layout, mode=[0, 1])))
                    copy_kv(blocks[s], s, tma_bar_ptr=bars + s)
        for s in cutlass.range_constexpr(loads):
            done = cutlass.Int32(0)
            polls = cutlass.Int32(0)
            while polls < MAX_POLLS:
                if cute.arch.mbarrier_test_wait(bars + s, 0):
                    done = cutlass.Int32(1)
                    polls = cutlass.Int32(MAX_POLLS)
                polls = polls + 1
            if tidx == 0:
                completed[s] = done
        cute.arch.sync_threads()
        for i in cutlass.range(cosize // THREADS):
            out[tidx + THREADS * i] = flat[tidx + THREADS * i]

    @cute.jit
    def launch(px: cute.Pointer, pout: cute.Pointer, pcompleted: cute.Pointer,
               seqlen: cutlass.Int32, heads: cutlass.Int32, batches: cutlass.Int32):
        # FA's (seqlen, hdim, heads, batch) view of the (batch, seqlen, heads, hdim) tensor.
        mX = cute.make_tensor(px, cute.make_layout((seqlen, D, heads, batches),
                                                   stride=(heads * D, 1, D, seqlen * heads * D)))
        op = cpasync.CopyBulkTensorTileG2SOp()
        s_layout, tma_layout = fa_tile_layouts(dtype, tile, D, stages, mms, backward)
        if cutlass.const_expr(backward or stages is None):
            tma_atom, mX_tma = cpasync.make_tiled_tma_atom(op, mX, tma_layout, (tile, D))
        else:
            tma_atom, mX_tma = cpasync.make_tiled_tma_atom(op, mX, tma_layout, (tile, D), 1)
        shared["layout"] = str(s_layout)
        shared["tma_layout"] = str(tma_layout)
        cosize = cute.cosize(s_layout.outer)
        shared["cosize"] = cosize
        out = cute.make_tensor(pout, cute.make_layout(cosize))
        completed = cute.make_tensor(pcompleted, cute.make_layout(loads))
        load_tiles(tma_atom, mX_tma, s_layout, out, completed).launch(
            grid=[1, 1, 1], block=[THREADS, 1, 1], smem=cosize * (dtype.width // 8) + 1024 + 8 * loads + 64)

    return launch, shared


def fa_tile_layouts(dtype, tile, hdim, stages, mms, backward):
    """FA's SM90 SMEM layout for a (tile, hdim) tile (quack's make_smem_layout, with FA's
    major_mode_size where it passes one) and the layout its TMA atom is made over: the whole
    layout for the forward's unstaged tiles (Q, sO), modes 0 and 1 for the forward's staged K
    and V and for every tile of the backward. Called while a @cute.jit function is traced."""
    import cutlass.cute as cute
    import quack.sm90_utils as quack_sm90
    from cutlass.tensor_utils import LayoutEnum
    extra = {} if mms is None else {"major_mode_size": mms}
    s_layout = quack_sm90.make_smem_layout(dtype, LayoutEnum.ROW_MAJOR, (tile, hdim), stages, **extra)
    return s_layout, (s_layout if not backward and stages is None else cute.select(s_layout, mode=[0, 1]))


def build_store(cfg, tensor):
    """The @cute.jit launcher storing TENSOR's tile (O, dK or dV) of configuration CFG from
    shared memory to GMEM by FA's TMA store, each slot holding its own index; and a dict that
    receives the DSL's printout of the SMEM layout at compile time."""
    import cutlass
    import cutlass.cute as cute
    import quack.copy_utils as quack_copy
    from cutlass.cute.nvgpu import cpasync
    from cutlass.memory import SmemAllocator
    dt, D = cfg[0], cfg[1]
    backward = is_backward(cfg)
    tile, stages, blocks, mms = tensor_plan(cfg, tensor)
    dtype = cutlass.BFloat16 if dt == "bf16" else cutlass.Float16
    if (tile * D) % THREADS:
        raise ValueError(f"placement: the {tile} x {D} tile of {tensor} is not a multiple of {THREADS} slots")
    shared = {}

    @cute.kernel
    def store_tile(tma_atom: cute.CopyAtom, mX: cute.Tensor, s_layout: cute.ComposedLayout,
                   completed: cute.Tensor):
        tidx, _, _ = cute.arch.thread_idx()
        warp = cute.arch.make_warp_uniform(cute.arch.warp_idx())
        smem = SmemAllocator()
        cosize = cute.cosize(s_layout.outer)
        raw = smem.allocate_array(dtype, cosize, byte_alignment=1024)
        sX = cute.make_tensor(cute.recast_ptr(raw, swizzle_=s_layout.inner), s_layout.outer)
        # Each slot's own index, by plain stores over the raw buffer (not through the layout).
        flat = cute.make_tensor(cute.recast_ptr(raw, dtype=cutlass.Uint16), cute.make_layout(cosize))
        for i in cutlass.range(cosize // THREADS):
            slot = tidx + THREADS * i
            flat[slot] = cutlass.Uint16(slot)
        # The slots (generic proxy) are ordered before the TMA's reads (async proxy), as FA's
        # epilogues fence before their stores.
        cute.arch.fence_view_async_shared()
        cute.arch.sync_threads()
        mX_cur = mX[None, None, HEAD, BATCH_INDEX]
        if warp == 0:
            # FA issues its epilogue stores from a whole warp (warp 4) with
            # tma_get_copy_fn(atom, 0, make_layout(1), sX, gX, single_stage=True).
            gX = cute.local_tile(mX_cur, (tile, D), (blocks[0], 0))
            store, _, _ = quack_copy.tma_get_copy_fn(tma_atom, 0, cute.make_layout(1), sX, gX,
                                                     single_stage=True)
            store()
            cute.arch.cp_async_bulk_commit_group()
            # Without .read: the GMEM writes done, not only shared memory's reads.
            cute.arch.cp_async_bulk_wait_group(0)
            if tidx == 0:
                completed[0] = cutlass.Int32(1)

    @cute.jit
    def launch(px: cute.Pointer, pcompleted: cute.Pointer,
               seqlen: cutlass.Int32, heads: cutlass.Int32, batches: cutlass.Int32):
        mX = cute.make_tensor(px, cute.make_layout((seqlen, D, heads, batches),
                                                   stride=(heads * D, 1, D, seqlen * heads * D)))
        op = cpasync.CopyBulkTensorTileS2GOp()
        # flash_bwd_sm90: dK through sK's layout (its major_mode_size), dV through sV's;
        # flash_fwd_sm90: sO's layout.
        s_layout, tma_layout = fa_tile_layouts(dtype, tile, D, stages, mms, backward)
        tma_atom, mX_tma = cpasync.make_tiled_tma_atom(op, mX, tma_layout, (tile, D))
        shared["layout"] = str(s_layout)
        shared["tma_layout"] = str(tma_layout)
        cosize = cute.cosize(s_layout.outer)
        shared["cosize"] = cosize
        completed = cute.make_tensor(pcompleted, cute.make_layout(1))
        store_tile(tma_atom, mX_tma, s_layout, completed).launch(
            grid=[1, 1, 1], block=[THREADS, 1, 1], smem=cosize * (dtype.width // 8) + 1024 + 64)

    return launch, shared


def pointers(cutlass, cute, dtype, x, out, completed):
    """The launcher's pointers: X as the element type (FA's TMA atom is made over it), OUT as
    16-bit patterns, COMPLETED as Int32; a placeholder address for each one that is None
    (compiling only; a store has no OUT)."""
    from cutlass.cute.runtime import make_ptr

    def ptr(kind, t):
        return make_ptr(kind, 16 if t is None else t.data_ptr(), cute.AddressSpace.gmem, assumed_align=16)
    return ptr(dtype, x), ptr(cutlass.Uint16, out), ptr(cutlass.Int32, completed)


def compile_one(cfg, tensor, x=None, out=None, completed=None, one_thread=False):
    """Compiles TENSOR's loader (a store's storer: OUT unused) of configuration CFG for sm_90a
    (no GPU needed without X)."""
    import cutlass
    import cutlass.cute as cute
    store = tensor in STORE_LAYOUT_OF
    launch, shared = build_store(cfg, tensor) if store else build(cfg, tensor, one_thread)
    dtype = cutlass.BFloat16 if cfg[0] == "bf16" else cutlass.Float16
    px, pout, pcompleted = pointers(cutlass, cute, dtype, x, out, completed)
    args = ((px, pcompleted) if store else (px, pout, pcompleted)) + (
        cutlass.Int32(SEQLEN), cutlass.Int32(HEADS), cutlass.Int32(BATCHES))
    return cute.compile(launch, *args, options="--gpu-arch sm_90a"), shared, args


def as_int16(torch, patterns):
    """PATTERNS (int32 in [0, 2^16)) as int16 tensors of the same bits."""
    return torch.where(patterns >= 1 << 15, patterns - (1 << 16), patterns).to(torch.int16)


def run_one(torch, cfg, tensor, one_thread=False):
    """Compiles, runs and dumps TENSOR's loads of configuration CFG on the GPU."""
    dt, D = cfg[0], cfg[1]
    tile, stages, blocks, mms = tensor_plan(cfg, tensor)
    t0 = time.time()
    # The (batch, seqlen, heads, hdim) tensor, FA's order: ids in the loaded slice only.
    ids = torch.full((BATCHES, SEQLEN, HEADS, D), OTHER_SLICE, dtype=torch.int32)
    r = torch.arange(SEQLEN).view(-1, 1)
    c = torch.arange(D).view(1, -1)
    ids[BATCH_INDEX, :, HEAD, :] = (r * D + c) % ID_MODULUS
    x = as_int16(torch, ids).to("cuda")  # the 16-bit patterns, carried as int16
    cosize = tile * D * (stages or 1)
    out = as_int16(torch, torch.full((cosize,), OUT_POISON, dtype=torch.int32)).to("cuda")
    completed = torch.full((len(blocks),), -1, dtype=torch.int32, device="cuda")
    compiled, shared, args = compile_one(cfg, tensor, x, out, completed, one_thread)
    if shared.get("cosize") != cosize:
        raise RuntimeError(f"the DSL's SMEM layout has cosize {shared.get('cosize')}, expected {cosize}")
    compiled(*args)
    torch.cuda.synchronize()
    dump = out.cpu().numpy().astype("<u2").tobytes()
    return {"pass": "backward" if is_backward(cfg) else "forward", "dtype": dt, "tile": tile, "hdim": D,
            "stages": stages, "blocks": list(blocks), "major_mode_size": mms,
            "head": HEAD, "batch": BATCH_INDEX, "id_modulus": ID_MODULUS,
            "dsl_layout": shared.get("layout"), "dsl_tma_layout": shared.get("tma_layout"),
            "completed": completed.cpu().tolist(),
            "wall_s": round(time.time() - t0, 2), "dump_u16_le_b64": base64.b64encode(dump).decode()}


def run_store(torch, cfg, tensor):
    """Compiles, runs and dumps TENSOR's store of configuration CFG on the GPU: the whole GMEM
    tensor after the store."""
    dt, D = cfg[0], cfg[1]
    tile, stages, blocks, mms = tensor_plan(cfg, tensor)
    t0 = time.time()
    # The (batch, seqlen, heads, hdim) tensor, FA's order, poisoned everywhere.
    poison = torch.full((BATCHES, SEQLEN, HEADS, D), GMEM_POISON, dtype=torch.int32)
    x = as_int16(torch, poison).to("cuda")
    completed = torch.full((1,), -1, dtype=torch.int32, device="cuda")
    compiled, shared, args = compile_one(cfg, tensor, x, None, completed)
    if shared.get("cosize") != tile * D:
        raise RuntimeError(f"the DSL's SMEM layout has cosize {shared.get('cosize')}, expected {tile * D}")
    compiled(*args)
    torch.cuda.synchronize()
    dump = x.cpu().numpy().astype("<u2").tobytes()
    return {"pass": "backward" if is_backward(cfg) else "forward", "direction": "store", "dtype": dt,
            "tile": tile, "hdim": D, "stages": stages, "blocks": list(blocks), "major_mode_size": mms,
            "head": HEAD, "batch": BATCH_INDEX, "gmem_shape": [BATCHES, SEQLEN, HEADS, D],
            "gmem_poison": GMEM_POISON,
            "dsl_layout": shared.get("layout"), "dsl_tma_layout": shared.get("tma_layout"),
            "completed": completed.cpu().tolist(),
            "wall_s": round(time.time() - t0, 2), "dump_u16_le_b64": base64.b64encode(dump).decode()}


LOAD_FORMAT = "cuteref placement dump 2"
STORE_FORMAT = "cuteref placement store dump 1"


def write(path, result, fmt=LOAD_FORMAT):
    with gzip.open(path, "wt") as f:
        json.dump({"format": fmt, "heads": HEADS, "batches": BATCHES, "seqlen": SEQLEN,
                   "configs": result}, f)


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--backward", action="store_true",
                    help="FlashAttention's backward loads (configurations bwd-*, tensors Q dO K V)")
    ap.add_argument("--stores", action="store_true",
                    help="the epilogues' TMA stores instead of the loads (forward O; with --backward dK dV)")
    ap.add_argument("--configs", nargs="*", help="default: every configuration of the pass")
    ap.add_argument("--tensors", nargs="*", help="default: every tensor of the pass")
    ap.add_argument("--one-thread-issue", action="store_true",
                    help="issue the loads from thread 0 alone (reproduces the earlier hang: run it under a timeout)")
    ap.add_argument("--compile-only", action="store_true",
                    help="compile every loader (storer) for sm_90a and print the SMEM layouts (no GPU, no torch)")
    try:
        args = ap.parse_args(argv)
    except SystemExit as e:
        sys.exit(64 if e.code == 2 else e.code)
    configs = BACKWARD_CONFIGS if args.backward else CONFIGS
    if args.stores:
        tensors = BACKWARD_STORE_TENSORS if args.backward else STORE_TENSORS
        if args.one_thread_issue:
            print("placement: --one-thread-issue is for the loads, not --stores", file=sys.stderr)
            return 64
    else:
        tensors = BACKWARD_TENSORS if args.backward else TENSORS
    args.configs = list(configs) if args.configs is None else args.configs
    args.tensors = list(tensors) if args.tensors is None else args.tensors
    unknown = [n for n in args.configs if n not in configs] + [t for t in args.tensors if t not in tensors]
    if unknown:
        print(f"placement: unknown {unknown} for the {'backward' if args.backward else 'forward'}"
              f"{' stores' if args.stores else ''}; "
              f"configurations {list(configs)}, tensors {list(tensors)}", file=sys.stderr)
        return 64
    if args.compile_only:
        try:
            import quack.sm90_utils  # noqa: F401
            import cutlass.cute  # noqa: F401
        except ImportError as e:
            skip(f"the CuTe DSL or quack is not importable ({e})")
        for name in args.configs:
            for tensor in args.tensors:
                _, shared, _ = compile_one(configs[name], tensor, one_thread=args.one_thread_issue)
                print(f"placement {name} {tensor}: compiled, SMEM layout {shared['layout']}, "
                      f"TMA atom over {shared['tma_layout']}", flush=True)
        return 0
    torch = require_sm90("placement", ["quack.sm90_utils", "cutlass.cute"], "the CuTe DSL or quack")
    result, failed, ran = {}, 0, 0
    for name in args.configs:
        result[name] = {}
        for tensor in args.tensors:
            ran += 1
            print(f"placement {name} {tensor}: compiling and running", flush=True)
            try:
                if args.stores:
                    one = run_store(torch, configs[name], tensor)
                else:
                    one = run_one(torch, configs[name], tensor, args.one_thread_issue)
                result[name][tensor] = one
                ok = all(v == 1 for v in one["completed"])
                failed += not ok
                print(f"placement {name} {tensor}: {'store' if args.stores else 'loads'} completed "
                      f"{one['completed']}, dumped {len(base64.b64decode(one['dump_u16_le_b64']))} bytes "
                      f"({one['wall_s']} s)", flush=True)
            except Exception as e:  # noqa: BLE001
                failed += 1
                import traceback
                result[name][tensor] = {"error": f"{type(e).__name__}: {e}", "traceback": traceback.format_exc()[-3000:]}
                print(f"placement {name} {tensor}: FAILED {result[name][tensor]['error']}\n"
                      f"{result[name][tensor]['traceback']}", flush=True)
            # After each tensor: a run stopped later keeps what it did.
            write(args.out, result, STORE_FORMAT if args.stores else LOAD_FORMAT)
    print(f"placement: {ran - failed} dumped, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
