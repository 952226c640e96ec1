"""cuteref.dsl's tracer where cuteref's extension may be missing (the GPU machine has the DSL
and torch, not cuteref's compiled model): the tracer and the trace need only the standard
library, the audit needs the model.

load_dsl_tools(DSL_PACKAGE_DIR) returns a namespace with Tracer, Perturbation and Trace, and
audit, summary, render, counts (None when cuteref's extension cannot be imported).
"""
import importlib
import sys
import types


def load_dsl_tools(package_dir):
    tools = types.SimpleNamespace(audit=None, summary=None, render=None, counts=None)
    try:
        import cuteref.dsl as full
        tools.Tracer, tools.Perturbation, tools.Trace = full.Tracer, full.Perturbation, full.Trace
        tools.audit, tools.summary, tools.render, tools.counts = full.audit, full.summary, full.render, full.counts
        return tools
    except ImportError:
        pass
    # The package's files without its __init__ (which imports the audit and so the model).
    name = "cuteref_dsl_tracer_only"
    package = types.ModuleType(name)
    package.__path__ = [package_dir]
    sys.modules[name] = package
    tracer = importlib.import_module(name + ".tracer")
    trace = importlib.import_module(name + ".trace")
    tools.Tracer, tools.Perturbation, tools.Trace = tracer.Tracer, tracer.Perturbation, trace.Trace
    return tools
