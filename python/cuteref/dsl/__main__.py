"""python -m cuteref.dsl: audit recorded traces, or record one by running a script.

    python -m cuteref.dsl audit [--section NAME]... TRACE.json...
                                                   print each trace's report (TRACE.json.gz too),
                                                   only the kernels NAME when given (all are
                                                   audited); exit 1 if any decision shown
                                                   disagrees, 0 otherwise
    python -m cuteref.dsl record [--dsl DIR] OUT.json SCRIPT [ARGS...]
                                                   run SCRIPT (as __main__) under the tracer and
                                                   write its trace (the DSL from DIR, a pip
                                                   --target folder, when given)

Exit 64 for a malformed command line, 74 when a trace cannot be read or written.
"""
import os
import runpy
import sys

USAGE = __doc__.split("\n\n")[1]


def dsl_path(folder: str) -> None:
    """Make a `pip install --target` DSL importable (its .pth hook does not run there)."""
    sys.path.insert(0, folder)
    import nvidia_cutlass_dsl
    for sub in ("python_packages", "dsl_packages"):
        p = os.path.join(nvidia_cutlass_dsl.__path__[0], sub)
        if os.path.isdir(p):
            sys.path.insert(0, p)


def read_text(path: str) -> str:
    """A trace file's text; PATH ending in .gz is gunzipped."""
    if path.endswith(".gz"):
        import gzip
        with gzip.open(path, "rt") as f:
            return f.read()
    with open(path) as f:
        return f.read()


def main(argv) -> int:
    from . import Trace, Tracer, audit, counts, render
    if len(argv) >= 2 and argv[0] == "audit":
        worst, paths, sections = 0, [], None
        rest = argv[1:]
        while rest:
            if rest[0] == "--section":
                if len(rest) < 2:
                    print(USAGE, file=sys.stderr)
                    return 64
                sections = (sections or []) + [rest[1]]
                rest = rest[2:]
            else:
                paths.append(rest.pop(0))
        if not paths:
            print(USAGE, file=sys.stderr)
            return 64
        for path in paths:
            try:
                trace = Trace.from_json(read_text(path))
            except (OSError, ValueError, EOFError) as e:
                print(f"error: {path}: {e}", file=sys.stderr)
                return 74
            verdicts = audit(trace)
            if sections is not None:
                missing = [s for s in sections if s not in trace.sections()]
                if missing:
                    print(f"error: {path}: no section {missing[0]!r}", file=sys.stderr)
                    return 64
                verdicts = [v for v in verdicts if v.section in sections]
            sys.stdout.write(render(verdicts, os.path.basename(path)))
            if counts(verdicts)["disagree"]:
                worst = 1
        return worst
    if len(argv) >= 3 and argv[0] == "record":
        rest = argv[1:]
        if rest[0] == "--dsl":
            if len(rest) < 4:
                print(USAGE, file=sys.stderr)
                return 64
            dsl_path(rest[1])
            rest = rest[2:]
        out, script, args = rest[0], rest[1], rest[2:]
        import cutlass.cute  # noqa: F401  (the hooks patch what is imported)
        import cutlass.utils.hopper_helpers  # noqa: F401
        with Tracer() as t:
            t.section(os.path.basename(script))
            sys.argv = [script] + args
            runpy.run_path(script, run_name="__main__")
        try:
            with open(out, "w") as f:
                f.write(t.trace.to_json())
        except OSError as e:
            print(f"error: {out}: {e}", file=sys.stderr)
            return 74
        print(f"recorded {len(t.trace.decisions)} decisions into {out}")
        return 0
    print(USAGE, file=sys.stderr)
    return 64


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
