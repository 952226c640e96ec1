"""The CuTe DSL column of the vendor differential (differential.py calls `run`).

Every case (dsl_cases.py) goes through the model first (`cuteref batch`, one expression per
part); the DSL answers only the cases the model accepts (refusals are counted per
operation, never as checked). The DSL's answers are compared with the model's by the same
comparator as CuTe C++'s and pycute's (vendor_diff, through differential.compare/record):
each layout part by its size and the fingerprint of its values (read from the DSL's
printout, dsl_oracle.printout_values), its rank where CuTe promises it; integer parts by
value. A case counts as checked by the DSL only when every part agrees.

Two more checks of the oracle itself: a sample of answers is evaluated by the DSL at every
index and must be the function its printout describes; a DSL crash or exception on an input
the model accepts is a disagreement unless known_defects explains it.
"""

import resource
import time
from collections import defaultdict

import dsl_cases
import dsl_oracle
import known_defects
from pycute_cases import fnv

OPS = dsl_cases.OPS

# operations that need more draws for 5,000 checked: 7-18% of their inputs are refused by
# the model (non-injective complement inputs in products, negative or non-dividing strides)
EXTRA = {"left_inverse": 1.2, "recast_layout": 1.3, "logical_product": 1.1, "zipped_product": 1.1,
         "tiled_product": 1.1, "flat_product": 1.1, "blocked_product": 1.1, "raked_product": 1.1,
         "tile_to_shape": 1.1, "max_common_vector": 1.1, "max_common_layout": 1.1,
         "composed_recast_layout": 1.6}


def run_batch(cuteref, exprs):
    """`cuteref batch` answers as printed (errors included)."""
    import subprocess
    r = subprocess.run([cuteref, "batch"], input="\n".join(exprs) + "\n", capture_output=True, text=True, check=True)
    return r.stdout.splitlines()


def probe_verdict(tally, c, a, model_error, pc):
    """An input the model refuses, asked of the DSL: both refuse, or the DSL answers and a
    recogniser checks by enumeration that its answer is not the operation's (or is trivial)."""
    if not a["ok"]:
        tally.add(c.op, "probe:both_refuse")
        return
    text = dsl_oracle.repair_swizzle_print(a["parts"][-1])
    kind = known_defects.explain_dsl_on_refused(c, text, model_error, pc)
    if kind:
        tally.add(c.op, "probe:dsl_answers_known")
        tally.add(c.op, "defect:" + kind)
    else:
        tally.diffs.append(("dsl", c.op, c.parts[0].expr, text,
                            "the DSL answers an input the model refuses (" + model_error[:200] + ")"))
        tally.add(c.op, "DIFF")


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run(args, tally, rng, pc, model_answers, compare, record):
    """Returns (seconds, a one-line note)."""
    t0 = time.time()
    if not dsl_oracle.dsl_present(args.dsl):
        print(f"vendor: the CuTe DSL part is skipped: nvidia-cutlass-dsl is not at {args.dsl} (./run installs it)")
        args.no_dsl = True  # no DSL column minimum either
        return 0.0, "CuTe DSL: SKIPPED (not installed)"
    cases = []
    for op in OPS:
        n = int(args.dsl_cases * EXTRA.get(op, 1.0)) * args.scale
        cases.extend(dsl_cases.draw_case(rng, op) for _ in range(n))
    exprs = [p.expr for c in cases for p in c.parts]
    answers = model_answers(args.cuteref, exprs)
    model_of = []  # per case: the model's answer to each part, or None if any part is refused
    k = 0
    for c in cases:
        got = answers[k:k + len(c.parts)]
        k += len(c.parts)
        model_of.append(got if all(g is not None for g in got) else None)
    ask, probe = [], set()
    probed = defaultdict(int)
    for i, (c, got) in enumerate(zip(cases, model_of)):
        if got is None:
            tally.add(c.op, "refused")
            # three-way verdicts: some inputs the model (CuTe C++) refuses go to the DSL too
            if probed[c.op] < args.dsl_refusal_probe * args.scale:
                probed[c.op] += 1
                probe.add(i)
                ask.append({"i": i, "op": c.op, "a": c.args})
        else:
            ask.append({"i": i, "op": c.op, "a": c.args})
    t1 = time.time()
    cpu0 = _children_cpu()
    dsl, crashes = dsl_oracle.run_dsl(args.dsl, ask, jobs=args.dsl_jobs, self_eval=args.dsl_self_eval)
    dsl_cpu = _children_cpu() - cpu0
    t2 = time.time()
    model_error = {}
    if probe:
        order = sorted(probe)
        errs = run_batch(args.cuteref, [cases[i].parts[0].expr for i in order])
        model_error = dict(zip(order, errs))
    for i, status in crashes:
        c = cases[i]
        if i in probe:  # the DSL dies on an input CuTe refuses: counted, not compared
            tally.add(c.op, "probe:dsl_crashes")
            continue
        tally.diffs.append(("dsl", c.op, c.parts[0].expr, f"the DSL crashed (exit status {status})",
                            "the model answers; the DSL process dies"))
        tally.add(c.op, "DIFF")
    rows, owners = [], []  # comparator rows and (case index, part index)
    selfcheck = 0
    for q in ask:
        i = q["i"]
        c = cases[i]
        a = dsl.get(i)
        if a is None:
            continue  # crashed (recorded above)
        if i in probe:
            probe_verdict(tally, c, a, model_error.get(i, ""), pc)
            continue
        if not a["ok"]:
            defect = known_defects.explain_dsl(c, a["error"], model_of[i], pc)
            if defect:
                tally.add(c.op, "vendor_defect")
                tally.add(c.op, "defect:" + defect)
            else:
                tally.diffs.append(("dsl", c.op, c.parts[0].expr, a["error"], "the DSL raised, the model answers"))
                tally.add(c.op, "DIFF")
            continue
        if len(a["parts"]) != len(c.parts):
            tally.diffs.append(("dsl", c.op, c.parts[0].expr, str(a["parts"]), "the DSL answered another number of parts"))
            tally.add(c.op, "DIFF")
            continue
        case_rows, problem = [], None
        for j, (part, text) in enumerate(zip(c.parts, a["parts"])):
            if part.kind == "int":
                case_rows.append((part.expr, text, -1, 0, False))
                continue
            if part.kind == "tuple":  # an integer tuple (make_layout_tv's tiler): by value
                mine = model_of[i][j].replace("_", "").replace(" ", "")
                if mine.strip("()") != text.replace(" ", "").strip("()"):
                    problem = (part.expr, text, f"the integer tuples differ: model {model_of[i][j]}")
                    break
                continue
            repaired = dsl_oracle.repair_swizzle_print(text)
            if repaired != text:  # compared as repaired; counted apart (a DSL printing defect)
                tally.add(c.op, "note:dsl-swizzle-print-negative-shift")
                text = repaired
            parsed = dsl_oracle.parse_printout(text)
            vals = dsl_oracle.printout_values(parsed) if parsed else None
            if vals is None:
                problem = (part.expr, text, "the DSL's printout is not a readable layout")
                break
            case_rows.append((part.expr, text, len(vals), fnv(vals), part.check_rank))
            own_part = 0 if c.op == "slice_and_offset" else len(c.parts) - 1
            sv = a.get("self") if j == own_part else None
            if sv is not None:
                selfcheck += 1
                if sv[1] != vals:
                    problem = (part.expr, text, f"the DSL's own values {sv[1][:16]} are not its printout's {vals[:16]}")
                    break
            if j == own_part and "self_error" in a:
                problem = (part.expr, text, "the DSL cannot evaluate its own answer: " + a["self_error"])
                break
        if problem:
            defect = known_defects.explain_dsl(c, problem[2], model_of[i], pc, problem[1])
            if defect:
                tally.add(c.op, "vendor_defect")
                tally.add(c.op, "defect:" + defect)
            else:
                tally.diffs.append(("dsl", c.op) + problem)
                tally.add(c.op, "DIFF")
            continue
        for j, row in enumerate(case_rows):
            rows.append(row)
            owners.append((i, j))
    verdicts = compare(args.diff, rows)
    per_case = defaultdict(list)
    for (i, j), row, v in zip(owners, rows, verdicts):
        per_case[i].append((j, row, v))
    for i, parts in per_case.items():
        c = cases[i]
        # the first part that is not the same function decides the case
        worst = next(((j, row, v) for j, row, v in parts if v.split("\t", 1)[0] not in ("same", "equal")), parts[0])
        j, row, v = worst
        ctx = {"pc": pc, "dsl_case": c, "expected_size": c.expected_size, "vendor_size": row[2]}
        record(tally, "dsl", c.op, row[0], row[1], v, ctx)
    both = sum(tally.n[op]["probe:both_refuse"] for op in OPS)
    known = sum(tally.n[op]["probe:dsl_answers_known"] for op in OPS)
    dies = sum(tally.n[op]["probe:dsl_crashes"] for op in OPS)
    note = (f"CuTe DSL: {len(ask) - len(probe)} cases asked ({len(cases) - len(ask) + len(probe)} refused by the model first; "
            f"{len(probe)} of these asked of the DSL too: {both} refused by both, {known} answered by the DSL "
            f"with a known, checked defect, {dies} crashed the DSL), "
            f"{len(crashes)} crashes, {selfcheck} answers also evaluated by the DSL itself; "
            f"model {t1 - t0:.1f}s, DSL workers {t2 - t1:.1f}s wall ({args.dsl_jobs} at a time), {dsl_cpu:.1f}s CPU "
            f"({len(ask) / max(dsl_cpu, 1e-9):.0f} cases per CPU second), compare {time.time() - t2:.1f}s")
    return time.time() - t0, note
