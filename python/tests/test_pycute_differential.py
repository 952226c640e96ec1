"""cuteref.pycute against pycute itself (the nvidia-cutlass 4.2.0.0 wheel), on the vendor
suite's own pycute cases (oracles/pycute_cases.py): each case is drawn twice from the same
seed, once with each API, so the same calls run on both. Results are compared as functions
(size and the values at every index, by each side's own evaluation); a disagreement must be
one of the recognised pycute defects (oracles/known_defects.py, which checks the operation's
defining property by enumeration with pycute's own crd2idx) or the model refusing an input
pycute answers (as CuTe C++ does; counted apart, as the vendor suite does). Every answer of
cuteref.pycute is also checked against the EXPR language (cuteref.eval of the same call):
the two Python faces of the model agree.
"""
import collections
import os
import random
import sys

import pytest

import cuteref
from cuteref import pycute as mine
from conftest import REPORT

sys.path.insert(0, os.path.join(os.environ.get("CUTEREF_SOURCE_DIR", ""), "oracles"))
import known_defects  # noqa: E402
import pycute_cases  # noqa: E402

CASES_PER_OP = 150


def run_case(pc, seed, op):
    case = pycute_cases.draw_case(pc, random.Random(seed), op)
    try:
        result = case.thunk()
        return case, result, pycute_cases.evaluate(pc, result), None
    except Exception as e:  # pycute signals bad input with assertions (and other errors)
        return case, None, None, f"{type(e).__name__}: {e}"


@pytest.mark.parametrize("op", pycute_cases.OPS)
def test_differential_against_pycute(pycute_vendor, op):
    tally = collections.Counter()
    unexplained = []
    for k in range(CASES_PER_OP):
        seed = (k * 7919 + len(op) * 104729) ^ 0x5EED  # fixed: the same cases every run
        vcase, vres, vval, verr = run_case(pycute_vendor, seed, op)
        mcase, mres, mval, merr = run_case(mine, seed, op)
        assert vcase.expr == mcase.expr, "the two draws must be the same case"
        expr = mcase.expr
        # The EXPR language on the same call: the model's own answer.
        try:
            model = cuteref.eval(expr)
        except cuteref.Error:
            model = None
        if merr is not None:
            assert merr.startswith("PycuteError"), f"{expr}: cuteref.pycute raised {merr}"
            assert model is None, f"{expr}: cuteref.pycute refused ({merr}) but cuteref.eval gives {model}"
            tally["refused" if verr is None else "both refused"] += 1
            continue
        _, msize, mhash = mval
        assert model is not None, f"{expr}: cuteref.pycute answered {mres} but cuteref.eval refuses"
        model_values = [model(i) for i in range(msize)]
        assert pycute_cases.fnv(int(v) for v in model_values) == mhash, f"{expr}: pycute face {mres} != EXPR face {model}"
        if verr is not None:
            ctx = {"pc": pycute_vendor, "A": vcase.A, "B": vcase.B, "model_text": str(mres)}
            defect = known_defects.explain("pycute", op, expr, verr, "vendor raised", ctx)
            if defect:
                tally["defect:" + defect] += 1
            else:
                unexplained.append(f"{expr}: pycute raised {verr}, cuteref.pycute gives {mres}")
            continue
        vtext, vsize, vhash = vval
        if (vsize, vhash) == (msize, mhash):
            tally["equal as functions"] += 1
            tally["same print" if vtext == str(mres) else "other profile (unit modes)"] += 1
            continue
        ctx = {"pc": pycute_vendor, "A": vcase.A, "vendor": vres, "cotarget": vcase.cotarget,
               "vendor_size": vsize, "model_text": str(mres)}
        defect = known_defects.explain("pycute", op, expr, vtext, "differ", ctx)
        if defect:
            tally["defect:" + defect] += 1
        else:
            unexplained.append(f"{expr}: pycute {vtext}, cuteref.pycute {mres}")
    REPORT.append(f"pycute differential {op}: {CASES_PER_OP} cases: " +
                  ", ".join(f"{k} {v}" for k, v in sorted(tally.items())) +
                  (f", UNEXPLAINED {len(unexplained)}" if unexplained else ""))
    assert not unexplained, "\n".join(unexplained[:10])
    assert tally["equal as functions"] > 0, f"{op}: no case was compared"
