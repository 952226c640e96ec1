// Vendor probe for corpus/vendor/dsl_disagreements.txt (not built by meson): what CuTe 4.2 does
// with the copy atoms the CuTe DSL builds and the model refuses, and with the inverses of a
// swizzled composed layout. Build and run on the host:
//   I=.vendor/cuda/nvidia/cu13/include
//   g++ -std=c++17 -w -I.vendor/wheel/cutlass_library/source/include -I$I/cccl -I$I \
//       oracles/probes/dsl_copy_probe.cpp -o /tmp/probe && /tmp/probe
// Each -D below selects one construction that does not compile; the comment after it is the
// first error g++ prints:
//   -DPROBE_LDSM_T_32     Copy_Atom<SM75_U16x2_LDSM_T, float>
//                         static assertion failed: CopyOperation is not valid for Dst of ValType.
//   -DPROBE_LDSM_N_64     Copy_Atom<SM75_U32x2_LDSM_N, double>
//                         static assertion failed: CopyOperation is not valid for Dst of ValType.
//   -DPROBE_CG_4_BYTES    SM80_CP_ASYNC_CACHEGLOBAL<uint32_t>::copy
//                         static assertion failed: cp.async sizeof(TS) is not supported
//   -DPROBE_INV_MASKS     right_inverse(Sw<3,4,3> o _0 o (_8,_64):(_64,_1))
//                         static assertion failed: abs(SShift) must be more than BBits.
//   -DPROBE_INV_RUNTIME   right_inverse(Sw<3,4,3> o 0 o (_64,_8):(_1,_64)), a run-time offset 0
//                         no matching function for call to 'right_inverse(const int&)'
//   -DPROBE_INV_OFFSET    right_inverse(Sw<1,0,1> o _1 o _4:_1), a static offset 1: the result
//                         is void (using it: "void value not ignored as it ought to be")
#include <cute/tensor.hpp>  // first: CuTe's atom headers rely on it
#include <cute/atom/copy_atom.hpp>
#include <cute/atom/copy_traits_sm75.hpp>
#include <cute/atom/copy_traits_sm80.hpp>
#include <cute/layout.hpp>
#include <cute/swizzle.hpp>
#include <cute/swizzle_layout.hpp>

#include <cstdio>

using namespace cute;

template <class T>
void show(const char* what, T const& t) {
  printf("%-58s ", what);
  print(t);
  printf("\n");
}

// f(0), ..., f(n - 1)
template <class F>
void values(const char* what, F const& f, int n) {
  printf("%-58s ", what);
  for (int i = 0; i < n; ++i) printf("%d ", int(f(i)));
  printf("\n");
}

// A composed layout C and its right and left inverses: their printouts, and C(R(i)), L(C(i)).
template <class C>
void inverses(const char* name, C const& c) {
  auto r = right_inverse(c);
  auto l = left_inverse(c);
  printf("%s\n", name);
  show("  C", c);
  show("  right_inverse(C)", r);
  show("  left_inverse(C)", l);
  values("  C(i)", c, int(size(c)));
  values("  right_inverse(C)(i)", r, int(size(r)));
  values("  C(right_inverse(C)(i))", [&](int i) { return c(r(i)); }, int(size(r)));
  values("  left_inverse(C)(C(i))", [&](int i) { return l(c(i)); }, int(size(c)));
}

int main() {
  // Copy atoms narrower than their element: CuTe builds them (recast rounds up to one element).
  show("Copy_Atom<UniversalCopy<uint8_t>, half_t>::ValLayoutSrc", typename Copy_Atom<UniversalCopy<uint8_t>, half_t>::ValLayoutSrc{});
  show("Copy_Atom<UniversalCopy<uint8_t>, float>::ValLayoutSrc", typename Copy_Atom<UniversalCopy<uint8_t>, float>::ValLayoutSrc{});
  // cp.async.cg of 4 bytes: the atom's layouts exist (the operation is not instantiated here).
  show("Copy_Atom<SM80_CP_ASYNC_CACHEGLOBAL<uint32_t>, half_t>::ValLayoutSrc",
       typename Copy_Atom<SM80_CP_ASYNC_CACHEGLOBAL<uint32_t>, half_t>::ValLayoutSrc{});
#ifdef PROBE_LDSM_T_32
  show("LDSM_T 32", typename Copy_Atom<SM75_U16x2_LDSM_T, float>::ValLayoutDst{});
#endif
#ifdef PROBE_LDSM_N_64
  show("LDSM_N 64", typename Copy_Atom<SM75_U32x2_LDSM_N, double>::ValLayoutDst{});
#endif
#ifdef PROBE_CG_4_BYTES
  uint32_t src = 0, dst = 0;
  SM80_CP_ASYNC_CACHEGLOBAL<uint32_t>::copy(src, dst);
#endif

  // Inverses of Sw o _0 o L: composition(inverse(L), Sw), the swizzle moved to the left.
  inverses("Sw<2,0,3> o _0 o (_4,_8):(_8,_1)", composition(Swizzle<2, 0, 3>{}, Int<0>{}, Layout<Shape<_4, _8>, Stride<_8, _1>>{}));
  inverses("Sw<3,3,3> o _0 o (_8,_64):(_64,_1)",
           composition(Swizzle<3, 3, 3>{}, Int<0>{}, Layout<Shape<_8, _64>, Stride<_64, _1>>{}));
  inverses("Sw<1,0,1> o _0 o _4:_1", composition(Swizzle<1, 0, 1>{}, Int<0>{}, Layout<_4, _1>{}));
  // C's image is 0 1 2 3 6 7: CuTe's right inverse maps 4 to 6, past C's domain [0,6) (C(6) is
  // evaluated past the domain, where the layout runs on: the round trip alone does not show it).
  inverses("Sw<1,1,1> o _0 o _6:_1", composition(Swizzle<1, 1, 1>{}, Int<0>{}, Layout<_6, _1>{}));
#ifdef PROBE_INV_MASKS
  show("masks", right_inverse(composition(Swizzle<3, 4, 3>{}, Int<0>{}, Layout<Shape<_8, _64>, Stride<_64, _1>>{})));
#endif
#ifdef PROBE_INV_RUNTIME
  show("run-time 0", right_inverse(composition(Swizzle<3, 4, 3>{}, 0, Layout<Shape<_64, _8>, Stride<_1, _64>>{})));
#endif
#ifdef PROBE_INV_OFFSET
  auto c = composition(Swizzle<1, 0, 1>{}, Int<1>{}, Layout<_4, _1>{});
  show("offset 1", right_inverse(c));
#endif
}
