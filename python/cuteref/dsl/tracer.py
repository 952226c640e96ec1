"""The tracer: wraps the CuTe DSL's public layout API while a kernel compiles and records each
call as a Decision (cuteref.dsl.trace).

    with Tracer() as t:                  # import the kernel's modules first (see below)
        t.section("flash_fwd_sm90 hdim 128")
        run_the_compile()
    t.trace                              # the decisions, plain data

Pre: the DSL (nvidia-cutlass-dsl) is importable. Every module already imported that holds one
of the hooked functions under any name (`from cutlass.cute.nvgpu.warpgroup import
make_smem_layout_atom` included) is patched on entry and restored on exit, so a kernel's
modules must be imported before the tracer starts. quack's helpers are hooked where quack is
importable.

A call records what the kernel asked for and what the DSL returned; a recording that fails
becomes the decision's `error`, never a failed compile. A call made inside another hooked call
records its `parent`.

Negative controls (`Perturbation`): the tracer can change the arguments of the n-th call of one
kind before the DSL sees them, while the decision keeps the arguments the kernel asked for. The
audit derives the model's value from those, so it must find the DSL's (perturbed) result wrong.
"""
import enum
import importlib
import inspect
import sys
from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Optional, Tuple

from .trace import Decision, Trace

# (module, function, kind): the DSL's public API that makes layout decisions.
HOOKS: List[Tuple[str, str, str]] = [
    ("cutlass.utils.hopper_helpers", "get_smem_layout_atom", "smem_atom_kind"),
    ("cutlass.cute.nvgpu.warpgroup", "make_smem_layout_atom", "smem_layout_atom"),
    ("cutlass.utils.hopper_helpers", "make_smem_layout_a", "smem_layout_a"),
    ("cutlass.utils.hopper_helpers", "make_smem_layout_b", "smem_layout_b"),
    ("quack.sm90_utils", "make_smem_layout", "smem_layout"),
    ("cutlass.cute", "tile_to_shape", "tile_to_shape"),
    ("cutlass.cute", "make_composed_layout", "composed_layout"),
    ("cutlass.utils.hopper_helpers", "make_trivial_tiled_mma", "tiled_mma"),
    ("cutlass.cute.nvgpu.cpasync", "make_tiled_tma_atom", "tma_atom"),
    ("cutlass.cute", "make_tiled_copy_tv", "tiled_copy"),
    ("cutlass.cute", "make_tiled_copy_A", "tiled_copy"),
    ("cutlass.cute", "make_tiled_copy_B", "tiled_copy"),
    ("cutlass.cute", "make_tiled_copy_C", "tiled_copy"),
    ("cutlass.cute", "make_tiled_copy_C_atom", "tiled_copy"),
    ("cutlass.cute", "make_tiled_copy_S", "tiled_copy"),
    ("cutlass.cute", "make_tiled_copy_D", "tiled_copy"),
    ("quack.layout_utils", "transpose_view", "transpose_view"),
]


# (module, class, method, kind): methods of the DSL's classes, patched on the class. A thread's
# partition of a shared-memory tensor by a tiled copy is where the copy meets its SMEM layout
# (the audit counts its shared-memory wavefronts); a partition of a coordinate tensor
# (make_identity_tensor: the coordinates a thread's values cover, what predicates are built
# from) is recorded as kind `coord_partition`; partitions of global-memory and register
# tensors are not recorded (their layouts are the kernel's arguments, not a layout choice).
CLASS_HOOKS: List[Tuple[str, str, str, str]] = [
    ("cutlass.cute.atom", "ThrCopy", "partition_S", "smem_partition"),
    ("cutlass.cute.atom", "ThrCopy", "partition_D", "smem_partition"),
]


@dataclass
class Perturbation:
    """A negative control: before the `nth` (0-based) call of `kind` (among calls whose
    arguments `when` accepts, if given), `change(arguments)` edits the bound arguments (an
    inspect.BoundArguments.arguments dict) in place; `name` describes it."""
    kind: str
    name: str
    change: Callable[[Dict[str, Any]], None]
    nth: int = 0
    when: Optional[Callable[[Dict[str, Any]], bool]] = None
    applied: bool = False


def plain(x: Any) -> Any:
    """A DSL argument or value as plain data: a Numeric type as {dtype, bits}, an enum by its
    name, tuples as lists, numbers as numbers, anything else as its printout."""
    if x is None or isinstance(x, (bool, int, float, str)):
        return x
    if isinstance(x, enum.Enum):
        return x.name
    if isinstance(x, type) and hasattr(x, "width"):
        return {"dtype": x.__name__, "bits": int(x.width)}
    if isinstance(x, (tuple, list)):
        return [plain(e) for e in x]
    if hasattr(x, "element_type") and hasattr(x, "layout"):  # a tensor
        return {"tensor_layout": str(x.layout), "bits": int(x.element_type.width),
                "dtype": x.element_type.__name__}
    return str(x)


def _partition_args(api: str, arguments: Dict[str, Any]) -> Optional[Dict[str, Any]]:
    """A thread copy's partition of a tensor, as recorded: for a shared-memory tensor the tiled
    copy (its printout and its operation's class), S or D, the tensor's layout, element width and
    the swizzle its pointer carries (applied to byte addresses); for a coordinate tensor (its iterator is a coordinate,
    not a pointer: the DSL gives it no memory space) the tiled copy, S or D, the coordinate
    layout and `kind` coord_partition; None (not recorded) for a tensor in global memory or
    registers."""
    tensor = arguments.get("src", arguments.get("dst"))
    operand = "S" if api.endswith("partition_S") else "D"
    if not hasattr(tensor, "iterator") or not hasattr(tensor, "layout"):
        raise TypeError(f"{api}: the partitioned argument is no tensor ({type(tensor).__name__})")
    try:
        space = tensor.memspace
    except ValueError:  # no pointer: the DSL's coordinate tensors
        return {"kind": "coord_partition", "tiled_copy": str(arguments["self"]), "operand": operand,
                "copy_op": _copy_op_name(arguments["self"]), "coordinate_layout": str(tensor.layout)}
    if space is None or "smem" not in str(space).lower():
        return None
    return dict({"tiled_copy": str(arguments["self"]), "operand": operand, "copy_op": _copy_op_name(arguments["self"])},
                **smem_tensor(tensor))


def _copy_op_name(thr_copy: Any) -> Optional[str]:
    """The class of a thread copy's copy operation (CopyG2SOp, CopyUniversalOp, ...): the
    tiled copy's printout does not name it, and copies of one (thread, value) layout through
    different instructions print the same."""
    op = getattr(thr_copy, "op", None)
    return type(op).__name__ if op is not None else None


def smem_tensor(tensor: Any) -> Dict[str, Any]:
    """A shared-memory tensor as recorded: its layout's printout, element width and the swizzle
    its pointer carries ([B, M, S], applied to byte addresses; None for a plain pointer)."""
    swizzle = None
    swizzle_type = getattr(getattr(tensor.iterator, "type", None), "swizzle_type", None)
    if swizzle_type is not None:
        swizzle = [int(swizzle_type.num_bits), int(swizzle_type.num_base), int(swizzle_type.num_shift)]
    return {"tensor_layout": str(tensor.layout), "bits": int(tensor.element_type.width), "swizzle": swizzle}


def _result(kind: str, value: Any) -> Dict[str, Any]:
    """What the DSL decided, per kind (printouts the model can read)."""
    if kind == "smem_atom_kind":
        return {"kind": plain(value)}
    if kind == "tiled_mma":
        return {"tv_a": str(value.tv_layout_A_tiled), "tv_b": str(value.tv_layout_B_tiled),
                "tv_c": str(value.tv_layout_C_tiled), "shape_mnk": str(value.shape_mnk),
                "printout": str(value)}
    if kind == "tma_atom":
        atom, tensor = value[0], value[1]
        return {"src_tv": str(atom.layout_src_tv), "tma_tensor": str(tensor), "atom": str(atom)}
    if kind == "tiled_copy":
        op = value.op
        fields = {k: getattr(op, k) for k in ("num_matrices", "transpose") if hasattr(op, k)}
        return {"tv": str(value.layout_tv_tiled), "tiler": str(value.tiler_mn), "printout": str(value),
                "op": type(op).__name__, "op_fields": {k: plain(v) for k, v in fields.items()},
                "src_tv": str(value.layout_src_tv)}
    if kind == "transpose_view":
        return smem_tensor(value)
    if kind in ("smem_partition", "coord_partition"):
        return {"partition": str(value.layout) if hasattr(value, "layout") else str(value)}
    return {"layout": str(value)}


class Tracer:
    def __init__(self, perturbations: Optional[List[Perturbation]] = None,
                 on_record: Optional[Callable[[Trace], None]] = None):
        """ON_RECORD(trace) runs after each recorded call (e.g. to save the trace as it grows,
        for a compile that may not return)."""
        self.trace = Trace()
        self.on_record = on_record
        self.perturbations = list(perturbations or [])
        self._section = ""
        self._stack: List[int] = []
        self._patched: List[Tuple[Any, str, Any]] = []
        self._counts: Dict[str, int] = {}

    def section(self, name: str) -> None:
        """Decisions recorded from now on belong to kernel NAME."""
        self._section = name

    def __enter__(self) -> "Tracer":
        originals = []
        for module_name, attr, kind in HOOKS:
            try:
                module = importlib.import_module(module_name)
            except ImportError:
                continue  # quack absent: its hooks are not installed
            fn = getattr(module, attr, None)
            if fn is None:
                raise RuntimeError(f"cuteref.dsl: the DSL has no {module_name}.{attr}: this DSL version is not supported")
            originals.append((fn, f"{module_name}.{attr}", kind))
        for module_name, cls_name, method, kind in CLASS_HOOKS:
            cls = getattr(importlib.import_module(module_name), cls_name, None)
            fn = getattr(cls, method, None) if cls is not None else None
            if fn is None:
                raise RuntimeError(f"cuteref.dsl: the DSL has no {module_name}.{cls_name}.{method}: this DSL version is not supported")
            self._patched.append((cls, method, fn))
            setattr(cls, method, self._wrap(fn, f"{module_name}.{cls_name}.{method}", kind))
        wrappers = {id(fn): (fn, self._wrap(fn, api, kind)) for fn, api, kind in originals}
        for module in list(sys.modules.values()):
            names = getattr(module, "__dict__", None)
            if not isinstance(names, dict):
                continue
            for name, value in list(names.items()):
                hit = wrappers.get(id(value))
                if hit is not None and hit[0] is value:
                    self._patched.append((module, name, value))
                    setattr(module, name, hit[1])
        self._versions()
        return self

    def __exit__(self, *exc) -> None:
        for module, name, value in reversed(self._patched):
            setattr(module, name, value)
        self._patched.clear()

    def _versions(self) -> None:
        from importlib import metadata
        for dist in ("nvidia-cutlass-dsl", "quack-kernels", "flash-attn-4"):
            try:
                self.trace.versions[dist] = metadata.version(dist)
            except metadata.PackageNotFoundError:
                pass

    def _wrap(self, fn: Callable, api: str, kind: str) -> Callable:
        try:
            signature = inspect.signature(fn)
        except (TypeError, ValueError):
            signature = None  # recorded as unrecorded arguments, never a failed compile

        def hooked(*args, **kwargs):
            recorded_kind = kind
            try:
                if signature is None:
                    raise TypeError(f"{api} has no Python signature to bind the arguments to")
                bound = signature.bind(*args, **kwargs)
                bound.apply_defaults()
                if kind == "smem_partition":
                    asked = _partition_args(api, bound.arguments)
                    if asked is None:
                        return fn(*args, **kwargs)
                    recorded_kind = asked.pop("kind", kind)
                elif kind == "transpose_view":  # quack's view of an SMEM tensor with its first two modes swapped
                    asked = {k: smem_tensor(v) if hasattr(v, "iterator") else plain(v)
                             for k, v in bound.arguments.items() if k not in ("loc", "ip")}
                else:
                    asked = {k: plain(v) for k, v in bound.arguments.items() if k not in ("loc", "ip")}
            except Exception as e:  # noqa: BLE001  (recording must never break the compile)
                bound, asked = None, {"unrecorded": f"{type(e).__name__}: {e}"}
            decision = Decision(index=len(self.trace.decisions), kind=recorded_kind, api=api, args=asked, result={},
                                section=self._section, parent=self._stack[-1] if self._stack else None)
            self.trace.decisions.append(decision)
            if bound is not None:
                decision.perturbed = self._perturb(kind, bound.arguments)
                args, kwargs = bound.args, bound.kwargs
            self._stack.append(decision.index)
            try:
                value = fn(*args, **kwargs)
            except Exception as e:
                decision.error = f"{type(e).__name__}: {e}"
                raise
            finally:
                self._stack.pop()
            try:
                decision.result = _result(kind, value)
            except Exception as e:  # noqa: BLE001
                decision.result = {"unrecorded": f"{type(e).__name__}: {e}"}
            if self.on_record is not None:
                self.on_record(self.trace)
            return value

        hooked.__wrapped__ = fn
        hooked.__name__ = getattr(fn, "__name__", "hooked")
        return hooked

    def _perturb(self, kind: str, arguments: Dict[str, Any]) -> str:
        done = []
        for p in self.perturbations:
            if p.kind != kind or p.applied or (p.when is not None and not p.when(arguments)):
                continue
            key = id(p)
            seen = self._counts.get(key, 0)
            self._counts[key] = seen + 1
            if seen == p.nth:
                p.change(arguments)
                p.applied = True
                done.append(p.name)
        return "; ".join(done)
