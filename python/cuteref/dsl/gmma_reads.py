"""The shared-memory wavefronts of a WGMMA's own operand reads (A of SS, B of SS and RS: the
tensor core reads them from shared memory through the GMMA descriptor), counted by the model
under a stated access model. It is the model's count, not a hardware one: the hardware has no
per-WGMMA bank counter that the project has measured.

The access model (ACCESS_MODEL, printed in every report):
- an operand tile in (MN, K) form is read as core matrices of 8 rows x 16 bytes: for a
  K-major operand a row is 16 bytes of K (T = 128 / bits elements) at one MN index, the 8 rows
  8 consecutive MN indices; for an MN-major operand a row is T elements of MN at one K index,
  the 8 rows 8 consecutive K indices;
- each core matrix is one 128-byte request, counted as the model counts one 8-row matrix of
  ldmatrix.x1 (`smem_wavefronts(ldmatrix.x1, ROWS, BITS)`, model/atoms/smem_banks.hpp: the
  largest number of distinct 4-byte words that any one of the 32 banks holds among the bytes of
  its 8 rows, at least 1; the rule whose counts agree with the hardware's counters for ldmatrix
  on the H200, gpu/RESULTS.md). The rule is the model's, not restated here: this module only
  gathers each core matrix's 8 row addresses;
- a wgmma's count is the sum over the core matrices of its block (64 or N rows of MN, 32
  bytes of K), its ideal the block's bytes / 128 (one wavefront per core matrix); a stage's
  count is the sum over every core matrix of the tile read once, its ideal the tile's bytes /
  128 (a tiled MMA of several warpgroups reads a shared operand once per warpgroup, each read
  with the same count).
Byte addresses are the model's SMEM layout (the swizzle on byte addresses) over a 1024-byte
aligned buffer, as the GMMA atoms require.
"""
from typing import Dict, Optional, Tuple

import cuteref

from . import model

ACCESS_MODEL = ("the model's count, not a hardware counter: each core matrix (8 rows x 16 bytes) one 128-byte "
                "request, counted as smem_wavefronts(ldmatrix.x1, its 8 rows, BITS) (the most distinct 4-byte words one "
                "of the 32 banks holds); ideal = bytes / 128")

_cache: Dict[tuple, dict] = {}  # (tile, bits, major, block) -> count


def contiguous_mode(view) -> Optional[int]:
    """The mode of a 2-mode layout (element offsets) in which one step moves one element from
    the origin: 0 (MN-major), 1 (K-major), or None."""
    origin = int(view(0, 0))
    for mode in (1, 0):
        if int(model.product_each(view)[mode]) > 1 and int(view(*((0, 1) if mode else (1, 0)))) == origin + 1:
            return mode
    return None


def core_matrix_wavefronts(view, bits: int, major: str, block: Optional[Tuple[int, int]] = None) -> dict:
    """The access model's count for the (MN, K) tile VIEW (a model value giving element
    offsets) of BITS-bit elements read as a MAJOR ('K' or 'MN') GMMA operand; BLOCK, one
    wgmma's (MN, K) extents, also gives the count of the costliest wgmma.
    Pre (checked, cuteref.Error naming it): bits divides 128 and is a multiple of 8; the
    extents are whole core matrices (the strided extent a multiple of 8, the contiguous one of
    T), and whole blocks when BLOCK is given (its extents whole core matrices too).
    Post: {core_matrices, wavefronts, ideal, worst} with ideal = bytes / 128 and worst the most
    wavefronts of one core matrix; with BLOCK also blocks, block_worst (the most wavefronts of
    one wgmma) and block_ideal (its bytes / 128).
    Also pre (checked): each core-matrix row is 16 contiguous bytes aligned to 16 (as a GMMA
    descriptor's core matrix is)."""
    if bits % 8 or 128 % bits:
        raise cuteref.Error(f"a {bits}-bit element does not tile a 16-byte core matrix row")
    if major not in ("K", "MN"):
        raise cuteref.Error(f"majorness {major!r}: K or MN")
    key = (str(view), bits, major, block)
    if key in _cache:
        return _cache[key]
    t = 128 // bits
    ext_mn, ext_k = model.product_each(view)[:2]
    rows_ext, cols_ext = (ext_mn, ext_k) if major == "K" else (ext_k, ext_mn)
    if rows_ext % 8 or cols_ext % t:
        raise cuteref.Error(f"the {major}-major tile ({ext_mn},{ext_k}) is not whole core matrices of 8 x {t} elements")
    if block is not None:
        b_rows, b_cols = block if major == "K" else (block[1], block[0])
        if ext_mn % block[0] or ext_k % block[1] or b_rows % 8 or b_cols % t:
            raise cuteref.Error(f"the tile ({ext_mn},{ext_k}) is not whole wgmma blocks {block} of whole core matrices")
    nbytes = bits // 8
    # Each core matrix's 8 row starts (element offsets), its rows checked to be contiguous;
    # the model counts them all in one batch.
    where_of, calls = [], []
    for g in range(rows_ext // 8):
        for c in range(cols_ext // t):
            starts = []
            for r in range(8):
                row = 8 * g + r
                at = [int(view(*((row, c * t + e) if major == "K" else (c * t + e, row)))) for e in range(t)]
                if at != list(range(at[0], at[0] + t)):
                    raise cuteref.Error(f"core matrix ({g},{c}) of the {major}-major tile: row {r} is not 16 contiguous "
                                        f"bytes (element offsets {at})")
                starts.append(at[0])
            where_of.append((8 * g, c * t))
            calls.append(f"smem_wavefronts(ldmatrix.x1, ({','.join(map(str, starts))}), {bits})")
    total, worst, count = 0, 0, 0
    per_block: Dict[Tuple[int, int], int] = {}
    for (row, col), w in zip(where_of, cuteref.batch(calls)):
        if isinstance(w, cuteref.Error):
            raise cuteref.Error(f"core matrix at (row {row}, column {col}) of the {major}-major tile: {w.diagnostic}")
        w = int(w)
        total, worst, count = total + w, max(worst, w), count + 1
        if block is not None:
            where = (row // b_rows, col // b_cols)
            per_block[where] = per_block.get(where, 0) + w
    out = {"core_matrices": count, "wavefronts": total, "ideal": ext_mn * ext_k * nbytes // 128, "worst": worst}
    if block is not None:
        out.update(blocks=len(per_block), block_worst=max(per_block.values()),
                   block_ideal=block[0] * block[1] * nbytes // 128)
    _cache[key] = out
    return out


def descriptor(view, bits: int, mn_atom: int, k_atom: int) -> str:
    """The model's GMMA descriptor (make_gmma_desc: gmma_desc) of the first wgmma's block of
    the tile, the (MN_ATOM, K_ATOM) tile at the origin, or why the model derives none."""
    call = f"gmma_desc(composition({view}, ({mn_atom},{k_atom})), {bits})"
    try:
        fields = model.literal(cuteref.eval(call))
    except cuteref.Error as e:
        return f"no descriptor for the first wgmma block ({mn_atom},{k_atom}): {e.diagnostic}"
    kinds = {0: "INTERLEAVE", 1: "SW128", 2: "SW64", 3: "SW32"}
    start, lbo, sbo, base, kind = fields
    return (f"{call} = {model.tup(fields)} (start {start * 16} B, LBO {lbo * 16} B, SBO {sbo * 16} B, base offset "
            f"{base}, {kinds.get(kind, kind)})")
