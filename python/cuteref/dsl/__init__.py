"""cuteref.dsl: an auditor for CuTe DSL kernels.

Run a kernel's compile under `Tracer` (it wraps the DSL's public layout API: SMEM layout atoms
and tilings, trivial tiled MMAs, TMA atoms, tiled copies) and check each recorded decision
against the model with `audit`:

    from cuteref import dsl
    with dsl.Tracer() as t:                    # the kernel's modules imported before
        t.section("my kernel")
        cute.compile(...)                      # or the first call of a JIT kernel
    verdicts = dsl.audit(t.trace)
    print(dsl.render(verdicts))                # each decision: DSL value, model value, verdict

A trace is plain data (`t.trace.to_json()`, `Trace.from_json`): it can be audited where the DSL
is absent (`python -m cuteref.dsl audit TRACE.json`). The tracer needs nvidia-cutlass-dsl; the
audit needs only cuteref.
"""
from .audit import Verdict, audit
from .report import counts, render, summary
from .trace import Decision, Trace
from .tracer import HOOKS, Perturbation, Tracer

__all__ = ["Tracer", "Perturbation", "HOOKS", "Trace", "Decision", "Verdict", "audit", "render", "summary", "counts"]
