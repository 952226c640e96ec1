"""Conversion from the CuTe DSL (cuteref.from_dsl), and the DSL as a third oracle: the same
operations on the same static layouts in the DSL (nvidia-cutlass-dsl, installed into
.vendor/dsl where the project has it) and in the model, compared as functions. Skipped
where the DSL is not installed."""
import os
import random
import subprocess
import sys

import pytest

import cuteref
from conftest import REPORT

DSL = os.environ.get("CUTEREF_DSL_PATH", "")
HERE = os.path.dirname(__file__)


def test_from_dsl_printouts():
    # The DSL's printouts (seen from nvidia-cutlass-dsl 4.8.1): static integers unmarked,
    # swizzles as S<B,M,S>, run-time values as ?.
    assert cuteref.from_dsl("(4,(2,3)):(2,(1,8))") == cuteref.eval("(4,(2,3)):(2,(1,8))")
    # A swizzled SMEM layout: on the GPU the swizzle acts on byte addresses. The expected value
    # is the model's own GMMA atom tiled to FA3's Q tile (192 x 64, bf16), written independently.
    printed = "S<3,4,3> o 0 o ((8,24),(64,1)):((64,512),(1,0))"
    Q = cuteref.eval("tile_to_shape(gmma_atom(K, SW128, 16), (192,64))")
    assert str(cuteref.from_dsl(printed, bits=16)) == "Sw<3,4,3> o smem_ptr[16b](unset) o ((8,24),(64,1)):((64,512),(1,0))"
    assert cuteref.from_dsl(printed, bits=16) == Q
    # Read on element indices it is another function (the two first differ at index 1).
    assert str(cuteref.from_dsl("S<3,4,3> o 0 o (8,64):(64,1)", elements=True)) == "Sw<3,4,3> o 0 o (8,64):(64,1)"
    assert not (cuteref.from_dsl(printed, elements=True) == Q)
    # Neither reading chosen, both chosen, a width that is none, a nonzero offset: refused.
    with pytest.raises(cuteref.Error, match="give bits="):
        cuteref.from_dsl(printed)
    with pytest.raises(cuteref.Error, match="not both"):
        cuteref.from_dsl(printed, bits=16, elements=True)
    with pytest.raises(cuteref.Error, match="not an element width"):
        cuteref.from_dsl(printed, bits=12)
    with pytest.raises(cuteref.Error, match="offset 0"):
        cuteref.from_dsl("S<3,4,3> o 64 o (8,64):(64,1)", bits=16)
    with pytest.raises(cuteref.Error) as e:
        cuteref.from_dsl("(?,4):(1,?)")
    assert e.value.column == 2


def cases(rng, n):
    out = []
    for _ in range(n):
        shape = tuple(rng.choice([2, 4]) for _ in range(rng.randint(1, 3)))
        order = list(range(len(shape)))
        rng.shuffle(order)
        stride, acc = [0] * len(shape), 1
        for k in order:
            acc *= rng.choice([1, 1, 2])  # gaps: not every layout is compact
            stride[k], acc = acc, acc * shape[k]
        if len(shape) >= 2 and rng.random() < 0.4:  # nest the first two modes
            a = ((shape[:2],) + shape[2:], (tuple(stride[:2]),) + tuple(stride[2:]))
        else:
            a = (shape, tuple(stride))
        op = rng.choice(["coalesce", "composition", "complement", "logical_divide", "logical_product",
                         "zipped_divide", "right_inverse", "left_inverse"])
        b = ""
        if op in ("composition", "logical_divide", "zipped_divide"):
            b = repr(((2,), (1,)) if rng.random() < 0.5 else ((2,), (2,)))
        elif op == "logical_product":
            b = repr(((rng.choice([2, 3]),), (1,)))
        elif op == "complement":
            b = str(acc * rng.choice([1, 2, 4]))
        out.append((op, repr(a), b))
    return out


def static_notation(t):
    """A shape or stride of Python ints in CuTe notation with static leaves: ((2,_4) -> (_2,_4))."""
    if isinstance(t, tuple):
        return "(" + ",".join(static_notation(e) for e in t) + ")"
    return f"_{t}"


@pytest.mark.skipif(not DSL or not os.path.isdir(DSL), reason="the CuTe DSL is not installed (.vendor/dsl)")
def test_dsl_agrees_with_the_model():
    rng = random.Random(18)
    todo = cases(rng, 150)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([DSL, os.path.join(DSL, "nvidia_cutlass_dsl", "dsl_packages")]))
    r = subprocess.run([sys.executable, os.path.join(HERE, "dsl_probe.py")], input="".join(f"{o}|{a}|{b}\n" for o, a, b in todo),
                       capture_output=True, text=True, env=env, timeout=600)
    lines = [l for l in r.stdout.splitlines() if l.strip()]
    assert r.returncode == 0 and len(lines) == len(todo), r.stderr[-3000:]
    agree, refused = 0, 0
    for (op, a, b), line in zip(todo, lines):
        shape, stride = eval(a)
        A = cuteref.layout(shape, stride)
        if op == "right_inverse":  # the DSL's integers are static; CuTe's right_inverse follows static strides
            A = cuteref.eval(static_notation(shape) + ":" + static_notation(stride))
        args = [A] if not b else [int(b) if op == "complement" else cuteref.layout(*eval(b))]
        if op in ("coalesce", "right_inverse", "left_inverse"):
            args = [A]
        else:
            args = [A, args[0]]
        if line.startswith("error:"):
            refused += 1
            continue
        mine = getattr(cuteref, op)(*args)
        theirs = cuteref.from_dsl(line)
        assert mine == theirs, f"{op}({a}, {b}): DSL {line}, cuteref {mine}"
        agree += 1
    REPORT.append(f"CuTe DSL differential: {len(todo)} cases: {agree} equal as functions, {refused} refused by the DSL")
    assert agree >= len(todo) * 3 // 4
