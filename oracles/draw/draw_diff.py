#!/usr/bin/env python3
"""`cuteref draw` against CuTe C++'s print_latex / print_latex_tv / print_svg (suite `vendor`,
test `draw`).

Seeded cases: layouts of rank <= 2 (nested, compact, permuted, gapped and stride-0 strides),
swizzled layouts (composition(Swizzle<B,M,S>, L)), TV layouts over a tile (bijections of
(thread, value) onto (M,N), drawn by CuTe through composition(make_identity_tensor(tile), L)),
TiledMMAs (SM70, SM80, SM90 atoms, tiled and not; print_latex and print_svg) and TiledCopies
(ldmatrix and UniversalCopy atoms, make_tiled_copy and make_tiled_copy_A/C; print_latex).
One host program, compiled with g++ against the wheel's CuTe headers (cached by the hash of its
source), prints CuTe's LaTeX of every case; `cuteref draw` prints the model's. The two are
compared cell for cell: every \\node line or SVG rect and text (position, fill colour, label),
the grids and the axis labels, in order; only the comment lines (each side's own printing of the
object) and cuteref's <g class="cell"> wrappers are not compared. Prints the counts per kind; exits 1 on any difference or if nothing was compared.
CuTe's output is recorded in oracles/recorded/cute_draw.json.xz (recorded_answers.py); the
program is compiled where the recording does not hold it (another compiler, header or source),
and, where it does, for one commit in --verify-every (4), whose run fails if the output differs
from the recording by a byte.
Usage: draw_diff.py --cuteref EXE --cache DIR [--cpp-arg ARG]... [--seed N]
                    [--recording FILE | --no-recording | --record FILE] [--verify-every N] [--verify-seed S]
"""
import argparse
import os
import random
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ORACLES = os.path.dirname(HERE)
sys.path.insert(0, ORACLES)
import cute_programs  # noqa: E402
import layouts as L  # noqa: E402  (oracles/layouts.py: the differential's random layouts)
import recorded_answers  # noqa: E402

SWIZZLES = [(1, 0, 1), (2, 0, 2), (2, 1, 2), (3, 0, 3), (1, 1, 1), (2, 2, 3), (3, 1, 3), (1, 0, 2)]


def cpp_tree(t, part):
    if isinstance(t, L.Leaf):
        return str(t.shape if part == "shape" else t.stride)
    maker = "make_shape" if part == "shape" else "make_stride"
    return maker + "(" + ", ".join(cpp_tree(c, part) for c in t) + ")"


def cpp_layout(t):
    return f"make_layout({cpp_tree(t, 'shape')}, {cpp_tree(t, 'stride')})"


def model_layout(t):
    return L.model(t)


def draw_cases(rng, n_layouts, n_swizzled, n_tv):
    """[(kind, model EXPR, extra cuteref draw args, C++ statement)]"""
    cases = []
    while len(cases) < n_layouts:
        t = L.random_nesting(rng, max_rank=2, max_depth=3, max_leaves=5)
        L.fill_shapes(rng, t, max_size=64)
        L.assign_strides(rng, t, rng.choice(["compact", "permuted", "gapped", "stride0"]))
        cases.append(("layout", model_layout(t), [], f"print_latex({cpp_layout(t)});"))
    for _ in range(n_swizzled):
        b, m, s = rng.choice(SWIZZLES)
        t = L.random_nesting(rng, max_rank=2, max_depth=2, max_leaves=4)
        L.fill_shapes(rng, t, max_size=64)
        L.assign_strides(rng, t, rng.choice(["compact", "permuted"]))
        cases.append(("swizzled", f"Sw<{b},{m},{s}> o 0 o {model_layout(t)}", [],
                      f"print_latex(composition(Swizzle<{b},{m},{s}>{{}}, {cpp_layout(t)}));"))
    for _ in range(n_tv):
        # A bijection (thread, value) -> tile index: compact strides in a permuted order over
        # thread leaves then value leaves; the tile (M,N) with M a prefix product in that order
        # (static: CuTe's print_latex_tv builds an owning tensor of the tile's shape).
        t_ext = [rng.choice([1, 2, 2, 4]) for _ in range(rng.randint(1, 3))]
        v_ext = [rng.choice([1, 2, 2, 4]) for _ in range(rng.randint(1, 2))]
        ext = t_ext + v_ext
        order = list(range(len(ext)))
        rng.shuffle(order)
        strides, acc = [0] * len(ext), 1
        for k in order:
            strides[k], acc = acc, acc * ext[k]
        cut = rng.randint(0, len(order))
        m = 1
        for k in order[:cut]:
            m *= ext[k]
        n = acc // m
        tv = [[L.Leaf(e, d) for e, d in zip(t_ext, strides[:len(t_ext)])],
              [L.Leaf(e, d) for e, d in zip(v_ext, strides[len(t_ext):])]]
        cases.append(("tv", model_layout(tv), ["--tile", f"({m},{n})"],
                      f"print_latex_tv(composition(make_identity_tensor(make_shape(Int<{m}>{{}}, Int<{n}>{{}})), "
                      f"{cpp_layout(tv)}), make_shape(Int<{m}>{{}}, Int<{n}>{{}}));"))
    return cases


# TiledMMAs: (the model's expression, CuTe's). print_latex and print_svg of each.
MMAS = [
    ("make_tiled_mma(SM80_16x8x8_F16F16F16F16_TN)", "make_tiled_mma(SM80_16x8x8_F16F16F16F16_TN{})"),
    ("make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN)", "make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{})"),
    ("make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN, (2,2,1):(2,1,0))",
     "make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>, Stride<_2,_1,_0>>{})"),
    ("make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN, (1,2,1):(0,1,0))",
     "make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_1,_2,_1>>{})"),
    ("make_tiled_mma(SM80_16x8x8_F32TF32TF32F32_TN)", "make_tiled_mma(SM80_16x8x8_F32TF32TF32F32_TN{})"),
    ("make_tiled_mma(SM80_16x8x32_S32S8S8S32_TN)", "make_tiled_mma(SM80_16x8x32_S32S8S8S32_TN{})"),
    ("make_tiled_mma(SM70_8x8x4_F32F16F16F32_NT, (2,2,1):(1,2,0))",
     "make_tiled_mma(SM70_8x8x4_F32F16F16F32_NT{}, Layout<Shape<_2,_2,_1>>{})"),
    ("make_tiled_mma(SM90_64x8x16_F16F16F16_SS)",
     "make_tiled_mma(SM90_64x8x16_F16F16F16_SS<GMMA::Major::K, GMMA::Major::K>{})"),
]


# TiledCopies: (the model's expression, CuTe's). print_latex of each (CuTe has no print_svg of a
# copy).
COPIES = [
    ("make_tiled_copy(SM75_U32x4_LDSM_N, 16, (32,1):(1,0), (1,8):(0,1))",
     "make_tiled_copy(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, Layout<Shape<_32,_1>>{}, Layout<Shape<_1,_8>>{})"),
    ("make_tiled_copy(SM75_U16x8_LDSM_T, 16, (32,1):(1,0), (8,1):(1,0))",
     "make_tiled_copy(Copy_Atom<SM75_U16x8_LDSM_T, half_t>{}, Layout<Shape<_32,_1>>{}, Layout<Shape<_8,_1>>{})"),
    ("make_tiled_copy(UniversalCopy<uint32_t>, 16, (4,8):(8,1), (1,2):(0,1))",
     "make_tiled_copy(Copy_Atom<UniversalCopy<uint32_t>, half_t>{}, Layout<Shape<_4,_8>, Stride<_8,_1>>{}, "
     "Layout<Shape<_1,_2>>{})"),
    ("make_tiled_copy(UniversalCopy<uint128_t>, 16, (8,4):(4,1), (1,8):(0,1))",
     "make_tiled_copy(Copy_Atom<UniversalCopy<uint128_t>, half_t>{}, Layout<Shape<_8,_4>, Stride<_4,_1>>{}, "
     "Layout<Shape<_1,_8>>{})"),
    ("make_tiled_copy_C(UniversalCopy<uint32_t>, 16, make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN))",
     "make_tiled_copy_C(Copy_Atom<UniversalCopy<uint32_t>, half_t>{}, make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}))"),
    ("make_tiled_copy_A(SM75_U32x4_LDSM_N, 16, make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN))",
     "make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}))"),
]


def mma_cases():
    out = []
    for model, cpp in MMAS:
        out.append(("tiled_mma latex", model, [], f"print_latex({cpp});"))
        out.append(("tiled_mma svg", model, ["-o", "SVG"], f"print_svg({cpp});"))
    for model, cpp in COPIES:
        out.append(("tiled_copy latex", model, [], f"print_latex({cpp});"))
    return out


def program(cases):
    body = "\n".join(f'  printf("@@@ CASE {k}\\n"); {stmt}' for k, (_, _, _, stmt) in enumerate(cases))
    return ("#include <cstdio>\n#include <cute/tensor.hpp>\n#include <cute/atom/mma_atom.hpp>\n"
            "#include <cute/atom/mma_traits_sm70.hpp>\n#include <cute/atom/mma_traits_sm80.hpp>\n"
            "#include <cute/atom/mma_traits_sm90_gmma.hpp>\n#include <cute/atom/copy_atom.hpp>\n"
            "#include <cute/atom/copy_traits_sm75.hpp>\n"
            "#include <cute/util/print_latex.hpp>\n#include <cute/util/print_svg.hpp>\n"
            "using namespace cute;\nint main() {\n" + body + '\n  printf("@@@ END\\n");\n}\n')


# The one CuTe program's name in the build cache and the recording.
PROGRAM = "cute_draw"


def cute_program_output(source, args):
    """CuTe's output of the program, recorded or compiled (recorded_answers.py), with
    cute_programs.ProgramAnswers and whether this run verifies a recorded output."""
    compiler = cute_programs.Compiler(args.cxx, args.cpp_arg, args.cache, ORACLES)
    seed = recorded_answers.verification_seed(args, HERE)
    selected = recorded_answers.selected_one_in(seed, PROGRAM, args.verify_every)
    program = cute_programs.recorded_or_compiled_with_args(
        compiler, {PROGRAM: (source, [])}, cute_programs.run_without_input, args, HERE,
        verify=1 if selected else 0, jobs=1, about=f"CuTe C++'s output of the oracles/draw/draw_diff.py program, --seed {args.seed} "
              f"--layouts {args.layouts} --swizzled {args.swizzled} --tv {args.tv}")
    return program, selected


def split_pictures(out):
    """CuTe's output, one list of lines per case (the program prints `@@@ CASE k` before each)."""
    parts, current = [], None
    for line in out:
        if line.startswith("@@@ "):
            if current is not None:
                parts.append(current)
            current = []
        elif current is not None:
            current.append(line)
    return parts


def compared_lines(text_lines):
    """Everything but the comment lines (each side prints the object its own way) and, in SVG,
    cuteref's <g class="cell"> wrappers (lines CuTe does not have)."""
    return [l for l in text_lines if not l.startswith("%") and not l.startswith("<!--")
            and not l.startswith("<g ") and l != "</g>"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cuteref", required=True)
    ap.add_argument("--cache", required=True)
    ap.add_argument("--cpp-arg", action="append", default=[])
    ap.add_argument("--seed", type=int, default=18)
    ap.add_argument("--layouts", type=int, default=220)
    ap.add_argument("--swizzled", type=int, default=30)
    ap.add_argument("--tv", type=int, default=40)
    ap.add_argument("--cxx", default="g++")
    recorded_answers.add_recording_arguments(
        ap, os.path.join(ORACLES, "recorded", "cute_draw.json.xz"), "program", verify_every=4)
    args = ap.parse_args()
    if args.verify_every < 1:
        ap.error(f"--verify-every must be >= 1, not {args.verify_every}")
    cases = draw_cases(random.Random(args.seed), args.layouts, args.swizzled, args.tv) + mma_cases()
    try:
        cute, verifies = cute_program_output(program(cases), args)
    except RuntimeError as e:  # the program does not compile or run, a missing recording
        print(f"draw: FAIL: {e}")
        return 1
    rule = ""
    if not args.record and not args.no_recording:
        rule = (f"; the recorded output is compiled again and compared for one commit in {args.verify_every} "
                f"(where the hash of the verification seed and the program's name is 0 mod {args.verify_every}): "
                f"{'this' if verifies else 'not this'} one")
    print(f"draw: CuTe's program: {cute.note}{rule}")
    for e in cute.errors:
        print(f"RECORDING DIFFERS from CuTe C++: {e}")
    if cute.errors:
        return 1
    theirs = split_pictures(cute.answers[PROGRAM][0])
    if len(theirs) != len(cases):
        print(f"draw: the CuTe program printed {len(theirs)} pictures for {len(cases)} cases")
        return 1
    counts, failures = {}, []
    for (kind, expr, extra, _), cute in zip(cases, theirs):
        if extra == ["-o", "SVG"]:
            svg = os.path.join(args.cache, "mine.svg")
            r = subprocess.run([args.cuteref, "draw", expr, "-o", svg], capture_output=True, text=True)
            mine = open(svg).read().splitlines() if r.returncode == 0 else ["error: " + r.stderr.strip()]
        else:
            r = subprocess.run([args.cuteref, "draw", expr] + extra, capture_output=True, text=True)
            mine = r.stdout.splitlines() if r.returncode == 0 else ["error: " + r.stderr.strip()]
        a, b = compared_lines(cute), compared_lines(mine)
        nodes = sum(1 for l in a if l.startswith("\\node[fill=") or l.startswith("<rect "))
        ok = a == b and nodes > 0
        counts.setdefault(kind, [0, 0, 0])
        counts[kind][0 if ok else 1] += 1
        counts[kind][2] += nodes
        if not ok:
            diff = next((f"line {i}: CuTe `{x}` cuteref `{y}`" for i, (x, y) in enumerate(zip(a, b)) if x != y),
                        f"{len(a)} lines vs {len(b)}")
            failures.append(f"{kind} {expr} {' '.join(extra)}: {diff}")
    # Negative control: CuTe's picture of a layout case against cuteref's picture of the
    # row-major layout of the same shape, for the first case where the two layouts differ
    # (the model's ==): the pictures must differ too, so the comparison can fail.
    for k, (kind_k, expr_k, _, _) in enumerate(cases):
        other = f"make_layout(shape({expr_k}), LayoutRight)"
        verdict = subprocess.run([args.cuteref, "eval", f"{expr_k} == {other}"], capture_output=True,
                                 text=True).stdout.strip()
        if kind_k == "layout" and verdict.startswith("false"):
            control = subprocess.run([args.cuteref, "draw", other], capture_output=True, text=True).stdout.splitlines()
            detected = compared_lines(theirs[k]) != compared_lines(control)
            print(f"draw: negative control: CuTe's {expr_k} against cuteref's {other}: "
                  f"{'detected' if detected else 'NOT detected'} as different")
            if not detected:
                failures.append(f"negative control {expr_k}: a different layout's picture compared equal")
            break
    else:
        failures.append("negative control: no case differs from its row-major layout")
    for f in failures[:20]:
        print("DIFF " + f)
    total = sum(c[0] + c[1] for c in counts.values())
    for kind, (same, differ, cells) in counts.items():
        print(f"draw vs CuTe print_latex/print_svg: {kind}: {same + differ} objects, {cells} cells: {same} identical cell for cell, "
              f"{differ} differ")
    passed = sum(c[0] for c in counts.values())
    print(f"draw: {passed} passed, {total - passed} failed")
    return 0 if total > 0 and passed == total else 1


if __name__ == "__main__":
    sys.exit(main())
