"""FlashAttention's Q, K and V tiles as an H200 placed them in shared memory
(gpu/flash/traces/placement.json.gz, written by gpu/flash/placement.py), against the model
(gpu/flash/placement_check.py), and dumps altered by hand that the check must refuse. Expected
slots are derived by hand from the SW128 swizzle on byte addresses; element ids follow
placement.py's fill ((row * hdim + col) mod 65521 in head 1, batch 1).
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
pytestmark = pytest.mark.skipif(not os.path.isfile(DUMP), reason="gpu/flash/traces/placement.json.gz is missing")


def checker():
    if FLASH not in sys.path:
        sys.path.insert(0, FLASH)
    import placement_check
    return placement_check


def load():
    with gzip.open(DUMP, "rt") as f:
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
