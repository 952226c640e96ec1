#!/usr/bin/env python3
"""The CuTe DSL's copy atoms and tiled copies against the model's (model/atoms/copy_atom, tiled_copy).

    dsl_copies.py --cuteref build/cli/cuteref --dsl .vendor/dsl [--seed 1] [--cases 320] [--c-atom-cases 96]

The DSL (nvidia-cutlass-dsl, ./run installs it) builds copy atoms and tiled copies on the host
inside traced @cute.jit calls (nothing is compiled; worker processes, a case that crashes the DSL
is recorded and a new worker takes the rest): every copy atom below for every element width of
8 to 64 bits (thr_id, layout_src_tv, layout_dst_tv), and make_tiled_copy_tv(atom, thr, val) over
UniversalCopy (8 to 128 bits), cp.async (CopyG2SOp), ldmatrix and stmatrix atoms with 8- to
64-bit elements and seeded thread/value layouts, make_tiled_copy_A/B/C of tiled MMAs (SM80
mma.sync and SM90 wgmma, several atom layouts), and make_tiled_copy_C_atom of the same tiled MMAs
with an epilogue's store atom (UniversalCopy of 8 to 128 bits, stmatrix x1/x2/x4 plain and
.trans) of 8- to 32-bit output elements. Every static property it prints is compared with the
model's tiled copy of the same CuTe C++ names (make_tiled_copy, make_tiled_copy_A/B/C/C_atom):

  size                 tiled_copy_size(TC)                     by value
  tiler_mn             tiled_copy_tiler(TC)                    by value (make_tiled_copy_C_atom's
                                                               pair of layouts: each mode as a function)
  layout_tv_tiled      tiled_copy_layout(TC, TV)               as functions
  layout_src_tv_tiled  tiled_copy_layout(TC, S)                as functions
  layout_dst_tv_tiled  tiled_copy_layout(TC, D)                as functions
  the atom's thr_id, layout_src_tv, layout_dst_tv
                       copy_thrid(ATOM), copy_layout(ATOM, Src|Dst, BITS)
  every thread's partition_S / partition_D of an identity tensor (make_identity_tensor: the
  DSL prints `tensor<(0,24) o LAYOUT>`, the first coordinate and a layout with scaled-basis
  strides, no pointer)
                       partition_and_offset_S|D(TC, t, (M,N):(1@0,1@1)): the layout as a
                       function, the coordinate by value (M,N: the tiler's extents repeated, for
                       make_tiled_copy_C_atom the tiled MMA's tile repeated)

"As functions": the same printout (static marks aside), else `DSL == MODEL` in the model, which
compares size and the value (an integer or a coordinate) at every index. Refusals are compared
too: an input both refuse counts as agreeing, one only the DSL refuses fails, one only the model
refuses fails unless it is a recorded disagreement kind (corpus/vendor/dsl_disagreements.txt,
checked here on the DSL's own answer before it is counted apart).

Negative control: the same comparator is run on wrong answers, each DSL answer against the
model's answer for the next case, and every coordinate moved by one; the test fails unless
every kind of comparison rejects some of them, within each kind of case (copy atom,
make_tiled_copy_tv, _A, _B, _C, _C_atom) too, and every moved coordinate is rejected.
Exit 0 when everything agrees, 1 otherwise, 77 (skip) without the DSL.
"""

import argparse
import json
import math
import os
import random
import re
import subprocess
import sys
from collections import defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from dsl_atoms import batch  # noqa: E402  (`cuteref batch`, one answer line per expression)

# Element widths and the DSL type the atom is made for (Copy_Atom<Op, T>).
TYPE_NAMES = {8: "Int8", 16: "Float16", 32: "Float32", 64: "Float64"}


def atom_name(atom):
    """CuTe C++'s Operation name of an atom spec (the model's copy_atom names)."""
    kind = atom[0]
    if kind == "U":
        return f"UniversalCopy<uint{atom[1]}_t>"
    if kind in ("CA", "CG"):
        return f"SM80_CP_ASYNC_CACHE{'ALWAYS' if kind == 'CA' else 'GLOBAL'}<uint{atom[1]}_t>"
    n, tr = atom[1], atom[2]
    if kind == "LDSM":
        return f"SM75_U16x{2 * n}_LDSM_T" if tr else f"SM75_U32x{n}_LDSM_N"
    return f"SM90_U16x{2 * n}_STSM_T" if tr else f"SM90_U32x{n}_STSM_N"


def atom_values(atom, width):
    """The values one thread of the atom copies, in elements of `width` bits (0: not whole)."""
    bits = atom[1] if atom[0] in ("U", "CA", "CG") else 32 * atom[1]
    return bits // width if bits % width == 0 else 0


def compact(shape, order):
    """Compact strides for a flat shape, the modes taking strides in `order`."""
    stride, s = [0] * len(shape), 1
    for k in order:
        stride[k] = s
        s *= shape[k]
    return stride


def divisors(n):
    return [d for d in range(1, n + 1) if n % d == 0]


def text(shape, stride):
    f = lambda x: "(" + ",".join(f(e) for e in x) + ")" if isinstance(x, (tuple, list)) else str(x)
    return f"{f(shape)}:{f(stride)}"


def tv_case(rng):
    """make_tiled_copy_tv(atom, thr, val): a seeded atom, element width and layouts."""
    family = rng.choice(["U", "U", "CA", "LDSM", "STSM"])
    if family == "U":
        atom = ("U", rng.choice([8, 16, 32, 64, 128]))
    elif family == "CA":
        atom = rng.choice([("CA", 32), ("CA", 64), ("CA", 128), ("CG", 128)])
    else:
        atom = (family, rng.choice([1, 2, 4]), rng.choice([False, True]))
    width = rng.choice([w for w in (8, 16, 32, 64) if atom_values(atom, w)])
    if family in ("LDSM", "STSM"):  # .trans moves 16-bit elements: 8 or 16 bits (the model refuses 32)
        width = rng.choice([w for w in ((8, 16) if atom[2] else (8, 16, 32)) if atom_values(atom, w)])
        threads = rng.choice([32, 64, 128] * 8 + [16])  # 16: fewer threads than the atom's (refused)
    else:
        threads = rng.choice([1, 2, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 256])
    tm = rng.choice(divisors(threads))
    tn = threads // tm
    if tm % 2 == 0 and tm > 2 and rng.random() < 0.25:  # a nested thread mode ((2, tm/2), tn)
        leaves = [2, tm // 2, tn]
        order = list(range(3))
        rng.shuffle(order)
        st = compact(leaves, order)
        thr = ((2, tm // 2), tn), ((st[0], st[1]), st[2])
    else:
        order = [0, 1] if rng.random() < 0.5 else [1, 0]
        thr = (tm, tn), tuple(compact([tm, tn], order))
    vals = atom_values(atom, width) * rng.choice([1, 1, 2, 4] if family in ("LDSM", "STSM") else [1, 2, 3])
    if vals % 2 == 0 and rng.random() < 0.03:
        vals //= 2  # fewer values than the atom's (refused)
    vm = rng.choice(divisors(vals))
    order = [0, 1] if rng.random() < 0.5 else [1, 0]
    val = (vm, vals // vm), tuple(compact([vm, vals // vm], order))
    return {"kind": "tv", "atom": atom, "width": width, "thr": thr, "val": val,
            "reps": (rng.choice([1, 1, 2, 3]), rng.choice([1, 2])), "nested": rng.random() < 0.2}


# Tiled MMAs for make_tiled_copy_A/B/C: the model's Operation name, the DSL's Op (a thunk of
# the DSL modules) and the element widths of A, B and C.
MMAS = [
    ("SM80_16x8x16_F32F16F16F32_TN", lambda c, w, g: w.MmaF16BF16Op(c.Float16, c.Float32, (16, 8, 16)), (16, 16, 32)),
    ("SM80_16x8x16_F16F16F16F16_TN", lambda c, w, g: w.MmaF16BF16Op(c.Float16, c.Float16, (16, 8, 16)), (16, 16, 16)),
    ("SM80_16x8x8_F32BF16BF16F32_TN", lambda c, w, g: w.MmaF16BF16Op(c.BFloat16, c.Float32, (16, 8, 8)), (16, 16, 32)),
    ("SM80_16x8x8_F32TF32TF32F32_TN", lambda c, w, g: w.MmaTF32Op((16, 8, 8)), (32, 32, 32)),
    ("SM80_16x8x4_F32TF32TF32F32_TN", lambda c, w, g: w.MmaTF32Op((16, 8, 4)), (32, 32, 32)),
    ("SM90_64x64x16_F16F16F16_SS", lambda c, w, g: g.MmaF16BF16Op(c.Float16, c.Float16, (64, 64, 16), g.OperandSource.SMEM,
                                                                  _major().K, _major().K), (16, 16, 16)),
    ("SM90_64x32x16_F32BF16BF16_RS", lambda c, w, g: g.MmaF16BF16Op(c.BFloat16, c.Float32, (64, 32, 16), g.OperandSource.RMEM,
                                                                    _major().K, _major().K), (16, 16, 32)),
    ("SM90_64x16x16_F32F16F16_SS<MN,MN>", lambda c, w, g: g.MmaF16BF16Op(c.Float16, c.Float32, (64, 16, 16), g.OperandSource.SMEM,
                                                                         _major().MN, _major().MN), (16, 16, 32)),
]


def _major():
    from cutlass.cute.nvgpu import OperandMajorMode
    return OperandMajorMode


def mma_case(rng):
    """make_tiled_copy_A/B/C(atom, make_tiled_mma(op, atom layout))."""
    k = rng.randrange(len(MMAS))
    name, _, widths = MMAS[k]
    operand = rng.choice("ABC")
    width = widths["ABC".index(operand)]
    if name.startswith("SM90"):
        shape = rng.choice([(1, 1, 1), (2, 1, 1), (1, 2, 1)])
    else:
        shape = rng.choice([(1, 1, 1), (2, 1, 1), (1, 2, 1), (2, 2, 1), (4, 1, 1), (1, 4, 1), (4, 2, 1), (2, 4, 1)])
    order = [0, 1, 2] if rng.random() < 0.6 else [1, 0, 2]
    stride = tuple(compact(list(shape), order))
    choices = [("U", b) for b in (8, 16, 32, 64, 128) if b % width == 0] + [("CA", b) for b in (32, 64, 128) if b % width == 0]
    if width in (16, 32):
        choices += [("LDSM" if operand != "C" else "STSM", n, tr) for n in (1, 2, 4) for tr in (False, True)
                    if width == 16 or not tr]
    return {"kind": operand, "atom": rng.choice(choices), "width": width, "mma": k, "layout": (shape, stride),
            "reps": (rng.choice([1, 2]), rng.choice([1, 2])), "nested": False}


def mma_tile(case):
    """The tiled MMA's (M, N) tile: the atom's M and N (from its CuTe name, e.g. 16x8x16) times
    the atom layout's extents (no permutation)."""
    m, n = map(int, re.search(r"_(\d+)x(\d+)x\d+_", MMAS[case["mma"]][0]).groups())
    shape = case["layout"][0]
    return m * shape[0], n * shape[1]


def c_atom_case(rng):
    """make_tiled_copy_C_atom(atom, make_tiled_mma(op, atom layout)): an epilogue's store atom
    (UniversalCopy or stmatrix) of an output element width, which need not be the accumulator's
    (an F32 accumulator stored as 16-bit values is the common epilogue)."""
    k = rng.randrange(len(MMAS))
    name = MMAS[k][0]
    if name.startswith("SM90"):
        shape = rng.choice([(1, 1, 1), (2, 1, 1), (1, 2, 1)])
    else:
        shape = rng.choice([(1, 1, 1), (2, 1, 1), (1, 2, 1), (2, 2, 1), (4, 1, 1), (1, 4, 1), (4, 2, 1), (2, 4, 1)])
    order = [0, 1, 2] if rng.random() < 0.6 else [1, 0, 2]
    width = rng.choice([MMAS[k][2][2], 16, 16, 8])
    choices = [("U", b) for b in (8, 16, 32, 64, 128) if b % width == 0]
    choices += [("STSM", n, tr) for n in (1, 2, 4) for tr in (False, True) if width in ((8, 16) if tr else (8, 16, 32))]
    return {"kind": "C_atom", "atom": rng.choice(choices), "width": width, "mma": k,
            "layout": (shape, tuple(compact(list(shape), order))),
            "reps": (rng.choice([1, 2]), rng.choice([1, 2])), "nested": False}


def atom_cases():
    """Every copy atom the DSL offers here, for every element width: compared with the model's
    Copy_Atom<ATOM, T> layouts, or (where the model refuses) explained."""
    atoms = [("U", b) for b in (8, 16, 32, 64, 128)] + [("CA", b) for b in (32, 64, 128)] + \
        [("CG", b) for b in (32, 64, 128)] + [(f, n, tr) for f in ("LDSM", "STSM") for n in (1, 2, 4) for tr in (False, True)]
    return [{"kind": "atom", "atom": a, "width": w, "reps": (1, 1), "nested": False} for a in atoms for w in (8, 16, 32, 64)]


def model_tc(case):
    """The model's expression of a case's tiled copy (of a copy atom case: its reference layout)."""
    atom, bits = atom_name(case["atom"]), case["width"]
    if case["kind"] == "atom":
        return f"copy_layout({atom}, Ref, {bits})"
    if case["kind"] == "tv":
        return f"make_tiled_copy({atom}, {bits}, {text(*case['thr'])}, {text(*case['val'])})"
    return f"make_tiled_copy_{case['kind']}({atom}, {bits}, make_tiled_mma({MMAS[case['mma']][0]}, {text(*case['layout'])}))"


def tile_of(case, tiler):
    """The tile an identity tensor repeats, (M, N): the tiled copy's tiler_mn printout as extents,
    or for make_tiled_copy_C_atom (whose tiler is a pair of layouts, the coordinates its values
    reach) the tiled MMA's tile; None where the DSL refused the tiler or it is not such extents."""
    if dsl_refused(tiler):
        return None
    return mma_tile(case) if case["kind"] == "C_atom" else parse_tiler(tiler)


def identity_shape(case, tiler):
    """The identity tensor partitioned: the tile repeated, with a nested first mode sometimes."""
    m, n = tiler[0] * case["reps"][0], tiler[1] * case["reps"][1]
    if case["nested"] and m % 2 == 0:
        return ((2, m // 2), n)
    return (m, n)


def basis_of(shape, path=()):
    """make_basis_like: the identity layout's strides, in the model's notation (1@0, 1@1@0 ...)."""
    if isinstance(shape, tuple):
        return tuple(basis_of(s, path + (k,)) for k, s in enumerate(shape))
    return "1" + "".join(f"@{p}" for p in reversed(path))


def identity_text(shape):
    shape = tup(shape)
    strides = basis_of(shape)
    f = lambda x: "(" + ",".join(f(e) for e in x) + ")" if isinstance(x, tuple) else str(x)
    return f"{f(shape)}:{f(strides)}"


def dsl_answers(cute, cutlass, cases, emit):
    """The DSL's answer to each case (inside one trace), passed to emit(k, answer) as soon as it
    is known: {"error": text} where the DSL raises, else the printouts (a property the DSL raises
    on is {"error": ...} in its place)."""
    from cutlass.cute.nvgpu import CopyUniversalOp, cpasync, warp, warpgroup
    import dsl_worker
    types = {w: getattr(cutlass, n) for w, n in TYPE_NAMES.items()}

    def make_atom(atom, width):
        t = types[width]
        if atom[0] == "U":
            return cute.make_copy_atom(CopyUniversalOp(), t, num_bits_per_copy=atom[1])
        if atom[0] in ("CA", "CG"):
            mode = cpasync.LoadCacheMode.ALWAYS if atom[0] == "CA" else cpasync.LoadCacheMode.GLOBAL
            return cute.make_copy_atom(cpasync.CopyG2SOp(cache_mode=mode), t, num_bits_per_copy=atom[1])
        op = warp.LdMatrix8x8x16bOp if atom[0] == "LDSM" else warp.StMatrix8x8x16bOp
        return cute.make_copy_atom(op(atom[2], atom[1]), t)

    def one(case):
        a = make_atom(case["atom"], case["width"])
        if case["kind"] == "atom":
            return {"atom_thrid": printout(lambda: a.thr_id), "atom_src": printout(lambda: a.layout_src_tv),
                    "atom_dst": printout(lambda: a.layout_dst_tv)}
        if case["kind"] == "tv":
            (ts, td), (vs, vd) = case["thr"], case["val"]
            tc = cute.make_tiled_copy_tv(a, cute.make_layout(tup(ts), stride=tup(td)),
                                         cute.make_layout(tup(vs), stride=tup(vd)))
        else:
            _, make, _ = MMAS[case["mma"]]
            shape, stride = case["layout"]
            mma = cute.make_tiled_mma(make(cutlass, warp, warpgroup), cute.make_layout(tup(shape), stride=tup(stride)))
            tc = getattr(cute, f"make_tiled_copy_{case['kind']}")(a, mma)
        got = {"parts": []}
        for key, f in (("atom_thrid", lambda: a.thr_id), ("atom_src", lambda: a.layout_src_tv),
                       ("atom_dst", lambda: a.layout_dst_tv), ("size", lambda: tc.size), ("tiler", lambda: tc.tiler_mn),
                       ("tv", lambda: tc.layout_tv_tiled), ("src", lambda: tc.layout_src_tv_tiled),
                       ("dst", lambda: tc.layout_dst_tv_tiled)):
            try:
                got[key] = str(f())
            except Exception as e:
                got[key] = {"error": error_text(e)}
        tile = tile_of(case, got["tiler"])
        if tile is None:
            return got
        shape = identity_shape(case, tile)
        got["tensor"] = shape
        ident = cute.make_identity_tensor(tup(shape))
        for t in case_threads(case, int(got["size"])):
            thr = tc.get_slice(t)
            got["parts"].append((t, printout(lambda: thr.partition_S(ident)), printout(lambda: thr.partition_D(ident))))
        return got

    def body():
        for k, case in enumerate(cases):
            try:
                emit(k, one(case))
            except Exception as e:  # the DSL refuses: compared with the model's refusal
                emit(k, {"error": error_text(e)})
        raise dsl_worker._TraceDone()

    @cute.jit
    def trace():
        body()

    try:
        trace()
    except dsl_worker._TraceDone:
        pass


def dsl_refused(answer):
    """The DSL raised ({"error": ...}) or printed a layout with its undefined marker `x` (where the
    division into the atom's values is not exact, e.g. ((12,2),(4,x)):((24,3),(x,x)))."""
    return isinstance(answer, dict) or re.search(r"[(,:]x[),]", answer) is not None


def printout(f):
    """str(f()), or {"error": ...} where the DSL raises."""
    try:
        return str(f())
    except Exception as e:
        return {"error": error_text(e)}


def error_text(e):
    return f"{type(e).__name__}: {str(e).splitlines()[0][:200] if str(e).strip() else ''}"


def tup(x):
    """JSON lists back to the tuples the DSL takes."""
    return tuple(tup(e) for e in x) if isinstance(x, (list, tuple)) else x


def case_threads(case, size):
    """The threads partitioned: every one up to the case's cap, else a seeded sample."""
    if size <= case["threads"]:
        return list(range(size))
    return sorted(random.Random(case["seed"]).sample(range(size), case["threads"]))


def worker(dsl_dir):
    """--worker: cases (JSON lines) on stdin, one answer line {"k", "a"} per case on stdout."""
    os.environ["CUTE_DSL_ARCH"] = "sm_90a"  # the wgmma and stmatrix operations are sm_90a's
    import dsl_worker
    cute = dsl_worker.load_dsl(dsl_dir)
    import cutlass
    cases = [json.loads(line) for line in sys.stdin if line.strip()]

    def emit(k, answer):
        sys.stdout.write(json.dumps({"k": cases[k]["k"], "a": answer}) + "\n")
        sys.stdout.flush()

    dsl_answers(cute, cutlass, cases, emit)
    return 0


def run_dsl(dsl_dir, cases):
    """The DSL's answers, in worker processes: a case that crashes the DSL (it aborts on some
    inputs) is answered {"crash": exit status} and a new worker takes the rest.
    Returns (answers, crashes)."""
    answers = [None] * len(cases)
    rest = [dict(c, k=k) for k, c in enumerate(cases)]
    while rest:
        r = subprocess.run([sys.executable, os.path.abspath(__file__), "--worker", "--dsl", dsl_dir],
                           input="".join(json.dumps(c) + "\n" for c in rest), capture_output=True, text=True)
        got = 0
        for line in r.stdout.splitlines():
            a = json.loads(line)
            answers[a["k"]] = a["a"]
            got += 1
        if r.returncode == 0 and got == len(rest):
            break
        if got >= len(rest) or (got == 0 and r.returncode == 1 and "Traceback" in r.stderr and "terminate" not in r.stderr):
            raise RuntimeError(f"dsl_copies worker exited {r.returncode}: {r.stderr[-3000:]}")
        answers[rest[got]["k"]] = {"crash": r.returncode, "why": last_error_line(r.stderr)}
        rest = rest[got + 1:]
    return answers


def last_error_line(stderr):
    lines = [x for x in stderr.splitlines() if x.strip() and not x.startswith("  ")]
    return lines[-1][:200] if lines else ""


def parse_tiler(s):
    """The DSL's tiler_mn printout `(16:1, 64:1)` (an extent 1 prints `1:0`) as (16, 64); None if
    it is anything else (a tiler mode that is not a plain extent)."""
    m = re.fullmatch(r"\((\d+):(\d+), (\d+):(\d+)\)", s.strip())
    if not m:
        return None
    modes = [(int(m.group(1)), int(m.group(2))), (int(m.group(3)), int(m.group(4)))]
    if any(d != 1 and not (n == 1 and d == 0) for n, d in modes):
        return None
    return tuple(n for n, _ in modes)


def tiler_modes(s):
    """A by-mode tiler printout, the DSL's `((8,4,2):(1,16,8), (4,2,2):(2,1,8))` or the model's
    `(_8:_1,_4:_2)`, as its two layout texts; None if it is not a pair of layouts."""
    s = s.replace(" ", "")
    if not (s.startswith("(") and s.endswith(")")):
        return None
    modes, depth, start = [], 0, 1
    for k, ch in enumerate(s[1:-1], 1):
        depth += (ch == "(") - (ch == ")")
        if ch == "," and depth == 0:
            modes.append(s[start:k])
            start = k + 1
    modes.append(s[start:-1])
    return modes if len(modes) == 2 and all(":" in m for m in modes) else None


def parse_tensor(s):
    """`tensor<(0,24) o LAYOUT>` -> ("(0,24)", "LAYOUT")."""
    m = re.fullmatch(r"tensor<(.*?) o (.*)>", s.strip())
    if not m:
        raise ValueError(f"not an identity tensor printout: {s}")
    return m.group(1), m.group(2)


def parse_tuple(s):
    """A printed integer tuple `((5,0),0)` (static marks dropped) as nested Python tuples."""
    s = s.replace("_", "").replace(" ", "")
    pos = 0

    def item():
        nonlocal pos
        if s[pos] == "(":
            pos += 1
            out = [item()]
            while s[pos] == ",":
                pos += 1
                out.append(item())
            if s[pos] != ")":
                raise ValueError(f"bad tuple {s}")
            pos += 1
            return tuple(out)
        m = re.match(r"-?\d+", s[pos:])
        if not m:
            raise ValueError(f"bad tuple {s}")
        pos += m.end()
        return int(m.group(0))

    v = item()
    if pos != len(s):
        raise ValueError(f"bad tuple {s}")
    return v


def pad(coord, shape):
    """A coordinate congruent with `shape`: modes the printout leaves out (zero) filled with 0."""
    if not isinstance(shape, tuple):
        if isinstance(coord, tuple):  # a 1-tuple around an integer
            return pad(coord[0], shape) if len(coord) == 1 else coord
        return coord
    if not isinstance(coord, tuple):
        coord = (coord,)
    return tuple(pad(coord[k] if k < len(coord) else 0, s) for k, s in enumerate(shape))


def shape_of(text):
    """The shape of a DSL layout printout `SHAPE:STRIDE` as nested tuples."""
    return parse_tuple(text.replace(" ", "").partition(":")[0])


def size_of(shape):
    return shape if isinstance(shape, int) else math.prod(size_of(e) for e in shape)


def mode_sizes(text):
    """(size of mode 0, size of mode 1) of a rank-2 DSL layout printout; None for another rank."""
    shape = shape_of(text)
    if not isinstance(shape, tuple) or len(shape) != 2:
        return None
    return size_of(shape[0]), size_of(shape[1])


def values(text):
    """Every value of a DSL layout printout (integer strides), evaluated colexicographically by
    dsl_oracle (independent of the model); None if it is not such a printout."""
    import dsl_oracle
    parsed = dsl_oracle.parse_printout(text)
    return None if parsed is None else dsl_oracle.printout_values(parsed)


def explain_model_refusal(case, got, model_error):
    """The DSL answered a copy atom or tiled copy the model refuses: the kind
    (corpus/vendor/dsl_disagreements.txt), after checking on the DSL's own printouts, by
    enumeration, that its answer is not a copy atom / tiled copy by its definition; None
    otherwise (a failure)."""
    atom, width = case["atom"], case["width"]
    bits = atom[1] if atom[0] in ("U", "CA", "CG") else 32 * atom[1]  # the bits one thread copies
    if case["kind"] == "atom" and not any(isinstance(got[w], dict) for w in ATOM_PROPERTIES):
        src, dst = mode_sizes(got["atom_src"]), mode_sizes(got["atom_dst"])
        threads = size_of(shape_of(got["atom_thrid"]))
        if ".cg copies 16 bytes" in model_error and atom[0] == "CG" and bits != 128:
            # PTX: cp.async.cg copies 16 bytes only; CuTe's SM80_CP_ASYNC_CACHEGLOBAL static-asserts
            # sizeof(TS) == 16 when the operation is instantiated. The DSL builds the atom.
            return "dsl-cp-async-cg-below-16-bytes" if src else None
        if "bits one thread copies" in model_error:
            # Copy_Atom<ATOM, T> with T wider than the instruction: the DSL's atom claims whole
            # T values per thread, which is more bits than the instruction copies.
            if src and src[1] * width != bits:
                return "dsl-copy-atom-narrower-than-its-element"
            return None
        if "threads, not the atom's" in model_error:
            # CuTe's Copy_Atom static-asserts that the recast layouts keep ThrID's threads; the
            # DSL's own layouts have fewer (its elements are split between threads).
            if (src and src[0] != threads) or (dst and dst[0] != threads):
                return "dsl-copy-atom-splits-elements-between-threads"
            return None
        return None
    if "too few values" in model_error or "too few threads" in model_error:
        # CuTe's TiledCopy static-asserts that every thread holds whole atoms: size<0>(TV) a
        # multiple of the atom's threads, size<1>(TV) of its values. The DSL's own TV layout and
        # atom say that does not hold.
        tv, atom = mode_sizes(got["tv"]), mode_sizes(got["atom_src"])
        if tv and atom and (tv[0] % atom[0] or tv[1] % atom[1]):
            return "dsl-tiled-copy-with-partial-atoms"
        return None
    if "precondition violated" in model_error:
        # The model refuses to split the TV layout's values into the atom's (CuTe's composition
        # preconditions fail). The source and destination TV layouts only reorder the TV
        # layout's (thread, value) pairs, so their values are the TV layout's as a multiset;
        # the DSL's are other tile elements.
        tv = values(got["tv"])
        for which in ("src", "dst"):
            other = values(got[which]) if isinstance(got[which], str) else None
            if tv is not None and other is not None and sorted(other) != sorted(tv):
                return "dsl-tiled-copy-values-not-the-tv-layouts"
        return None
    return None


def plain(x):
    return x.replace("_", "").replace(" ", "")


def split_pair(answer):
    """The model's `(LAYOUT,OFFSET)` answer: the layout text and the offset text."""
    depth = 0
    for k, ch in enumerate(answer):
        depth += ch == "("
        depth -= ch == ")"
        if ch == "," and depth == 1 and ":" in answer[1:k]:
            return answer[1:k], answer[k + 1:-1]
    raise ValueError(f"not a (layout, offset) pair: {answer}")


class Comparator:
    """Compares DSL answers with the model's: by value (size, tiler, coordinate) or as functions
    (layouts: the same printout, else `DSL == MODEL` in the model). Collects the checks first,
    then asks the model every `==` in one batch."""

    def __init__(self, cuteref):
        self.cuteref = cuteref
        self.checks = []  # (owner, what, ok or None, dsl text, model text)

    def value(self, owner, what, ok, dsl, model):
        self.checks.append((owner, what, ok, dsl, model))

    def function(self, owner, what, dsl, model):
        if model.startswith("error:"):
            self.checks.append((owner, what, False, dsl, model))
        else:
            self.checks.append((owner, what, True if plain(dsl) == plain(model) else None, dsl, model))

    def run(self):
        """[(owner, what, ok, dsl, model answer or `==`'s verdict)]; also the number compared as functions."""
        todo = [k for k, c in enumerate(self.checks) if c[2] is None]
        verdicts = batch(self.cuteref, [f"{self.checks[k][3]} == {self.checks[k][4]}" for k in todo])
        out = list(self.checks)
        for k, v in zip(todo, verdicts):
            owner, what, _, dsl, model = out[k]
            out[k] = (owner, what, v == "true", dsl, f"{model} ({v})")
        return out, len(todo)


PROPERTIES = ("size", "tiler", "tv", "src", "dst", "atom_thrid", "atom_src", "atom_dst")
ATOM_PROPERTIES = ("atom_thrid", "atom_src", "atom_dst")


def model_questions(case, expr, tensor, threads):
    """The model's expressions for a case: {key: expression}, key a property or ("S"|"D", thread)."""
    atom, bits = atom_name(case["atom"]), case["width"]
    if case["kind"] == "atom":
        return {"atom_thrid": f"copy_thrid({atom})", "atom_src": f"copy_layout({atom}, Src, {bits})",
                "atom_dst": f"copy_layout({atom}, Dst, {bits})"}
    asks = {"size": f"tiled_copy_size({expr})", "tiler": f"tiled_copy_tiler({expr})",
            "tv": f"tiled_copy_layout({expr}, TV)", "src": f"tiled_copy_layout({expr}, S)",
            "dst": f"tiled_copy_layout({expr}, D)", "atom_thrid": f"copy_thrid({atom})",
            "atom_src": f"copy_layout({atom}, Src, {bits})", "atom_dst": f"copy_layout({atom}, Dst, {bits})"}
    if tensor is not None:
        ident = identity_text(tensor)
        for t in threads:
            asks[("S", t)] = f"partition_and_offset_S({expr}, {t}, {ident})"
            asks[("D", t)] = f"partition_and_offset_D({expr}, {t}, {ident})"
    return asks


def compare(cuteref, answers, model, shift=0, move=0):
    """Checks of every case both sides answered: the DSL's answer for case k + shift against the
    model's for case k, the DSL's coordinates moved by `move` in their first leaf (0, 0: the real
    comparison). A property both refuse agrees; one refused by one side only fails."""
    cmp = Comparator(cuteref)
    n = len(answers)
    for k in range(n):
        got, m = answers[(k + shift) % n], model[k]
        if m is None or not isinstance(got, dict) or "error" in got or "crash" in got:
            continue
        for what in (PROPERTIES if "size" in m else ATOM_PROPERTIES):
            if what not in got:  # the negative control's shifted answer may be an atom's
                continue
            d, a = got[what], m[what]
            if dsl_refused(d) or a.startswith("error:"):
                both = dsl_refused(d) and a.startswith("error:")
                cmp.value(k, what + (" (both refuse)" if both else ""), both, str(d), a)
            elif what == "size":
                cmp.value(k, what, d == plain(a), d, a)
            elif what == "tiler" and m["by_mode"]:  # make_tiled_copy_C_atom: a pair of layouts
                have, want = tiler_modes(d), tiler_modes(a)
                for i in range(2):
                    if have is None or want is None:
                        cmp.value(k, f"tiler mode {i}", False, d, a)
                    else:
                        cmp.function(k, f"tiler mode {i}", have[i], want[i])
            elif what == "tiler":
                tiler = parse_tiler(d)
                cmp.value(k, what, tiler is not None and f"({tiler[0]},{tiler[1]})" == plain(a), d, a)
            else:
                cmp.function(k, what, d, a)
        if m["tensor"] is None:
            continue
        shape = tup(m["tensor"])
        parts = {t: (ps, pd) for t, ps, pd in got.get("parts", [])}
        for t, answer in m["parts"].items():
            if t not in parts:
                continue
            for which, dsl_text, model_text in (("S", parts[t][0], answer[0]), ("D", parts[t][1], answer[1])):
                if dsl_refused(dsl_text) or model_text.startswith("error:"):  # both refuse, or a failure
                    both = dsl_refused(dsl_text) and model_text.startswith("error:")
                    cmp.value(k, f"partition_{which}" + (" (both refuse)" if both else " layout"), both, str(dsl_text), model_text)
                    continue
                origin, layout = parse_tensor(dsl_text)
                model_layout, model_offset = split_pair(model_text)
                cmp.function(k, f"partition_{which} layout", layout, model_layout)
                want = pad(parse_tuple(model_offset), shape)
                have = pad(parse_tuple(origin), shape)
                if move:
                    have = moved(have, move)
                cmp.value(k, f"partition_{which} coordinate", have == want, origin, model_offset)
    return cmp.run()


def moved(coord, by):
    """The coordinate with its first leaf moved by `by`."""
    if isinstance(coord, tuple):
        return (moved(coord[0], by),) + coord[1:]
    return coord + by


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cuteref")
    ap.add_argument("--dsl", required=True)
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--cases", type=int, default=320, help="make_tiled_copy_tv cases (the MMA cases are a third of it)")
    ap.add_argument("--c-atom-cases", type=int, default=96, help="make_tiled_copy_C_atom cases")
    ap.add_argument("--threads", type=int, default=128, help="partition every thread up to this many, else a sample of it")
    args = ap.parse_args()
    import dsl_oracle
    if not dsl_oracle.dsl_present(args.dsl):
        print(f"vendor_dsl_copies: SKIP: nvidia-cutlass-dsl is not at {args.dsl} (./run installs it)")
        return 77
    if args.worker:
        return worker(args.dsl)
    if not args.cuteref:
        ap.error("--cuteref is required")

    rng = random.Random(args.seed)
    cases = atom_cases() + [tv_case(rng) for _ in range(args.cases)] + [mma_case(rng) for _ in range(args.cases // 3)]
    for c in cases:
        c["threads"], c["seed"] = args.threads, rng.randrange(1 << 30)
    # Drawn after the others' seeds, so that adding them left the earlier cases as they were.
    for c in [c_atom_case(rng) for _ in range(args.c_atom_cases)]:
        cases.append(dict(c, threads=args.threads, seed=rng.randrange(1 << 30)))
    answers = run_dsl(args.dsl, cases)

    # The model: does it build the tiled copy? Then its properties and the same partitions (for a
    # case the DSL crashed on: the partitions the DSL would have made, of the model's tiler).
    exprs = [model_tc(c) for c in cases]
    built = batch(args.cuteref, exprs)
    crashed = [k for k, a in enumerate(answers) if "crash" in a and not built[k].startswith("error:")]
    crash_tiler = dict(zip(crashed, batch(args.cuteref, [f"tiled_copy_tiler({exprs[k]})" for k in crashed])))
    crash_size = dict(zip(crashed, batch(args.cuteref, [f"tiled_copy_size({exprs[k]})" for k in crashed])))
    lines, where, tensors = [], [], {}
    for k, (case, expr, b) in enumerate(zip(cases, exprs, built)):
        got = answers[k]
        if b.startswith("error:") or "error" in got:
            continue
        if "crash" in got:
            if crash_tiler[k].startswith("error:") or crash_size[k].startswith("error:"):
                tensors[k], threads = None, []
            else:
                tile = mma_tile(case) if case["kind"] == "C_atom" else parse_tuple(crash_tiler[k])
                tensors[k] = identity_shape(case, tile)
                threads = case_threads(case, int(plain(crash_size[k])))
        else:
            tensors[k] = tup(got["tensor"]) if "tensor" in got else None
            threads = [t for t, _, _ in got.get("parts", [])]
        for key, line in model_questions(case, expr, tensors[k], threads).items():
            lines.append(line)
            where.append((k, key))
    model = [None] * len(cases)
    for (k, key), a in zip(where, batch(args.cuteref, lines)):
        if model[k] is None:
            model[k] = {"parts": defaultdict(lambda: [None, None]), "tensor": tensors[k],
                        "by_mode": cases[k]["kind"] == "C_atom"}  # its tiler is a pair of layouts
        if isinstance(key, tuple):
            model[k]["parts"][key[1]]["SD".index(key[0])] = a
        else:
            model[k][key] = a
    for m in model:
        if m is not None:
            m["parts"] = {t: tuple(v) for t, v in m["parts"].items()}

    # Refusals: both refuse agrees; one side alone fails.
    tally = defaultdict(lambda: defaultdict(int))
    bad = []
    atom_family = {"U": "UniversalCopy", "CA": "cp.async", "CG": "cp.async", "LDSM": "ldmatrix", "STSM": "stmatrix"}
    family = lambda c: {"tv": "make_tiled_copy_tv", "atom": "copy atom"}.get(c["kind"], f"make_tiled_copy_{c['kind']}") + \
        f" ({atom_family[c['atom'][0]]})"
    settled = set()
    kinds, examples = defaultdict(int), {}
    for k, (case, b) in enumerate(zip(cases, built)):
        got = answers[k]
        if "crash" in got:
            model_refuses = b.startswith("error:") or any(
                v.startswith("error:") for key, v in model[k].items() if key in PROPERTIES) or any(
                x.startswith("error:") for pair in model[k]["parts"].values() for x in pair) or model[k]["tensor"] is None
            if model_refuses:
                tally[family(case)]["both refuse (DSL crashes)"] += 1
            else:
                tally[family(case)]["failed"] += 1
                bad.append(f"FAIL {exprs[k]}: the DSL crashes (exit {got['crash']}: {got['why']}); the model answers")
            settled.add(k)
            continue
        dsl_refuses, model_refuses = "error" in got, b.startswith("error:")
        if dsl_refuses and model_refuses:
            tally[family(case)]["both refuse"] += 1
        elif model_refuses and explain_model_refusal(case, got, b):
            kind = explain_model_refusal(case, got, b)
            tally[family(case)]["DSL answers, model refuses (known)"] += 1
            kinds[kind] += 1
            examples.setdefault(kind, exprs[k])
        elif dsl_refuses or model_refuses:
            tally[family(case)]["failed"] += 1
            bad.append(f"FAIL {exprs[k]}: DSL {'refuses: ' + got['error'] if dsl_refuses else 'answers'}; "
                       f"model {b if model_refuses else 'answers'}")
        elif "tensor" not in got and case["kind"] != "atom":
            tally[family(case)]["failed"] += 1
            bad.append(f"FAIL {exprs[k]}: the DSL's tiler_mn {got['tiler']} is not a pair of N:1")
        else:
            continue
        settled.add(k)

    checks, as_functions = compare(args.cuteref, answers, model)
    failures = defaultdict(list)
    per_what = defaultdict(int)
    refused_parts = set()
    for owner, what, ok, dsl, m in checks:
        per_what[what] += 1
        if not ok:
            failures[owner].append((what, dsl, m))
        if what.endswith("(both refuse)"):
            refused_parts.add(owner)
    for k, case in enumerate(cases):
        if k in settled:
            continue
        if not failures[k]:  # every part agrees; some may be refused by both
            tally[family(case)]["both refuse" if k in refused_parts else "agree"] += 1
            continue
        # The model refuses parts the DSL answers: a recorded kind, checked on the DSL's answer.
        refusals = [m for _, dsl, m in failures[k] if m.startswith("error:") and not dsl_refused(dsl) and not dsl.startswith("{")]
        kind = explain_model_refusal(case, answers[k], refusals[0]) if len(refusals) == len(failures[k]) else None
        if kind:
            tally[family(case)]["DSL answers, model refuses (known)"] += 1
            kinds[kind] += 1
            examples.setdefault(kind, exprs[k])
            continue
        tally[family(case)]["failed"] += 1
        for what, dsl, m in failures[k]:
            bad.append(f"FAIL {exprs[k]} {what}: DSL {dsl}, model {m}")

    # Negative control: wrong answers must be rejected, by every kind of comparison, and within
    # each kind of case (copy atom, make_tiled_copy_tv, _A, _B, _C, _C_atom) by every kind of
    # comparison made for such cases (a comparison lax on one kind of case only is caught too).
    wrong, _ = compare(args.cuteref, answers, model, shift=1)
    rejected, rejected_in = defaultdict(int), defaultdict(int)
    for owner, what, ok, _, _ in wrong:
        rejected[what] += not ok
        rejected_in[cases[owner]["kind"], what] += not ok
    compared_in = {(cases[owner]["kind"], what) for owner, what, _, _, _ in checks if not what.endswith("(both refuse)")}
    lax = sorted(f"{kind} {what}" for kind, what in compared_in if rejected_in[kind, what] == 0)
    moved_checks, _ = compare(args.cuteref, answers, model, move=1)
    moved_total, moved_rejected = defaultdict(int), defaultdict(int)
    for owner, what, ok, _, _ in moved_checks:
        if what.endswith("coordinate"):
            moved_total[cases[owner]["kind"]] += 1
            moved_rejected[cases[owner]["kind"]] += not ok
    control_ok = all(rejected[w] > 0 for w in per_what if not w.endswith("(both refuse)")) and not lax and \
        moved_rejected == moved_total and sum(moved_total.values()) > 0

    for line in bad[:60]:
        print(line)
    if len(bad) > 60:
        print(f"... {len(bad) - 60} more failures")
    columns = ("agree", "both refuse", "both refuse (DSL crashes)", "DSL answers, model refuses (known)", "failed")
    width = max([36] + [len(fam) for fam in tally])
    print(f"{'family':{width}s} " + " ".join(f"{c:>{max(6, len(c))}s}" for c in columns))
    for fam in sorted(tally):
        print(f"{fam:{width}s} " + " ".join(f"{tally[fam][c]:{max(6, len(c))}d}" for c in columns))
    for kind in sorted(kinds):
        print(f"known kind {kind}: {kinds[kind]} cases (e.g. {examples[kind]})")
    print("comparisons: " + ", ".join(f"{w} {n}" for w, n in sorted(per_what.items())) +
          f" ({as_functions} of them as functions by the model's `==`)")
    print("negative control (each DSL answer against the next case's model answer), rejected: " +
          ", ".join(f"{w} {rejected[w]}" for w in sorted(per_what) if not w.endswith("(both refuse)")) +
          f"; coordinates moved by one: {sum(moved_rejected.values())} of {sum(moved_total.values())} rejected (" +
          ", ".join(f"{kind} {moved_rejected[kind]} of {moved_total[kind]}" for kind in sorted(moved_total)) + ")")
    c_atom_rejected = {w: n for (kind, w), n in rejected_in.items() if kind == "C_atom" and (kind, w) in compared_in}
    print("negative control, make_tiled_copy_C_atom cases alone, rejected: " +
          ", ".join(f"{w} {c_atom_rejected[w]}" for w in sorted(c_atom_rejected)))
    if lax:
        print("vendor_dsl_copies: the negative control accepted every wrong answer of: " + ", ".join(lax))
    agree = sum(c["agree"] + c["both refuse"] + c["both refuse (DSL crashes)"] for c in tally.values())
    failed = sum(c["failed"] for c in tally.values())
    parts = sum(n for w, n in per_what.items() if w.startswith("partition_") and not w.endswith("coordinate"))
    n_atoms = sum(1 for c in cases if c["kind"] == "atom")
    n_c_atom = sum(1 for c in cases if c["kind"] == "C_atom")
    known = sum(kinds.values())
    print(f"vendor_dsl_copies: {agree} passed, {failed} failed, {known} recorded disagreements counted apart "
          f"({n_atoms} copy atoms and {len(cases) - n_atoms} tiled copies, {n_c_atom} of them make_tiled_copy_C_atom; "
          f"{len(checks)} comparisons made, {parts} of them of thread partitions of identity tensors)")
    if not control_ok:
        print("vendor_dsl_copies: FAIL: the negative control was not rejected by every kind of comparison")
    return 1 if failed or bad or agree == 0 or not control_ok else 0


if __name__ == "__main__":
    sys.exit(main())
