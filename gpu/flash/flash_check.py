#!/usr/bin/env python3
"""FlashAttention's Hopper kernels (flash-attn-4: flash_fwd_sm90, flash_bwd_sm90) under cuteref's
DSL audit and against a float64 reference, on an SM90 GPU.

    flash_check.py --out DIR [--part main|controls|memcheck|all] [--quick]
    flash_check.py --out DIR --control NAME        (one negative control; run by --part controls)
    flash_check.py --out DIR --one CONFIG          (one configuration; run by --part memcheck)

main: each configuration (bf16 and f16, head dims 64..256, causal, local window, GQA, pack_gqa,
varlen) runs forward and backward through flash_attn.cute's interface while cuteref.dsl's
tracer records every layout decision of the compiles; O, LSE, dQ, dK, dV are compared with
attention_reference's float64 values within its stated bounds, and an exact mode (Q = 0: O is
the mean of V's rows, exact) is compared for equality.
controls: each negative control (CONTROLS) runs in a child process (a perturbed kernel may
hang: its TMA box delivers fewer bytes than the barrier waits for) with one layout perturbed
through the tracer's hooks; the trace is audited where cuteref's model is importable (here or
by `python -m cuteref.dsl audit` on the written trace) and the hardware result is reported.
memcheck: one configuration under compute-sanitizer's memcheck.

Writes DIR/flash_results.json, DIR/flash_trace.json (all decisions, one section per kernel
compile), DIR/flash_controls.json and DIR/flash_controls_trace.json, DIR/memcheck.txt. Prints
`N passed, M failed`. Exit 77 (skip) with the reason when torch, a Hopper GPU or flash-attn-4
is missing; 1 on any failure; 64 for a bad command line.
"""
import argparse
import json
import os
import subprocess
import sys
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from load_tracer import load_dsl_tools  # noqa: E402
from sm90_environment import require_sm90  # noqa: E402

CONTROLS = {
    "narrow_swizzle": "K's SMEM layout built from an atom one swizzle narrower (quack make_smem_layout with major_mode_size 512 bits: SW64)",
    "other_major": "V's SMEM layout asked with the other majorness (LayoutEnum flipped)",
    "box_minus_atom": "K's TMA box one SMEM atom (8 rows) shorter than the tile",
}


def environment():
    torch = require_sm90("flash_check", ["flash_attn.cute.interface", "flash_attn.cute.flash_fwd_sm90",
                                         "flash_attn.cute.flash_bwd_sm90"], "flash-attn-4")
    import flash_attn.cute.interface as fa
    return torch, fa


# name: (dtype, hdim, causal, window, heads, kv heads, pack_gqa, varlen)
def configs(quick):
    out = {}
    dims = (64, 128) if quick else (64, 96, 128, 192, 256)
    for dt in ("bf16", "f16"):
        for d in dims:
            for causal in (False, True):
                if dt == "f16" and (d in (96, 192) or (d != 128 and not causal)):
                    continue  # f16: head dims 64, 128, 256 causal and 128 non-causal
                out[f"{dt}-d{d}{'-causal' if causal else ''}"] = (dt, d, causal, (None, None), 4, 4, None, None)
    out["bf16-d128-local"] = ("bf16", 128, False, (64, 32), 4, 4, None, None)
    out["bf16-d128-gqa"] = ("bf16", 128, False, (None, None), 8, 2, False, None)
    out["bf16-d128-causal-packgqa"] = ("bf16", 128, True, (None, None), 8, 2, True, None)
    out["bf16-d64-varlen-causal"] = ("bf16", 64, True, (None, None), 4, 4, None, (100, 256, 37))
    out["f16-d128-varlen"] = ("f16", 128, False, (None, None), 4, 2, None, (129, 64, 300))
    return out


def run_config(torch, fa, name, cfg, tracer, ref_mod, rng, exact=False, batch=2, seqlen=320):
    """Forward and backward of one configuration; returns its result record."""
    import numpy as np
    dt, d, causal, window, h, hk, pack_gqa, varlen = cfg
    tdtype = torch.bfloat16 if dt == "bf16" else torch.float16
    dev = "cuda"
    lens = list(varlen) if varlen else [seqlen] * batch
    total = sum(lens)
    q = ref_mod.small_int((total, h, d), -1, 1, rng)
    k = ref_mod.small_int((total, hk, d), -1, 1, rng)
    v = ref_mod.small_int((total, hk, d), -4, 4, rng)
    do = ref_mod.small_int((total, h, d), -1, 1, rng)
    if exact:
        # Every score 0, so P = 1 and O(q, :) is the mean of V's rows; V = c + (-1)^row has mean c
        # over an even number of keys, exact in f32 and in the output type.
        q[:] = 0
        c = ref_mod.small_int((1, hk, d), -4, 4, rng)
        v = c + np.where(np.arange(total) % 2 == 0, 1.0, -1.0).reshape(-1, 1, 1)
    scale = d ** -0.5
    T = lambda a: torch.tensor(a, dtype=tdtype, device=dev)  # noqa: E731
    tq, tk, tv = (T(a).requires_grad_() for a in (q, k, v))
    tdo = T(do)
    record = {"name": name, "dtype": dt, "hdim": d, "causal": causal, "window": list(window), "heads": h,
              "kv_heads": hk, "pack_gqa": pack_gqa, "varlen": list(varlen) if varlen else None, "exact": exact,
              "checks": {}, "failures": []}
    t0 = time.time()
    tracer.section(f"{name}{' exact' if exact else ''} forward")
    if varlen:
        cu = torch.tensor([0] + list(np.cumsum(lens)), dtype=torch.int32, device=dev)
        out = fa.flash_attn_varlen_func(tq, tk, tv, cu_seqlens_q=cu, cu_seqlens_k=cu, max_seqlen_q=max(lens),
                                        max_seqlen_k=max(lens), softmax_scale=scale, causal=causal,
                                        window_size=window, pack_gqa=pack_gqa, return_lse=True)
    else:
        shape = lambda t: t.view(batch, seqlen, t.shape[1], t.shape[2])  # noqa: E731
        out = fa.flash_attn_func(shape(tq), shape(tk), shape(tv), softmax_scale=scale, causal=causal,
                                 window_size=window, pack_gqa=pack_gqa, return_lse=True)
    o, lse = out if isinstance(out, tuple) else (out, None)
    torch.cuda.synchronize()
    record["forward_s"] = round(time.time() - t0, 2)
    t0 = time.time()
    tracer.section(f"{name}{' exact' if exact else ''} backward")
    o.backward(tdo.view_as(o))
    torch.cuda.synchronize()
    record["backward_s"] = round(time.time() - t0, 2)
    got = {"O": o.detach().float().cpu().numpy().reshape(total, h, d),
           "dQ": tq.grad.float().cpu().numpy(), "dK": tk.grad.float().cpu().numpy(), "dV": tv.grad.float().cpu().numpy()}
    lse_np = lse.detach().float().cpu().numpy() if lse is not None else None
    start = 0
    for b, n in enumerate(lens):
        sl = slice(start, start + n)
        ref = ref_mod.forward_backward(q[sl], k[sl], v[sl], do[sl], scale, causal, window)
        bounds = ref_mod.bounds(ref, q[sl], v[sl], do[sl], scale, dt)
        mine = {key: got[key][sl] for key in ("O", "dQ", "dK", "dV")}
        if lse_np is not None:
            if varlen:
                mine["LSE"] = lse_np[:, sl] if lse_np.shape == (h, total) else lse_np[sl].T
            else:
                mine["LSE"] = lse_np[b] if lse_np.shape == (batch, h, seqlen) else lse_np[b].T
        for key, value in mine.items():
            bad, ratio = ref_mod.first_violation(value, ref[key], bounds[key])
            slot = record["checks"].setdefault(key, {"max_ratio": 0.0, "max_abs_err": 0.0})
            slot["max_ratio"] = max(slot["max_ratio"], ratio)
            slot["max_abs_err"] = max(slot["max_abs_err"], float(np.abs(value - ref[key]).max()))
            if bad is not None:
                record["failures"].append(f"{key} sequence {b}: element {bad[0]} = {bad[1]!r}, reference {bad[2]!r}, "
                                          f"bound {bad[3]:.3g}")
        if exact:
            # The exact value is c (V's row mean), not the float64 softmax (whose exp and log round).
            exact_O = np.broadcast_to(np.repeat(c, h // hk, axis=1), mine["O"].shape)
            equal = np.array_equal(mine["O"], exact_O)
            record["checks"]["O exact"] = {"equal": bool(equal)}
            if not equal:
                idx = tuple(int(i) for i in np.argwhere(mine["O"] != exact_O)[0])
                record["failures"].append(f"O exact sequence {b}: element {idx} = {mine['O'][idx]!r}, "
                                          f"exact {exact_O[idx]!r}")
        start += n
    if lse_np is None:
        record["failures"].append("the interface returned no LSE")
    return record


def perturbation(name, tools):
    """The control NAME as perturbations of FA's calls through the tracer's hooks."""
    P = tools.Perturbation
    staged = lambda a: a.get("stage") is not None  # noqa: E731  (K then V are FA's staged SMEM layouts)
    if name == "narrow_swizzle":
        def narrow(a):
            width = a["dtype"].width
            a["major_mode_size"] = 512 // width  # 512 bits contiguous: the SW64 atom
        return [P("smem_layout", CONTROLS[name], narrow, nth=0, when=staged)]
    if name == "other_major":
        from cutlass.tensor_utils import LayoutEnum

        def flip(a):
            a["layout"] = LayoutEnum.COL_MAJOR if a["layout"].name == "ROW_MAJOR" else LayoutEnum.ROW_MAJOR
        return [P("smem_layout", CONTROLS[name], flip, nth=1, when=staged)]
    if name == "box_minus_atom":
        import cutlass.cute as cute

        def shorter(a):
            smem = a["smem_layout_"]
            rows, cols = a["cta_tiler"]
            a["smem_layout_"] = cute.make_composed_layout(smem.inner, 0, cute.composition(smem.outer, (rows - 8, cols)))
            a["cta_tiler"] = (rows - 8, cols)
        # FA's TMA atoms: Q first (no multicast argument), then K.
        return [P("tma_atom", CONTROLS[name], shorter, nth=1)]
    raise ValueError(name)


def write_json(path, data):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(data, f, indent=1, default=str)
    os.replace(tmp, path)


def main_part(args, torch, fa, tools, ref_mod):
    import numpy as np
    rng = np.random.default_rng(2026)
    results, passed, failed = [], 0, 0
    t_all = time.time()
    selected = configs(args.quick)
    if args.one:
        if args.one not in selected:
            print(f"flash_check: unknown configuration {args.one!r}; known: {', '.join(selected)}", file=sys.stderr)
            return 64
        selected = {args.one: selected[args.one]}
    with tools.Tracer() as tracer:
        for name, cfg in selected.items():
            for exact in ((False, True) if name == "bf16-d128" else (False,)):
                try:
                    rec = run_config(torch, fa, name, cfg, tracer, ref_mod, rng, exact=exact)
                except Exception as e:  # noqa: BLE001  (a failing configuration is reported, the rest run)
                    rec = {"name": name, "exact": exact, "failures": [f"raised {type(e).__name__}: {e}"],
                           "traceback": traceback.format_exc()[-3000:]}
                ok = not rec["failures"]
                passed, failed = passed + ok, failed + (not ok)
                results.append(rec)
                ratios = " ".join(f"{k} {v['max_ratio']:.3f}" for k, v in rec.get("checks", {}).items() if "max_ratio" in v)
                print(f"{'PASS' if ok else 'FAIL'} {name}{' exact' if exact else ''}: err/bound {ratios}; "
                      f"fwd {rec.get('forward_s')} s, bwd {rec.get('backward_s')} s"
                      + ("" if ok else "; " + "; ".join(rec["failures"][:3])), flush=True)
                if "traceback" in rec:
                    print(rec["traceback"], flush=True)
                    if len(results) == 1:
                        print("flash_check: the first configuration raised: the others are not run", flush=True)
                        break
            else:
                continue
            break
    trace = tracer.trace
    with open(os.path.join(args.out, "flash_trace.json"), "w") as f:
        f.write(trace.to_json())
    summary = {"passed": passed, "failed": failed, "wall_s": round(time.time() - t_all, 1),
               "decisions": len(trace.decisions), "versions": trace.versions, "torch": torch.__version__,
               "device": torch.cuda.get_device_name(), "results": results}
    audited = audit_trace(tools, trace, "flash_audit.txt", args.out, summary)
    write_json(os.path.join(args.out, "flash_results.json"), summary)
    print(f"flash_check main: {passed} passed, {failed} failed ({len(trace.decisions)} layout decisions recorded; "
          f"audit: {audited}); {summary['wall_s']} s")
    return 0 if failed == 0 and summary.get("disagree", 0) == 0 else 1


def audit_trace(tools, trace, filename, out_dir, summary):
    """The audit's counts where cuteref's model is importable here (its report into
    OUT_DIR/FILENAME), else a note saying where to run it."""
    if tools.audit is None:
        summary["audit"] = "not run here (cuteref's extension is not importable): python -m cuteref.dsl audit"
        return summary["audit"]
    verdicts = tools.audit(trace)
    summary["audit"] = tools.summary(verdicts)
    summary["disagree"] = tools.counts(verdicts)["disagree"]
    with open(os.path.join(out_dir, filename), "w") as f:
        f.write(tools.render(verdicts, filename))
    return summary["audit"]


def control_child(args, torch, fa, tools, ref_mod):
    """One control: the perturbed compile's trace (written after every decision, so a hang
    keeps it) and the hardware result against the reference's bounds."""
    import numpy as np
    rng = np.random.default_rng(7)
    trace_path = os.path.join(args.out, f"control_{args.control}_trace.json")
    perts = perturbation(args.control, tools)
    with tools.Tracer(perts, on_record=lambda t: _flush(t, trace_path)) as tracer:
        try:
            rec = run_config(torch, fa, f"control {args.control}", ("bf16", 128, False, (None, None), 4, 4, None, None),
                             tracer, ref_mod, rng)
            outcome = "numbers within the bounds (the layout change is consistent everywhere)" if not rec["failures"] \
                else "numbers changed: " + rec["failures"][0]
        except Exception as e:  # noqa: BLE001
            outcome = f"the kernel failed: {type(e).__name__}: {str(e)[:300]}"
    _flush(tracer.trace, trace_path)
    applied = [p.name for p in perts if p.applied]
    write_json(os.path.join(args.out, f"control_{args.control}.json"), {"control": args.control, "applied": applied,
                                                                        "hardware": outcome})
    print(f"control {args.control}: applied {applied}; hardware: {outcome}")
    return 0


def _flush(trace, path):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write(trace.to_json())
    os.replace(tmp, path)


def controls_part(args, tools, timeout):
    """Each control in a child process; the parent collects traces and outcomes."""
    results = {}
    merged = None
    for name in CONTROLS:
        t0 = time.time()
        try:
            r = subprocess.run([sys.executable, os.path.abspath(__file__), "--out", args.out, "--control", name],
                               capture_output=True, text=True, timeout=timeout)
            tail = (r.stdout + r.stderr)[-1500:]
            status = f"exit {r.returncode}"
        except subprocess.TimeoutExpired as e:
            tail = ((e.stdout or b"").decode(errors="replace") + (e.stderr or b"").decode(errors="replace"))[-1500:]
            status = f"did not finish in {timeout} s"
        info = {"description": CONTROLS[name], "child": status, "wall_s": round(time.time() - t0, 1), "log_tail": tail}
        path = os.path.join(args.out, f"control_{name}.json")
        if os.path.exists(path):
            with open(path) as f:
                info.update(json.load(f))
        else:
            info["hardware"] = f"the kernel {status} (no result written: a hang or a crash)"
        trace_path = os.path.join(args.out, f"control_{name}_trace.json")
        if os.path.exists(trace_path):
            with open(trace_path) as f:
                trace = tools.Trace.from_json(f.read())
            for dec in trace.decisions:
                dec.section = f"control {name}: " + dec.section.replace(f"control {name} ", "")
            if merged is None:
                merged = tools.Trace(versions=trace.versions)
            base = len(merged.decisions)
            for dec in trace.decisions:
                dec.index += base
                dec.parent = None if dec.parent is None else dec.parent + base
                merged.decisions.append(dec)
            os.remove(trace_path)
            if tools.audit is not None:
                verdicts = tools.audit(trace)
                first = next((v for v in verdicts if v.status == "disagree"), None)
                info["audit"] = tools.summary(verdicts)
                info["caught_by_audit"] = first is not None
                info["first_difference"] = f"[{first.index}] {first.title}: {first.detail}" if first else None
        else:
            info["audit"] = "no trace written"
        if os.path.exists(path):
            os.remove(path)
        results[name] = info
        print(f"control {name}: {info['child']}; hardware: {info.get('hardware')}; audit: {info.get('audit')}"
              + (f"; first difference: {info.get('first_difference')}" if info.get("first_difference") else ""), flush=True)
    if merged is not None:
        with open(os.path.join(args.out, "flash_controls_trace.json"), "w") as f:
            f.write(merged.to_json())
    write_json(os.path.join(args.out, "flash_controls.json"), results)
    caught = sum(1 for r in results.values() if r.get("caught_by_audit"))
    print(f"flash_check controls: {len(results)} run, {caught} caught by the audit here"
          + ("" if tools.audit is not None else " (audit the traces with python -m cuteref.dsl audit)"))
    return 0 if tools.audit is None or caught == len(results) else 1


def memcheck_part(args, timeout):
    # API errors are not reported: the CUDA Python bindings probe driver entry points this driver
    # lacks (cuGetProcAddress answers CUDA_ERROR_INVALID_VALUE), which memcheck counts otherwise.
    cmd = ["compute-sanitizer", "--tool", "memcheck", "--report-api-errors", "no", "--error-exitcode", "9", sys.executable,
           os.path.abspath(__file__), "--out", os.path.join(args.out, "memcheck_run"), "--one", "bf16-d128-causal"]
    os.makedirs(os.path.join(args.out, "memcheck_run"), exist_ok=True)
    env = dict(os.environ, PYTORCH_NO_CUDA_MEMORY_CACHING="1")
    t0 = time.time()
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env)
        text, status = r.stdout + r.stderr, r.returncode
    except subprocess.TimeoutExpired as e:
        text, status = (e.stdout or b"").decode(errors="replace") + (e.stderr or b"").decode(errors="replace"), "timeout"
    except FileNotFoundError:
        text, status = "compute-sanitizer not found", "missing"
    with open(os.path.join(args.out, "memcheck.txt"), "w") as f:
        f.write(f"$ {' '.join(cmd)}\nexit {status}, {time.time() - t0:.1f} s\n{text[-20000:]}")
    summary = [line for line in text.splitlines() if "ERROR SUMMARY" in line]
    print(f"memcheck bf16-d128-causal: exit {status}; {summary[-1] if summary else 'no ERROR SUMMARY line'}; "
          f"{time.time() - t0:.1f} s")
    return 0 if status == 0 and summary and " 0 errors" in summary[-1] else 1


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--part", choices=("main", "controls", "memcheck", "all"), default="main")
    ap.add_argument("--control", choices=tuple(CONTROLS))
    ap.add_argument("--one")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--timeout", type=int, default=90, help="seconds for each control's child process")
    try:
        args = ap.parse_args(argv)
    except SystemExit as e:  # argparse's usage errors: exit 64, as the project's commands
        sys.exit(64 if e.code == 2 else e.code)
    torch, fa = environment()
    os.makedirs(args.out, exist_ok=True)
    tools = load_dsl_tools(os.path.join(HERE, "..", "..", "python", "cuteref", "dsl"))
    import attention_reference as ref_mod
    if args.control:
        return control_child(args, torch, fa, tools, ref_mod)
    rc = 0
    if args.part in ("main", "all") or args.one:
        rc |= main_part(args, torch, fa, tools, ref_mod)
    if args.one:
        return rc
    if args.part in ("controls", "all"):
        rc |= controls_part(args, tools, args.timeout)
    if args.part in ("memcheck", "all"):
        rc |= memcheck_part(args, 400)
    return rc


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
