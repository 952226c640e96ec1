#!/usr/bin/env python3
"""The model's SMEM layout of FlashAttention's K tile against where the hardware put each
element (placement.py's dump, made on an SM90 GPU; gpu/flash/traces/placement.json.gz holds
the H200's).

    placement_check.py DUMP.json.gz

For each configuration: the model derives K's layout from FA's parameters (the SM90 atom choice,
tile_to_shape over (tile_n, hdim, stages), cuteref.dsl.model.smem_tile), and for every (row,
col, stage) loaded, the dump's slot at the model's offset (swizzle on byte addresses) must hold
that element's id; the DSL's printed layout, read with from_dsl(bits), must be the same
function. Controls: the same read-back against the model's layout with the swizzle one
narrower, and with the other majorness, must each fail, reported with the first differing slot.
Prints `N passed, M failed`; exit 1 on any failure, 74 when DUMP cannot be read, 64 for a bad
command line. Needs cuteref (the model), not the GPU.
"""
import base64
import gzip
import json
import os
import struct
import sys

import cuteref
from cuteref.dsl import model

NARROWER = {"SW128": "SW64", "SW64": "SW32", "SW32": "INTER"}


def element_id(row, col, hdim, modulus):
    return (row * hdim + col) % modulus


def first_misplaced(layout, dump, cfg):
    """None when every loaded element sits at LAYOUT's slot, else the first that does not."""
    tile_n, D, stages, mod = cfg["tile_n"], cfg["hdim"], cfg["stages"], cfg["id_modulus"]
    for s in range(stages):
        for r in range(tile_n):
            for c in range(D):
                slot = int(layout((r, c, s)))
                want = element_id(s * tile_n + r, c, D, mod)
                got = dump[slot] if 0 <= slot < len(dump) else None
                if got != want:
                    return f"(row {r}, col {c}, stage {s}) -> slot {slot}: holds id {got}, element id {want}"
    return None


def check(name, cfg):
    """(passed, failed, lines) for one configuration."""
    bits = 16
    raw = base64.b64decode(cfg["dump_u16_le_b64"])
    dump = struct.unpack(f"<{len(raw) // 2}H", raw)
    shape = [cfg["tile_n"], cfg["hdim"]]
    call, mine = model.smem_tile("ROW_MAJOR", shape, bits, cfg["stages"])
    lines, passed, failed = [], 0, 0

    def verdict(ok, text):
        nonlocal passed, failed
        passed, failed = passed + ok, failed + (not ok)
        lines.append(f"{'PASS' if ok else 'FAIL'} {name}: {text}")

    printed = cfg.get("dsl_layout") or ""
    same = cuteref.equal(mine, cuteref.from_dsl(printed, bits=bits)) if printed else "no printout"
    verdict(str(same) == "true", f"the DSL's layout {printed} is the model's {call}: {same}")
    miss = first_misplaced(mine, dump, cfg)
    count = cfg["tile_n"] * cfg["hdim"] * cfg["stages"]
    verdict(miss is None, f"{count} elements at the model's slots" + (f"; first misplaced {miss}" if miss else ""))
    kind = model.atom_kind("K", cfg["hdim"], bits)
    controls = {"swizzle one narrower": f"tile_to_shape(gmma_atom(K, {NARROWER.get(kind.split('_')[1], 'INTER')}, {bits}), "
                                        f"{model.tup(shape + [cfg['stages']])}, (0,1,2))",
                "other majorness": model.smem_tile("COL_MAJOR", shape, bits, cfg["stages"])[0]}
    for what, expr in controls.items():
        wrong = first_misplaced(cuteref.eval(expr), dump, cfg)
        verdict(wrong is not None, f"control ({what}: {expr}) caught" + (f": {wrong}" if wrong else " NOT caught"))
    return passed, failed, lines


def main(argv):
    if len(argv) != 1:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 64
    try:
        with gzip.open(argv[0], "rt") as f:
            data = json.load(f)
    except (OSError, ValueError, EOFError) as e:
        print(f"error: {argv[0]}: {e}", file=sys.stderr)
        return 74
    if data.get("format") != "cuteref placement dump 1":
        print(f"error: {argv[0]}: not a placement dump", file=sys.stderr)
        return 74
    passed = failed = 0
    for name, cfg in data["configs"].items():
        if "error" in cfg:
            failed += 1
            print(f"FAIL {name}: the GPU run failed: {cfg['error']}")
            continue
        p, f, lines = check(name, cfg)
        passed, failed = passed + p, failed + f
        print("\n".join(lines))
    print(f"placement ({os.path.basename(argv[0])}): {passed} passed, {failed} failed")
    return 1 if failed or not passed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
