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

The DSL's raw answers (the worker's lines, before any comparison) are recorded per chunk of
about 1,000 cases of one operation (oracles/recorded/dsl_differential.json.xz), keyed by the
DSL package's files, the worker's and the chunk's input lines: a run asks the DSL only the
chunks not recorded and a verification sample of the recorded ones, and every answer,
recorded or not, is compared with the model's as above (oracles/README.md, "Recorded answers").
"""

import json
import os
import resource
import time
from collections import defaultdict

import dsl_cases
import dsl_oracle
import known_defects
import recorded_answers
from pycute_cases import fnv

HERE = os.path.dirname(os.path.abspath(__file__))

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


# Recorded chunks asked of the DSL again per run when --dsl-verify-recorded is not given: with
# chunks of about 1,000 cases (--dsl-chunk), about 5% of the cases.
VERIFY_CHUNKS = 10


def make_chunks(ask, probe, size, every):
    """The asked cases ({"i": case index, "op", "a"}, drawn operation by operation) in chunks:
    each operation's cases split into pieces of at most `size` (nearly equal), named
    dsl_OP_K. Per chunk: (the case indices, the worker's input lines), where a line's "i" is
    its place in the chunk (so that its key is a function of the chunk's cases alone, not of
    how many cases came before) and every `every`-th case the model accepted (not a refusal
    probe) is marked "e" for the DSL's own evaluation at every index."""
    by_op = defaultdict(list)
    for q in ask:
        by_op[q["op"]].append(q)
    chunks = {}
    for op, qs in by_op.items():
        pieces = -(-len(qs) // max(1, size))
        for k in range(pieces):
            part = qs[k * len(qs) // pieces:(k + 1) * len(qs) // pieces]
            ids, lines, accepted = [], [], 0
            for j, q in enumerate(part):
                line = {"i": j, "op": q["op"], "a": q["a"]}
                if q["i"] not in probe:
                    if every > 0 and accepted % every == 0:
                        line["e"] = 1
                    accepted += 1
                ids.append(q["i"])
                lines.append(json.dumps(line, sort_keys=True, separators=(",", ":")))
            chunks[f"dsl_{op}_{k}"] = (ids, lines)
    return chunks


def recording_file(args):
    """The DSL recording read by this run ("" for none)."""
    return "" if args.no_recording else args.dsl_recording


def recorded_or_asked(args, chunks):
    """The DSL's answers to each chunk (recorded_answers.recorded_or_live): recorded where the
    recording holds the chunk's key (this DSL package, these worker files, these cases), else
    asked of the DSL now; --dsl-verify-recorded recorded chunks are asked again and compared
    byte for byte (default VERIFY_CHUNKS, all with --verify-recorded -1)."""
    fingerprint = dsl_oracle.dsl_fingerprint(args.dsl)
    keys = {n: recorded_answers.answer_key(fingerprint, "dsl_worker", lines) for n, (_, lines) in chunks.items()}
    verify = recorded_answers.more_verify_count(args, "dsl", VERIFY_CHUNKS)
    about = (f"the CuTe DSL's answers for the chunks of oracles/differential.py --seed {args.seed} "
             f"--case-seed {args.seed if args.case_seed is None else args.case_seed} --scale {args.scale} "
             f"--dsl-cases {args.dsl_cases} --dsl-refusal-probe {args.dsl_refusal_probe} "
             f"--dsl-self-eval {args.dsl_self_eval} --dsl-chunk {args.dsl_chunk}")
    return recorded_answers.recorded_or_live(
        keys, lambda names: dsl_oracle.run_dsl(args.dsl, {n: chunks[n][1] for n in names}, jobs=args.dsl_jobs),
        recording_file(args), verify, recorded_answers.verification_seed(args, HERE),
        record=args.dsl_record, about=about, oracle="the CuTe DSL")


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run(args, tally, rng, pc, model_answers, compare, record):
    """Returns (seconds, the summary's lines)."""
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
    cpu0, own0 = _children_cpu(), time.process_time()
    chunks = make_chunks(ask, probe, args.dsl_chunk, args.dsl_self_eval)
    got = recorded_or_asked(args, chunks)
    tally.dsl_recording_errors = got.errors
    live = set(got.live)  # the chunks whose answers the DSL gave now
    dsl_cpu, own_cpu = _children_cpu() - cpu0, time.process_time() - own0
    dsl, crashes = {}, []
    for name, (ids, _) in chunks.items():
        out, traps = got.answers[name]
        for line in out:
            a = json.loads(line)
            dsl[ids[a["i"]]] = a
        crashes += [(ids[json.loads(line)["i"]], status) for line, _, status in traps]
    crashes.sort()
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
    selfcheck = selfcheck_live = 0
    chunk_of = {i: n for n, (ids, _) in chunks.items() for i in ids}
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
                selfcheck_live += chunk_of[i] in live
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
    live_cases = sum(len(chunks[n][0]) for n in live)
    verified_cases = sum(len(chunks[n][0]) for n in got.verified)
    if args.dsl_record or not recording_file(args):
        source = (f"every chunk asked of the DSL now ({len(chunks)} chunks of <= {args.dsl_chunk} cases)"
                  + (f", every answer written to {args.dsl_record}" if args.dsl_record else ""))
    else:
        source = (f"{len(got.recorded)} of {len(chunks)} chunks ({len(ask) - live_cases + verified_cases} cases, "
                  f"refusal probes included) "
                  f"from the recording {os.path.relpath(recording_file(args))}, {len(live)} chunks ({live_cases} cases) "
                  f"asked of the DSL now, {len(got.verified)} of them ({verified_cases} cases, "
                  f"{100.0 * verified_cases / max(1, len(ask)):.1f}%) compared with the recording"
                  + (f" (verification seed {recorded_answers.verification_seed(args, HERE)[:12]}: "
                     f"{', '.join(got.verified) if len(got.verified) <= 12 else ', '.join(got.verified[:12]) + ', ...'})"
                     if got.verified else ""))
    source += recorded_answers.stale_note(got.absent, "DSL package, worker or chunk of cases")
    note = (f"CuTe DSL: {len(ask) - len(probe)} cases asked ({len(cases) - len(ask) + len(probe)} refused by the model first; "
            f"{len(probe)} of these asked of the DSL too: {both} refused by both, {known} answered by the DSL "
            f"with a known, checked defect, {dies} crashed the DSL), "
            f"{len(crashes)} crashes, {selfcheck} answers also evaluated by the DSL itself "
            f"({selfcheck_live} of them now, {selfcheck - selfcheck_live} recorded); "
            f"model {t1 - t0:.1f}s, DSL answers {t2 - t1:.1f}s wall ({args.dsl_jobs} workers at a time): {dsl_cpu:.1f}s CPU in the DSL "
            f"workers"
            + (f" ({live_cases / dsl_cpu:.0f} asked per CPU second)" if live_cases and dsl_cpu > 0 else "")
            + f", {own_cpu:.1f}s CPU here (the DSL's fingerprint, the recording, reading the workers' answers), "
            f"compare {time.time() - t2:.1f}s\n"
            f"CuTe DSL answers: {source}")
    return time.time() - t0, note
