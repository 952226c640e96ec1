#!/usr/bin/env python3
"""The vendor differential: the model against CuTe C++ (g++ on the wheel's headers) and
pycute (the wheel's Python reference), on seeded random cases, compared as functions.

    differential.py --cuteref build/cli/cuteref --diff build/oracles/vendor_diff [--seed S] [--scale K]

Prints, per operation, how many cases each oracle checked, how many the model refused
(not counted as checked), how many were known vendor defects, and every disagreement.
Exit 0 when there is no unexplained disagreement and every operation reached --min-per-op
checked cases (times --scale, except max_common_*, whose cases are compiled static pairs);
1 otherwise; 77 (skip) when the wheel is missing.
--scale multiplies every run-time case count (the long sweep: see README, "Vendor differential").
"""

import argparse
import os
import random
import subprocess
import sys
import time
from collections import defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import layouts as L  # noqa: E402
import cpp_cases  # noqa: E402
import cute_programs  # noqa: E402
import recorded_answers  # noqa: E402
import pycute_cases  # noqa: E402
import known_defects  # noqa: E402
import dsl_side  # noqa: E402


# Operations whose cases are compiled static pairs (not multiplied by --scale).
COMPILE_BOUND = ("max_common_vector", "max_common_layout")


class Tally:
    def __init__(self):
        self.n = defaultdict(lambda: defaultdict(int))  # op -> column -> count
        self.diffs = []
        self.compile_note = ""
        self.recording_errors = []  # recorded CuTe answers that CuTe C++ no longer gives
        self.dsl_recording_errors = []  # recorded DSL answers that the DSL no longer gives

    def add(self, op, column, k=1):
        self.n[op][column] += k


def run_lines(cmd, lines):
    r = subprocess.run(cmd, input="\n".join(lines) + "\n", capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(f"{cmd[0]} exited {r.returncode}: {r.stderr[-2000:]}")
    out = r.stdout.splitlines()
    if len(out) != len(lines):
        raise RuntimeError(f"{cmd[0]} answered {len(out)} lines for {len(lines)}")
    return out


def model_answers(cuteref, exprs):
    """`cuteref batch` on every expression: the model's printed value, or None where it
    refuses (`error: ...`)."""
    if not exprs:
        return []
    return [None if o.startswith("error:") else o for o in run_lines([cuteref, "batch"], exprs)]


def compare(diff_bin, rows):
    """rows: (expr, vendor_text, size, hash, check_rank) -> vendor_diff's verdict lines."""
    if not rows:
        return []
    lines = ["\t".join([e, t.replace("\t", " "), str(n), str(h), "1" if r else "0"]) for e, t, n, h, r in rows]
    return run_lines([diff_bin], lines)


# ------------------------------------------------------------------ CuTe C++
def cpp_side(args, tally, rng, case_rng, pc):
    """rng draws what is compiled (patterns, static pairs), case_rng the run-time values,
    so that a sweep with another --case-seed reuses the compiled programs."""
    t0 = time.time()
    pats = []
    for k in range(args.dyn_patterns):
        pats.append(cpp_cases.dyn_pattern(rng, f"dyn{k}"))
    for k in range(args.semi_patterns):
        pats.append(cpp_cases.semi_pattern(rng, f"semi{k}"))
    # cases per pattern, and the model's verdict on each of their ops
    per_dyn = max(1, (args.dyn_cases * args.scale) // max(1, args.dyn_patterns))
    per_semi = max(1, (args.semi_cases * args.scale) // max(1, args.semi_patterns))
    statics = cpp_cases.distinct_static_pairs(rng, args.static_pairs)
    full = lambda si: si < args.static_full  # the pairs that also check inverses and complement
    cases = []  # (pattern index, case id, Case)
    for pi, cp in enumerate(pats):
        for _ in range(per_dyn if pi < args.dyn_patterns else per_semi):
            cases.append((pi, len(cases), cp.make_case(case_rng)))
    flat = [(ci, oi, e) for (_, ci, c) in cases for oi, e in c.exprs.items()]
    sflat = [(si, oi, e) for si, (A, B, M) in enumerate(statics)
             for oi, e in cpp_cases.static_exprs(A, B, M, full(si)).items()]
    ok = [a is not None for a in model_answers(args.cuteref, [e for _, _, e in flat] + [e for _, _, e in sflat])]
    accepted = defaultdict(set)
    for (ci, oi, e), a in zip(flat, ok[:len(flat)]):
        if a:
            accepted[ci].add(oi)
        else:
            tally.add(pats[cases[ci][0]].pattern.ops[oi].name, "refused")
    s_accepted = defaultdict(list)
    for (si, oi, e), a in zip(sflat, ok[len(flat):]):
        if a:
            s_accepted[si].append(oi)
        else:
            tally.add(cpp_cases.STATIC_OPS[oi], "refused")
    all_patterns = [cp.pattern for cp in pats]
    static_base = len(all_patterns)
    for si, (A, B, M) in enumerate(statics):
        all_patterns.append(cpp_cases.static_pattern(f"static{si}", A, B, M, s_accepted[si]))
    # translation units: run-time patterns dealt round-robin over --tus units; static pairs
    # in units of --pairs-per-tu (their cost is template instantiation, about linear in the
    # pairs, plus one parse of the headers per unit; the units compile --jobs at a time)
    tus = defaultdict(list)
    for i, p in enumerate(all_patterns[:static_base]):
        tus[i % args.tus].append((i, p))
    order = cpp_cases.compilation_order(statics, args.static_full)
    for k, si in enumerate(order):
        tus[args.tus + k // args.pairs_per_tu].append((static_base + si, all_patterns[static_base + si]))
    # inputs per TU
    tu_of = {i: k for k, v in tus.items() for i, _ in v}
    inputs = defaultdict(list)
    for pi, ci, c in cases:
        mask = sum(1 << oi for oi in accepted[ci])
        if mask:
            inputs[tu_of[pi]].append(" ".join(str(x) for x in [pi, ci, mask, len(c.values)] + c.values))
    STATIC_ID = 1 << 40  # static pairs use ids above every case id
    for si in range(len(statics)):
        mask = sum(1 << oi for oi in s_accepted[si])
        if mask:
            inputs[tu_of[static_base + si]].append(f"{static_base + si} {STATIC_ID + si} {mask} 0")
    compiler = cute_programs.Compiler(args.cxx, args.cpp_arg, args.cache, HERE)
    # Every unit's answers: recorded, or compiled and run (recorded_answers.py). The run-time
    # patterns' inputs are a function of the seeds and the case counts, like the static pairs':
    # one recording holds both kinds, and its verification sample draws from both.
    programs = {f"cute_tu{k}": (cute_programs.translation_unit(tus[k]), inputs[k]) for k in sorted(tus) if inputs[k]}
    units = cute_programs.recorded_or_compiled_with_args(
        compiler, programs, cute_programs.run_binary, args, HERE, jobs=args.jobs,
        about=f"CuTe C++'s answers for the translation units of oracles/differential.py --seed {args.seed} "
              f"--case-seed {args.seed if args.case_seed is None else args.case_seed} --scale {args.scale} "
              f"--dyn-patterns {args.dyn_patterns} --semi-patterns {args.semi_patterns} "
              f"--dyn-cases {args.dyn_cases} --semi-cases {args.semi_cases} --tus {args.tus} "
              f"--static-pairs {args.static_pairs} --static-full {args.static_full} --pairs-per-tu {args.pairs_per_tu}")
    runtime_units = sum(1 for k in tus if k < args.tus and inputs[k])
    tally.compile_note = (f"{len(programs)} TUs ({runtime_units} of run-time patterns, "
                          f"{len(programs) - runtime_units} of static pairs): {units.note}")
    tally.recording_errors = units.errors
    t1 = time.time()
    case_by_id = {ci: (pi, c) for pi, ci, c in cases}
    rows = []
    for k, lines in inputs.items():
        if not lines:
            continue
        outs, traps = units.answers[f"cute_tu{k}"]
        for line, oi, status in traps:
            pi, cid = (int(x) for x in line.split(" ")[:2])
            if cid >= STATIC_ID:
                continue  # static patterns have no run-time values to trap on
            tally.diffs.append(("cute", all_patterns[pi].ops[oi].name, case_by_id[cid][1].exprs[oi],
                                f"CuTe trapped (exit status {status})", "the model answers; CuTe traps"))
            tally.add(all_patterns[pi].ops[oi].name, "DIFF")
        for out in outs:
            cid, oi, text, n, h = out.split("\t")
            cid, oi = int(cid), int(oi)
            expected = None
            if cid >= STATIC_ID:
                A, B, M = statics[cid - STATIC_ID]
                expr = cpp_cases.static_exprs(A, B, M, full(cid - STATIC_ID))[oi]
                op = all_patterns[static_base + cid - STATIC_ID].ops[oi]
            else:
                pi, c = case_by_id[cid]
                expr = c.exprs[oi]
                op = all_patterns[pi].ops[oi]
                expected = c.expected_size.get(oi)
            rows.append((expr, text, int(n), int(h), op.check_rank, op.name, expected))
    verdicts = compare(args.diff, [r[:5] for r in rows])
    for r, v in zip(rows, verdicts):
        record(tally, "cute", r[5], r[0], r[1], v, {"pc": pc, "expected_size": r[6], "vendor_size": r[2]})
    if args.dump_cute:
        write_cute_dump(args.dump_cute, rows, verdicts)
    t2 = time.time()
    return t1 - t0, t2 - t1


def write_cute_dump(path, rows, verdicts):
    """Every case compared with CuTe C++, one sorted line each: operation, the model's
    expression, CuTe's printed answer, its size and value fingerprint, the comparator's
    verdict. Two runs that compare the same cases with the same CuTe answers write the
    same file, however the CuTe programs were split into translation units."""
    lines = sorted("\t".join([r[5], r[0], r[1], str(r[2]), str(r[3]), v.split("\t", 1)[0]])
                   for r, v in zip(rows, verdicts))
    with open(path, "w") as f:
        f.write("".join(line + "\n" for line in lines))


def record(tally, oracle, op, expr, vendor_text, verdict, ctx):
    kind = verdict.split("\t", 1)[0]
    if kind in ("same", "equal"):
        tally.add(op, oracle)
        if kind == "same":
            tally.add(op, oracle + "_same_print")
    elif kind == "rejected":
        tally.add(op, "refused")
        tally.add(op, "refused_vendor_answered")
        limit = known_defects.model_limit(op, verdict)
        if limit:
            tally.add(op, "limit:" + limit)
        else:
            tally.diffs.append((oracle, op, expr, vendor_text, "model refuses an input the vendor answered: " + verdict))
    else:
        parts = verdict.split("\t")
        ctx["model_text"] = parts[1] if len(parts) > 2 else ""
        defect = known_defects.explain(oracle, op, expr, vendor_text, verdict, ctx)
        if defect:
            tally.add(op, "vendor_defect")
            tally.add(op, "defect:" + defect)
        else:
            tally.diffs.append((oracle, op, expr, vendor_text, verdict))
            tally.add(op, "DIFF")


# ------------------------------------------------------------------ pycute
def pycute_side(args, tally, rng, pc):
    t0 = time.time()
    pending = []
    for op in pycute_cases.OPS:
        n = {"right_inverse": args.pycute_extra, "complement": args.pycute_extra,
             "left_inverse": args.pycute_left_inverse}.get(op, args.pycute_cases)
        for _ in range(n * args.scale):
            pending.append(pycute_cases.draw_case(pc, rng, op))
    answers = model_answers(args.cuteref, [c.expr for c in pending])
    rows = []
    for c, answer in zip(pending, answers):
        accepted = answer is not None
        try:
            res = c.thunk()
            text, n, h = pycute_cases.evaluate(pc, res)
            vendor_ok = True
        except Exception as e:  # pycute signals bad input with assertions and errors
            vendor_ok, text = False, f"{type(e).__name__}: {e}"
        if not accepted:
            tally.add(c.op, "refused")
            if vendor_ok:
                tally.add(c.op, "refused_vendor_answered")
            continue
        if not vendor_ok:
            defect = known_defects.explain("pycute", c.op, c.expr, text, "vendor raised",
                                           {"pc": pc, "A": c.A, "B": c.B, "model_text": answer})
            if defect:
                tally.add(c.op, "vendor_defect")
                tally.add(c.op, "defect:" + defect)
            else:
                tally.diffs.append(("pycute", c.op, c.expr, text, "pycute raised, the model answers"))
                tally.add(c.op, "DIFF")
            continue
        rows.append((c, text, n, h, res))
    verdicts = compare(args.diff, [(c.expr, t, n, h, False) for c, t, n, h, _ in rows])
    for (c, t, n, h, res), v in zip(rows, verdicts):
        record(tally, "pycute", c.op, c.expr, t, v,
               {"pc": pc, "A": c.A, "vendor": res, "cotarget": c.cotarget, "vendor_size": n})
    return time.time() - t0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cuteref", required=True)
    ap.add_argument("--diff", required=True)
    ap.add_argument("--wheel", default=os.path.join(HERE, "..", ".vendor", "wheel"))
    ap.add_argument("--cpp-arg", action="append", default=[], help="compiler argument for CuTe (repeat)")
    ap.add_argument("--cxx", default="g++")
    ap.add_argument("--cache", default=os.path.join(os.getcwd(), "vendor-cache"))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--case-seed", type=int, default=None,
                    help="seed of the run-time values and the pycute cases (default: --seed); the "
                         "compiled programs depend on --seed and the pattern counts only")
    ap.add_argument("--scale", type=int, default=1, help="multiply every run-time case count")
    ap.add_argument("--dyn-patterns", type=int, default=20)
    ap.add_argument("--semi-patterns", type=int, default=10)
    ap.add_argument("--static-pairs", type=int, default=5600,
                    help="distinct fully static (A, B) pairs compiled for CuTe C++ (max_common_*)")
    ap.add_argument("--static-full", type=int, default=800,
                    help="how many of them also check both inverses and complement")
    ap.add_argument("--pairs-per-tu", type=int, default=200, help="static pairs per translation unit")
    ap.add_argument("--dyn-cases", type=int, default=12000, help="cases over all dyn patterns")
    ap.add_argument("--semi-cases", type=int, default=8000, help="cases over all semi patterns")
    ap.add_argument("--pycute-cases", type=int, default=300, help="pycute cases per operation")
    ap.add_argument("--pycute-extra", type=int, default=7500,
                    help="pycute cases for the operations CuTe C++ checks on static layouts only "
                         "(right_inverse) and complement")
    ap.add_argument("--pycute-left-inverse", type=int, default=9000,
                    help="pycute cases for left_inverse: more than --pycute-extra, since about a "
                         "third are refused by the model (negative or non-dividing strides) or are "
                         "known pycute defects/quirks, neither counted as checked")
    recorded_answers.add_recording_arguments(
        ap, os.path.join(HERE, "recorded", "cute_differential.json.xz"), "TU", verify_count=1)
    ap.add_argument("--tus", type=int, default=4)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--min-per-op", type=int, default=5000)
    ap.add_argument("--no-cpp", action="store_true", help="pycute only (no usable CuTe headers)")
    ap.add_argument("--dump-cute", default="",
                    help="write every case compared with CuTe C++ (operation, expression, CuTe's answer, "
                         "size, fingerprint, verdict), sorted, to this file")
    ap.add_argument("--dsl", default=os.path.join(HERE, "..", ".vendor", "dsl"),
                    help="the CuTe DSL's pip --target folder (nvidia-cutlass-dsl, ./run installs it)")
    ap.add_argument("--no-dsl", action="store_true", help="leave the CuTe DSL out")
    ap.add_argument("--dsl-cases", type=int, default=5600, help="DSL cases per operation")
    ap.add_argument("--dsl-jobs", type=int, default=2, help="DSL worker processes at a time")
    ap.add_argument("--dsl-refusal-probe", type=int, default=150,
                    help="per operation, inputs the model refuses that are asked of the DSL too (three-way verdicts)")
    ap.add_argument("--dsl-self-eval", type=int, default=64,
                    help="every K-th DSL case of a chunk that the model accepts is also evaluated by the DSL "
                         "itself at every index")
    recorded_answers.add_more_recording_arguments(
        ap, "dsl", os.path.join(HERE, "recorded", "dsl_differential.json.xz"), "the CuTe DSL's", "chunk",
        dsl_side.VERIFY_CHUNKS)
    ap.add_argument("--dsl-chunk", type=int, default=1000,
                    help="at most this many DSL cases (of one operation) to a chunk, the unit of the DSL recording")
    ap.add_argument("--show", type=int, default=3, help="disagreements printed in full, per op and oracle")
    args = ap.parse_args()
    if args.pairs_per_tu < 1 or args.tus < 1 or args.jobs < 1 or args.dsl_chunk < 1 or args.dsl_jobs < 1:
        ap.error("--pairs-per-tu, --tus, --jobs, --dsl-chunk and --dsl-jobs must be >= 1")

    if not os.path.isfile(os.path.join(args.wheel, "pycute", "layout.py")):
        print(f"vendor: SKIP: the nvidia-cutlass wheel is not at {args.wheel} (./run installs it)")
        return 77
    sys.path.insert(0, args.wheel)
    import pycute as pc

    case_seed = args.seed if args.case_seed is None else args.case_seed
    tally = Tally()
    start = time.time()
    compile_s = cpp_run_s = 0.0
    if not args.no_cpp:
        try:
            compile_s, cpp_run_s = cpp_side(args, tally, random.Random(args.seed), random.Random(case_seed), pc)
        except RuntimeError as e:  # a CuTe program that does not compile or run, a missing recording
            print(f"vendor: FAIL: {e}")
            return 1
    py_s = pycute_side(args, tally, random.Random(case_seed * 7919 + 1), pc)
    dsl_s, dsl_note = 0.0, ""
    if not args.no_dsl:
        try:
            dsl_s, dsl_note = dsl_side.run(args, tally, random.Random(case_seed * 104729 + 7), pc, model_answers, compare, record)
        except (RuntimeError, OSError) as e:  # a DSL worker that cannot start, a missing recording
            print(f"vendor: FAIL: the CuTe DSL: {e}")
            return 1

    cols = ["cute", "pycute", "refused", "vendor_defect", "DIFF"]
    print(f"vendor differential, seed {args.seed}, case seed {case_seed}, scale {args.scale}, "
          f"{args.static_pairs} static pairs ({args.static_full} also for the inverses and complement)")
    print(f"{'operation':26s} {'CuTe C++':>9s} {'pycute':>8s} {'DSL':>7s} {'checked':>8s} {'refused':>8s} {'defects':>8s} {'DIFF':>5s}")
    total = total_diff = 0
    short = []
    for op in sorted(tally.n):
        c = tally.n[op]
        checked = c["cute"] + c["pycute"] + c["dsl"]
        total += checked
        total_diff += c["DIFF"]
        print(f"{op:26s} {c['cute']:9d} {c['pycute']:8d} {c['dsl']:7d} {checked:8d} {c['refused']:8d} {c['vendor_defect']:8d} {c['DIFF']:5d}")
        if not args.no_dsl and op in dsl_side.OPS and c["dsl"] < args.min_per_op * args.scale:
            short.append(f"{op} (DSL column {c['dsl']} < {args.min_per_op * args.scale})")
        # --scale multiplies the run-time cases; max_common_* are checked on compiled static
        # pairs only (CuTe answers them for static layouts), whose count is --static-pairs.
        need = args.min_per_op if op in COMPILE_BOUND else args.min_per_op * args.scale
        if checked < need and not args.no_cpp:  # without CuTe C++ the volumes cannot be met
            short.append(f"{op} ({checked} < {need})")
    for op in sorted(tally.n):
        for k, v in sorted(tally.n[op].items()):
            if k.startswith("defect:"):
                print(f"  known vendor defect/quirk {k[7:]}: {v} cases of {op}")
            if k.startswith("note:"):
                print(f"  known vendor printing defect {k[5:]}: {v} cases of {op} (compared after the repair, counted as checked)")
            if k.startswith("limit:"):
                print(f"  known model limit {k[6:]}: {v} cases of {op} refused (counted in 'refused')")
    print(f"total: {total} cases checked, {total_diff} unexplained disagreements; "
          f"CuTe compile {compile_s:.1f}s, CuTe run+compare {cpp_run_s:.1f}s, pycute {py_s:.1f}s, DSL {dsl_s:.1f}s, "
          f"wall {time.time() - start:.1f}s")
    if tally.compile_note:
        print(f"CuTe compile: {tally.compile_note}")
    if dsl_note:
        print(dsl_note)
    shown = defaultdict(int)
    for d in tally.diffs:
        shown[(d[0], d[1])] += 1
        if shown[(d[0], d[1])] <= args.show:
            print("DISAGREEMENT [%s] %s: %s\n    vendor: %s\n    %s" % d)
    for (oracle, op), k in sorted(shown.items()):
        if k > args.show:
            print(f"... {k - args.show} more disagreements of {op} with {oracle}")
    for e in tally.recording_errors:
        print(f"RECORDING DIFFERS from CuTe C++: {e}")
    for e in tally.dsl_recording_errors:
        print(f"RECORDING DIFFERS from the CuTe DSL: chunk {e}")
    if short:
        print(f"FAIL: too few checked cases for: {', '.join(short)}")
    if total == 0:
        print("FAIL: no case checked")
        return 1
    if tally.diffs or short or tally.recording_errors or tally.dsl_recording_errors:
        return 1
    if args.no_cpp:
        print("vendor: SKIP (77): the CuTe C++ half did not run (no CuTe-compatible CUDA headers); pycute passed")
        return 77
    return 0


if __name__ == "__main__":
    sys.exit(main())
