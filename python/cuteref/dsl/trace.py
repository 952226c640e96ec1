"""A trace: the layout decisions one CuTe DSL compile made, as plain data (JSON).

A trace is what `cuteref.dsl.Tracer` records while a kernel compiles, and what the audit
(`cuteref.dsl.audit`) checks against the model. It holds only strings, integers, lists and
dictionaries, so a trace recorded where the DSL (and a GPU) is can be audited anywhere.

Each decision names the DSL function the kernel called (`api`), the arguments it asked for
(`args`, by parameter name: a dtype as {"dtype", "bits"}, an enum by its name, a DSL layout by
its printout), what the DSL returned (`result`), the decision it was made inside (`parent`,
for a helper that calls other hooked functions), the kernel section it belongs to, and, for a
negative control, the perturbation applied to the call (`perturbed`: the audit never reads it).
"""
import json
from dataclasses import asdict, dataclass, field
from typing import Any, Dict, List, Optional

FORMAT = "cuteref.dsl trace 1"


@dataclass
class Decision:
    index: int
    kind: str                     # smem_atom_kind, smem_layout_atom, tile_to_shape, smem_layout,
                                  # smem_layout_a, smem_layout_b, tiled_mma, tma_atom, tiled_copy,
                                  # composed_layout, smem_partition, coord_partition
    api: str                      # the DSL function, e.g. quack.sm90_utils.make_smem_layout
    args: Dict[str, Any]
    result: Dict[str, Any]
    section: str = ""             # which kernel (a trace may hold several compiles)
    parent: Optional[int] = None
    error: str = ""               # what the DSL raised, if the call failed
    perturbed: str = ""           # a negative control's change to the call ("" for none)


@dataclass
class Trace:
    decisions: List[Decision] = field(default_factory=list)
    versions: Dict[str, str] = field(default_factory=dict)

    def to_json(self) -> str:
        return json.dumps({"format": FORMAT, "versions": self.versions,
                           "decisions": [asdict(d) for d in self.decisions]}, indent=1)

    @staticmethod
    def from_json(text: str) -> "Trace":
        """Raises ValueError naming what is wrong when TEXT is no trace."""
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            raise ValueError(f"not JSON: {e}") from None
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ValueError(f"not a trace: the field `format` must be {FORMAT!r}")
        out = Trace(versions=dict(data.get("versions", {})))
        names = set(Decision.__dataclass_fields__)
        for i, d in enumerate(data.get("decisions", [])):
            if not isinstance(d, dict) or not {"index", "kind", "api", "args", "result"} <= set(d):
                raise ValueError(f"decision {i}: needs index, kind, api, args and result")
            unknown = set(d) - names
            if unknown:
                raise ValueError(f"decision {i}: unknown fields {sorted(unknown)}")
            out.decisions.append(Decision(**d))
        return out

    def sections(self) -> List[str]:
        seen: List[str] = []
        for d in self.decisions:
            if d.section not in seen:
                seen.append(d.section)
        return seen
