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
Usage: draw_diff.py --cuteref EXE --cache DIR [--cpp-arg ARG]... [--seed N]
"""
import argparse
import hashlib
import os
import random
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
import layouts as L  # noqa: E402  (oracles/layouts.py: the differential's random layouts)

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


def cute_outputs(source, cache, cpp_args):
    os.makedirs(cache, exist_ok=True)
    digest = hashlib.sha256((source + " ".join(cpp_args)).encode()).hexdigest()[:16]
    exe = os.path.join(cache, "cute_draw_" + digest)
    if not os.path.exists(exe):
        src = exe + ".cpp"
        with open(src, "w") as f:
            f.write(source)
        # -O1 compiles CuTe's templates faster than -O0 (21 s -> 15 s CPU): fewer functions emitted
        subprocess.run(["g++", "-std=c++17", "-O1", "-w"] + cpp_args + [src, "-o", exe + ".tmp"], check=True)
        os.replace(exe + ".tmp", exe)
        print(f"draw: compiled the CuTe program ({len(source)} bytes of source)")
    out = subprocess.run([exe], capture_output=True, text=True, check=True).stdout
    parts, current = [], None
    for line in out.splitlines():
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
    args = ap.parse_args()
    cases = draw_cases(random.Random(args.seed), args.layouts, args.swizzled, args.tv) + mma_cases()
    theirs = cute_outputs(program(cases), args.cache, args.cpp_arg)
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
