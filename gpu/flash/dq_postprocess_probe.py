"""FlashAttention's forward and backward once, bf16 head dim 128 causal, in flash_check.py's shapes
(batch 2, seqlen 320, 4 heads; small-integer inputs, seed 2026), so that Nsight Compute can count
the SM90 dQ postprocess kernel's shared-memory traffic. Checks dQ against the float64 reference
within attention_reference.py's bound and, given a dQ saved by an earlier run, for bitwise equality.

    dq_postprocess_probe.py TAG DIR [--same-as OTHER_TAG]
writes DIR/dq_TAG.npy; exit 0 when dQ is within its bound (and equal to OTHER_TAG's), 1 otherwise.
"""
import argparse
import hashlib
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import attention_reference as ref_mod  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("tag")
    ap.add_argument("dir")
    ap.add_argument("--same-as")
    args = ap.parse_args()
    import torch
    import flash_attn.cute.interface as fa
    batch, seqlen, h, d = 2, 320, 4, 128
    total = batch * seqlen
    rng = np.random.default_rng(2026)
    q = ref_mod.small_int((total, h, d), -1, 1, rng)
    k = ref_mod.small_int((total, h, d), -1, 1, rng)
    v = ref_mod.small_int((total, h, d), -4, 4, rng)
    do = ref_mod.small_int((total, h, d), -1, 1, rng)
    scale = d ** -0.5
    T = lambda a: torch.tensor(a, dtype=torch.bfloat16, device="cuda")  # noqa: E731
    tq, tk, tv = (T(a).requires_grad_() for a in (q, k, v))
    shape = lambda t: t.view(batch, seqlen, h, d)  # noqa: E731
    t0 = time.time()
    out = fa.flash_attn_func(shape(tq), shape(tk), shape(tv), softmax_scale=scale, causal=True, return_lse=True)
    o = out[0] if isinstance(out, tuple) else out
    o.backward(T(do).view_as(o))
    torch.cuda.synchronize()
    dq = tq.grad.float().cpu().numpy()
    print(f"[{args.tag}] forward and backward {time.time() - t0:.1f} s; dQ sha256 "
          f"{hashlib.sha256(dq.tobytes()).hexdigest()[:16]}")
    ok = True
    for b in range(batch):
        sl = slice(b * seqlen, (b + 1) * seqlen)
        ref = ref_mod.forward_backward(q[sl], k[sl], v[sl], do[sl], scale, True, (None, None))
        bound = ref_mod.bounds(ref, q[sl], v[sl], do[sl], scale, "bf16")["dQ"]
        bad, ratio = ref_mod.first_violation(dq[sl], ref["dQ"], bound)
        print(f"[{args.tag}] sequence {b}: dQ max |err| {np.abs(dq[sl] - ref['dQ']).max():.4g}, "
              f"max err/bound {ratio:.3f}{'' if bad is None else f', VIOLATION {bad}'}")
        ok &= bad is None
    np.save(os.path.join(args.dir, f"dq_{args.tag}.npy"), dq)
    if args.same_as:
        other = np.load(os.path.join(args.dir, f"dq_{args.same_as}.npy"))
        equal = np.array_equal(other, dq)
        print(f"[{args.tag}] dQ bitwise equal to [{args.same_as}]: {equal}")
        ok &= equal
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
