"""Attention forward and backward in float64, and the error bound each result of a 16-bit
FlashAttention kernel must meet (numpy only; no GPU needed).

Inputs are small integers (Q, K, dO in {-1, 0, 1}, V in {-4..4}), so every score Q K^T and
every dO V^T is an integer the kernel's f32 MMAs compute exactly (|S| <= D <= 256). The bound
of each output, elementwise, from where a 16-bit kernel rounds (u = 2^-8 bf16, 2^-11 f16):

- O: P is rounded to the element type before the PV MMA (relative u) and O is rounded on output
  (relative u); O is a convex combination of V's rows, so both are at most u max|V|. The f32
  softmax (exp2 approximation, the scale, row sums) adds under 2^-14 relative:
      |O - ref| <= (2u + 2^-14) max|V|.
- LSE (natural log, f32): the row sum of n_k terms, each exp2-approximated (2^-22), summed in
  f32 (n_k 2^-24 relative), then a log approximation:
      |LSE - ref| <= (n_k + 64) 2^-24 + 2^-18 (1 + |ref|).
- Backward: P is recomputed from S and LSE, relative error e_P = err(LSE) + 2^-20 + 2^-23 |S
  scale|. D_i = sum_d dO O is formed from the forward's rounded O: err(D_i) <= sum_d |dO| err(O).
  dS = P (dP - D) is rounded to the element type before the dQ and dK MMAs:
      err(dS) <= P err(D) + e_P P |dP - D| + u |dS|;
      |dQ - ref| <= scale (err(dS) |K|) + u |dQ| + n_k 2^-24 scale (|dS| |K|)
      |dK - ref| <= scale (err(dS)^T |Q|) + u |dK| + n_q 2^-24 scale (|dS|^T |Q|)   (summed over a GQA group)
      |dV - ref| <= (u + e_P + n_q 2^-24) (P^T |dO|) + u |dV|                      (summed over a GQA group)
  (n 2^-24: an f32 sum of n terms, in any order.)
  These are first-order; the check allows twice each bound (the products of two rounding
  errors and the f32 accumulations' second-order terms stay far below the first-order terms).
"""
import math

import numpy as np

# The unit roundoff of each 16-bit type, by name.
UNIT_ROUNDOFF = {"bf16": 2.0 ** -8, "f16": 2.0 ** -11}
SLACK = 2.0


def small_int(shape, lo, hi, rng):
    """Integers in [lo, hi] as float64 (exact in every 16-bit type for |x| <= 256)."""
    return rng.integers(lo, hi + 1, size=shape).astype(np.float64)


def mask(sq, sk, causal, window):
    """allowed[i, j]: key j visible to query i (FA's alignment: the last query sees the last key)."""
    i = np.arange(sq).reshape(-1, 1) + (sk - sq)
    j = np.arange(sk).reshape(1, -1)
    ok = np.ones((sq, sk), dtype=bool)
    left, right = window
    if causal:
        right = 0
    if left is not None and left >= 0:
        ok &= j >= i - left
    if right is not None and right >= 0:
        ok &= j <= i + right
    return ok


def forward_backward(q, k, v, do, scale, causal=False, window=(None, None)):
    """q (sq, h, d), k (sk, hk, d), v (sk, hk, dv), do (sq, h, dv), float64, one sequence.
    Returns O (sq, h, dv), LSE (h, sq), dQ, dK, dV and the intermediates the bounds use."""
    sq, h, d = q.shape
    sk, hk, _ = k.shape
    group = h // hk
    K = np.repeat(k, group, axis=1)
    V = np.repeat(v, group, axis=1)
    S = np.einsum("ihd,jhd->hij", q, K)                           # unscaled integer scores
    allowed = mask(sq, sk, causal, window)
    logits = np.where(allowed, S * scale, -np.inf)
    top = logits.max(axis=-1, keepdims=True)
    lse = (top + np.log(np.exp(logits - top).sum(axis=-1, keepdims=True)))[..., 0]  # (h, sq)
    P = np.where(allowed, np.exp(logits - lse[..., None]), 0.0)
    O = np.einsum("hij,jhd->ihd", P, V)
    dP = np.einsum("ihd,jhd->hij", do, V)
    D = np.einsum("ihd,ihd->hi", do, O)
    dS = P * (dP - D[..., None])
    dQ = scale * np.einsum("hij,jhd->ihd", dS, K)

    def fold(t):  # (sk, h, x) -> (sk, hk, x): the sum over each GQA group
        return t.reshape(sk, hk, group, -1).sum(axis=2)

    return {"O": O, "LSE": lse, "dQ": dQ, "dK": fold(scale * np.einsum("hij,ihd->jhd", dS, q)),
            "dV": fold(np.einsum("hij,ihd->jhd", P, do)),
            "_S": S, "_P": P, "_dP": dP, "_D": D, "_dS": dS, "_K": K, "_fold": fold}


def bounds(ref, q, v, do, scale, dtype):
    """Elementwise bounds (the module's derivation, times SLACK) for O, LSE, dQ, dK, dV;
    DTYPE is "bf16" or "f16"."""
    u = UNIT_ROUNDOFF[dtype]
    sk, sq = v.shape[0], do.shape[0]
    b_O = np.full_like(ref["O"], (2 * u + 2.0 ** -14) * float(np.abs(v).max()))
    b_LSE = (sk + 64) * 2.0 ** -24 + 2.0 ** -18 * (1 + np.abs(ref["LSE"]))
    P, S, dP, D, dS = ref["_P"], ref["_S"], ref["_dP"], ref["_D"], ref["_dS"]
    e_P = b_LSE[..., None] + 2.0 ** -20 + 2.0 ** -23 * np.abs(S * scale)
    err_D = np.einsum("ihd,ihd->hi", np.abs(do), b_O)
    err_dS = P * err_D[..., None] + e_P * P * np.abs(dP - D[..., None]) + u * np.abs(dS)
    K_abs, q_abs = np.abs(ref["_K"]), np.abs(q)
    b_dQ = scale * np.einsum("hij,jhd->ihd", err_dS, K_abs) + u * np.abs(ref["dQ"]) \
        + sk * 2.0 ** -24 * scale * np.einsum("hij,jhd->ihd", np.abs(dS), K_abs)
    fold = ref["_fold"]
    b_dK = fold(scale * np.einsum("hij,ihd->jhd", err_dS, q_abs)
                + sq * 2.0 ** -24 * scale * np.einsum("hij,ihd->jhd", np.abs(dS), q_abs)) + u * np.abs(ref["dK"])
    b_dV = fold(np.einsum("hij,ihd->jhd", (u + e_P + sq * 2.0 ** -24) * P, np.abs(do))) + u * np.abs(ref["dV"])
    return {name: SLACK * b for name, b in (("O", b_O), ("LSE", b_LSE), ("dQ", b_dQ), ("dK", b_dK), ("dV", b_dV))}


def first_violation(got, ref, bound):
    """(None, largest error/bound ratio) when |got - ref| <= bound everywhere, else
    ((index, got, ref, bound) of the worst element, its ratio); a non-finite value is a violation."""
    finite = np.isfinite(got)
    if not finite.all():
        bad = tuple(int(i) for i in np.argwhere(~finite)[0])
        return (bad, float(got[bad]), float(ref[bad]), float(bound[bad])), math.inf
    ratio = np.abs(got - ref) / np.maximum(bound, 1e-300)
    idx = tuple(int(i) for i in np.unravel_index(int(np.argmax(ratio)), ratio.shape))
    r = float(ratio[idx])
    if r <= 1.0:
        return None, r
    return (idx, float(got[idx]), float(ref[idx]), float(bound[idx])), r
