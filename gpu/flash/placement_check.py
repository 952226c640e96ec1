#!/usr/bin/env python3
"""The model's SMEM layouts of FlashAttention's operand tiles against where the hardware put
each element (placement.py's dump, made on an SM90 GPU; gpu/flash/traces/placement.json.gz holds
the H200's forward Q, K and V, placement_backward.json.gz its backward Q, dO, K and V).

    placement_check.py DUMP.json.gz

A store dump (placement.py --stores: the forward's O and the backward's dK and dV leaving
shared memory by FA's TMA stores, traces/placement_stores.json.gz and
placement_backward_stores.json.gz) is checked the other way round: every shared-memory slot
held its own index, so for every (row, col) of the tile the GMEM element the store wrote
(row block * tile + row of head `head`, batch `batch`) must hold the model's slot of (row, col),
and every GMEM element outside the tile must still hold the poison; the same two controls.

For each configuration and tensor: the model derives the layout from FA's parameters (the SM90
atom choice for the tile's contiguous extent, or the major_mode_size FA's backward passes,
tile_to_shape over (tile, hdim[, stages]), cuteref.dsl.model.smem_tile). Checks:
every load completed; the DSL's printed layout, read with from_dsl(bits), is the model's
function; for every (row, col[, stage]) loaded, the dump's slot at the model's offset (swizzle
on byte addresses, the buffer 1024-byte aligned) holds that element's id, and every slot the
model does not address still holds the poison. Controls: the same read-back against the model's
layout with the swizzle one narrower, and with the other majorness, must each fail, reported
with the first differing slot. Prints `N passed, M failed`; exit 1 on any failure, 74 when DUMP
cannot be read, 64 for a bad command line. Needs cuteref (the model), not the GPU.
"""
import base64
import gzip
import json
import os
import struct
import sys

import cuteref
from cuteref.dsl import model

FORMAT = "cuteref placement dump 2"
STORE_FORMAT = "cuteref placement store dump 1"
NARROWER = {"SW128": "SW64", "SW64": "SW32", "SW32": "INTER"}
SMEM_POISON = 0xFFFE  # placement.py's value in shared memory before the loads
BITS = 16


def element_id(row, col, hdim, modulus):
    return (row * hdim + col) % modulus


def coords(one):
    """(model coordinate, GMEM row, col) of every element TENSOR's loads brought in."""
    tile, D, stages, blocks = one["tile"], one["hdim"], one["stages"], one["blocks"]
    for s, block in enumerate(blocks):
        for r in range(tile):
            for c in range(D):
                yield ((r, c, s) if stages is not None else (r, c)), block * tile + r, c


def placement(layout, dump, one):
    """(elements at LAYOUT's slots, elements loaded, first misplaced or None, slots LAYOUT does not
    address that lost the poison)."""
    D, mod = one["hdim"], one["id_modulus"]
    hit, first, addressed = 0, None, set()
    total = 0
    for coord, row, col in coords(one):
        total += 1
        slot = int(layout(coord))
        addressed.add(slot)
        want = element_id(row, col, D, mod)
        got = dump[slot] if 0 <= slot < len(dump) else None
        if got == want:
            hit += 1
        elif first is None:
            shown = "out of the buffer" if got is None else f"0x{got:04x}"
            first = f"{coord} (GMEM row {row}, col {col}) -> slot {slot}: holds {shown}, element id 0x{want:04x}"
    stray = [i for i in range(len(dump)) if i not in addressed and dump[i] != SMEM_POISON]
    return hit, total, first, stray


def gmem_index(one, row, col):
    """The index of GMEM element (row, col) of the stored (head, batch) slice in the dumped
    (batch, seqlen, heads, hdim) tensor (row-major)."""
    _, seqlen, heads, hdim = one["gmem_shape"]
    return ((one["batch"] * seqlen + row) * heads + one["head"]) * hdim + col


def store_placement(layout, gmem, one):
    """(tile elements holding LAYOUT's slot, tile elements, first differing or None, GMEM
    elements outside the tile that lost the poison, the first of them or None) for a store."""
    tile, D, block = one["tile"], one["hdim"], one["blocks"][0]
    hit, total, first, inside = 0, 0, None, set()
    for r in range(tile):
        for c in range(D):
            total += 1
            want = int(layout((r, c)))
            index = gmem_index(one, block * tile + r, c)
            inside.add(index)
            got = gmem[index]
            if got == want:
                hit += 1
            elif first is None:
                first = (f"({r}, {c}) (GMEM row {block * tile + r}, col {c}): holds 0x{got:04x}, "
                         f"the model's slot {want} (0x{want:04x})")
    poison = one["gmem_poison"]
    stray = [i for i, v in enumerate(gmem) if v != poison and i not in inside]
    where = None
    if stray:
        b, rest = divmod(stray[0], one["gmem_shape"][1] * one["gmem_shape"][2] * D)
        row, rest = divmod(rest, one["gmem_shape"][2] * D)
        head, col = divmod(rest, D)
        where = f"(batch {b}, row {row}, head {head}, col {col}) holds 0x{gmem[stray[0]]:04x}"
    return hit, total, first, len(stray), where


def shape_of(one):
    return [one["tile"], one["hdim"]] + ([one["stages"]] if one["stages"] is not None else [])


def controls(one, mms):
    """{what: the model's expression} of the two layouts the read-back must refuse: the swizzle
    one narrower (a swizzle where the tile has none) and the other majorness."""
    kind = model.atom_kind("K", one["hdim"] if mms is None else mms, BITS)
    shape = shape_of(one)
    order = model.tup([0, 1, 2][:len(shape)])
    swizzle = kind.split("_")[1]
    other, what = ((NARROWER[swizzle], "swizzle one narrower") if swizzle in NARROWER
                   else ("SW32", "a swizzle where the tile has none"))
    return {what: f"tile_to_shape(gmma_atom(K, {other}, {BITS}), {model.tup(shape)}, {order})",
            "other majorness": model.smem_tile("COL_MAJOR", [one["tile"], one["hdim"]], BITS, one["stages"])[0]}


class Verdicts:
    """One tensor's PASS / FAIL lines, counted."""

    def __init__(self, label):
        self.label, self.passed, self.failed, self.lines = label, 0, 0, []

    def __call__(self, ok, text):
        self.passed, self.failed = self.passed + ok, self.failed + (not ok)
        self.lines.append(f"{'PASS' if ok else 'FAIL'} {self.label}: {text}")

    def result(self):
        return self.passed, self.failed, self.lines


def dumped_u16(one):
    """The dump's 16-bit values (shared memory for a load, GMEM for a store)."""
    raw = base64.b64decode(one["dump_u16_le_b64"])
    return struct.unpack(f"<{len(raw) // 2}H", raw)


def model_layout_verdicts(verdict, one):
    """The model's layout for the tensor (the forward's dumps have no major_mode_size: FA's
    forward passes none), after the verdict that the DSL's printout is the same function.
    Returns (major_mode_size, the model's call, its layout)."""
    mms = one.get("major_mode_size")
    call, mine = model.smem_tile("ROW_MAJOR", [one["tile"], one["hdim"]], BITS, one["stages"], mms)
    printed = one.get("dsl_layout") or ""
    same = cuteref.equal(mine, cuteref.from_dsl(printed, bits=BITS)) if printed else "no printout"
    verdict(str(same) == "true", f"the DSL's layout {printed} is the model's {call}: {same}")
    return mms, call, mine


def control_verdicts(verdict, one, mms, place):
    """Each control layout must be refused by `place` (placement or store_placement)."""
    for what, expr in controls(one, mms).items():
        c_hit, c_total, wrong = place(cuteref.eval(expr))[:3]
        verdict(wrong is not None, f"control ({what}: {expr}) caught" +
                (f", {c_hit} of {c_total} elements at its slots; first {wrong}" if wrong else " NOT caught"))


def check(name, tensor, one):
    """(passed, failed, lines) for one tensor of one configuration."""
    if one.get("direction") == "store":
        return check_store(name, tensor, one)
    dump = dumped_u16(one)
    verdict = Verdicts(f"{name} {tensor}")
    completed = one.get("completed", [])
    verdict(len(completed) == len(one["blocks"]) and all(v == 1 for v in completed),
            f"loads completed {completed} (blocks {one['blocks']})")
    mms, call, mine = model_layout_verdicts(verdict, one)
    hit, total, first, stray = placement(mine, dump, one)
    verdict(first is None and not stray and hit == total,
            f"{hit} of {total} elements at the model's slots, {len(dump) - total} slots unaddressed"
            + (f"; first misplaced {first}" if first else "")
            + (f"; {len(stray)} unaddressed slots written, first {stray[0]}" if stray else ""))
    control_verdicts(verdict, one, mms, lambda layout: placement(layout, dump, one))
    return verdict.result()


def check_store(name, tensor, one):
    """(passed, failed, lines) for one store of one configuration: the GMEM dump against the
    model's slot of each tile element."""
    gmem = dumped_u16(one)
    verdict = Verdicts(f"{name} {tensor}")
    expected = 1
    for extent in one["gmem_shape"]:
        expected *= extent
    if len(gmem) != expected or one["hdim"] != one["gmem_shape"][3]:
        verdict(False, f"the dump holds {len(gmem)} elements, GMEM {one['gmem_shape']} has {expected}")
        return verdict.result()
    completed = one.get("completed", [])
    verdict(completed == [1], f"store completed {completed} (block {one['blocks']})")
    mms, call, mine = model_layout_verdicts(verdict, one)
    hit, total, first, stray, where = store_placement(mine, gmem, one)
    outside = len(gmem) - total
    verdict(first is None and not stray and hit == total,
            f"{hit} of {total} GMEM elements hold the model's slot"
            + (f" (first differing {first})" if first else "")
            + (f"; {stray} of {outside} outside the tile written, first {where}" if stray
               else f"; {outside} outside the tile still poisoned"))
    control_verdicts(verdict, one, mms, lambda layout: store_placement(layout, gmem, one))
    return verdict.result()


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
    if not isinstance(data, dict) or data.get("format") not in (FORMAT, STORE_FORMAT):
        print(f"error: {argv[0]}: not a placement dump ({FORMAT!r} or {STORE_FORMAT!r})", file=sys.stderr)
        return 74
    store = data["format"] == STORE_FORMAT
    passed = failed = 0
    for name, tensors in data["configs"].items():
        for tensor, one in tensors.items():
            if "error" in one:
                failed += 1
                print(f"FAIL {name} {tensor}: the GPU run failed: {one['error']}")
                continue
            if (one.get("direction") == "store") != store:
                failed += 1
                print(f"FAIL {name} {tensor}: a {'load' if store else 'store'} in a "
                      f"{'store' if store else 'load'} dump")
                continue
            p, f, lines = check(name, tensor, one)
            passed, failed = passed + p, failed + f
            print("\n".join(lines))
    print(f"placement ({os.path.basename(argv[0])}): {passed} passed, {failed} failed")
    return 1 if failed or not passed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
