"""The audit: each decision of a trace against the model's value for the same arguments.

`audit(trace)` returns one Verdict per decision, in order, plus one per register handoff (a
tiled MMA that reads A from registers after one that accumulates in them) and one per tiled
MMA for its own SMEM operand reads (gmma_reads.py). A verdict is

- `agree`: the DSL's value and the model's are the same function (layouts compared with
  cuteref's functional ==, SMEM layouts read on byte addresses: from_dsl(..., bits), except
  an SMEM tensor whose swizzle is in its layout over a plain pointer: read on element offsets,
  as the DSL's generated code applies it);
- `disagree`: with the first differing element, as the model's == names it;
- `unmapped`: the audit has no model counterpart for this call, said with the reason;
- `failed`: the DSL raised (its message), so there is no value to compare;
- `reported`: a measure, not a verdict: the shared-memory wavefronts of a tiled copy's
  instructions on the SMEM tensor a thread partitions, or the model's count of a wgmma's own
  operand reads under gmma_reads.ACCESS_MODEL, against the ideal (never a failure).

Nothing is skipped: every recorded decision has a verdict.
"""
from dataclasses import dataclass, field
from typing import Dict, List, Optional

import cuteref

from . import gmma_reads, model
from .trace import Decision, Trace


@dataclass
class Verdict:
    index: Optional[int]          # the decision's index; None for a derived check (handoff)
    section: str
    title: str                    # the call, readable
    status: str                   # agree | disagree | unmapped | failed | reported
    dsl: str = ""                 # the DSL's value (and how it was read)
    model: str = ""               # the model's EXPR and value
    detail: str = ""              # the first differing element, or why unmapped
    checks: List[str] = field(default_factory=list)  # each sub-comparison made


def _bits(arg) -> int:
    if isinstance(arg, dict) and "bits" in arg:
        return int(arg["bits"])
    raise cuteref.Error(f"no element width in {arg!r}")


def _compare(v: Verdict, dsl_value, model_value, what: str) -> bool:
    verdict = cuteref.equal(model_value, dsl_value)
    v.checks.append(what)
    if str(verdict) == "true":
        return True
    v.status = "disagree"
    v.detail = f"{what}: {verdict} (left: model, right: DSL)"
    return False


def _static_tiler(tiler) -> str:
    """A CTA tiler (nested lists of ints) in the model's notation with static extents (`_n`)."""
    if isinstance(tiler, list):
        return "(" + ",".join(_static_tiler(t) for t in tiler) + ")"
    return f"_{int(tiler)}"


def _read_smem(printout: str, bits: Optional[int]):
    """A DSL SMEM layout as the function it is on the GPU."""
    if printout.lstrip().startswith("S<"):
        if bits is None:
            raise cuteref.Error(f"`{printout}` is swizzled and its element width is unknown")
        return cuteref.from_dsl(printout, bits=bits)
    return cuteref.from_dsl(printout)


class _Auditor:
    def __init__(self, trace: Trace):
        self.trace = trace
        self.bits_of_layout: Dict[str, int] = {}   # DSL atom printout -> element width
        self.smem_tiles: List[tuple] = []          # (section, bits, model tile (one stage), its EXPR)
        self.mmas: List[tuple] = []                # (decision, model tiled MMA EXPR)
        self.copies: Dict[tuple, str] = {}         # (section, DSL printout) -> model tiled copy EXPR
        # the same with the model's atom of the DSL's instruction (None: no model atom); a set,
        # since tiled copies of different instructions can print the same (the printout names
        # no instruction: a cp.async copy and a universal copy of one (thread, value) layout)
        # instruction atom (None: none) -> the first such tiled copy EXPR; copies of one
        # instruction that print the same have the same (thread, value) layout, checked each
        self.instr_copies: Dict[tuple, dict] = {}
        self.instr_of_op: Dict[tuple, Optional[str]] = {}  # (section, printout, DSL op class) -> instruction atom
        # (section, DSL printout) -> (decision index, bits, model EXPR, model value): each SMEM
        # layout the kernel made through a hooked call, as the model derives it
        self.smem_layouts: Dict[tuple, tuple] = {}
        # (section, tiled copy, operand, layout printout, bits, (B,M,S), index): SMEM tensors
        # partitioned with their swizzle on the pointer
        self.pointer_swizzled: List[tuple] = []
        # (section, view's layout printout, bits, what, model value): quack's transposed views
        # (transpose_view decisions), as the model transposes the tensor they view
        self.views: List[tuple] = []

    def run(self) -> List[Verdict]:
        out = []
        for d in self.trace.decisions:
            v = Verdict(d.index, d.section, self.title(d), "agree")
            if d.error:
                v.status, v.detail = "failed", f"the DSL raised {d.error}"
            elif "unrecorded" in d.args or "unrecorded" in d.result:
                v.status = "unmapped"
                why = d.args.get('unrecorded') or d.result.get('unrecorded')
                v.detail = f"the call could not be recorded: {why}"
                if d.kind == "smem_partition" and "doesn't have memspace" in why:
                    v.detail = ("a partition of a coordinate tensor recorded without its arguments (the tiled copy is "
                                f"not in the trace: {why}); a tracer that records it as coord_partition lets "
                                "the audit compare it with the model's partition")
            else:
                check = getattr(self, "check_" + d.kind, None)
                if check is None:
                    v.status, v.detail = "unmapped", f"no model counterpart for {d.api} in cuteref.dsl"
                else:
                    try:
                        check(d, v)
                    except cuteref.Error as e:
                        v.status, v.detail = "unmapped", f"the model cannot read it: {e.diagnostic}"
                    except (KeyError, ValueError, TypeError, IndexError) as e:
                        v.status = "unmapped"
                        v.detail = f"the audit cannot read this decision's record: {type(e).__name__}: {e}"
            out.append(v)
            if d.kind == "tiled_mma" and v.status != "failed":
                handoff = self.handoff(d)
                if handoff is not None:
                    out.append(handoff)
        # Each tiled MMA's own SMEM operand reads, once the kernel's SMEM tiles are all known
        # (a kernel makes its tiled MMAs before its SMEM layouts): after the MMA's verdict.
        reads = {d.index: self.gmma_reads(d) for d in self.trace.decisions if d.kind == "tiled_mma" and not d.error
                 and "unrecorded" not in d.args and "unrecorded" not in d.result}
        final = []
        for v in out:
            final.append(v)
            if v.index in reads and reads[v.index] is not None:
                final.append(reads.pop(v.index))
        return final

    @staticmethod
    def title(d: Decision) -> str:
        args = ", ".join(f"{k}={_show(a)}" for k, a in d.args.items())
        return f"{d.api}({args})" + (f"  (inside [{d.parent}])" if d.parent is not None else "")

    # ---- SMEM ------------------------------------------------------------------------------
    def check_smem_atom_kind(self, d: Decision, v: Verdict) -> None:
        bits = _bits(d.args["element_type"])
        major = model.major_of(d.args["layout"])
        kind = model.atom_kind(major, int(d.args["major_mode_size"]), bits)
        v.dsl, v.model = d.result["kind"], f"the widest GMMA atom whose contiguous extent divides {d.args['major_mode_size']}: {kind}"
        v.checks.append("atom kind")
        if kind != d.result["kind"]:
            v.status, v.detail = "disagree", f"atom kind: model {kind}, DSL {d.result['kind']}"

    def check_smem_layout_atom(self, d: Decision, v: Verdict) -> None:
        bits = _bits(d.args["element_type"])
        text, mine = model.gmma_atom_of_kind(d.args["kind"], bits)
        self.bits_of_layout[d.result["layout"]] = bits
        self.smem_layouts[(d.section, d.result["layout"])] = (d.index, bits, text, mine)
        theirs = _read_smem(d.result["layout"], bits)
        v.dsl, v.model = f"{d.result['layout']}  read as {theirs}", f"{text} = {mine}"
        _compare(v, theirs, mine, "atom")

    def check_tile_to_shape(self, d: Decision, v: Verdict) -> None:
        atom = d.args.get("atom")
        bits = self.bits_of_layout.get(atom)
        atom_value = _read_smem(atom, bits)
        shape = d.args.get("trg_shape", d.args.get("shape"))
        order = d.args.get("order")
        call = f"tile_to_shape({atom_value}, {model.tup(shape)}" + (f", {model.tup(order)})" if order else ")")
        mine = cuteref.eval(call)
        theirs = _read_smem(d.result["layout"], bits)
        if bits is not None:
            self.bits_of_layout[d.result["layout"]] = bits
            self.smem_layouts[(d.section, d.result["layout"])] = (d.index, bits, call, mine)
            self.remember_tile(d, bits, atom_value, shape, order)
        v.dsl, v.model = f"{d.result['layout']}  read as {theirs}", f"{call} = {mine}"
        _compare(v, theirs, mine, "tiled layout")

    def remember_tile(self, d: Decision, bits: int, atom, shape, order) -> None:
        """The first two modes of an SMEM layout (one stage), for matching TMA boxes."""
        if len(shape) == 3 and order is not None and list(order)[2] == 2:
            call = f"tile_to_shape({atom}, {model.tup(shape[:2])}, {model.tup(list(order)[:2])})"
        elif len(shape) == 2:
            call = f"tile_to_shape({atom}, {model.tup(shape)}" + (f", {model.tup(order)})" if order else ")")
        else:
            return
        self.smem_tiles.append((d.section, bits, cuteref.eval(call), call))

    def _smem_helper(self, d: Decision, v: Verdict, layout_enum: str, shape, bits: int, stages,
                     major_size=None) -> None:
        text, mine = model.smem_tile(layout_enum, shape, bits, stages, major_size)
        theirs = _read_smem(d.result["layout"], bits)
        self.bits_of_layout[d.result["layout"]] = bits
        self.smem_layouts[(d.section, d.result["layout"])] = (d.index, bits, text, mine)
        unstaged = model.smem_tile(layout_enum, shape, bits, None, major_size)
        self.smem_tiles.append((d.section, bits, unstaged[1], unstaged[0]))
        v.dsl, v.model = f"{d.result['layout']}  read as {theirs}", f"{text} = {mine}"
        _compare(v, theirs, mine, "SMEM layout")

    def check_smem_layout(self, d: Decision, v: Verdict) -> None:
        tile = d.args["tile"]
        if isinstance(tile, list):
            shape = [t if isinstance(t, int) else model.product_each(model.tup(t))[0] for t in tile]
        else:
            shape = model.product_each(cuteref.eval(tile))
        self._smem_helper(d, v, d.args["layout"], shape, _bits(d.args["dtype"]), d.args.get("stage"),
                          d.args.get("major_mode_size"))

    def check_smem_layout_a(self, d: Decision, v: Verdict) -> None:
        m, _, k = d.args["mma_tiler_mnk"]
        self._smem_helper(d, v, d.args["a_layout"], [m, k], _bits(d.args["a_dtype"]), d.args["num_stages"])

    def check_smem_layout_b(self, d: Decision, v: Verdict) -> None:
        _, n, k = d.args["mma_tiler_mnk"]
        self._smem_helper(d, v, d.args["b_layout"], [n, k], _bits(d.args["b_dtype"]), d.args["num_stages"])

    def check_composed_layout(self, d: Decision, v: Verdict) -> None:
        parent = self.trace.decisions[d.parent] if d.parent is not None else None
        if parent is not None and parent.kind == "smem_layout_atom" and not parent.error:
            # Made inside make_smem_layout_atom: it is that atom, an SMEM layout of its width.
            bits = _bits(parent.args["element_type"])
            text, mine = model.gmma_atom_of_kind(parent.args["kind"], bits)
            theirs = _read_smem(d.result["layout"], bits)
            v.dsl, v.model = f"{d.result['layout']}  read as {theirs}", f"{text} = {mine} (the atom of [{parent.index}])"
            _compare(v, theirs, mine, "atom")
            return
        self.check_composed_by_use(d, v)

    def check_composed_by_use(self, d: Decision, v: Verdict) -> None:
        """A composed layout the kernel made itself, mapped through its use: where the next
        decision partitions an SMEM tensor whose layout is this one recast to the tensor's
        element width (quack's as_position_independent_swizzle_tensor composes the pointer's
        byte swizzle with the layout recast to bytes, then recasts back), the composed layout
        acts on offsets in that unit (a swizzle in a layout acts on the layout's output), and
        the model's recast of it to the tensor's width must place every element where the
        tensor's reference placement does (placement_reference)."""
        text = d.result["layout"]
        v.dsl = text
        use = self.trace.decisions[d.index + 1] if d.index + 1 < len(self.trace.decisions) else None
        if (use is None or use.section != d.section or use.kind != "smem_partition" or use.error
                or not str(use.args.get("tensor_layout", "")).lstrip().startswith("S<")):
            v.status = "unmapped"
            v.detail = ("a composed layout made directly, and the trace shows no use of it (the next decision "
                        "is no SMEM tensor made from it): whether its swizzle acts on bytes or on element "
                        "offsets of some width is not recorded")
            return
        bits = int(use.args["bits"])
        outer = cuteref.from_dsl(_outer_of(text))
        used = cuteref.from_dsl(_outer_of(use.args["tensor_layout"]))
        unit = None
        for u in (8, 16, 32, 64):
            try:
                if str(cuteref.equal(cuteref.eval(f"recast({outer}, {u}, {bits})"), used)) == "true":
                    unit = u
                    break
            except cuteref.Error:
                continue
        if unit is None:
            v.status = "unmapped"
            v.detail = (f"a composed layout made directly; the next decision's SMEM tensor ([{use.index}], "
                        f"{use.args['tensor_layout']}) is not its layout recast to {bits} bits from any element "
                        "width, so the trace does not show this layout's use")
            return
        ref = self.placement_reference(use, _outer_of(use.args["tensor_layout"]), bits)
        if ref is None:
            v.status = "unmapped"
            v.detail = (f"its use, [{use.index}]'s SMEM tensor, has no reference placement in this kernel "
                        "(no tensor with its swizzle on the pointer and that layout, no SMEM layout decision "
                        "with that printout)")
            return
        what, reference = ref
        mine = cuteref.from_dsl(text, elements=True)
        call = f"recast({mine}, {unit}, {bits})"
        recast = cuteref.eval(call)
        v.dsl = (f"{text}, on {unit}-bit offsets: it becomes the layout of [{use.index}]'s {bits}-bit SMEM tensor "
                 f"through a recast from {unit} bits")
        v.model = f"{call} = {recast}; against {what}"
        _compare(v, recast, reference, f"placement of its recast to {bits} bits (element offsets)")

    # ---- MMA ---------------------------------------------------------------------------------
    def check_tiled_mma(self, d: Decision, v: Verdict) -> None:
        a, b, acc = d.args["a_dtype"], d.args["b_dtype"], d.args["acc_dtype"]
        rs = d.args.get("a_source") == "RMEM"
        tiled = model.tiled_mma(a["dtype"], b["dtype"], acc["dtype"], a["bits"], d.args["a_leading_mode"],
                                d.args["b_leading_mode"], d.args["atom_layout_mnk"], d.args["tiler_mn"], rs)
        self.mmas.append((d, tiled))
        v.model, v.dsl = tiled, d.result["shape_mnk"]
        for key, op, bits in (("tv_a", "A", a["bits"]), ("tv_b", "B", b["bits"]), ("tv_c", "C", acc["bits"])):
            text, mine = model.tiled_mma_tv(tiled, op, bits)
            if not _compare(v, cuteref.from_dsl(d.result[key]), mine, f"TV layout {op} ({d.result[key]})"):
                return
        v.checks.append("A from registers" if rs else "A from SMEM")

    def handoff(self, d: Decision) -> Optional[Verdict]:
        """A tiled MMA reading A from registers after one that accumulates: the kernel hands the
        accumulator's values over in order (value i of C is value i of A, converted), which is
        right exactly when the model's register_permutation says identity."""
        if d.args.get("a_source") != "RMEM" or len(self.mmas) < 2 or self.mmas[-1][0] is not d:
            return None
        to_expr = self.mmas[-1][1]
        earlier = [(e, t) for e, t in self.mmas[:-1] if e.section == d.section and e.args.get("a_source") != "RMEM"]
        v = Verdict(None, d.section, f"register handoff into decision {d.index} (A from registers)", "agree")
        if not earlier:
            v.status, v.detail = "unmapped", "no earlier tiled MMA in this kernel accumulates the registers handed over"
            return v
        src, from_expr = earlier[-1]
        call = f"register_permutation({from_expr}, C, {to_expr}, A)"
        v.title = f"register handoff: C of decision {src.index} -> A of decision {d.index}, value i to value i"
        v.dsl = "the kernel reuses accumulator value i as A fragment value i"
        try:
            result = cuteref.eval(call)
        except cuteref.Error as e:
            v.status, v.detail = "unmapped", f"the model cannot compare the two: {e.diagnostic}"
            return v
        v.model = f"{call} = {result}"
        v.checks.append("register permutation")
        if not str(result).startswith("(identity"):
            v.status, v.detail = "disagree", f"the model says the values move: {result}"
        return v

    def gmma_reads(self, d: Decision) -> Optional[Verdict]:
        """Reported, not judged: the wavefronts of the wgmma's own reads of its SMEM operands (A
        of SS, B) under gmma_reads.ACCESS_MODEL. The trace does not record which SMEM tensor a
        wgmma reads, so each one-stage SMEM tile of this kernel that can be the operand is
        counted: the element width is the operand's, and the tile, or its transpose (FA's
        transposed views), has the operand's contiguous mode and extents that are multiples of
        one wgmma's block (64 or N rows, 32 bytes of K). Identical tiles are counted once."""
        entry = next((t for e, t in self.mmas if e is d), None)
        if entry is None:
            return None
        v = Verdict(None, d.section, f"GMMA operand reads of decision {d.index} ({entry})", "reported")
        try:
            self.count_gmma_reads(d, v)
        except cuteref.Error as e:
            v.status, v.detail = "unmapped", f"the model cannot count these reads: {e.diagnostic}"
        except (KeyError, ValueError, TypeError, IndexError) as e:
            v.status, v.detail = "unmapped", f"the audit cannot read this decision's record: {type(e).__name__}: {e}"
        return v

    def count_gmma_reads(self, d: Decision, v: Verdict) -> None:
        v.dsl = "the wgmma reads its SMEM operands through the GMMA descriptor (not recorded: every fitting SMEM tile)"
        v.model = gmma_reads.ACCESS_MODEL
        rs = d.args.get("a_source") == "RMEM"
        n = int(d.args["tiler_mn"][1])
        lines, counted = [], 0
        for op, key, major_key, mn_atom in (("A", "a_dtype", "a_leading_mode", 64), ("B", "b_dtype", "b_leading_mode", n)):
            if op == "A" and rs:
                lines.append("A: from registers (no SMEM read)")
                continue
            bits, major = int(d.args[key]["bits"]), str(d.args[major_key])
            k_atom = 256 // bits
            fits = self.operand_tiles(d.section, bits, major, mn_atom, k_atom)
            if not fits:
                lines.append(f"{op} ({major}-major, {bits}-bit): no SMEM tile of this kernel fits the operand")
                continue
            for what, view in fits:
                c = gmma_reads.core_matrix_wavefronts(view, bits, major, (mn_atom, k_atom))
                counted += 1
                desc = gmma_reads.descriptor(view, bits, mn_atom, k_atom)
                v.checks.append(f"{op}: {what} = {view}; {desc}")
                lines.append(f"{op} ({major}-major) {what}: " + _wavefronts_gmma(c)
                             + (" [no GMMA descriptor: a wgmma cannot read it as this operand]"
                                if desc.startswith("no descriptor") else ""))
        v.detail = "; ".join(lines)
        if not counted:
            v.status = "unmapped"

    def operand_tiles(self, section: str, bits: int, major: str, mn_atom: int, k_atom: int) -> List[tuple]:
        """(what, (MN, K) view) of each distinct one-stage SMEM tile of SECTION that fits a
        MAJOR-major operand of one wgmma's (MN_ATOM, K_ATOM) block: the tile itself or its
        transpose."""
        out, seen = [], set()
        for sec, b, tile, call in self.smem_tiles:
            if sec != section or b != bits or int(cuteref.rank(tile)) != 2:
                continue
            for transposed in (False, True):
                expr, view = _transposed(tile) if transposed else (call, tile)
                mn, k = model.product_each(view)
                want = 1 if major == "K" else 0
                if mn % mn_atom or k % k_atom or gmma_reads.contiguous_mode(view) != want:
                    continue
                same = str(view).replace("_", "")  # a static extent prints with `_`: the same tile
                if same in seen:
                    continue
                seen.add(same)
                out.append((f"the transpose of {call}" if transposed else call, view))
        return out

    # ---- TMA ---------------------------------------------------------------------------------
    def check_tma_atom(self, d: Decision, v: Verdict) -> None:
        gmem = d.args["gmem_tensor"]
        if not isinstance(gmem, dict):
            raise cuteref.Error(f"the GMEM tensor was not recorded as a tensor: {gmem!r}")
        bits = gmem["bits"]
        tiler = d.args["cta_tiler"]
        if isinstance(tiler, str):  # a layout as the tiler, e.g. (64,32):(1@0,1@1): its mode extents
            tiler = model.product_each(cuteref.from_dsl(tiler))
        smem_text = d.args.get("smem_layout_", d.args.get("smem_layout"))
        smem = _read_smem(smem_text, bits)
        rank_tiler = len(tiler) if isinstance(tiler, list) else 1
        if int(cuteref.rank(smem)) == rank_tiler + 1:
            raise cuteref.Error("a staged SMEM layout given to the TMA (the audit compares one stage)")
        v.dsl = f"SMEM {smem}, tiler {model.tup(tiler)}, atom values {d.result['src_tv']}, {d.result['tma_tensor']}"
        # 1. The box's SMEM layout is one the kernel's SMEM decisions produced (one stage), where
        #    the kernel made its SMEM layouts through the hooked API.
        tiles = [(call, tile) for section, b, tile, call in self.smem_tiles if section == d.section and b == bits]
        match = [call for call, tile in tiles if str(cuteref.equal(tile, smem)) == "true"]
        if tiles:
            v.checks.append("SMEM layout is an allocated tile")
            if not match:
                v.status = "disagree"
                v.detail = ("the TMA's SMEM layout is none of the kernel's SMEM tiles as the model derives them: "
                            + "; ".join(f"{call}: {cuteref.equal(tile, smem)}" for call, tile in tiles)[:600])
                return
        else:
            v.checks.append("(no hooked SMEM layout of this width to match the box against)")
        # 2. The tiler is the tile's shape.
        shape = model.product_each(smem)
        v.checks.append("tiler = tile shape")
        tiler_extents = [model.extent(t) for t in (tiler if isinstance(tiler, list) else [tiler])]
        if list(shape) != tiler_extents:
            v.status, v.detail = "disagree", f"CTA tiler {model.tup(tiler)} is not the SMEM tile's shape {model.tup(shape)}"
            return
        # 3. The model's tensor map for this copy: box size and each mode's TMA dimension.
        layout, extents = model.concrete_gmem(gmem["tensor_layout"], tiler, bits)
        # Over a hierarchical GMEM mode (pack_gqa's (heads, seqlen)) the tiler's own modes pick
        # the tile (make_tma_copy's cta_tiler): passed, its extents static as the DSL's are.
        gshape = model.parse_int_tuple(model.split_layout(layout)[0])
        nested = isinstance(gshape, list) and any(isinstance(m, list) for m in gshape)
        tiler_arg = f", {_static_tiler(tiler)}" if nested and isinstance(tiler, list) else ""
        call = f"tma_params({layout}, {smem}, {bits}{tiler_arg}" + (
            f", {d.args['num_multicast']})" if d.args.get("num_multicast", 1) != 1 else ")")
        params = model.literal(cuteref.eval(call))
        _, global_dim, _, box, _, _, swizzle = params
        v.model = f"{call} = {model.tup(params)}" + (f"  (SMEM: {match[0]})" if match else "")
        box_size = 1
        for e in box:
            box_size *= e
        v.checks.append("box elements")
        src_shape = model.parse_int_tuple(model.split_layout(d.result["src_tv"])[0])  # (thread, value)
        per_box = 1
        for e in model.flat(src_shape[1:]):
            per_box *= e
        if box_size != per_box:
            v.status, v.detail = "disagree", f"elements per box: model {box_size} (boxDim {model.tup(box)}), DSL atom {per_box}"
            return
        dims = model.tma_dims(d.result["tma_tensor"])
        v.checks.append("TMA dimension of each GMEM mode")
        for mode, dim in enumerate(dims):
            if dim is None:
                continue
            if dim >= len(global_dim) or global_dim[dim] != extents[mode]:
                v.status = "disagree"
                v.detail = (f"GMEM mode {mode} (extent {extents[mode]} in {layout}): DSL TMA dimension {dim}, "
                            f"model globalDim {model.tup(global_dim)}")
                return
        v.checks.append(f"swizzle code {swizzle}")

    # ---- copies ------------------------------------------------------------------------------
    # The (thread, value) layout of a tiled copy depends on its copy atom only through the
    # element width (CuTe's make_tiled_copy*), so the model's universal copy of that width
    # stands for the DSL's atom.
    VALUE_BITS = {"bf16": 16, "f16": 16, "i16": 16, "u16": 16, "f32": 32, "tf32": 32, "i32": 32, "u32": 32,
                  "f64": 64, "i64": 64, "i8": 8, "u8": 8, "f8E4M3FN": 8, "f8E5M2": 8}

    def tiled_mma_of(self, d: Decision, argument: str, v: Verdict) -> Optional[str]:
        """The model's tiled MMA EXPR of the tiled MMA a copy decision names in ARGUMENT (its
        printout), the latest of that section; None, with v unmapped and the reason, where the
        kernel did not make it through a hooked call."""
        mma = next((t for e, t in reversed(self.mmas) if e.section == d.section
                    and e.result.get("printout") == d.args.get(argument)), None)
        if mma is None:
            v.status = "unmapped"
            v.detail = "its tiled MMA was not made through a hooked call (make_trivial_tiled_mma) in this kernel"
        return mma

    def check_tiled_copy(self, d: Decision, v: Verdict) -> None:
        import re
        name = d.api.rsplit(".", 1)[-1]
        typed = re.search(r"Value type:\s*(\S+)", d.args.get("atom", ""))
        bits = self.VALUE_BITS.get(typed.group(1)) if typed else None
        if bits is None:
            raise cuteref.Error(f"the copy atom's value type ({typed.group(1) if typed else 'not printed'}) "
                                "has no width in cuteref.dsl")
        atom = f"UniversalCopy<uint{bits}_t>"
        if name == "make_tiled_copy_tv":
            thr, val = cuteref.from_dsl(d.args["thr_layout"]), cuteref.from_dsl(d.args["val_layout"])
            tiled = f"make_tiled_copy({atom}, {bits}, {thr}, {val})"
            tv, tiler = f"tiled_copy_layout({tiled}, TV)", f"tiled_copy_tiler({tiled})"
        elif name in ("make_tiled_copy_A", "make_tiled_copy_B", "make_tiled_copy_C"):
            mma = self.tiled_mma_of(d, "tiled_mma", v)
            if mma is None:
                return
            tiled = f"{name}({atom}, {bits}, {mma})"
            tv, tiler = f"tiled_copy_layout({tiled}, TV)", f"tiled_copy_tiler({tiled})"
        elif name == "make_tiled_copy_C_atom":
            mma = self.tiled_mma_of(d, "mma", v)
            if mma is None:
                return
            # It keeps as many C values a thread as the atom moves: its (thread, value) layout
            # depends on the atom itself, so the model takes the atom of the DSL's instruction.
            atom = model.copy_atom(d.result.get("op", ""), d.result.get("op_fields", {}), d.result.get("src_tv", ""), bits)
            if atom is None:
                v.status = "unmapped"
                v.detail = (f"its copy instruction ({d.result.get('op', 'not recorded')}) has no model atom in cuteref.dsl, "
                            "and make_tiled_copy_C_atom keeps as many values a thread as the atom moves")
                return
            tiled = f"{name}({atom}, {bits}, {mma})"
            tv, tiler = f"tiled_copy_layout({tiled}, TV)", f"tiled_copy_tiler({tiled})"
        elif name in ("make_tiled_copy_S", "make_tiled_copy_D"):
            source = self.copies.get((d.section, d.args.get("tiled_copy")))
            if source is None:
                v.status = "unmapped"
                v.detail = "its source tiled copy was not made through a hooked call in this kernel"
                return
            tiled = None
            tv, tiler = f"tiled_copy_layout({source}, {name[-1]})", f"tiled_copy_tiler({source})"
        else:
            raise cuteref.Error(f"no model counterpart for {d.api}")
        if tiled is not None:
            self.copies[(d.section, d.result.get("printout"))] = tiled
            instr = model.copy_atom(d.result.get("op", ""), d.result.get("op_fields", {}), d.result.get("src_tv", ""), bits) \
                if "op" in d.result else None
            key = (d.section, d.result.get("printout"))
            self.instr_copies.setdefault(key, {}).setdefault(instr, tiled.replace(atom, instr, 1) if instr is not None else None)
            self.instr_of_op[key + (d.result.get("op"),)] = instr
        mine_tv, tiler_value = cuteref.eval(tv), cuteref.eval(tiler)
        if str(tiler_value).startswith("(") and ":" in str(tiler_value):
            # a tuple of layouts (make_tiled_copy_C_atom's by-mode tiler, or a copy made from
            # one): compared layout by layout as functions
            mine_parts = [cuteref.eval(part) for part in _top_level(str(tiler_value))]
            mine_tiler = tuple(int(cuteref.size(p)) for p in mine_parts)
        else:
            mine_parts, mine_tiler = None, model.literal(tiler_value)
        v.dsl = f"TV {d.result['tv']}, tiler {d.result['tiler']}"
        v.model = f"{tv} = {mine_tv}; tiler {tiler_value if mine_parts is not None else model.tup(mine_tiler)}"
        if not _compare(v, cuteref.from_dsl(d.result["tv"]), mine_tv, "TV layout"):
            return
        their_parts = _top_level(d.result["tiler"])
        theirs = [int(cuteref.size(cuteref.from_dsl(part))) for part in their_parts]
        v.checks.append("tiler")
        if theirs != list(mine_tiler if isinstance(mine_tiler, tuple) else [mine_tiler]):
            v.status, v.detail = "disagree", f"tiler: model {mine_tiler}, DSL {d.result['tiler']}"
            return
        if mine_parts is not None:
            for i, (mine, part) in enumerate(zip(mine_parts, their_parts)):
                if not _compare(v, cuteref.from_dsl(part), mine, f"tiler mode {i}"):
                    return
        if tiled is None:
            # make_tiled_copy_S/D: CuTe's make_tiled_copy_impl(atom, the source's layout S|D, its
            # tiler), recorded as the tuple a tiled copy is so that its partitions are checked
            instr = model.copy_atom(d.result.get("op", ""), d.result.get("op_fields", {}), d.result.get("src_tv", ""), bits) \
                if "op" in d.result else None
            key = (d.section, d.result.get("printout"))
            self.copies[key] = f"({atom}, {bits}, {mine_tv}, {tiler_value})"
            self.instr_copies.setdefault(key, {}).setdefault(
                instr, f"({instr}, {bits}, {mine_tv}, {tiler_value})" if instr is not None else None)
            self.instr_of_op[key + (d.result.get("op"),)] = instr


    def instruction_copy(self, key: tuple, op: Optional[str] = None):
        """(the model's tiled copy with the atom of the DSL's instruction, None) for the tiled
        copy printed as key[1] in section key[0] whose operation is of class OP (where the trace
        records it); (None, why) where the trace names no such copy, its instruction has no model
        atom, or copies of different instructions print the same and OP is not recorded."""
        found = self.instr_copies.get(key)
        if not found:
            return None, "its tiled copy was not recorded, or its copy instruction has no model atom"
        if op is not None and key + (op,) in self.instr_of_op:
            found = {self.instr_of_op[key + (op,)]: found[self.instr_of_op[key + (op,)]]}
        if len(found) > 1:
            names = sorted(name or "an instruction with no model atom" for name in found)
            return None, ("tiled copies of different instructions print the same in this kernel ("
                          + ", ".join(names) + "): the trace does not say which one this partition uses")
        tiled = next(iter(found.values()))
        return (tiled, None) if tiled is not None else (None, "its copy instruction has no model atom in cuteref.dsl")

    def check_smem_partition(self, d: Decision, v: Verdict) -> None:
        """Reported, not judged, for a tensor whose swizzle is on its pointer (or that has none):
        the wavefronts of the copy's instructions on this SMEM tensor. A tensor whose swizzle
        sits in its layout over a plain pointer is judged first (check_in_layout_swizzle)."""
        key = (d.section, d.args["tiled_copy"])
        tiled, why_not = self.instruction_copy(key, d.args.get("copy_op"))
        swizzle = d.args.get("swizzle")
        bits = int(d.args["bits"])
        on_pointer = bool(swizzle and swizzle[0] > 0)
        if d.args["tensor_layout"].lstrip().startswith("S<"):
            if on_pointer:
                raise cuteref.Error("a swizzle both in the tensor's layout and on its pointer: no SMEM "
                                    "placement in cuteref.dsl composes the two")
            self.check_in_layout_swizzle(d, v, bits, tiled)
            return
        layout = cuteref.from_dsl(d.args["tensor_layout"])
        if on_pointer:
            self.pointer_swizzled.append((d.section, d.args["tiled_copy"], d.args["operand"], d.args["tensor_layout"],
                                          bits, tuple(swizzle), d.index))
        v.status = "unmapped"
        if tiled is None:
            v.detail = why_not
            return
        smem = f"Sw<{swizzle[0]},{swizzle[1]},{swizzle[2]}> o smem_ptr[{bits}b](unset) o {layout}" \
            if on_pointer else str(layout)
        call = f"bank_conflicts({tiled}, {smem}, {d.args['operand']})"
        instructions, wavefronts, ideal = model.literal(cuteref.eval(call))
        v.status = "reported"
        v.dsl = f"{d.args['operand']} of the tiled copy on SMEM {smem}"
        v.model = f"{call} = ({instructions},{wavefronts},{ideal})"
        v.detail = _wavefronts(wavefronts, instructions, ideal)

    def placement_reference(self, d: Decision, outer_text: str, bits: int) -> Optional[tuple]:
        """The placement an SMEM tensor with its swizzle in its layout must have, as the model
        reads it (the swizzle on byte addresses): (what it is, the model's value), or None.
        1. The tensor it views: a partition, by the same tiled copy and operand, of a tensor
           with the same layout, the same width and its swizzle on the pointer, recorded just
           before this one with only composed layouts between (quack's
           partition_*_position_independent partitions the tensor, makes the view, partitions it).
        2. Else an SMEM layout the kernel made through a hooked call (make_smem_layout, ...)
           with this tensor's printout and width: the model's layout for that decision."""
        for section, tiled, operand, layout, b, swz, index in reversed(self.pointer_swizzled):
            between = self.trace.decisions[index + 1:d.index]
            if (section, tiled, operand, layout, b) == (d.section, d.args["tiled_copy"], d.args["operand"],
                                                        outer_text, bits) \
                    and all(e.kind == "composed_layout" for e in between):
                expr = f"Sw<{swz[0]},{swz[1]},{swz[2]}> o smem_ptr[{bits}b](unset) o {cuteref.from_dsl(layout)}"
                return f"the tensor it views ([{index}], its swizzle on the pointer): {expr}", cuteref.eval(expr)
        hit = self.smem_layouts.get((d.section, d.args["tensor_layout"]))
        if hit is not None and hit[1] == bits:
            index, _, text, value = hit
            return f"the SMEM layout of [{index}]: {text} = {value}", value
        for section, printout, b, what, value in reversed(self.views):
            if (section, printout, b) == (d.section, d.args["tensor_layout"], bits):
                return what, value
        return self.transposed_smem_layout(d.section, d.args["tensor_layout"], bits)

    def transposed_smem_layout(self, section: str, printout: str, bits: int) -> Optional[tuple]:
        """3. A transposed view (quack's transpose_view: the tensor composed with the ordered
        layout that swaps its first two modes) of an SMEM layout decision of this kernel, where
        the trace holds no transpose_view decision: the view's printout is the decision's
        printout transposed (same swizzle text, outer layouts equal as functions after the
        transposition), and its reference placement is the model's transposition of the
        model's layout for that decision."""
        if not printout.lstrip().startswith("S<"):
            return None
        head, outer = printout.split(" o ", 1)[0], cuteref.from_dsl(_outer_of(printout))
        for (sec, text), (index, b, call, value) in self.smem_layouts.items():
            if sec != section or b != bits or not text.lstrip().startswith("S<") or text.split(" o ", 1)[0] != head:
                continue
            theirs = cuteref.from_dsl(_outer_of(text))
            if int(cuteref.rank(theirs)) < 2 or int(cuteref.size(theirs)) != int(cuteref.size(outer)):
                continue
            if str(cuteref.equal(_transposed(theirs)[1], outer)) == "true":
                expr, mine = _transposed(value)
                return (f"the transpose of the SMEM layout of [{index}] ({call}): {expr} = {mine}", mine)
        return None

    def check_in_layout_swizzle(self, d: Decision, v: Verdict, bits: int, tiled: Optional[str]) -> None:
        """An SMEM tensor whose swizzle is part of its layout, the pointer plain: the swizzle acts
        on the layout's output, the element offset (the tensor's element type gives the width),
        so the tensor's placement is its layout read on element offsets. It must equal the
        reference placement (placement_reference), compared as functions: the model's byte
        address of every index is the DSL's element offset times the element's bytes."""
        text = d.args["tensor_layout"]
        placed = cuteref.from_dsl(text, elements=True)
        v.dsl = f"{text} read on element offsets (the swizzle in the layout, the pointer plain): {placed}"
        ref = self.placement_reference(d, _outer_of(text), bits)
        if ref is None:
            v.status = "unmapped"
            v.detail = ("a swizzle inside the SMEM tensor's layout with no reference placement in this kernel: no "
                        "tensor with its swizzle on the pointer and this layout, partitioned by the same copy, "
                        "and no SMEM layout decision with this printout")
            return
        what, reference = ref
        v.model = what
        agree = _compare(v, placed, reference, "placement (element offsets)")
        if not agree and what.startswith(("the SMEM layout of", "the transpose of the SMEM layout of")):
            v.detail += ("; the tensor puts that layout over a pointer without its swizzle, so the swizzle acts on "
                         f"{bits}-bit element offsets, where the model's SMEM layout (and TMA and GMMA) apply it "
                         "to byte addresses")
        if tiled is not None:
            call = f"bank_conflicts({tiled}, {placed}, {d.args['operand']})"
            instructions, wavefronts, ideal = model.literal(cuteref.eval(call))
            v.checks.append(f"{call} = ({instructions},{wavefronts},{ideal})")
            measure = _wavefronts(wavefronts, instructions, ideal)
            if agree:
                v.detail = measure
            else:
                theirs = model.literal(cuteref.eval(f"bank_conflicts({tiled}, {reference}, {d.args['operand']})"))
                v.detail += f"; on the GPU {measure}, with the model's layout {theirs[1]} wavefronts"

    def check_transpose_view(self, d: Decision, v: Verdict) -> None:
        """quack's transpose_view of an SMEM tensor: the DSL's view, read as its tensor is (the
        swizzle on byte addresses when on the pointer, on element offsets when in the layout
        over a plain pointer), against the model's transposition of the tensor it views (its
        composition with the ordered layout that swaps the first two modes). A later partition
        of the view takes as reference placement the model's transposition of the viewed
        tensor's reference placement (placement_reference), else of its own reading."""
        source = next((a for a in d.args.values() if isinstance(a, dict) and "tensor_layout" in a), None)
        if source is None:
            raise cuteref.Error("transpose_view: the viewed tensor was not recorded as an SMEM tensor")
        bits = int(source["bits"])
        mine_in, how = _smem_tensor_value(source)
        theirs, _ = _smem_tensor_value(d.result)
        expr, mine = _transposed(mine_in)
        v.dsl = f"{d.result['tensor_layout']} {how}: {theirs}"
        v.model = f"{expr} = {mine}"
        if not _compare(v, theirs, mine, "the view as the transpose of the tensor it views"):
            return
        reference = mine
        what = f"the transposed view [{d.index}] of a tensor {source['tensor_layout']}"
        if source["tensor_layout"].lstrip().startswith("S<") and not (source.get("swizzle") and source["swizzle"][0] > 0):
            ref = self.placement_reference(Decision(d.index, "smem_partition", d.api, {
                "tiled_copy": None, "operand": None, "tensor_layout": source["tensor_layout"]}, {},
                section=d.section), _outer_of(source["tensor_layout"]), bits)
            if ref is not None:
                ref_expr, reference = _transposed(ref[1])
                what = f"the transpose of {ref[0]}: {ref_expr} = {reference}"
        self.views.append((d.section, d.result["tensor_layout"], bits, what, reference))

    def check_coord_partition(self, d: Decision, v: Verdict) -> None:
        """A thread's partition of a coordinate tensor (make_identity_tensor): the coordinates of
        its values, what a kernel's predicates compare with the bounds; the model's partition of
        the same coordinate layout by the same tiled copy (its instruction's atom). The layout
        is the same for every thread (CuTe keeps the thread's first coordinate apart)."""
        key = (d.section, d.args["tiled_copy"])
        tiled, why_not = self.instruction_copy(key, d.args.get("copy_op"))
        if tiled is None:
            v.status = "unmapped"
            v.detail = why_not
            return
        fn = "partition_S" if d.args["operand"] == "S" else "partition_D"
        call = f"{fn}({tiled}, 0, {cuteref.from_dsl(d.args['coordinate_layout'])})"
        mine = cuteref.eval(call)
        v.dsl = f"{d.result['partition']} (coordinates {d.args['coordinate_layout']})"
        v.model = f"{call} = {mine}"
        _compare(v, cuteref.from_dsl(d.result["partition"]), mine, "coordinate partition")


def _wavefronts(wavefronts: int, instructions: int, ideal: int) -> str:
    return f"{wavefronts} wavefronts over {instructions} shared-memory instructions, ideal {ideal}" + \
        (f" ({wavefronts / ideal:.2f}x)" if ideal and wavefronts != ideal else "")


def _wavefronts_gmma(c: dict) -> str:
    return (f"per wgmma at most {c['block_worst']} wavefronts, ideal {c['block_ideal']}; per stage "
            f"{c['wavefronts']} over {c['core_matrices']} core matrices ({c['blocks']} wgmma blocks), ideal {c['ideal']}"
            + (f" ({c['wavefronts'] / c['ideal']:.2f}x, worst core matrix {c['worst']}-way)"
               if c['wavefronts'] != c['ideal'] else ""))


def _smem_tensor_value(t: dict) -> tuple:
    """A recorded SMEM tensor ({tensor_layout, bits, swizzle}) as the function placing its
    elements: the pointer's swizzle on byte addresses; a swizzle in the layout over a plain
    pointer on element offsets (the DSL's generated code). Returns (value, how it was read)."""
    text, bits, swizzle = t["tensor_layout"], int(t["bits"]), t.get("swizzle")
    on_pointer = bool(swizzle and swizzle[0] > 0)
    if text.lstrip().startswith("S<"):
        if on_pointer:
            raise cuteref.Error(f"`{text}`: a swizzle both in the tensor's layout and on its pointer")
        return cuteref.from_dsl(text, elements=True), "read on element offsets (the swizzle in the layout)"
    layout = cuteref.from_dsl(text)
    if on_pointer:
        expr = f"Sw<{swizzle[0]},{swizzle[1]},{swizzle[2]}> o smem_ptr[{bits}b](unset) o {layout}"
        return cuteref.eval(expr), "with its pointer's swizzle on byte addresses"
    return layout, "(no swizzle)"


def _transposed(value) -> tuple:
    """The model's transpose of a layout of rank >= 2 (its first two modes swapped, CuTe's
    composition with make_ordered_layout((s1, s0, s2...), (1, 0, 2...))): (EXPR, value)."""
    sizes = model.product_each(value)
    if len(sizes) < 2:
        raise cuteref.Error(f"{value} has rank {len(sizes)}: a transposed view needs two modes")
    shape = [sizes[1], sizes[0]] + sizes[2:]
    order = [1, 0] + list(range(2, len(sizes)))
    expr = f"composition({value}, make_ordered_layout({model.tup(shape)}, {model.tup(order)}))"
    return expr, cuteref.eval(expr)


def _outer_of(text: str) -> str:
    """The layout L of a DSL printout `S<B,M,S> o OFFSET o L`."""
    parts = text.split(" o ", 2)
    if len(parts) != 3 or not parts[0].strip().startswith("S<"):
        raise cuteref.Error(f"`{text}` is no composed layout S<B,M,S> o OFFSET o L")
    return parts[2]


def _top_level(text: str) -> List[str]:
    """The top-level elements of a printed tuple `(a, b:c, (d,e))`."""
    body = text.strip()
    if not (body.startswith("(") and body.endswith(")")):
        return [body]
    out, depth, start = [], 0, 1
    for i, ch in enumerate(body[1:-1], start=1):
        depth += ch == "("
        depth -= ch == ")"
        if ch == "," and depth == 0:
            out.append(body[start:i].strip())
            start = i + 1
    out.append(body[start:-1].strip())
    return [part for part in out if part]  # `(1024:1,)`: a one-element tuple


def _show(a) -> str:
    if isinstance(a, str) and "\n" in a:  # a DSL object's multi-line printout, on one line
        return " | ".join(" ".join(line.split()) for line in a.splitlines() if line.strip())
    if isinstance(a, dict) and "dtype" in a and "tensor_layout" not in a:
        return f"{a['dtype']}"
    if isinstance(a, dict) and "tensor_layout" in a:
        swizzle = a.get("swizzle")
        on = f" (pointer S<{swizzle[0]},{swizzle[1]},{swizzle[2]}>)" if swizzle and swizzle[0] > 0 else ""
        return f"tensor {a.get('dtype', str(a.get('bits')) + '-bit')} {a['tensor_layout']}{on}"
    if isinstance(a, list):
        return model.tup(a) if all(isinstance(x, int) or isinstance(x, list) for x in a) else str(a)
    return str(a)


def audit(trace: Trace) -> List[Verdict]:
    return _Auditor(trace).run()
