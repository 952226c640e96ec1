#include "atoms/copy_atom.hpp"

#include "error.hpp"

namespace cuteref {

namespace {

IntTuple s(std::int64_t v) { return IntTuple::static_int(v); }
IntTuple t(std::initializer_list<IntTuple> e) { return IntTuple::tuple(e); }

// Bit offsets in the copied data (see the header): one 16-bit element, one 8-element row,
// one 8-row matrix.
constexpr std::int64_t kElementBits = 16;
constexpr std::int64_t kRowBits = 8 * kElementBits;  // 128
constexpr std::int64_t kMatrixBits = 8 * kRowBits;   // 1024

// The lanes that hand ldmatrix a row address: lane l names row l % 8 of matrix l / 8, for
// l < 8 * matrices (PTX ISA, ldmatrix: threads 0-7 for .x1, 0-15 for .x2, 0-31 for .x4).
// Each such lane supplies one whole row, 128 contiguous bits. The other lanes' addresses are
// not read; as in CuTe they are given the rows of the lanes 8 * matrices below them
// (stride 0), so that every thread of the warp has a source.
Layout ldsm_source(int matrices) {
  const std::int64_t addressing = 8 * matrices;
  const Layout rows = addressing == 32 ? Layout(s(32), s(kRowBits))
                                       : Layout(t({s(addressing), s(32 / addressing)}), t({s(kRowBits), s(0)}));
  return Layout(t({rows.shape(), s(kRowBits)}), t({rows.stride(), s(1)}));
}

// Without .trans, lane l receives in register i the two elements (row l / 4, columns
// 2 * (l % 4) + {0, 1}) of matrix i: bits 1024 * i + 128 * (l / 4) + 32 * (l % 4) + b, which
// is 1024 * i + 32 * l + b for b in [0, 32).
Layout ldsm_destination(int matrices) {
  if (matrices == 1) return Layout(t({s(32), s(32)}), t({s(32), s(1)}));
  return Layout(t({s(32), t({s(32), s(matrices)})}), t({s(32), t({s(1), s(kMatrixBits)})}));
}

// With .trans, lane l receives element (row l / 4, column 2 * (l % 4) + h) of the TRANSPOSED
// matrix i in half h of register i, i.e. element (row 2 * (l % 4) + h, column l / 4) of the
// matrix as stored: bits 1024 * i + 128 * (2 * (l % 4) + h) + 16 * (l / 4) + b, b in [0, 16).
// Lane l = l0 + 4 * l1 (l0 < 4): l0 -> 256, l1 -> 16; value bits (b, h, i) -> (1, 128, 1024).
Layout ldsm_destination_transposed(int matrices) {
  const IntTuple thr_shape = t({s(4), s(8)});
  const IntTuple thr_stride = t({s(2 * kRowBits), s(kElementBits)});
  if (matrices == 1)
    return Layout(t({thr_shape, t({s(kElementBits), s(2)})}), t({thr_stride, t({s(1), s(kRowBits)})}));
  return Layout(t({thr_shape, t({s(kElementBits), s(2), s(matrices)})}),
                t({thr_stride, t({s(1), s(kRowBits), s(kMatrixBits)})}));
}

}  // namespace

CopyAtom ldmatrix_atom(int matrices, bool transpose) {
  if (matrices != 1 && matrices != 2 && matrices != 4)
    throw Error("ldmatrix: the matrix count must be 1, 2 or 4 (.x1, .x2, .x4), got " + std::to_string(matrices));
  CopyAtom a;
  a.name = transpose ? "SM75_U16x" + std::to_string(2 * matrices) + "_LDSM_T"
                     : "SM75_U32x" + std::to_string(matrices) + "_LDSM_N";
  a.arch = 75;
  a.matrices = matrices;
  a.transpose = transpose;
  a.thr_id = Layout(s(32), s(1));
  a.src_layout = ldsm_source(matrices);
  a.dst_layout = transpose ? ldsm_destination_transposed(matrices) : ldsm_destination(matrices);
  a.ref_layout = a.dst_layout;
  return a;
}

CopyAtom copy_atom(std::string_view name) {
  for (bool transpose : {false, true})
    for (int matrices : {1, 2, 4}) {
      CopyAtom a = ldmatrix_atom(matrices, transpose);
      if (a.name == name) return a;
    }
  throw Error("copy atom `" + std::string(name) +
              "`: not a supported copy atom; the supported ones are SM75_U32x1_LDSM_N, SM75_U32x2_LDSM_N, "
              "SM75_U32x4_LDSM_N, SM75_U16x2_LDSM_T, SM75_U16x4_LDSM_T, SM75_U16x8_LDSM_T");
}

}  // namespace cuteref
