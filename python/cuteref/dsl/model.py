"""The model's side of the audit: what CuTe's conventions make of a decision's arguments,
computed by cuteref's model (the C++ library), never by the DSL.

Each function takes plain arguments (as a trace records them) and returns the EXPR it
evaluates and its value; a precondition the model refuses raises cuteref.Error.
"""
import ast
import re
from typing import List, Optional, Sequence, Tuple

import cuteref

SWIZZLES = ("SW128", "SW64", "SW32")


def expr(text: str) -> Tuple[str, "cuteref.Value"]:
    return text, cuteref.eval(text)


def tup(values: Sequence) -> str:
    """A Python (nested) tuple of ints in CuTe's notation."""
    if isinstance(values, (list, tuple)):
        return "(" + ",".join(tup(v) for v in values) + ")"
    return str(int(values))


def major_of(layout_enum: str) -> str:
    """LayoutEnum of an (MN, K) SMEM tile: ROW_MAJOR has the second mode (K) contiguous, the
    model's K-major GMMA atom; COL_MAJOR the first (MN)."""
    if layout_enum == "ROW_MAJOR":
        return "K"
    if layout_enum == "COL_MAJOR":
        return "MN"
    raise cuteref.Error(f"unknown LayoutEnum {layout_enum!r} (ROW_MAJOR or COL_MAJOR)")


def atom_kind(major: str, major_size: int, bits: int) -> str:
    """CuTe's SM90 SMEM atom choice (the CollectiveBuilder's smem selector): the widest swizzle
    whose model atom's contiguous extent divides the tile's contiguous extent, else INTER."""
    for sw in SWIZZLES:
        width = int(cuteref.size(cuteref.eval(f"mode(gmma_atom({major}, {sw}, {bits}), {1 if major == 'K' else 0})")))
        if major_size % width == 0:
            return f"{major}_{sw}"
    return f"{major}_INTER"


def gmma_atom_of_kind(kind: str, bits: int) -> Tuple[str, "cuteref.Value"]:
    """The model's atom for the DSL's SmemLayoutAtomKind name (K_SW128, MN_INTER, ...)."""
    m = re.fullmatch(r"(K|MN)_(INTER|SW32|SW64|SW128)", kind)
    if m is None:
        raise cuteref.Error(f"SmemLayoutAtomKind {kind!r} has no SM90 GMMA atom in the model")
    return expr(f"gmma_atom({m.group(1)}, {m.group(2)}, {bits})")


def smem_tile(layout_enum: str, shape: Sequence[int], bits: int, stages: Optional[int],
              major_size: Optional[int] = None) -> Tuple[str, "cuteref.Value"]:
    """An SM90 operand tile of SHAPE (MN, K) [x stages]: the selected atom tiled to it, the
    contiguous mode first (CuTe's tile_to_shape with order (0,1,2) for K-major, (1,0,2) MN)."""
    major = major_of(layout_enum)
    if major_size is None:
        major_size = shape[1] if major == "K" else shape[0]
    kind = atom_kind(major, int(major_size), bits)
    atom = f"gmma_atom({major}, {kind.split('_', 1)[1]}, {bits})"
    full = list(shape) + ([stages] if stages is not None else [])
    order = [0, 1, 2] if major == "K" else [1, 0, 2]
    return expr(f"tile_to_shape({atom}, {tup(full)}, {tup(order[:len(full)])})")


_TYPES = {"Float16": "F16", "BFloat16": "BF16", "Float32": "F32", "TFloat32": "TF32",
          "Float8E4M3FN": "E4M3", "Float8E5M2": "E5M2", "Int8": "S8", "Uint8": "U8", "Int32": "S32"}


def tiled_mma(a: str, b: str, acc: str, a_bits: int, a_major: str, b_major: str,
              atom_layout: Sequence[int], tiler_mn: Sequence[int], a_from_registers: bool) -> str:
    """The model's tiled MMA for a trivial SM90 tiled MMA: one WGMMA atom of M 64, N = the
    tiler's N, K = 256 bits of A, the atoms laid out column-major by ATOM_LAYOUT."""
    for t in (a, b, acc):
        if t not in _TYPES:
            raise cuteref.Error(f"element type {t} has no SM90 WGMMA atom in the model")
    m, n = int(tiler_mn[0]), int(tiler_mn[1])
    if m != 64:
        raise cuteref.Error(f"an SM90 WGMMA atom has M = 64, the tiler asks for {m}")
    k = 256 // a_bits
    name = f"SM90_64x{n}x{k}_{_TYPES[acc]}{_TYPES[a]}{_TYPES[b]}_{'RS' if a_from_registers else 'SS'}<{a_major},{b_major}>"
    sa = [int(v) for v in atom_layout]
    strides = [1, sa[0], sa[0] * sa[1]]
    return f"make_tiled_mma({name}, {tup(sa)}:{tup(strides)})"


def tiled_mma_tv(tiled: str, operand: str, bits: int) -> Tuple[str, "cuteref.Value"]:
    """The tiled MMA's (thread, value) -> tile index layout of OPERAND: CuTe's
    make_tiled_copy_{A,B,C} over a tiled MMA carries exactly that layout as its TiledLayout_TV."""
    return expr(f"tiled_copy_layout(make_tiled_copy_{operand}(UniversalCopy<uint{bits}_t>, {bits}, {tiled}), TV)")


def product_each(layout) -> List[int]:
    """The extent of each top-level mode of LAYOUT's shape (CuTe's product_each)."""
    shape = cuteref.shape(layout).to_python()
    if not isinstance(shape, tuple):
        return [int(shape)]
    return [extent(m) for m in shape]


def extent(t) -> int:
    """The product of a (nested) tuple or list of ints."""
    if isinstance(t, (tuple, list)):
        out = 1
        for e in t:
            out *= extent(e)
        return out
    return int(t)


def copy_atom(op: str, fields: dict, src_tv: str, bits: int) -> Optional[str]:
    """The model's copy atom for a DSL copy operation (its class name and fields), with the
    values per thread read from the atom's source (thread, value) layout; None when the model
    has no counterpart. ldmatrix/stmatrix: x1, x2, x4 of 32-bit rows, or their transposes in
    16-bit rows; cp.async (CopyG2SOp): 32, 64 or 128 bits a thread."""
    n = fields.get("num_matrices")
    t = bool(fields.get("transpose"))
    if op == "LdMatrix8x8x16bOp" and n in (1, 2, 4):
        return f"SM75_U16x{2 * n}_LDSM_T" if t else f"SM75_U32x{n}_LDSM_N"
    if op == "StMatrix8x8x16bOp" and n in (1, 2, 4):
        return f"SM90_U16x{2 * n}_STSM_T" if t else f"SM90_U32x{n}_STSM_N"
    if op in ("CopyUniversalOp", "CopyG2SOp"):
        shape = parse_int_tuple(split_layout(src_tv)[0])
        width = extent(shape[1:]) * bits if isinstance(shape, list) else bits
        if op == "CopyUniversalOp" and width in (8, 16, 32, 64, 128):
            return f"UniversalCopy<uint{width}_t>"
        # cp.async (global to shared) moves 4, 8 or 16 bytes a thread; its cache hint does not
        # change where the bytes land, so the model's cache-always atom of that width stands for it.
        if op == "CopyG2SOp" and width in (32, 64, 128):
            return f"SM80_CP_ASYNC_CACHEALWAYS<uint{width}_t>"
    return None


def literal(value: "cuteref.Value"):
    """A model value that is a tuple of integers, as Python."""
    text = str(value).replace("_", "")
    return ast.literal_eval(text)


# ---- the DSL's printouts of GMEM layouts and TMA tensors ------------------------------------

def parse_int_tuple(text: str):
    """A DSL shape or stride printout: ints, `?` (run-time: None, annotations such as
    `?{i64 div=8}` dropped) and nested tuples."""
    text = re.sub(r"\{[^}]*\}", "", text).replace(" ", "")
    pos = 0

    def item():
        nonlocal pos
        if text[pos] == "(":
            pos += 1
            out = []
            while text[pos] != ")":
                out.append(item())
                if text[pos] == ",":
                    pos += 1
            pos += 1
            return out
        m = re.match(r"\?|-?\d+", text[pos:])
        if m is None:
            raise cuteref.Error(f"cannot read `{text}` at column {pos + 1}")
        pos += m.end()
        return None if m.group(0) == "?" else int(m.group(0))

    value = item()
    if pos != len(text):
        raise cuteref.Error(f"cannot read `{text}`: trailing `{text[pos:]}`")
    return value


def split_layout(text: str) -> Tuple[str, str]:
    depth = 0
    for i, c in enumerate(text):
        depth += c == "("
        depth -= c == ")"
        if c == ":" and depth == 0:
            return text[:i], text[i + 1:]
    raise cuteref.Error(f"`{text}` is no layout SHAPE:STRIDE")


def flat(t) -> List:
    return [x for e in t for x in flat(e)] if isinstance(t, list) else [t]


def rebuild(t, values: List) -> str:
    if isinstance(t, list):
        return "(" + ",".join(rebuild(e, values) for e in t) + ")"
    return str(values.pop(0))


def concrete_gmem(layout_text: str, tiler: Sequence[int], bits: int) -> Tuple[str, List[int]]:
    """A concrete GMEM layout for a DSL tensor whose extents and strides are partly run-time
    (`?`): a kernel's TMA decision can depend only on what is static, so any concrete layout
    that keeps the static values decides the same. Run-time extents are filled with distinct
    multiples of the tiler's extent (so each TMA dimension names its mode); run-time strides
    compact after the static ones, 16-byte aligned. Returns the layout and its flat extents."""
    shape_t, stride_t = (parse_int_tuple(s) for s in split_layout(layout_text))
    shape, stride = flat(shape_t if isinstance(shape_t, list) else [shape_t]), \
        flat(stride_t if isinstance(stride_t, list) else [stride_t])
    if len(shape) != len(stride):
        raise cuteref.Error(f"`{layout_text}`: shape and stride differ in length")
    tiles = flat(list(tiler)) if isinstance(tiler, (list, tuple)) else [tiler]
    used = {s for s in shape if s is not None}
    for i, s in enumerate(shape):
        if s is None:
            base = tiles[i] if i < len(tiles) and tiles[i] else 1
            k = i + 2
            while base * k in used:
                k += 1
            shape[i] = base * k
            used.add(shape[i])
    align = max(1, 128 // bits)
    reach = max([abs(d) * s for s, d in zip(shape, stride) if d is not None] + [1])
    for i, d in enumerate(stride):
        if d is None:
            stride[i] = -(-reach // align) * align
            reach = stride[i] * shape[i]
    return rebuild(shape_t, list(shape)) + ":" + rebuild(stride_t, list(stride)), shape


def tma_dims(tensor_text: str) -> List[Optional[int]]:
    """Per flat GMEM mode, the TMA dimension the DSL's TMA tensor sends it to (`1@j`), None
    for a mode with no basis stride."""
    body = tensor_text
    m = re.search(r"o\s*(\(.*\)|[^ ]+)\s*>?\s*$", tensor_text)
    if m:
        body = m.group(1)
    _, stride = split_layout(body.rstrip(">"))
    out = []
    for leaf in re.findall(r"[^(),]+", stride):
        b = re.fullmatch(r"1@(\d+)", leaf.strip())
        out.append(int(b.group(1)) if b else None)
    return out
