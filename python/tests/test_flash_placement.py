"""FlashAttention's operand tiles as an H200 placed them in shared memory (the forward's Q, K
and V in gpu/flash/traces/placement.json.gz, the backward's Q, dO, K and V in
placement_backward.json.gz, written by gpu/flash/placement.py), the epilogues' TMA stores as
it wrote them to GMEM (forward O in placement_stores.json.gz, backward dK and dV in
placement_backward_stores.json.gz: each GMEM element of the tile holds the SMEM slot it came
from), against the model (gpu/flash/placement_check.py), and dumps altered by hand that the
check must refuse. Expected slots are derived by hand from the SW128 and SW64 swizzles on byte
addresses; element ids follow placement.py's fill ((row * hdim + col) mod 65521 in head 1,
batch 1). The backward's parameters and the stores' are compared with the ones FA's compiles recorded (traces/flash_trace.json.gz).
"""
import base64
import copy
import gzip
import json
import os
import struct
import sys

import pytest

from conftest import REPORT, SOURCE_DIR

FLASH = os.path.join(SOURCE_DIR, "gpu", "flash")
DUMP = os.path.join(FLASH, "traces", "placement.json.gz")
DUMP_BACKWARD = os.path.join(FLASH, "traces", "placement_backward.json.gz")
TRACE = os.path.join(FLASH, "traces", "flash_trace.json.gz")
needs_backward = pytest.mark.skipif(not os.path.isfile(DUMP_BACKWARD),
                                    reason="gpu/flash/traces/placement_backward.json.gz is missing")
pytestmark = pytest.mark.skipif(not os.path.isfile(DUMP), reason="gpu/flash/traces/placement.json.gz is missing")


def checker():
    if FLASH not in sys.path:
        sys.path.insert(0, FLASH)
    import placement_check
    return placement_check


def load(path=DUMP):
    with gzip.open(path, "rt") as f:
        return json.load(f)


def slots(one):
    raw = base64.b64decode(one["dump_u16_le_b64"])
    return list(struct.unpack(f"<{len(raw) // 2}H", raw))


def with_slots(one, values):
    out = copy.deepcopy(one)
    out["dump_u16_le_b64"] = base64.b64encode(struct.pack(f"<{len(values)}H", *values)).decode()
    return out


def run_check(tmp_path, data, capsys):
    path = tmp_path / "dump.json.gz"
    with gzip.open(path, "wt") as f:
        json.dump(data, f)
    rc = checker().main([str(path)])
    return rc, capsys.readouterr().out


def test_h200_dump_read_by_hand():
    # bf16, head dim 128, K: tile 128 x 128, two stages holding GMEM tiles 2 and 1. The SW128
    # atom is 8 rows of 64 elements (128 bytes); the model's slot of (r, c, s) is the byte
    # address 2 * (c % 64 + 64 r + 8192 (c // 64) + 16384 s) with bits 7-9 XORed into bits 4-6,
    # halved. Each slot holds the id of GMEM row 128 * block + r, col c.
    one = load()["configs"]["bf16-d128"]["K"]
    dump = slots(one)
    cases = 0
    for r, c, s in [(0, 0, 0), (1, 0, 0), (0, 1, 0), (7, 9, 0), (0, 64, 0), (9, 70, 0), (0, 0, 1), (127, 127, 1)]:
        byte = 2 * (c % 64 + 64 * r + 8192 * (c // 64) + 16384 * s)
        byte ^= ((byte >> 7) & 7) << 4
        row = 128 * [2, 1][s] + r
        assert dump[byte // 2] == (row * 128 + c) % 65521, (r, c, s)
        cases += 1
    assert len(dump) == 128 * 128 * 2
    REPORT.append(f"flash placement: {cases} slots of the H200's K tile (bf16, d128) read by hand")


def test_h200_placement_is_the_model(tmp_path, capsys):
    """Every configuration's Q, K and V: each loaded element at the model's slot, the DSL's
    printed layout the model's function, each control caught."""
    rc, out = run_check(tmp_path, load(), capsys)
    assert rc == 0, out
    # 6 configurations x 3 tensors x 5 verdicts (loads, printout, placement, 2 controls).
    assert "90 passed, 0 failed" in out
    expected = {"bf16-d128 Q": 128 * 128, "bf16-d128 K": 128 * 128 * 2, "bf16-d128 V": 128 * 128 * 2,
                "bf16-d64 Q": 192 * 64, "bf16-d96 K": 144 * 96 * 2, "bf16-d192 V": 112 * 192 * 2,
                "bf16-d256 K": 80 * 256 * 2, "f16-d128 V": 128 * 128 * 2}
    for label, n in expected.items():
        assert f"PASS {label}: {n} of {n} elements at the model's slots, 0 slots unaddressed" in out, label
    assert out.count("NOT caught") == 0 and out.count(") caught, ") == 36
    REPORT.append(f"flash placement: the H200's dump, 90 verdicts, {len(expected)} element counts as derived")


def test_swapped_slots_are_reported_at_the_first_element(tmp_path, capsys):
    data = load()
    one = data["configs"]["bf16-d128"]["K"]
    dump = slots(one)
    dump[0], dump[1] = dump[1], dump[0]  # elements (0, 0, 0) and (0, 1, 0): ids 0x8000, 0x8001
    data["configs"] = {"bf16-d128": {"K": with_slots(one, dump)}}
    rc, out = run_check(tmp_path, data, capsys)
    assert rc == 1
    assert ("FAIL bf16-d128 K: 32766 of 32768 elements at the model's slots, 0 slots unaddressed; first misplaced "
            "(0, 0, 0) (GMEM row 256, col 0) -> slot 0: holds 0x8001, element id 0x8000") in out, out
    assert "4 passed, 1 failed" in out


def test_incomplete_load_and_other_printout_fail(tmp_path, capsys):
    data = load()
    one = copy.deepcopy(data["configs"]["bf16-d128"]["Q"])
    one["completed"] = [0]
    other = copy.deepcopy(data["configs"]["bf16-d128"]["Q"])
    other["dsl_layout"] = "S<2,4,3> o 0 o ((8,16),(64,2)):((64,512),(1,8192))"  # the swizzle one narrower
    data["configs"] = {"bf16-d128": {"Q": one}, "bf16-d64": {"Q": other}}
    rc, out = run_check(tmp_path, data, capsys)
    assert rc == 1
    assert "FAIL bf16-d128 Q: loads completed [0] (blocks [1])" in out
    assert "FAIL bf16-d64 Q: the DSL's layout S<2,4,3>" in out
    assert "8 passed, 2 failed" in out


def test_failed_run_and_bad_files(tmp_path, capsys):
    data = load()
    data["configs"] = {"bf16-d128": {"V": {"error": "RuntimeError: no kernel"}}}
    rc, out = run_check(tmp_path, data, capsys)
    assert rc == 1 and "FAIL bf16-d128 V: the GPU run failed: RuntimeError: no kernel" in out
    other = tmp_path / "other.json.gz"
    with gzip.open(other, "wt") as f:
        json.dump({"format": "cuteref placement dump 1"}, f)
    pc = checker()
    assert pc.main([str(other)]) == 74
    assert pc.main([str(tmp_path / "missing.json.gz")]) == 74
    assert pc.main([]) == 64
    err = capsys.readouterr().err
    assert "not a placement dump" in err and "missing.json.gz" in err


# --- the backward (flash_bwd_sm90) ---

def swizzled_slot(element, swizzle_bits):
    """The 16-bit slot of unswizzled element offset ELEMENT under SW128 (3 bits) or SW64 (2 bits):
    byte address bits 7.. XORed into bits 4.., the buffer 1024-byte aligned."""
    byte = 2 * element
    byte ^= ((byte >> 7) & ((1 << swizzle_bits) - 1)) << 4
    return byte // 2


@needs_backward
def test_h200_backward_dump_read_by_hand():
    configs = load(DUMP_BACKWARD)["configs"]
    cases = 0
    # bf16 head dim 192, K: tile 96 x 192 of n-block 2, major_mode_size 96 (192 bytes: SW64). The
    # SW64 atom is 8 rows of 32 elements (64 bytes); tiled down the rows first (12 atoms, 256
    # elements each), then across the columns (6 atom columns, 3072 elements each).
    dump = slots(configs["bwd-bf16-d192"]["K"])
    assert len(dump) == 96 * 192
    for r, c in [(0, 0), (1, 0), (0, 1), (4, 0), (7, 31), (8, 5), (0, 32), (5, 40), (95, 191)]:
        slot = swizzled_slot(32 * r + c % 32 + 3072 * (c // 32), 2)
        assert dump[slot] == ((2 * 96 + r) * 192 + c) % 65521, (r, c)
        cases += 1
    # Row 4 under SW64 moves by 32 bytes (slot 144); V of the same configuration is SW128 (no
    # major_mode_size): 8 rows of 64 elements, row 4 moves by 64 bytes (element 256 -> slot 288).
    assert dump[144] == (2 * 96 + 4) * 192 and dump[128] != (2 * 96 + 4) * 192
    v = slots(configs["bwd-bf16-d192"]["V"])
    assert v[288] == (2 * 96 + 4) * 192
    for r, c in [(0, 0), (3, 9), (8, 64), (95, 191)]:
        slot = swizzled_slot(64 * r + c % 64 + 6144 * (c // 64), 3)
        assert v[slot] == ((2 * 96 + r) * 192 + c) % 65521, (r, c)
        cases += 1
    # bf16 head dim 128, Q: tile 80 x 128, SW128, two stages holding m-blocks 1 and 2: 10 atoms
    # of 512 elements down the rows, 5120 per atom column, 10240 per stage.
    q = slots(configs["bwd-bf16-d128"]["Q"])
    assert len(q) == 80 * 128 * 2
    for r, c, s in [(0, 0, 0), (1, 0, 0), (79, 63, 0), (0, 64, 0), (0, 0, 1), (9, 70, 1), (79, 127, 1)]:
        slot = swizzled_slot(64 * r + c % 64 + 5120 * (c // 64) + 10240 * s, 3)
        assert q[slot] == ((80 * (1 + s) + r) * 128 + c) % 65521, (r, c, s)
        cases += 1
    REPORT.append(f"flash placement: {cases} slots of the H200's backward K, V (bf16 d192) and Q (bf16 d128) "
                  "read by hand")


@needs_backward
def test_h200_backward_placement_is_the_model(tmp_path, capsys):
    """Every backward configuration's Q, dO, K and V: each loaded element at the model's slot
    (with FA's major_mode_size), the DSL's printed layout the model's function, each control
    caught."""
    rc, out = run_check(tmp_path, load(DUMP_BACKWARD), capsys)
    assert rc == 0, out
    # 7 configurations x 4 tensors x 5 verdicts.
    assert "140 passed, 0 failed" in out
    # tile rows x hdim x stages: Q and dO tile_m x hdim x Q_stage (dO_stage); K and V tile_n x hdim.
    expected = {"bwd-bf16-d64 Q": 128 * 64 * 2, "bwd-bf16-d64 K": 128 * 64,
                "bwd-bf16-d96 dO": 64 * 96 * 2, "bwd-bf16-d96 V": 128 * 96,
                "bwd-bf16-d128 Q": 80 * 128 * 2, "bwd-bf16-d128 dO": 80 * 128 * 2, "bwd-bf16-d128 K": 128 * 128,
                "bwd-bf16-d128-causal Q": 64 * 128 * 2, "bwd-bf16-d192 dO": 64 * 192,
                "bwd-bf16-d192 K": 96 * 192, "bwd-bf16-d192 V": 96 * 192, "bwd-bf16-d256 Q": 64 * 256 * 2,
                "bwd-bf16-d256 dO": 64 * 256, "bwd-bf16-d256 K": 48 * 256, "bwd-f16-d128 V": 128 * 128}
    for label, n in expected.items():
        assert f"PASS {label}: {n} of {n} elements at the model's slots, 0 slots unaddressed" in out, label
    # K of head dim 192 is SW64 by FA's major_mode_size (96), so its narrower control is SW32.
    assert "PASS bwd-bf16-d192 K: control (swizzle one narrower: tile_to_shape(gmma_atom(K, SW32, 16), (96,192)" in out
    assert out.count("NOT caught") == 0 and out.count(") caught, ") == 56
    REPORT.append(f"flash placement: the H200's backward dump, 140 verdicts, {len(expected)} element counts as derived")


def trace_section(name):
    """FA's backward decisions of configuration NAME (bwd-X: the trace's "X backward")."""
    with gzip.open(TRACE, "rt") as f:
        decisions = json.load(f)["decisions"]
    section = name[len("bwd-"):] + " backward"
    return [d for d in decisions if d.get("section") == section]


@needs_backward
def test_backward_parameters_are_the_ones_fa_chose():
    """placement.py's backward calls against the decisions FA's backward compile recorded: its
    first four make_smem_layout calls (sQ, sdO, sK, sV in _setup_attributes) and its first four
    G2S TMA atoms (Q, K, V, dO)."""
    configs = load(DUMP_BACKWARD)["configs"]
    checked = 0
    for name, tensors in configs.items():
        decisions = trace_section(name)
        layouts = [d for d in decisions if d["api"] == "quack.sm90_utils.make_smem_layout"][:4]
        atoms = [d for d in decisions if d["kind"] == "tma_atom" and "GMEM -> SMEM" in d["args"]["op"]][:4]
        assert len(layouts) == 4 and len(atoms) == 4, name
        for tensor, made in zip(("Q", "dO", "K", "V"), layouts):
            one = tensors[tensor]
            assert made["args"]["tile"] == [one["tile"], one["hdim"]], (name, tensor)
            assert made["args"]["stage"] == one["stages"], (name, tensor)
            assert made["args"]["major_mode_size"] == one["major_mode_size"], (name, tensor)
            assert made["args"]["dtype"]["dtype"] == {"bf16": "BFloat16", "f16": "Float16"}[one["dtype"]]
            assert made["result"]["layout"] == one["dsl_layout"], (name, tensor)
            checked += 1
        for tensor, atom in zip(("Q", "K", "V", "dO"), atoms):
            one = tensors[tensor]
            assert atom["args"]["cta_tiler"] == [one["tile"], one["hdim"]], (name, tensor)
            assert atom["args"]["smem_layout_"] == one["dsl_tma_layout"], (name, tensor)
            checked += 1
    assert checked == 7 * 8
    REPORT.append(f"flash placement: {checked} backward SMEM layouts and TMA atoms the ones FA's backward recorded")


@needs_backward
def test_backward_dump_perturbed_is_refused(tmp_path, capsys):
    data = load(DUMP_BACKWARD)
    k = data["configs"]["bwd-bf16-d192"]["K"]
    swapped = slots(k)
    swapped[0], swapped[1] = swapped[1], swapped[0]  # elements (0, 0) and (0, 1): ids 0x9000, 0x9001
    q = data["configs"]["bwd-bf16-d128"]["Q"]
    stages = slots(q)
    stages = stages[10240:] + stages[:10240]  # m-block 2 in stage 0, m-block 1 in stage 1
    default_mms = copy.deepcopy(k)
    default_mms["major_mode_size"] = None  # as if FA had passed none: the model picks SW128
    data["configs"] = {"bwd-bf16-d192": {"K": with_slots(k, swapped)}, "bwd-bf16-d128": {"Q": with_slots(q, stages)},
                       "bwd-bf16-d192-as-default": {"K": default_mms}}
    rc, out = run_check(tmp_path, data, capsys)
    assert rc == 1
    assert ("FAIL bwd-bf16-d192 K: 18430 of 18432 elements at the model's slots, 0 slots unaddressed; first misplaced "
            "(0, 0) (GMEM row 192, col 0) -> slot 0: holds 0x9001, element id 0x9000") in out, out
    # (0, 0, 0) is GMEM row 80 (id 80 * 128 = 0x2800); stage 0 now holds row 160 (0x5000).
    assert ("FAIL bwd-bf16-d128 Q: 0 of 20480 elements at the model's slots, 0 slots unaddressed; first misplaced "
            "(0, 0, 0) (GMEM row 80, col 0) -> slot 0: holds 0x5000, element id 0x2800") in out, out
    # SW128's (0, 32) is slot 32; the H200 put SW64's row 1 there: GMEM row 193, col 0 (0x90c0).
    assert "FAIL bwd-bf16-d192-as-default K: the DSL's layout S<2,4,3>" in out
    assert ("first misplaced (0, 32) (GMEM row 192, col 32) -> slot 32: holds 0x90c0, element id 0x9020") in out, out
    # The control one narrower than SW128 is SW64, the H200's own placement: not caught.
    assert "FAIL bwd-bf16-d192-as-default K: control (swizzle one narrower: tile_to_shape(gmma_atom(K, SW64, 16)" in out
    assert "NOT caught" in out
    assert "10 passed, 5 failed" in out
    REPORT.append("flash placement: 3 perturbed backward dumps refused at the first differing element")


# --- the epilogues' TMA stores (forward O, backward dK and dV) ---

DUMP_STORES = os.path.join(FLASH, "traces", "placement_stores.json.gz")
DUMP_BACKWARD_STORES = os.path.join(FLASH, "traces", "placement_backward_stores.json.gz")
needs_stores = pytest.mark.skipif(not (os.path.isfile(DUMP_STORES) and os.path.isfile(DUMP_BACKWARD_STORES)),
                                  reason="gpu/flash/traces/placement_*stores.json.gz is missing")
STORE_POISON = 0xFFFC  # placement.py's GMEM before a store


def gmem_at(gmem, hdim, batch, row, head, col):
    """Element (batch, row, head, col) of placement.py's (2, 512, 2, hdim) GMEM tensor."""
    return gmem[((batch * 512 + row) * 2 + head) * hdim + col]


@needs_stores
def test_h200_store_dumps_read_by_hand():
    # Each shared-memory slot held its own index, so GMEM element (row, col) of the stored tile
    # holds the slot the SMEM layout gives (row, col): the swizzled_slot of its unswizzled offset.
    cases = 0
    # Forward O, bf16 head dim 128: tile 128 x 128 of m-block 1 (GMEM rows 128..255), SW128, 8
    # rows of 64 elements per atom, 16 atoms down the rows (8192 elements per atom column).
    o = slots(load(DUMP_STORES)["configs"]["bf16-d128"]["O"])
    assert len(o) == 2 * 512 * 2 * 128
    for r, c in [(0, 0), (0, 1), (1, 0), (1, 8), (7, 63), (8, 0), (0, 64), (9, 70), (127, 127)]:
        assert gmem_at(o, 128, 1, 128 + r, 1, c) == swizzled_slot(64 * r + c % 64 + 8192 * (c // 64), 3), (r, c)
        cases += 1
    # Row 1 under SW128 moves by 16 bytes: GMEM (1, 0) holds slot 72, (1, 8) slot 64.
    assert gmem_at(o, 128, 1, 129, 1, 0) == 72 and gmem_at(o, 128, 1, 129, 1, 8) == 64
    # Outside the tile: the rows either side, the other head and the other batch keep the poison.
    for b, row, h, c in [(1, 127, 1, 0), (1, 256, 1, 127), (1, 128, 0, 0), (0, 128, 1, 0)]:
        assert gmem_at(o, 128, b, row, h, c) == STORE_POISON, (b, row, h, c)
        cases += 1
    # Backward dK, bf16 head dim 192: sK's layout with major_mode_size 96 (SW64: 8 rows of 32
    # elements, 12 atoms down the 96 rows, 3072 per atom column), n-block 2 (GMEM rows 192..287);
    # dV of the same configuration through sV's SW128 layout (6144 per atom column).
    backward = load(DUMP_BACKWARD_STORES)["configs"]["bwd-bf16-d192"]
    dk, dv = slots(backward["dK"]), slots(backward["dV"])
    for r, c in [(0, 0), (1, 0), (4, 0), (7, 31), (0, 32), (5, 40), (95, 191)]:
        assert gmem_at(dk, 192, 1, 192 + r, 1, c) == swizzled_slot(32 * r + c % 32 + 3072 * (c // 32), 2), (r, c)
        assert gmem_at(dv, 192, 1, 192 + r, 1, c) == swizzled_slot(64 * r + c % 64 + 6144 * (c // 64), 3), (r, c)
        cases += 2
    # Row 4: SW64 moves its elements by 32 bytes (element (4, 16), slot 144 unswizzled, holds
    # 128), SW128 by 64 bytes (element (4, 32), slot 288 unswizzled, holds 256).
    assert gmem_at(dk, 192, 1, 196, 1, 16) == 128 and gmem_at(dv, 192, 1, 196, 1, 32) == 256
    REPORT.append(f"flash placement: {cases} GMEM elements of the H200's O (bf16 d128) and dK, dV (bf16 d192) "
                  "stores read by hand")


@needs_stores
def test_h200_store_placement_is_the_model(tmp_path, capsys):
    """Every store: each tile element of GMEM holds the model's slot, the rest of GMEM its
    poison, the DSL's printed layout the model's function, each control caught."""
    rc, out = run_check(tmp_path, load(DUMP_STORES), capsys)
    assert rc == 0, out
    # 6 configurations x O x 5 verdicts (completion, printout, placement, 2 controls).
    assert "30 passed, 0 failed" in out
    rc_b, out_b = run_check(tmp_path, load(DUMP_BACKWARD_STORES), capsys)
    assert rc_b == 0, out_b
    # 7 configurations x dK, dV x 5 verdicts.
    assert "70 passed, 0 failed" in out_b
    # tile rows x hdim; GMEM holds 2 x 512 x 2 x hdim elements.
    expected = {"bf16-d64 O": (192, 64), "bf16-d96 O": (192, 96), "bf16-d128 O": (128, 128),
                "bf16-d256 O": (128, 256), "f16-d128 O": (128, 128), "bwd-bf16-d64 dK": (128, 64),
                "bwd-bf16-d96 dV": (128, 96), "bwd-bf16-d128-causal dK": (128, 128),
                "bwd-bf16-d192 dK": (96, 192), "bwd-bf16-d192 dV": (96, 192), "bwd-bf16-d256 dV": (48, 256),
                "bwd-f16-d128 dK": (128, 128)}
    both = out + out_b
    for label, (tile, hdim) in expected.items():
        n, outside = tile * hdim, 2 * 512 * 2 * hdim - tile * hdim
        assert (f"PASS {label}: {n} of {n} GMEM elements hold the model's slot; {outside} outside the tile "
                "still poisoned") in both, label
    # dK of head dim 192 leaves through sK's SW64 layout (major_mode_size 96), dV through SW128.
    assert "PASS bwd-bf16-d192 dK: control (swizzle one narrower: tile_to_shape(gmma_atom(K, SW32, 16), (96,192)" in out_b
    assert "PASS bwd-bf16-d192 dV: control (swizzle one narrower: tile_to_shape(gmma_atom(K, SW64, 16), (96,192)" in out_b
    assert both.count("NOT caught") == 0 and both.count(") caught, ") == 12 + 28
    REPORT.append(f"flash placement: the H200's store dumps, 100 verdicts, {len(expected)} element counts as derived")


def decisions_of(section):
    with gzip.open(TRACE, "rt") as f:
        return [d for d in json.load(f)["decisions"] if d.get("section") == section]


@needs_stores
def test_store_parameters_are_the_ones_fa_chose():
    """placement.py's stores against the decisions FA's compiles recorded: the forward's sO
    (its fourth make_smem_layout, after sQ, sK, sV) and its S2G TMA atom; the backward's sK
    and sV (third and fourth), through which dK and dV leave, and its two S2G atoms (dK, dV)."""
    checked = 0
    plans = [(DUMP_STORES, " forward", [("O", 3)]), (DUMP_BACKWARD_STORES, " backward", [("dK", 2), ("dV", 3)])]
    for path, suffix, tensors in plans:
        for name, stored in load(path)["configs"].items():
            decisions = decisions_of(name.replace("bwd-", "") + suffix)
            layouts = [d for d in decisions if d["api"] == "quack.sm90_utils.make_smem_layout"]
            atoms = [d for d in decisions if d["kind"] == "tma_atom" and "SMEM -> GMEM" in d["args"]["op"]]
            assert len(atoms) == len(tensors), (name, len(atoms))
            for (tensor, which), atom in zip(tensors, atoms):
                one, made = stored[tensor], layouts[which]
                assert made["args"]["tile"] == [one["tile"], one["hdim"]], (name, tensor)
                assert made["args"]["stage"] is None and one["stages"] is None, (name, tensor)
                assert made["args"].get("major_mode_size") == one["major_mode_size"], (name, tensor)
                assert made["args"]["dtype"]["dtype"] == {"bf16": "BFloat16", "f16": "Float16"}[one["dtype"]]
                assert made["result"]["layout"] == one["dsl_layout"], (name, tensor)
                assert atom["args"]["cta_tiler"] == [one["tile"], one["hdim"]], (name, tensor)
                assert atom["args"]["smem_layout_"] == one["dsl_tma_layout"], (name, tensor)
                checked += 1
    assert checked == 6 + 7 * 2
    REPORT.append(f"flash placement: {checked} store SMEM layouts and TMA atoms the ones FA's compiles recorded")


@needs_stores
def test_store_dumps_perturbed_are_refused(tmp_path, capsys):
    data = load(DUMP_STORES)
    o = data["configs"]["bf16-d128"]["O"]
    swapped = slots(o)
    first, second = ((1 * 512 + 128) * 2 + 1) * 128, ((1 * 512 + 128) * 2 + 1) * 128 + 1  # (0, 0), (0, 1)
    swapped[first], swapped[second] = swapped[second], swapped[first]
    stray = slots(data["configs"]["f16-d128"]["O"])
    stray[((1 * 512 + 127) * 2 + 1) * 128 + 5] = 0  # batch 1, row 127 (just above the tile), head 1, col 5
    k = load(DUMP_BACKWARD_STORES)["configs"]["bwd-bf16-d192"]["dK"]
    default_mms = copy.deepcopy(k)
    default_mms["major_mode_size"] = None  # as if FA had passed none: the model picks SW128
    load_entry = load()["configs"]["bf16-d128"]["Q"]
    short = copy.deepcopy(o)
    short["dump_u16_le_b64"] = base64.b64encode(struct.pack("<4H", 0, 1, 2, 3)).decode()
    data["configs"] = {"bf16-d128": {"O": with_slots(o, swapped)}, "f16-d128": {"O": with_slots(data["configs"]["f16-d128"]["O"], stray)},
                       "bwd-bf16-d192-as-default": {"dK": default_mms}, "a-load": {"Q": load_entry},
                       "short": {"O": short}}
    rc, out = run_check(tmp_path, data, capsys)
    assert rc == 1
    assert ("FAIL bf16-d128 O: 16382 of 16384 GMEM elements hold the model's slot (first differing (0, 0) "
            "(GMEM row 128, col 0): holds 0x0001, the model's slot 0 (0x0000)); 245760 outside the tile still "
            "poisoned") in out, out
    assert ("FAIL f16-d128 O: 16384 of 16384 GMEM elements hold the model's slot; 1 of 245760 outside the tile "
            "written, first (batch 1, row 127, head 1, col 5) holds 0x0000") in out, out
    # SW128's (0, 32) is slot 32; the H200 stored sK's SW64 slot 3072 (atom column 1) there.
    assert "FAIL bwd-bf16-d192-as-default dK: the DSL's layout S<2,4,3>" in out
    assert "first differing (0, 32) (GMEM row 192, col 32): holds 0x0c00, the model's slot 32 (0x0020)" in out, out
    # The control one narrower than SW128 is SW64, the H200's own placement: not caught.
    assert "FAIL bwd-bf16-d192-as-default dK: control (swizzle one narrower: tile_to_shape(gmma_atom(K, SW64, 16)" in out
    assert "NOT caught" in out
    assert "FAIL a-load Q: a load in a store dump" in out
    assert "FAIL short O: the dump holds 4 elements, GMEM [2, 512, 2, 128] has 262144" in out
    # bf16-d128 and f16-d128: 4 passed, 1 failed each; as-default: 2 passed, 3 failed; 2 more failed.
    assert "10 passed, 7 failed" in out
    REPORT.append("flash placement: 5 perturbed store dumps refused at the first differing element")
