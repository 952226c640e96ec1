"""cuteref.dsl, the auditor of CuTe DSL kernels: its trace format, its model side, the audit of
traces recorded from real compiles (here with the DSL when .vendor/dsl has it; on an H200 for
flash-attn-4 and quack, checked in under gpu/flash/traces), and negative controls that must be
caught. Expected verdicts come from the DSL's own output set against the model (and, for the
controls, from a layout the tracer perturbed), never from the audit's output.
"""
import gzip
import json
import os
import subprocess
import sys

import pytest

import cuteref
from conftest import REPORT, SOURCE_DIR
from cuteref import dsl
from cuteref.dsl import model

DSL = os.environ.get("CUTEREF_DSL_PATH", "")
HERE = os.path.dirname(__file__)
TRACES = os.path.join(HERE, "dsl_traces")
H200 = os.path.join(SOURCE_DIR, "gpu", "flash", "traces")
needs_dsl = pytest.mark.skipif(not DSL or not os.path.isdir(DSL), reason="the CuTe DSL is not installed (.vendor/dsl)")


def load(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        return dsl.Trace.from_json(f.read())


def by_section(verdicts):
    out = {}
    for v in verdicts:
        out.setdefault(v.section, []).append(v)
    return out


# ---- the model side, against CuTe's conventions written out by hand --------------------------

def test_atom_kind_is_cutlass_smem_selector():
    # CUTLASS's SM90 selector: SW128 when the contiguous extent is a multiple of 1024 bits, SW64
    # of 512, SW32 of 256, else INTER; 16-bit: 64, 32, 16 elements; 8-bit: 128, 64, 32.
    cases = {("K", 64, 16): "K_SW128", ("K", 192, 16): "K_SW128", ("K", 96, 16): "K_SW64",
             ("K", 32, 16): "K_SW64", ("K", 16, 16): "K_SW32", ("K", 8, 16): "K_INTER",
             ("MN", 128, 8): "MN_SW128", ("MN", 64, 8): "MN_SW64", ("MN", 176, 16): "MN_SW32",
             ("K", 80, 16): "K_SW32"}
    for (major, size, bits), kind in cases.items():
        assert model.atom_kind(major, size, bits) == kind, (major, size, bits)
    REPORT.append(f"cuteref.dsl model side: {len(cases)} SMEM atom choices as CUTLASS's selector")


def test_dsl_printouts_and_gmem_fill():
    assert model.parse_int_tuple("((?,4),?{i64 div=8},1)") == [[None, 4], None, 1]
    with pytest.raises(cuteref.Error, match="cannot read"):
        model.parse_int_tuple("(4,x)")
    # FA's K tensor: (seqlen, hdim, heads, batch), hdim contiguous, the rest run-time. Filled
    # extents are distinct multiples of the tiler; strides compact, 16-byte aligned, injective.
    layout, extents = model.concrete_gmem("(?,128,?,?):(?{i64 div=8},1,?,?)", [128, 128], 16)
    assert layout == "(256,128,4,5):(128,1,32768,131072)" and extents == [256, 128, 4, 5]
    assert str(cuteref.eval(f"size({layout})")) == str(cuteref.eval(f"cosize({layout})"))
    assert model.tma_dims("tensor<(0,0,0,0) o (?,128,?,?):(1@1,1@0,1@2,1@3)>") == [1, 0, 2, 3]
    assert model.tma_dims("tensor<(0,0,0) o ((?,?),?):((1@1,1@2),1@0)>") == [1, 2, 0]


def test_trace_format_errors():
    with pytest.raises(ValueError, match="not JSON"):
        dsl.Trace.from_json("{")
    with pytest.raises(ValueError, match="format"):
        dsl.Trace.from_json('{"decisions": []}')
    with pytest.raises(ValueError, match="decision 0: needs"):
        dsl.Trace.from_json('{"format": "cuteref.dsl trace 1", "decisions": [{"kind": "x"}]}')
    with pytest.raises(ValueError, match="unknown fields"):
        dsl.Trace.from_json('{"format": "cuteref.dsl trace 1", "decisions": [{"index": 0, "kind": "x", "api": "f", '
                            '"args": {}, "result": {}, "bogus": 1}]}')


def test_nothing_is_skipped_silently():
    # A call the audit has no model for, one the DSL refused, one whose arguments could not be
    # recorded: each has a verdict that says so.
    t = dsl.Trace(decisions=[
        dsl.Decision(0, "tiled_copy", "cutlass.cute.make_tiled_copy_tv", {"atom": "x"}, {"tv": "(32,4):(4,1)"}),
        dsl.Decision(1, "smem_layout_atom", "warpgroup.make_smem_layout_atom", {"kind": "K_SW128"}, {},
                     error="TypeError: element_type must be a Numeric"),
        dsl.Decision(2, "tile_to_shape", "cutlass.cute.tile_to_shape", {"unrecorded": "TypeError: no signature"}, {}),
        dsl.Decision(3, "something_new", "cutlass.cute.new_api", {}, {"layout": "4:1"}),
        dsl.Decision(4, "smem_layout_atom", "warpgroup.make_smem_layout_atom", {"kind": "K_SW128"},
                     {"layout": "S<3,4,3> o 0 o (8,64):(64,1)"}),
    ])
    verdicts = dsl.audit(t)
    assert [v.status for v in verdicts] == ["unmapped", "failed", "unmapped", "unmapped", "unmapped"]
    assert "has no width in cuteref.dsl" in verdicts[0].detail and "the DSL raised" in verdicts[1].detail
    assert "could not be recorded" in verdicts[2].detail and "no model counterpart" in verdicts[3].detail
    assert "element_type" in verdicts[4].detail  # the record lacks the width: said, not guessed
    text = dsl.render(verdicts, "synthetic")
    assert text.count("verdict:") == 5 and "5 decisions: 0 agree, 0 disagree, 4 unmapped, 1 failed" in text


# ---- SMEM tensors with the swizzle in their layout, composed layouts, coordinate partitions ---
# A swizzle in a tensor's layout acts on the layout's output, the element offset (the DSL's own
# generated code: test_live_in_layout_swizzle_is_on_element_offsets). The expected placements
# below are derived by hand for the bf16 K-major SW128 atom L = (8,64):(64,1) (row r, column c
# at element 64 r + c): the model's byte swizzle Sw<3,4,3> on byte 2 (64 r + c) XORs bits 7-9
# (r) into bits 4-6, i.e. element bits 6-8 into bits 3-5: Sw<3,3,3> on element offsets.

ATOM = "(8,64):(64,1)"
ATOM_BYTES = "(8,128):(128,1)"   # recast_layout(8, 16, L): each bf16 element two bytes


def partition(index, layout, swizzle, operand="D", copy="TC"):
    return dsl.Decision(index, "smem_partition", "cutlass.cute.atom.ThrCopy.partition_" + operand,
                        {"tiled_copy": copy, "operand": operand, "tensor_layout": layout, "bits": 16,
                         "swizzle": swizzle}, {"partition": "?"})


def composed(index, inner, outer):
    return dsl.Decision(index, "composed_layout", "cutlass.cute.make_composed_layout",
                        {"inner": inner, "offset": 0, "outer": outer}, {"layout": f"{inner} o 0 o {outer}"})


def position_independent(view_swizzle="S<3,3,3>", byte_swizzle="S<3,4,3>"):
    """quack's partition_D_position_independent: the tensor (swizzle on the pointer), the
    composed layout of its byte swizzle with L in bytes, the view recast back to elements."""
    return dsl.Trace(decisions=[partition(0, ATOM, [3, 4, 3]), composed(1, byte_swizzle, ATOM_BYTES),
                                partition(2, f"{view_swizzle} o 0 o {ATOM}", [0, 4, 3])])


def test_in_layout_swizzle_against_the_tensor_it_views():
    good = dsl.audit(position_independent())
    # [0]: its tiled copy is not in this trace, so no wavefronts: said.
    assert [v.status for v in good] == ["unmapped", "agree", "agree"], dsl.render(good)
    assert "the tensor it views ([0]" in good[2].model and "recast(" in good[1].model
    # The byte swizzle's parameters kept in element units: row 1 (index 1, offset 64) stays at
    # element 64 on element offsets, where the byte swizzle moves byte 128 to 144, element 72.
    bad = dsl.audit(position_independent(view_swizzle="S<3,4,3>"))
    assert bad[2].status == "disagree"
    assert "placement (element offsets): false: at index 1: left gives 72, right gives 64" in bad[2].detail
    # The composed layout with the swizzle already in element units over a byte layout: its
    # recast to 16 bits is Sw<3,2,3>, which moves element bits 5-7 into 2-4; rows 1-3 agree with
    # Sw<3,3,3> (bits 6-7 go to bits 3-4 either way) and row 4 (index 4, offset 256) is the first
    # that differs: Sw<3,3,3> moves bit 8 to bit 5 (288), Sw<3,2,3> leaves 256.
    bad = dsl.audit(position_independent(byte_swizzle="S<3,3,3>"))
    assert bad[1].status == "disagree" and "at index 4: left gives 288, right gives 256" in bad[1].detail
    REPORT.append("cuteref.dsl in-layout swizzles and composed layouts: 2 agree, 2 perturbed caught")


def test_in_layout_swizzle_against_an_smem_layout_decision():
    """A tensor that puts an SMEM layout decision's layout over a pointer without its swizzle
    (FA's SM90 dQ postprocess does so with make_smem_layout's): judged against the model's
    layout for that decision."""
    def trace(kind, printout):
        return dsl.Trace(decisions=[
            dsl.Decision(0, "smem_layout_atom", "cutlass.cute.nvgpu.warpgroup.make_smem_layout_atom",
                         {"kind": kind, "element_type": {"dtype": "BFloat16", "bits": 16}}, {"layout": printout}),
            partition(1, printout, [0, 4, 3])])
    sw128 = dsl.audit(trace("K_SW128", f"S<3,4,3> o 0 o {ATOM}"))
    assert [v.status for v in sw128] == ["agree", "disagree"], dsl.render(sw128)
    assert "at index 1: left gives 72, right gives 64" in sw128[1].detail and "the SMEM layout of [0]" in sw128[1].model
    assert "acts on 16-bit element offsets" in sw128[1].detail
    # The INTER atom has no swizzle (S<0,4,3>): both readings are the same function.
    inter = dsl.audit(trace("K_INTER", "S<0,4,3> o 0 o (8,8):(8,1)"))
    assert [v.status for v in inter] == ["agree", "agree"], dsl.render(inter)
    REPORT.append("cuteref.dsl in-layout swizzle over an SMEM layout decision: 1 agree, 1 disagree as derived")


def test_composed_layout_without_a_use_and_a_view_without_a_reference():
    t = dsl.Trace(decisions=[composed(0, "S<3,4,3>", ATOM_BYTES),
                             dsl.Decision(1, "something_new", "cutlass.cute.new_api", {}, {"layout": "4:1"}),
                             partition(2, f"S<3,3,3> o 0 o {ATOM}", [0, 4, 3])])
    verdicts = dsl.audit(t)
    assert [v.status for v in verdicts] == ["unmapped", "unmapped", "unmapped"]
    assert "shows no use of it" in verdicts[0].detail and "no reference placement" in verdicts[2].detail
    # The view and the tensor it views must be partitioned by the same copy.
    t = position_independent()
    t.decisions[2].args["tiled_copy"] = "another copy"
    assert dsl.audit(t)[2].status == "unmapped"


def coordinate_trace(partition_printout):
    """A tiled copy of 8 bf16 per thread (128-bit copies), 32 x 8 threads over a 32 x 64 tile,
    and a thread's partition of a 128 x 64 coordinate tensor by it."""
    atom = "Copy Atom\n  ThrID: 1:0\n  TV Layout Src: (1,8):(0,1)\n  TV Layout Dst: (1,8):(0,1)\n  Value type: bf16"
    return dsl.Trace(decisions=[
        dsl.Decision(0, "tiled_copy", "cutlass.cute.make_tiled_copy_tv",
                     {"atom": atom, "thr_layout": "(32,8):(8,1)", "val_layout": "(1,8):(0,1)"},
                     {"tv": "((8,32),8):((256,1),32)", "tiler": "(32:1, 64:1)", "printout": "TC",
                      "op": "CopyUniversalOp", "op_fields": {}, "src_tv": "(1,8):(0,1)"}),
        dsl.Decision(1, "coord_partition", "cutlass.cute.atom.ThrCopy.partition_S",
                     {"tiled_copy": "TC", "operand": "S", "coordinate_layout": "(128,64):(1@0,1@1)"},
                     {"partition": partition_printout})])


def test_coordinate_partition():
    # Thread 0's 8 values are tile indices 32 v (TV stride 32 over a 32-row tile): coordinates
    # (0, v), one 128-bit copy; the tile repeats 4 times down the 128 rows (32@0) and once
    # across the 64 columns.
    good = dsl.audit(coordinate_trace("((8,1),4,1):((1@1,0),32@0,0)"))
    assert [v.status for v in good] == ["agree", "agree"], dsl.render(good)
    bad = dsl.audit(coordinate_trace("((8,1),4,1):((1@1,0),16@0,0)"))
    assert bad[1].status == "disagree" and "at index 8: left gives (32,0), right gives (16,0)" in bad[1].detail
    REPORT.append("cuteref.dsl coordinate partitions: 1 agree, 1 perturbed caught")


def same_printout_trace():
    """Two tiled copies of 4 f32 a thread over 128 threads that print the same (the printout
    names no instruction): a universal copy and a cp.async (CopyG2SOp); partitions of a
    512-float SMEM tensor by each, and one whose operation the trace does not record."""
    atom = "Copy Atom\n  ThrID: 1:0\n  TV Layout Src: (1,4):(0,1)\n  TV Layout Dst: (1,4):(0,1)\n  Value type: f32"

    def copy(index, op):
        return dsl.Decision(index, "tiled_copy", "cutlass.cute.make_tiled_copy_tv",
                            {"atom": atom, "thr_layout": "128:1", "val_layout": "4:1"},
                            {"tv": "(128,4):(4,1)", "tiler": "(512:1)", "printout": "TC", "op": op, "op_fields": {},
                             "src_tv": "(1,4):(0,1)"})

    def part(index, op):
        args = {"tiled_copy": "TC", "operand": "D", "tensor_layout": "512:1", "bits": 32, "swizzle": [0, 4, 3]}
        if op is not None:
            args["copy_op"] = op
        return dsl.Decision(index, "smem_partition", "cutlass.cute.atom.ThrCopy.partition_D", args, {"partition": "?"})

    return dsl.Trace(decisions=[copy(0, "CopyUniversalOp"), copy(1, "CopyG2SOp"), part(2, "CopyUniversalOp"),
                                part(3, "CopyG2SOp"), part(4, None)])


def test_copies_of_different_instructions_that_print_the_same():
    verdicts = dsl.audit(same_printout_trace())
    by_index = {v.index: v for v in verdicts}
    assert by_index[0].status == "agree" and by_index[1].status == "agree", dsl.render(verdicts)
    # The universal copy's stores: each warp writes 32 x 16 contiguous bytes, 4 rows of 128
    # bytes: 4 wavefronts an instruction, 4 warps: (4 instructions, 16 wavefronts, ideal 16).
    assert by_index[2].status == "reported" and by_index[2].model.endswith("= (4,16,16)"), by_index[2].model
    # cp.async's: the model does not count its wavefronts, and says so.
    assert by_index[3].status == "unmapped" and "cp.async" in by_index[3].detail, by_index[3].detail
    # Neither: the trace does not say which instruction the partition uses.
    assert by_index[4].status == "unmapped" and "print the same" in by_index[4].detail, by_index[4].detail
    REPORT.append("cuteref.dsl copies that print the same: the recorded operation picks the instruction (2), "
                  "none recorded: unmapped with the reason (1)")


# ---- transposed views ------------------------------------------------------------------------
# quack's transpose_view composes a tensor with the ordered layout that swaps its first two
# modes. Hand derivation for the bf16 SW128 atom's transpose V = (64,8):(1,64) (column c, row r
# at element c + 64 r): index 1 is (1,0), element 1 in both readings.

def view_decision(index, source_layout, source_swizzle, view_layout):
    return dsl.Decision(index, "transpose_view", "quack.layout_utils.transpose_view",
                        {"a": {"tensor_layout": source_layout, "bits": 16, "swizzle": source_swizzle}},
                        {"tensor_layout": view_layout, "bits": 16, "swizzle": source_swizzle})


def test_transpose_view():
    good = dsl.audit(dsl.Trace(decisions=[view_decision(0, ATOM, [3, 4, 3], "(64,8):(1,64)"),
                                          view_decision(1, f"S<3,4,3> o 0 o {ATOM}", [0, 4, 3],
                                                        "S<3,4,3> o 0 o (64,8):(1,64)")]))
    assert [v.status for v in good] == ["agree", "agree"], dsl.render(good)
    assert "make_ordered_layout((64,8), (1,0))" in good[0].model
    # The view reshaped, not transposed: (64,8):(8,1) puts index 1 at element 8 (byte 16, which
    # Sw<3,4,3> leaves: bits 7-9 are 0); the transpose puts it at element 1.
    bad = dsl.audit(dsl.Trace(decisions=[view_decision(0, ATOM, [3, 4, 3], "(64,8):(8,1)")]))
    assert bad[0].status == "disagree" and "at index 1: left gives 1, right gives 8" in bad[0].detail, dsl.render(bad)
    REPORT.append("cuteref.dsl transposed views: 2 agree, 1 perturbed caught")


def test_transposed_view_of_an_smem_layout_decision():
    """FA's dQ postprocess partitions sdQt, the transposed view of sdQ (an SMEM layout decision
    over a pointer without its swizzle); the trace has no transpose_view decision, so the view
    is matched to the decision whose printout it transposes. Tile (16,64) of the atom:
    ((8,2),64):((64,512),1); its transpose (64,(8,2)):(1,(64,512)), index i = c + 64 r. Rows 0
    (r = 0) sit at bytes below 128 in both readings; index 64 (r 1, c 0): element 64 on element
    offsets (bits 7-9 of 64 are 0), byte 128 ^ 16 = 144, element 72, on bytes."""
    def trace(view):
        return dsl.Trace(decisions=[
            dsl.Decision(0, "smem_layout_atom", "cutlass.cute.nvgpu.warpgroup.make_smem_layout_atom",
                         {"kind": "K_SW128", "element_type": {"dtype": "BFloat16", "bits": 16}},
                         {"layout": f"S<3,4,3> o 0 o {ATOM}"}),
            dsl.Decision(1, "tile_to_shape", "cutlass.cute.tile_to_shape",
                         {"atom": f"S<3,4,3> o 0 o {ATOM}", "trg_shape": [16, 64], "order": [0, 1]},
                         {"layout": "S<3,4,3> o 0 o ((8,2),64):((64,512),1)"}),
            partition(2, view, [0, 4, 3])])
    verdicts = dsl.audit(trace("S<3,4,3> o 0 o (64,(8,2)):(1,(64,512))"))
    assert [v.status for v in verdicts] == ["agree", "agree", "disagree"], dsl.render(verdicts)
    assert "the transpose of the SMEM layout of [1]" in verdicts[2].model
    assert "at index 64: left gives 72, right gives 64" in verdicts[2].detail
    # Not the transpose (the tile itself with its modes' strides swapped): no reference, said.
    other = dsl.audit(trace("S<3,4,3> o 0 o (64,(8,2)):(64,(1,512))"))
    assert other[2].status == "unmapped" and "no reference placement" in other[2].detail
    REPORT.append("cuteref.dsl transposed view of an SMEM layout decision: 1 disagree as derived, 1 unmatched said")


# ---- GMMA's own SMEM operand reads -----------------------------------------------------------

def enumerated_wavefronts(byte_of, mn_extent, k_extent, bits, major):
    """The access model written out byte by byte: every core matrix (8 rows x 16 bytes) of an
    (MN, K) tile, each byte's bank (byte // 4 % 32) and word (byte // 4); a core matrix takes
    the most distinct words one bank holds. BYTE_OF(mn, k) is the element's first byte."""
    t = 128 // bits
    rows, cols = (mn_extent, k_extent) if major == "K" else (k_extent, mn_extent)
    total = 0
    for g in range(rows // 8):
        for c in range(cols // t):
            banks = [set() for _ in range(32)]
            for r in range(8):
                for e in range(t):
                    row, col = 8 * g + r, c * t + e
                    mn, k = (row, col) if major == "K" else (col, row)
                    for byte in range(byte_of(mn, k), byte_of(mn, k) + bits // 8):
                        banks[byte // 4 % 32].add(byte // 4)
            total += max(len(b) for b in banks)
    return total


def sw128_k_bf16(mn, k):
    """tile_to_shape(gmma_atom(K, SW128, 16), (64,64)) by hand: row mn at 128 (mn % 8) +
    1024 (mn // 8) bytes, 16-byte chunk k // 8 XOR mn % 8 (Sw<3,4,3>: bits 7-9 into 4-6)."""
    return 1024 * (mn // 8) + 128 * (mn % 8) + 16 * ((k // 8) ^ (mn % 8)) + 2 * (k % 8)


def test_gmma_operand_wavefronts_by_hand_and_enumeration():
    from cuteref.dsl import gmma_reads
    tile = cuteref.eval("tile_to_shape(gmma_atom(K, SW128, 16), (64,64))")
    assert all(int(tile(m, k)) * 2 == sw128_k_bf16(m, k) for m in range(64) for k in range(64))
    # SW128 K-major bf16 64 x 64: 64 core matrices, each row in its own 16-byte bank group
    # (chunk XOR row): 1 wavefront each, ideal 64 x 64 x 2 / 128 = 64.
    got = gmma_reads.core_matrix_wavefronts(tile, 16, "K")
    assert enumerated_wavefronts(sw128_k_bf16, 64, 64, 16, "K") == 64
    assert got == {"core_matrices": 64, "wavefronts": 64, "ideal": 64, "worst": 1}
    # The same tile unswizzled (rows 128 B apart, no XOR): the 8 rows of a core matrix share
    # the 4 banks of their chunk, 8 distinct words each: 8 wavefronts per core matrix, 512.
    plain = cuteref.eval("((8,8),64):((64,512),1)")
    got = gmma_reads.core_matrix_wavefronts(plain, 16, "K")
    assert enumerated_wavefronts(lambda m, k: 2 * int(plain(m, k)), 64, 64, 16, "K") == 512
    assert got == {"core_matrices": 64, "wavefronts": 512, "ideal": 64, "worst": 8}
    # Per wgmma block of A (64 x 16: 8 row groups x 2 chunks = 16 core matrices, 2048 bytes,
    # ideal 16): 16 x 8 = 128; the SW128 tile's 16.
    by_block = gmma_reads.core_matrix_wavefronts(plain, 16, "K", (64, 16))
    assert (by_block["blocks"], by_block["block_worst"], by_block["block_ideal"]) == (4, 128, 16)
    by_block = gmma_reads.core_matrix_wavefronts(tile, 16, "K", (64, 16))
    assert (by_block["blocks"], by_block["block_worst"], by_block["block_ideal"]) == (4, 16, 16)
    with pytest.raises(cuteref.Error, match="not whole wgmma blocks"):
        gmma_reads.core_matrix_wavefronts(tile, 16, "K", (48, 16))
    # The model refuses a descriptor for it (rows 128 B apart are no INTERLEAVE core matrix).
    assert gmma_reads.descriptor(plain, 16, 64, 16).startswith("no descriptor")
    assert "SW128" in gmma_reads.descriptor(tile, 16, 64, 16)
    # MN-major: the transpose of the SW128 tile (FA's V^T), (MN, K) = (64, 64), MN contiguous:
    # a core matrix is 8 K-rows of 8 MN elements; K-row k holds chunk (mn // 8) ^ (k % 8).
    mn_major = cuteref.eval("composition(tile_to_shape(gmma_atom(K, SW128, 16), (64,64)), make_ordered_layout((64,64), (1,0)))")
    assert gmma_reads.contiguous_mode(mn_major) == 0 and gmma_reads.contiguous_mode(tile) == 1
    assert enumerated_wavefronts(lambda mn, k: sw128_k_bf16(k, mn), 64, 64, 16, "MN") == 64
    assert gmma_reads.core_matrix_wavefronts(mn_major, 16, "MN")["wavefronts"] == 64
    # SW32 K-major bf16 (16 x 16): rows 32 B apart, Sw<1,4,3> XORs byte bit 7 into bit 4; row r
    # of chunk 0 is in 16-byte group 2r + (r >> 2) mod 8 = 0,2,4,6,1,3,5,7: distinct, ideal 4.
    sw32 = cuteref.eval("tile_to_shape(gmma_atom(K, SW32, 16), (16,16))")
    assert gmma_reads.core_matrix_wavefronts(sw32, 16, "K") == {"core_matrices": 4, "wavefronts": 4, "ideal": 4, "worst": 1}
    assert enumerated_wavefronts(lambda m, k: 2 * int(sw32(m, k)), 16, 16, 16, "K") == 4
    with pytest.raises(cuteref.Error, match="not whole core matrices"):
        gmma_reads.core_matrix_wavefronts(cuteref.eval("(12,16):(16,1)"), 16, "K")
    # A core matrix's row must be 16 contiguous bytes at a 16-byte boundary (a GMMA
    # descriptor's core matrix is): K at stride 64 read as K-major has no such rows; rows 9
    # elements apart (18 bytes) start off the boundary, which the model's rule refuses by row.
    with pytest.raises(cuteref.Error, match=r"row 0 is not 16 contiguous bytes \(element offsets \[0, 64, 128"):
        gmma_reads.core_matrix_wavefronts(cuteref.eval("(64,64):(1,64)"), 16, "K")
    with pytest.raises(cuteref.Error, match=r"core matrix at \(row 0, column 0\).*thread 1's 16-byte access at byte 18 "
                                            r"is not aligned"):
        gmma_reads.core_matrix_wavefronts(cuteref.eval("(8,8):(9,1)"), 16, "K")
    REPORT.append("cuteref.dsl GMMA operand reads: 4 tiles counted as derived and enumerated (64, 512, 64, 4), 3 refused")


def test_gmma_reads_in_the_audit():
    """Each tiled MMA of the recorded DSL kernels gets its operand reads; the unswizzled tile
    made in place of the kernel's is counted 8x its ideal."""
    trace = load(os.path.join(TRACES, "dsl_kernels.json"))
    verdicts = dsl.audit(trace)
    reads = [v for v in verdicts if v.title.startswith("GMMA operand reads")]
    mmas = [d for d in trace.decisions if d.kind == "tiled_mma"]
    assert len(reads) == len(mmas) and all(v.status == "reported" for v in reads), dsl.render(reads)
    assert all("not a hardware counter" in v.model for v in reads)
    rs = next(v for v in reads if "_RS<" in v.title)
    assert rs.detail.startswith("A: from registers") and "B (MN-major) the transpose of" in rs.detail
    # Every tile the GMMA atoms build reads at its ideal.
    assert all("x, worst" not in v.detail for v in reads)
    # A kernel whose atom has its swizzle taken off (S<0,4,3>: 128-byte rows, no XOR): the
    # atom disagrees, and the model's tile of it, read as A of the first MMA (f16, 64 x 64),
    # takes 8 wavefronts per core matrix (test_gmma_operand_wavefronts_by_hand_and_enumeration):
    # 512 against 64; B (N = 128) fits no tile of this kernel.
    mma = next(d for d in trace.decisions if d.kind == "tiled_mma")
    f16 = {"dtype": "Float16", "bits": 16}
    bad = dsl.Trace(decisions=[
        dsl.Decision(0, "tiled_mma", mma.api, dict(mma.args), dict(mma.result)),
        dsl.Decision(1, "smem_layout_atom", "cutlass.cute.nvgpu.warpgroup.make_smem_layout_atom",
                     {"kind": "K_SW128", "element_type": f16}, {"layout": "S<0,4,3> o 0 o (8,64):(64,1)"}),
        dsl.Decision(2, "tile_to_shape", "cutlass.cute.tile_to_shape",
                     {"atom": "S<0,4,3> o 0 o (8,64):(64,1)", "trg_shape": [64, 64], "order": [0, 1]},
                     {"layout": "S<0,4,3> o 0 o ((8,8),64):((64,512),1)"})])
    got = dsl.audit(bad)
    assert [v.status for v in got] == ["agree", "reported", "disagree", "agree"], dsl.render(got)
    # Per wgmma (64 x 16 f16: 16 core matrices, ideal 16): 16 x 8 = 128.
    assert "A (K-major)" in got[1].detail and "per stage 512 over 64 core matrices (4 wgmma blocks)" in got[1].detail
    assert "per wgmma at most 128 wavefronts, ideal 16" in got[1].detail
    assert "ideal 64 (8.00x, worst core matrix 8-way)" in got[1].detail
    assert "B (K-major, 16-bit): no SMEM tile of this kernel fits the operand" in got[1].detail
    assert "no descriptor" in got[1].checks[0] and "[no GMMA descriptor: a wgmma cannot read it as this operand]" in got[1].detail
    # The MMA alone: no tile to count, said.
    alone = dsl.audit(dsl.Trace(decisions=bad.decisions[:1]))
    assert [v.status for v in alone] == ["agree", "unmapped"] and "no SMEM tile of this kernel fits" in alone[1].detail
    REPORT.append(f"cuteref.dsl GMMA operand reads in the audit: {len(reads)} tiled MMAs reported")


# ---- traces recorded from real compiles, audited without the DSL ---------------------------

def test_recorded_dsl_kernels():
    """gpu/dsl's kernels and the FA3-style decisions, recorded from nvidia-cutlass-dsl 4.8.1."""
    counts = {}
    for name in ("dsl_kernels.json", "attention_decisions.json"):
        verdicts = dsl.audit(load(os.path.join(TRACES, name)))
        c = dsl.counts(verdicts)
        assert c["disagree"] == 0 and c["failed"] == 0 and c["unmapped"] == 0, dsl.render(verdicts)
        kinds = {v.title.split("(")[0].rsplit(".", 1)[-1] for v in verdicts}
        counts[name] = len(verdicts)
        if name == "dsl_kernels.json":
            assert {"make_smem_layout_a", "make_smem_layout_b", "get_smem_layout_atom", "make_smem_layout_atom",
                    "tile_to_shape", "make_trivial_tiled_mma", "register handoff: C of decision 11 -> A of decision 12, "
                    "value i to value i"} <= kinds
        else:
            assert "make_tiled_tma_atom" in kinds and "make_tiled_copy_C" in kinds
            # O's stmatrix store into the 128-byte-swizzled tile: the model's count (checked
            # against Nsight Compute's counters by `cuteref-gpu banks`) is the ideal.
            reported = [v for v in verdicts if v.status == "reported" and v.index is not None]
            assert len(reported) == 1 and "256 wavefronts over 64 shared-memory instructions, ideal 256" in reported[0].detail
            # The other reports: each tiled MMA's own operand reads (test_gmma_reads_in_the_audit).
            assert all(v.title.startswith("GMMA operand reads") for v in verdicts if v.status == "reported" and v.index is None)
    REPORT.append(f"cuteref.dsl recorded traces (DSL kernels): {sum(counts.values())} verdicts, 0 disagree ({counts})")


def _swizzle_bits(printout):
    """B of a printout `S<B,4,3> o 0 o ...` (a byte swizzle of 16-byte units over 128-byte
    lines, B = 1, 2, 3), else 0."""
    for b in (1, 2, 3):
        if printout.startswith(f"S<{b},4,3> o 0 o "):
            return b
    return 0


def _two_modes(printout):
    """(swizzle prefix, mode 1 shape, both shapes swapped, mode 0 stride, both strides swapped):
    for `S<B,4,3> o 0 o (A,B):(X,Y)` with two top-level modes, ("S<B,4,3> o 0 o ", "B", "B,A",
    "X", "Y,X"), the transposed printout's parts; else ("",) * 5."""
    if not _swizzle_bits(printout):
        return "", "", "", "", ""
    prefix = printout[:len("S<3,4,3> o 0 o ")]
    shape, stride = model.split_layout(printout.split(" o ", 2)[2])
    s, d = _split_top(shape), _split_top(stride)
    if len(s) != 2:
        return "", "", "", "", ""
    return prefix, s[1], f"{s[1]},{s[0]}", d[0], f"{d[1]},{d[0]}"


def _split_top(text):
    body, out, depth, start = text[1:-1], [], 0, 0
    for i, ch in enumerate(body):
        depth += (ch == "(") - (ch == ")")
        if ch == "," and depth == 0:
            out.append(body[start:i])
            start = i + 1
    return out + [body[start:]]


@pytest.mark.skipif(not os.path.isdir(H200), reason="gpu/flash/traces is missing")
def test_recorded_flash_attention_and_quack():
    """FlashAttention's SM90 forward and backward and quack's GEMM and RMSNorm, recorded on an
    H200 (gpu/RESULTS.md): every decision the audit maps agrees with the model."""
    total = {}
    for name in ("flash_trace.json.gz", "flash_trace_quick.json.gz", "quack_trace.json.gz"):
        trace = load(os.path.join(H200, name))
        verdicts = dsl.audit(trace)
        c = dsl.counts(verdicts)
        assert c["failed"] == 0
        # The one disagreement, in the traces with SMEM partitions: FA's SM90 dQ postprocess makes
        # sdQ as make_tensor(recast_ptr(ptr), make_smem_layout(...)), the SW128 (head dims 64,
        # 128, 256) or SW64 (96, 192) tile over a pointer without its swizzle, so the swizzle
        # acts on element offsets. The byte swizzle S<B,4,3> XORs bits 7.. into bits 4..: the
        # first row it moves is the one at byte 128, row 2^(3-B) of rows 2^(B+4) bytes wide
        # (row 1 of SW128, row 2 of SW64), bf16 element 64; the model's tile puts it at byte 144,
        # element 72, and the element-offset reading leaves it at 64 (no bit 7 in 64).
        # Expected: exactly the partitions of such a tensor (read off the trace).
        decisions = trace.decisions
        reused = {(d.section, d.result.get("layout")) for d in decisions if d.kind in ("smem_layout", "tile_to_shape")}
        expected = {d.index: 2 ** (3 - _swizzle_bits(d.args["tensor_layout"])) for d in decisions
                    if d.kind == "smem_partition" and "tensor_layout" in d.args and _swizzle_bits(d.args["tensor_layout"])
                    and d.args["swizzle"][0] == 0 and (d.section, d.args["tensor_layout"]) in reused}
        # And the partitions of its transposed view sdQt (layout_utils.transpose_view(sdQ)): the
        # printout of such a tile ((8,m),(W,k)):((W,8W),(1,s)) with its two modes swapped. Row r
        # of sdQ, index r of the tile, is index r * (W k) of the view (its first mode is the
        # tile's second, the head dimension), the same element 64 against 72.
        transposed = {(d.section, f"{prefix}({b}):({y})"): 2 ** (3 - _swizzle_bits(prefix)) * model.extent(model.parse_int_tuple(a))
                      for d in decisions if d.kind in ("smem_layout", "tile_to_shape")
                      for prefix, a, b, x, y in [_two_modes(d.result.get("layout", ""))] if a}
        views = {d.index: transposed[(d.section, d.args["tensor_layout"])] for d in decisions
                 if d.kind == "smem_partition" and "tensor_layout" in d.args
                 and d.args["swizzle"][0] == 0 and (d.section, d.args["tensor_layout"]) in transposed}
        disagree = [v for v in verdicts if v.status == "disagree"]
        assert {v.index for v in disagree} == set(expected) | set(views), \
            "\n".join(f"[{v.index}] {v.title}: {v.detail}" for v in disagree)
        first = {**expected, **views}
        assert all(f"at index {first[v.index]}: left gives 72, right gives 64" in v.detail for v in disagree), \
            [(v.index, first[v.index], v.detail[:80]) for v in disagree if f"at index {first[v.index]}:" not in v.detail]
        if name == "flash_trace.json.gz":
            # head dims 96 and 192 (SW64) among them
            assert any(first[i] == 2 for i in expected)
        if name == "flash_trace_quick.json.gz":
            assert len(views) == 3  # sdQt of bf16-d128, f16-d128 and f16-d128-varlen backward
        if name == "flash_trace_quick.json.gz":
            assert len(expected) >= 10
            # quack's position-independent views (S<3,3,3> over a plain pointer, the tensor's
            # S<3,4,3> recast to 16-bit units) and the composed layouts they are made from:
            # each places every element where the tensor it views does.
            by_index = {v.index: v for v in verdicts}
            views = [d.index for d in decisions if d.kind == "smem_partition"
                     and d.args.get("tensor_layout", "").startswith("S<3,3,3> o 0 o ")]
            made = [d.index for d in decisions if d.kind == "composed_layout" and d.parent is None
                    and d.index + 1 in views]
            assert len(views) >= 30 and len(made) == len(views)
            assert all(by_index[i].status == "agree" and "the tensor it views" in by_index[i].model for i in views)
            assert all(by_index[i].status == "agree" and "recast(" in by_index[i].model for i in made)
        # What it cannot map says why (tiled copies, composed layouts made directly, TMA over
        # varlen's ragged tensors, whose filled-in strides pass TMA's 2^40 bytes): never silently.
        assert all(v.detail for v in verdicts if v.status == "unmapped")
        total[name] = (c["agree"], c["unmapped"], c["reported"])
        if name == "flash_trace_quick.json.gz":
            # Recorded with the SMEM partitions: each tiled copy's wavefronts on its SMEM tensor.
            reported = [v for v in verdicts if v.status == "reported" and v.index is not None]
            assert len(reported) >= 80 and all("wavefronts over" in v.detail for v in reported)
        # Each tiled MMA's own operand reads: every tile is a GMMA atom tiled, whose XOR puts the
        # 8 rows of a core matrix in 8 bank groups (test_gmma_operand_wavefronts_by_hand_and_
        # enumeration), so each reads at its ideal.
        reads = [v for v in verdicts if v.title.startswith("GMMA operand reads")]
        assert len(reads) == sum(1 for d in decisions if d.kind == "tiled_mma" and not d.error)
        assert all(v.status == "reported" and "x, worst" not in v.detail for v in reads), \
            [v.detail for v in reads if "x, worst" in v.detail or v.status != "reported"][:3]
        if name == "flash_trace.json.gz":
            sections = by_section(verdicts)
            assert len(sections) >= 38  # 19 compiled configurations (the exact run reuses one), forward and backward
            agree = lambda key: sum(1 for v in verdicts if key in v.title and v.status == "agree")  # noqa: E731
            assert agree("register handoff") >= 20 and agree("make_tiled_tma_atom") >= 100
            # pack_gqa's TMA atoms over ((heads per KV head, seqlen), hdim, ...): checked with the
            # kernel's CTA tiler; the TMA atoms left unmapped are varlen's ragged tensors.
            tma = [v for v in verdicts if "make_tiled_tma_atom" in v.title]
            packed = [v for v in tma if v.status == "agree" and ", ((_" in v.model]
            assert len(packed) >= 3
            assert all("below 2^40" in v.detail for v in tma if v.status == "unmapped")
            assert agree("make_tiled_copy_tv") >= 150 and agree("make_tiled_copy_C") >= 100
            assert agree("make_trivial_tiled_mma") >= 100 and agree("quack.sm90_utils.make_smem_layout") >= 150
    REPORT.append(f"cuteref.dsl H200 traces: (agree, unmapped, reported) {total}, disagree only FA's sdQ and its view sdQt "
                  "(element-offset swizzle)")


@pytest.mark.skipif(not os.path.isdir(H200), reason="gpu/flash/traces is missing")
def test_recorded_controls_are_caught():
    """Each negative control, recorded on the H200 with one layout perturbed through the
    tracer's hooks: the audit names the first differing element."""
    expected = {
        "control narrow_swizzle: forward": "SMEM layout: false: at index 1: left gives 72, right gives 32",
        "control other_major: forward": "SMEM layout: false: at index 1: left gives 72, right gives 1",
        "control box_minus_atom: forward": "elements per box: model 8192 (boxDim (64,128,1,1)), DSL atom 7680",
        "control narrow_swizzle_a: gemm bf16 B K-major": "atom: false: sizes differ: 512 vs 256",
    }
    found = {}
    for name in ("flash_controls_trace.json.gz", "quack_control_trace.json.gz"):
        for section, verdicts in by_section(dsl.audit(load(os.path.join(H200, name)))).items():
            first = next((v for v in verdicts if v.status == "disagree"), None)
            if first is not None:
                found[section] = first.detail
    for section, detail in expected.items():
        assert section in found, f"control {section!r} not caught; caught: {sorted(found)}"
        assert detail in found[section], (section, found[section])
    REPORT.append(f"cuteref.dsl H200 controls: {len(expected)} of {len(expected)} caught by the audit")


def test_cli_exit_codes(tmp_path):
    env = dict(os.environ)
    run = lambda *a: subprocess.run([sys.executable, "-m", "cuteref.dsl", *a], capture_output=True, text=True, env=env)  # noqa: E731
    ok = run("audit", os.path.join(TRACES, "dsl_kernels.json"))
    # 29 decisions, each agreeing, and one report of GMMA operand reads for each of its 3 tiled MMAs.
    assert ok.returncode == 0 and "32 decisions: 29 agree, 0 disagree, 0 unmapped, 0 failed, 3 reported" in ok.stdout
    if os.path.isdir(H200):
        caught = run("audit", os.path.join(H200, "quack_control_trace.json.gz"))
        assert caught.returncode == 1 and "DISAGREE" in caught.stdout
    assert run().returncode == 64 and run("frobnicate", "x").returncode == 64
    one = run("audit", "--section", "attention decisions bf16 hdim 128 tile 128x128 stages 2",
              os.path.join(TRACES, "attention_decisions.json"))
    # 23 decisions (22 agree, O's stmatrix store reported) and the operand reads of its 2 tiled MMAs.
    assert one.returncode == 0 and "25 decisions: 22 agree, 0 disagree, 0 unmapped, 0 failed, 3 reported" in one.stdout
    nosuch = run("audit", "--section", "no such kernel", os.path.join(TRACES, "attention_decisions.json"))
    assert nosuch.returncode == 64 and "no section 'no such kernel'" in nosuch.stderr
    assert run("audit", "--section").returncode == 64
    missing = run("audit", str(tmp_path / "none.json"))
    assert missing.returncode == 74 and "none.json" in missing.stderr
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"format": "other"}))
    assert run("audit", str(bad)).returncode == 74


# ---- live compiles with the DSL (no GPU) ---------------------------------------------------

def dsl_env():
    """The test's environment (PYTHONPATH names the built cuteref package)."""
    return dict(os.environ)


@needs_dsl
def test_live_dsl_kernels(tmp_path):
    """gpu/dsl/dsl_kernels.py compiled for sm_90a under the tracer: every decision agrees."""
    out = tmp_path / "trace.json"
    env = dict(dsl_env(), CUTE_DSL_KEEP="cubin,ptx", CUTE_DSL_DUMP_DIR=str(tmp_path))
    r = subprocess.run([sys.executable, "-m", "cuteref.dsl", "record", "--dsl", DSL, str(out),
                        os.path.join(SOURCE_DIR, "gpu", "dsl", "dsl_kernels.py"), DSL, str(tmp_path)],
                       capture_output=True, text=True, env=env, timeout=600)
    assert r.returncode == 0, r.stderr[-3000:]
    verdicts = dsl.audit(load(str(out)))
    c = dsl.counts(verdicts)
    assert c["disagree"] == 0 and c["agree"] >= 25 and c["failed"] == 0, dsl.render(verdicts)
    REPORT.append(f"cuteref.dsl live (gpu/dsl kernels): {dsl.summary(verdicts)}")


@needs_dsl
def test_live_controls(tmp_path):
    """gpu/dsl/attention_decisions.py: the unperturbed compile agrees; each control is caught
    at the decision it perturbed, with the first differing element."""
    script = os.path.join(SOURCE_DIR, "gpu", "dsl", "attention_decisions.py")
    expected = {None: None,
                "narrow_swizzle": "atom: false: sizes differ: 512 vs 256",
                "other_major": "SMEM layout: false: at index 1: left gives 1, right gives 72",
                "box_minus_atom": "elements per box: model 8192 (boxDim (64,128,1,1)), DSL atom 7680"}
    for control, detail in expected.items():
        out = tmp_path / f"{control}.json"
        r = subprocess.run([sys.executable, script, DSL, "--trace", str(out)] + (["--control", control] if control else []),
                           capture_output=True, text=True, env=dsl_env(), timeout=600)
        assert r.returncode == 0, r.stdout + r.stderr[-3000:]
        verdicts = dsl.audit(load(str(out)))
        bad = [v for v in verdicts if v.status == "disagree"]
        if control is None:
            assert not bad and dsl.counts(verdicts)["agree"] >= 19, dsl.render(verdicts)
        else:
            assert bad and detail in bad[0].detail, (control, [v.detail for v in bad])
    r = subprocess.run([sys.executable, script, DSL, "--hdim", "100"], capture_output=True, text=True, env=dsl_env())
    assert r.returncode == 64 and "multiple of 64" in r.stderr
    REPORT.append("cuteref.dsl live controls (attention decisions): 3 of 3 caught, the unperturbed compile agrees")


@needs_dsl
def test_live_partitions_and_in_layout_swizzle(tmp_path):
    """python/tests/dsl_partition_probe.py compiled for sm_90a under the tracer: the coordinate
    tensor's partition is recorded (coord_partition) and agrees with the model's; and the DSL's
    generated code applies a swizzle in a tensor's layout to element offsets, which is how the
    audit reads such a tensor."""
    r = subprocess.run([sys.executable, os.path.join(HERE, "dsl_partition_probe.py"), DSL, str(tmp_path)],
                       capture_output=True, text=True, env=dsl_env(), timeout=600)
    assert r.returncode == 0, r.stdout + r.stderr[-3000:]
    trace = load(str(tmp_path / "trace.json"))
    kinds = [d.kind for d in trace.decisions]
    assert "coord_partition" in kinds and "smem_partition" in kinds and not any("unrecorded" in d.args for d in trace.decisions)
    verdicts = dsl.audit(trace)
    # The transposed views of both tensors (the hooked transpose_view): each the model's transpose.
    views = [v for v, d in zip(verdicts, trace.decisions) if d.kind == "transpose_view"]
    assert len(views) == 2 and all(v.status == "agree" for v in views), dsl.render(verdicts)
    assert "(64,8):(1,64)" in views[0].dsl and "S<3,4,3> o 0 o (64,8):(1,64)" in views[1].dsl
    # The control: the first view made of (8,64):(1,8) is (64,8):(8,1); the model transposes the
    # tile asked for, (64,8):(1,64). Index 1: element 1 (byte 2) against element 8 (byte 16;
    # Sw<3,4,3> moves neither: bits 7-9 are 0).
    perturbed = tmp_path / "perturbed"
    r = subprocess.run([sys.executable, os.path.join(HERE, "dsl_partition_probe.py"), DSL, str(perturbed), "--perturb-view"],
                       capture_output=True, text=True, env=dsl_env(), timeout=600)
    assert r.returncode == 0, r.stdout + r.stderr[-3000:]
    trace = load(str(perturbed / "trace.json"))
    views = [v for v, d in zip(dsl.audit(trace), trace.decisions) if d.kind == "transpose_view"]
    assert [v.status for v in views] == ["disagree", "agree"], [v.detail for v in views]
    assert "at index 1: left gives 1, right gives 8" in views[0].detail
    coord = next(v for v, d in zip(verdicts, trace.decisions) if d.kind == "coord_partition")
    # 8 x 8 threads of 8 bf16 over an 8 x 64 tile: thread 0's values are (0, 0..7); the tile
    # repeats 4 times down 32 rows: ((8,1),4,1):((1@1,0),8@0,0).
    assert coord.status == "agree" and "((8,1),4,1):((1@1,0),8@0,0)" in coord.dsl, dsl.render(verdicts)
    # S<3,4,3> o 0 o (8,64):(64,1) over bf16: (1,0) is element 64, (2,8) element 136. On element
    # offsets they go to elements 64 and 136 ^ 16 = 152, bytes 128 and 304 (176 apart); on byte
    # addresses bytes 128 ^ 16 = 144 and 272 ^ 32 = 304 (160 apart). The buffer is 1024-aligned.
    import re
    offsets = [int(m) for m in re.findall(r"st\.shared\.b16\s+\[%r\d+\+(\d+)\]", (tmp_path / "smem_accesses.txt").read_text())]
    assert len(offsets) == 2, offsets
    assert offsets[1] - offsets[0] == 176 and offsets[0] % 1024 == 128, offsets
    REPORT.append("cuteref.dsl live partitions: coordinate partition recorded and agrees; in-layout swizzle on element offsets "
                  "in the PTX; 2 transposed views agree, 1 perturbed caught")


@needs_dsl
def test_live_epilogue_copy_c_atom(tmp_path):
    """python/tests/dsl_epilogue_copy_probe.py compiled for sm_90a under the tracer: quack's
    epilogue copies, make_tiled_copy_C_atom of an stmatrix.x4 atom over a 64x64x16 warpgroup and
    make_tiled_copy_S of it, agree with the model's (TV layout, each mode of the by-mode tiler),
    and so does that copy's partition of a coordinate tensor; with the MMA the copy is made of
    swapped for one of two warpgroups (the decision keeps the one asked for), both copies disagree."""
    def audited(out, *extra):
        r = subprocess.run([sys.executable, os.path.join(HERE, "dsl_epilogue_copy_probe.py"), DSL, str(out), *extra],
                           capture_output=True, text=True, env=dsl_env(), timeout=600)
        assert r.returncode == 0, r.stdout + r.stderr[-3000:]
        trace = load(str(out / "trace.json"))
        verdicts = dsl.audit(trace)
        # each decision's own verdict (the GMMA operand reads that follow a tiled MMA's have no index)
        return [(trace.decisions[v.index], v) for v in verdicts
                if v.index is not None and v.title.startswith(trace.decisions[v.index].api)], verdicts

    decided, verdicts = audited(tmp_path / "plain")
    by_api = {d.api.rsplit(".", 1)[-1]: v for d, v in decided}
    c_atom, r2s = by_api["make_tiled_copy_C_atom"], by_api["make_tiled_copy_S"]
    assert c_atom.status == "agree" and r2s.status == "agree", dsl.render(verdicts)
    assert "tiler mode 0" in c_atom.checks and "tiler mode 1" in c_atom.checks
    # The DSL's own printout: the first 8 C values of each thread, rows 16w + l/4 + 8v1 and
    # columns 2(l%4) + v0 + 8v2 of the 64x64 tile (the derivation in tiled_copy_c_atom_test.cpp).
    assert "((4,8,4),(2,2,2)):((64,1,8),(256,32,512))" in c_atom.dsl and "(8,4,2):(1,16,8)" in c_atom.dsl
    coord = [v for d, v in decided if d.kind == "coord_partition"]
    assert len(coord) == 1 and coord[0].status == "agree", dsl.render(verdicts)
    smem = [v for d, v in decided if d.kind == "smem_partition"]
    assert len(smem) == 1 and smem[0].status == "reported", dsl.render(verdicts)
    assert dsl.counts(verdicts)["disagree"] == 0 and dsl.counts(verdicts)["unmapped"] == 0, dsl.render(verdicts)

    decided, verdicts = audited(tmp_path / "perturbed", "--perturb-mma")
    bad = {d.api.rsplit(".", 1)[-1]: v.detail for d, v in decided if v.status == "disagree"}
    assert set(bad) == {"make_tiled_copy_C_atom", "make_tiled_copy_S"}, dsl.render(verdicts)
    # two warpgroups: 256 threads x 8 values against the model's 128 x 8
    assert "sizes differ: 1024 vs 2048" in bad["make_tiled_copy_C_atom"]
    REPORT.append("cuteref.dsl live epilogue copies: make_tiled_copy_C_atom, make_tiled_copy_S of it and its coordinate "
                  "partition agree; a swapped tiled MMA caught at both copies")
