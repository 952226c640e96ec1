#include "atoms/copy_atom.hpp"

#include <utility>

#include "atoms/atom_table_notation.hpp"
#include "atoms/tmem_copy_atom.hpp"
#include "error.hpp"
#include "recast.hpp"

namespace cuteref {

namespace {

using atom_table_notation::s;
using atom_table_notation::t;

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

// One thread copies `bits` bits: (_1,_bits):(_0,_1), CuTe's Layout<Shape<_1,Int<bits>>>.
Layout one_thread_bits(int bits) { return Layout(t({s(1), s(bits)}), t({s(0), s(1)})); }

// The unsigned integer type name CuTe's templates take for a width (cute::uint128_t for 128).
std::string uint_name(int bits) { return "uint" + std::to_string(bits) + "_t"; }

}  // namespace

CopyAtom ldmatrix_atom(int matrices, bool transpose) {
  if (matrices != 1 && matrices != 2 && matrices != 4)
    throw Error("ldmatrix: the matrix count must be 1, 2 or 4 (.x1, .x2, .x4), got " + std::to_string(matrices));
  CopyAtom a;
  a.kind = CopyKind::Ldmatrix;
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

CopyAtom stmatrix_atom(int matrices, bool transpose) {
  if (matrices != 1 && matrices != 2 && matrices != 4)
    throw Error("stmatrix: the matrix count must be 1, 2 or 4 (.x1, .x2, .x4), got " + std::to_string(matrices));
  const CopyAtom ld = ldmatrix_atom(matrices, transpose);
  CopyAtom a = ld;
  a.kind = CopyKind::Stmatrix;
  a.name = transpose ? "SM90_U16x" + std::to_string(2 * matrices) + "_STSM_T"
                     : "SM90_U32x" + std::to_string(matrices) + "_STSM_N";
  a.arch = 90;
  a.src_layout = ld.dst_layout;
  a.dst_layout = ld.src_layout;
  a.ref_layout = a.src_layout;
  return a;
}

CopyAtom universal_copy_atom(int bits) {
  if (bits != 8 && bits != 16 && bits != 32 && bits != 64 && bits != 128)
    throw Error("UniversalCopy: the copied width must be 8, 16, 32, 64 or 128 bits, got " + std::to_string(bits));
  CopyAtom a;
  a.kind = CopyKind::Universal;
  a.name = "UniversalCopy<" + uint_name(bits) + ">";
  a.vector_bits = bits;
  a.thr_id = Layout(s(1), s(0));
  a.src_layout = a.dst_layout = a.ref_layout = one_thread_bits(bits);
  return a;
}

CopyAtom cp_async_atom(int bits, bool cache_global) {
  // PTX ISA, cp.async: cp-size 4, 8 or 16 bytes; .cg only with 16.
  if (cache_global ? bits != 128 : (bits != 32 && bits != 64 && bits != 128))
    throw Error(std::string("cp.async") + (cache_global ? ".cg copies 16 bytes (128 bits)" : ".ca copies 4, 8 or 16 bytes (32, 64, 128 bits)") +
                ", got " + std::to_string(bits) + " bits (CuTe's SM80_CP_ASYNC_CACHE* static-assert the width)");
  CopyAtom a = universal_copy_atom(bits);
  a.kind = CopyKind::CpAsync;
  a.arch = 80;
  a.name = std::string(cache_global ? "SM80_CP_ASYNC_CACHEGLOBAL<" : "SM80_CP_ASYNC_CACHEALWAYS<") + uint_name(bits) + ">";
  return a;
}

CopyAtom copy_atom(std::string_view name_in) {
  // CuTe's <TS, TD> with TD == TS names the same atom as <TS>.
  std::string name(name_in);
  const auto open = name.find('<'), comma = name.find(',');
  if (open != std::string::npos && comma != std::string::npos && name.back() == '>' &&
      name.substr(open + 1, comma - open - 1) == name.substr(comma + 1, name.size() - comma - 2))
    name = name.substr(0, comma) + ">";
  if (std::optional<CopyAtom> tmem = tmem_copy_atom(name)) return *tmem;
  for (bool transpose : {false, true})
    for (int matrices : {1, 2, 4}) {
      if (CopyAtom a = ldmatrix_atom(matrices, transpose); a.name == name) return a;
      if (CopyAtom a = stmatrix_atom(matrices, transpose); a.name == name) return a;
    }
  for (int bits : {8, 16, 32, 64, 128}) {
    if (CopyAtom a = universal_copy_atom(bits); a.name == name) return a;
    if (bits >= 32)
      if (CopyAtom a = cp_async_atom(bits, false); a.name == name) return a;
  }
  if (CopyAtom a = cp_async_atom(128, true); a.name == name) return a;
  // A cp.async width PTX does not allow: cp_async_atom says which (CuTe's operation static-asserts it).
  for (int bits : {8, 16, 32, 64})
    for (bool cache_global : {false, true})
      if (name == std::string(cache_global ? "SM80_CP_ASYNC_CACHEGLOBAL<" : "SM80_CP_ASYNC_CACHEALWAYS<") + uint_name(bits) + ">")
        cp_async_atom(bits, cache_global);
  throw Error("copy atom `" + std::string(name_in) +
              "`: not a supported copy atom; the supported ones are SM75_U32x1_LDSM_N, SM75_U32x2_LDSM_N, "
              "SM75_U32x4_LDSM_N, SM75_U16x2_LDSM_T, SM75_U16x4_LDSM_T, SM75_U16x8_LDSM_T, SM90_U32x1_STSM_N, "
              "SM90_U32x2_STSM_N, SM90_U32x4_STSM_N, SM90_U16x2_STSM_T, SM90_U16x4_STSM_T, SM90_U16x8_STSM_T, "
              "UniversalCopy<uint8_t|uint16_t|uint32_t|uint64_t|uint128_t>, "
              "SM80_CP_ASYNC_CACHEALWAYS<uint32_t|uint64_t|uint128_t>, SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>, "
              "SM100_TMEM_LOAD_* and SM100_TMEM_STORE_* (32dp32b, 16dp32b, 16dp64b, 16dp128b, 16dp256b; <R>x[_16b])");
}

CopyAtomValues copy_atom_values(const CopyAtom& atom, int value_bits) {
  const std::int64_t per_thread = size_value(mode(atom.src_layout, 1));
  if (value_bits < 1 || per_thread % value_bits != 0 || size_value(mode(atom.dst_layout, 1)) % value_bits != 0)
    throw Error("Copy_Atom<" + atom.name + ", " + std::to_string(value_bits) + "-bit values>: the value width must divide the " +
                std::to_string(per_thread) + " bits one thread copies (a narrower atom copies part of an element: "
                "CuTe's recast rounds it up to a whole element the instruction does not copy)");
  const CopyAtomValues v{atom.thr_id, recast(atom.src_layout, 1, value_bits), recast(atom.dst_layout, 1, value_bits),
                         recast(atom.ref_layout, 1, value_bits)};
  // CuTe's Copy_Atom static-asserts that each recast layout keeps one row per thread of ThrID. A
  // transposing ldmatrix / stmatrix moves 16-bit elements between threads, so a wider element
  // would be split: SM75_U16x2_LDSM_T's destination in 32-bit elements covers 16 of its 32 lanes.
  const std::int64_t threads = size_value(atom.thr_id);
  for (const auto& [which, l] : {std::pair<const char*, const Layout*>{"Src", &v.src}, {"Dst", &v.dst}, {"Ref", &v.ref}})
    if (size_value(mode(*l, 0)) != threads)
      throw Error("Copy_Atom<" + atom.name + ", " + std::to_string(value_bits) + "-bit values>: its " + which + " layout in " +
                  std::to_string(value_bits) + "-bit elements, " + l->to_string() + ", has " +
                  std::to_string(size_value(mode(*l, 0))) + " threads, not the atom's " + std::to_string(threads) +
                  " (CuTe: \"CopyOperation is not valid for " + which + " of ValType\")" +
                  (atom.transpose ? "; a transposing ldmatrix/stmatrix moves 16-bit elements between threads" : ""));
  return v;
}

}  // namespace cuteref
