#!/usr/bin/env python3
"""quack-kernels' SM90 GEMM and RMSNorm under cuteref's DSL audit and against float64, on an
SM90 GPU.

    quack_check.py --out DIR [--control narrow_swizzle_a]

GEMM (quack.gemm_interface.gemm, tuned=False: one configuration, no autotuning) of bf16 and
f16, B K-major and N-major: A and B in {-1, 0, 1} with K = 256, so every product and sum is an
integer of magnitude <= 256, exact in f32 and in the 16-bit output: compared for equality.
RMSNorm (quack.rmsnorm.rmsnorm, forward) of bf16 rows: x in {-4..4}, w in {-2..2}; the f32
mean of squares is exact up to one rounding (2^-24), rsqrt adds under 2^-21 relative and the
output is rounded to bf16 (u = 2^-8), so |y - ref| <= 2 (u + 2^-20) |ref| (twice the
first-order bound).
The control (a child process: quack caches compiled kernels in the process) makes A's SMEM
atom one swizzle narrower through the tracer's hooks.

Writes DIR/quack_results.json and DIR/quack_trace.json; prints `N passed, M failed`. Exit 77
with the reason when torch, a Hopper GPU or quack is missing.
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


def environment():
    return require_sm90("quack_check", ["quack.gemm_interface", "quack.gemm_sm90", "quack.rmsnorm"], "quack-kernels")


def gemm_case(torch, name, dtype, b_k_major, rng):
    import numpy as np
    from quack.gemm_interface import gemm
    M, N, K = 512, 384, 256
    a = rng.integers(-1, 2, size=(M, K)).astype(np.float64)
    b = rng.integers(-1, 2, size=(K, N)).astype(np.float64)
    ta = torch.tensor(a, dtype=dtype, device="cuda")
    tb = torch.tensor(b.T.copy(), dtype=dtype, device="cuda").T if b_k_major else torch.tensor(b, dtype=dtype, device="cuda")
    c = gemm(ta, tb, tuned=False)
    torch.cuda.synchronize()
    got = c.float().cpu().numpy()
    ref = a @ b
    if np.array_equal(got, ref):
        return []
    idx = tuple(int(i) for i in np.argwhere(got != ref)[0])
    return [f"{name}: C{idx} = {got[idx]!r}, exact {ref[idx]!r}"]


def rmsnorm_case(torch, rng):
    import numpy as np
    from quack.rmsnorm import rmsnorm
    M, N, eps = 1024, 2048, 1e-6
    x = rng.integers(-4, 5, size=(M, N)).astype(np.float64)
    w = rng.integers(-2, 3, size=(N,)).astype(np.float64)
    y = rmsnorm(torch.tensor(x, dtype=torch.bfloat16, device="cuda"), torch.tensor(w, dtype=torch.bfloat16, device="cuda"), eps=eps)
    torch.cuda.synchronize()
    got = y.float().cpu().numpy()
    ref = x * w / np.sqrt((x * x).mean(axis=1, keepdims=True) + eps)
    bound = 2 * (2.0 ** -8 + 2.0 ** -20) * np.abs(ref)
    bad = np.abs(got - ref) > bound
    if not bad.any():
        return [], float((np.abs(got - ref) / np.maximum(bound, 1e-300)).max())
    idx = tuple(int(i) for i in np.argwhere(bad)[0])
    return [f"rmsnorm: y{idx} = {got[idx]!r}, reference {ref[idx]!r}, bound {bound[idx]:.3g}"], None


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--control", choices=("narrow_swizzle_a",))
    try:
        args = ap.parse_args(argv)
    except SystemExit as e:  # argparse's usage errors: exit 64, as the project's commands
        sys.exit(64 if e.code == 2 else e.code)
    torch = environment()
    import numpy as np
    os.makedirs(args.out, exist_ok=True)
    tools = load_dsl_tools(os.path.join(HERE, "..", "..", "python", "cuteref", "dsl"))
    rng = np.random.default_rng(90)
    if args.control:
        from cutlass.cute.nvgpu import warpgroup

        narrower = {"SW128": "SW64", "SW64": "SW32", "SW32": "INTER"}

        def narrow(a):
            major, sw = a["kind"].name.split("_")
            a["kind"] = getattr(warpgroup.SmemLayoutAtomKind, f"{major}_{narrower.get(sw, sw)}")
        pert = tools.Perturbation("smem_layout_atom", "A's SMEM atom one swizzle narrower", narrow, nth=0)
        with tools.Tracer([pert]) as t:
            t.section("control narrow_swizzle_a: gemm bf16 B K-major")
            try:
                fails = gemm_case(torch, "gemm bf16 B K-major", torch.bfloat16, True, rng)
                outcome = "C exact (the narrower atom is used consistently)" if not fails else "C changed: " + fails[0]
            except Exception as e:  # noqa: BLE001
                outcome = f"the kernel failed: {type(e).__name__}: {str(e)[:300]}"
        with open(os.path.join(args.out, "quack_control_trace.json"), "w") as f:
            f.write(t.trace.to_json())
        with open(os.path.join(args.out, "quack_control.json"), "w") as f:
            json.dump({"applied": pert.applied, "hardware": outcome}, f)
        print(f"quack control narrow_swizzle_a: applied {pert.applied}; hardware: {outcome}")
        return 0
    results, passed, failed = [], 0, 0
    t_all = time.time()
    cases = [(f"gemm {dn} B {'K' if km else 'N'}-major", dt, km) for dn, dt in (("bf16", torch.bfloat16), ("f16", torch.float16))
             for km in (True, False)]
    with tools.Tracer() as t:
        for name, dt, km in cases:
            t.section(name)
            t0 = time.time()
            try:
                fails = gemm_case(torch, name, dt, km, rng)
            except Exception as e:  # noqa: BLE001
                fails = [f"{name} raised {type(e).__name__}: {e}", traceback.format_exc()[-2000:]]
            results.append({"name": name, "failures": fails, "wall_s": round(time.time() - t0, 2)})
        t.section("rmsnorm bf16 1024x2048")
        t0 = time.time()
        try:
            fails, ratio = rmsnorm_case(torch, rng)
        except Exception as e:  # noqa: BLE001
            fails, ratio = [f"rmsnorm raised {type(e).__name__}: {e}", traceback.format_exc()[-2000:]], None
        results.append({"name": "rmsnorm bf16", "failures": fails, "max_ratio": ratio, "wall_s": round(time.time() - t0, 2)})
    for r in results:
        ok = not r["failures"]
        passed, failed = passed + ok, failed + (not ok)
        print(f"{'PASS' if ok else 'FAIL'} {r['name']} ({r['wall_s']} s)" + ("" if ok else ": " + r["failures"][0]), flush=True)
    with open(os.path.join(args.out, "quack_trace.json"), "w") as f:
        f.write(t.trace.to_json())
    # The control, in a child process.
    child = subprocess.run([sys.executable, os.path.abspath(__file__), "--out", args.out, "--control", "narrow_swizzle_a"],
                           capture_output=True, text=True, timeout=300)
    control = {"child": f"exit {child.returncode}", "log_tail": (child.stdout + child.stderr)[-1500:]}
    path = os.path.join(args.out, "quack_control.json")
    if os.path.exists(path):
        with open(path) as f:
            control.update(json.load(f))
        os.remove(path)
    print(f"quack control narrow_swizzle_a: {control['child']}; hardware: {control.get('hardware')}")
    summary = {"passed": passed, "failed": failed, "wall_s": round(time.time() - t_all, 1), "results": results,
               "decisions": len(t.trace.decisions), "versions": t.trace.versions, "control": control}
    with open(os.path.join(args.out, "quack_results.json"), "w") as f:
        json.dump(summary, f, indent=1)
    print(f"quack_check: {passed} passed, {failed} failed ({len(t.trace.decisions)} layout decisions recorded); "
          f"{summary['wall_s']} s")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
