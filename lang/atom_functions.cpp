// Registers the hardware-atom functions of the expression language: MMA atom layouts, GMMA
// shared-memory layout atoms and GMMA descriptors. Atom names and enum words are bare
// identifiers (Symbol values), e.g. mma_layout(SM90_64x128x16_F32F16F16_SS, C).
#include "atoms/copy_atom.hpp"
#include "atoms/gmma_descriptor.hpp"
#include "atoms/gmma_smem_atom.hpp"
#include "atoms/mma_atom.hpp"
#include "atoms/tiled_mma.hpp"
#include "atoms/tma.hpp"
#include "atoms/umma_descriptor.hpp"
#include "atoms/umma_smem_atom.hpp"
#include "make_layout.hpp"
#include "error.hpp"
#include "function_table.hpp"

namespace cuteref {

namespace {

using Args = std::vector<Value>;

MmaAtom atom_arg(const Args& a, std::size_t i, const std::string& fn) {
  return mma_atom(symbol_arg(a, i, fn, "an MMA atom name such as SM90_64x128x16_F32F16F16_SS"));
}

Value mma_layout_call(const Args& a) {
  const MmaAtom atom = atom_arg(a, 0, "mma_layout");
  const std::string& which = symbol_arg(a, 1, "mma_layout", "A, B or C");
  if (which == "A") return Value(atom.a_layout);
  if (which == "B") return Value(atom.b_layout);
  if (which == "C") return Value(atom.c_layout);
  throw Error("mma_layout: argument 2 must be A, B or C, got `" + which + "`");
}

Value mma_types_call(const Args& a) {
  const MmaAtom atom = atom_arg(a, 0, "mma_types");
  return Value(MixedTuple{{Value(Symbol{atom.type_d}), Value(Symbol{atom.type_a}), Value(Symbol{atom.type_b}),
                           Value(Symbol{atom.type_c})}});
}

// Argument i of an SMEM-atom function: the operand's major mode, MN or K.
GmmaMajor major_arg(const Args& a, std::size_t i, const std::string& fn) {
  const std::string& word = symbol_arg(a, i, fn, "MN or K");
  if (word == "MN") return GmmaMajor::MN;
  if (word == "K") return GmmaMajor::K;
  throw Error(fn + ": argument " + std::to_string(i + 1) + " must be MN or K, got `" + word + "`");
}

Value gmma_atom_call(const Args& a) {
  const GmmaMajor major = major_arg(a, 0, "gmma_atom");
  const std::string& swizzle_word = symbol_arg(a, 1, "gmma_atom", "INTER, SW32, SW64 or SW128");
  GmmaSwizzle sw;
  if (swizzle_word == "INTER") sw = GmmaSwizzle::Inter;
  else if (swizzle_word == "SW32") sw = GmmaSwizzle::SW32;
  else if (swizzle_word == "SW64") sw = GmmaSwizzle::SW64;
  else if (swizzle_word == "SW128") sw = GmmaSwizzle::SW128;
  else throw Error("gmma_atom: argument 2 must be INTER, SW32, SW64 or SW128, got `" + swizzle_word + "`");
  const std::int64_t bits = integer_arg(a, 2, "gmma_atom");
  if (bits < 1 || bits > 1024) throw Error("gmma_atom: element width " + std::to_string(bits) + " is out of range");
  return Value(gmma_smem_atom(major, sw, static_cast<int>(bits)));
}

Value gmma_desc_call(const Args& a) {
  const std::int64_t bits = integer_arg(a, 1, "gmma_desc");
  if (bits < 1 || bits > 1024) throw Error("gmma_desc: element width " + std::to_string(bits) + " is out of range");
  const std::int64_t base = a.size() > 2 ? integer_arg(a, 2, "gmma_desc") : 0;
  const GmmaDescriptor d = make_gmma_desc(a[0], static_cast<int>(bits), base).descriptor;
  auto i = [](std::uint32_t v) { return IntTuple::integer(v); };
  return Value(IntTuple::tuple({i(d.start_address), i(d.leading_byte_offset), i(d.stride_byte_offset), i(d.base_offset),
                                i(static_cast<std::uint32_t>(d.layout_type))}));
}

Value umma_atom_call(const Args& a) {
  const GmmaMajor major = major_arg(a, 0, "umma_atom");
  const std::string& swizzle_word = symbol_arg(a, 1, "umma_atom", "INTER, SW32, SW64, SW128 or SW128_32B");
  UmmaSwizzle sw;
  if (swizzle_word == "INTER") sw = UmmaSwizzle::Inter;
  else if (swizzle_word == "SW32") sw = UmmaSwizzle::SW32;
  else if (swizzle_word == "SW64") sw = UmmaSwizzle::SW64;
  else if (swizzle_word == "SW128") sw = UmmaSwizzle::SW128;
  else if (swizzle_word == "SW128_32B") sw = UmmaSwizzle::SW128_32B;
  else throw Error("umma_atom: argument 2 must be INTER, SW32, SW64, SW128 or SW128_32B, got `" + swizzle_word + "`");
  const std::int64_t bits = integer_arg(a, 2, "umma_atom");
  if (bits < 1 || bits > 1024) throw Error("umma_atom: element width " + std::to_string(bits) + " is out of range");
  return Value(umma_smem_atom(major, sw, static_cast<int>(bits)));
}

UmmaDescriptor umma_desc_arg(const Args& a, const std::string& fn) {
  const std::int64_t bits = integer_arg(a, 1, fn);
  if (bits < 1 || bits > 1024) throw Error(fn + ": element width " + std::to_string(bits) + " is out of range");
  const std::int64_t base = a.size() > 2 ? integer_arg(a, 2, fn) : 0;
  return make_umma_desc(a[0], static_cast<int>(bits), base).descriptor;
}

// The fields in the order of the bits: (start>>4, LBO>>4, SBO>>4, version, base_offset,
// lbo_mode, layout_type).
Value umma_fields_value(const UmmaDescriptor& d) {
  auto i = [](std::uint32_t v) { return IntTuple::integer(v); };
  return Value(IntTuple::tuple({i(d.start_address), i(d.leading_byte_offset), i(d.stride_byte_offset), i(d.version),
                                i(d.base_offset), i(d.lbo_mode), i(static_cast<std::uint32_t>(d.layout_type))}));
}

// A 64-bit descriptor as its two 32-bit halves (lo, hi), CuTe's SmemDescriptor::lo / hi: the
// layout types 2, 4, 6 set bit 63, beyond the expression language's int64.
Value umma_word_value(std::uint64_t w) {
  return Value(IntTuple::tuple({IntTuple::integer(static_cast<std::int64_t>(w & 0xffffffffu)),
                                IntTuple::integer(static_cast<std::int64_t>(w >> 32))}));
}

Value umma_desc_decode_call(const Args& a) {
  const Value& v = a.at(0);
  if (!v.is_int_tuple() || std::get<IntTuple>(v.data).is_integer() || std::get<IntTuple>(v.data).rank() != 2)
    throw Error("umma_desc_decode: argument 1 must be the pair (lo, hi) of 32-bit halves, got " + v.to_string());
  const IntTuple& t = std::get<IntTuple>(v.data);
  std::uint64_t halves[2];
  for (std::size_t i = 0; i < 2; ++i) {
    if (!t[i].is_integer() || t[i].value() < 0 || t[i].value() > 0xffffffffLL)
      throw Error("umma_desc_decode: " + std::string(i ? "hi" : "lo") + " = " + t[i].to_string() +
                  " is not a 32-bit unsigned integer");
    halves[i] = static_cast<std::uint64_t>(t[i].value());
  }
  return umma_fields_value(UmmaDescriptor::decode(halves[0] | (halves[1] << 32)));
}

const UmmaInstrDescriptor& umma_idesc_of(const MmaAtom& atom, const std::string& fn) {
  if (!atom.umma_idesc) throw Error(fn + ": " + atom.name + " is not an SM100 tcgen05.mma atom (no instruction descriptor)");
  return *atom.umma_idesc;
}

// A tiled MMA value: the atom's name alone (one atom) or (ATOM, AtomLayoutMNK) as
// make_tiled_mma returns it.
TiledMma tiled_arg(const Args& a, std::size_t i, const std::string& fn) {
  if (a.at(i).is_symbol())
    return make_tiled_mma(atom_arg(a, i, fn), make_layout(IntTuple::tuple({IntTuple::static_int(1), IntTuple::static_int(1),
                                                                           IntTuple::static_int(1)})));
  if (a[i].is_mixed_tuple()) {
    const auto& e = std::get<MixedTuple>(a[i].data).elements;
    if (e.size() == 2 && e[0].is_symbol() && e[1].is_layout())
      return make_tiled_mma(mma_atom(std::get<Symbol>(e[0].data).name), std::get<Layout>(e[1].data));
    if (e.size() == 3 && e[0].is_symbol() && e[1].is_layout())
      return make_tiled_mma(mma_atom(std::get<Symbol>(e[0].data).name), std::get<Layout>(e[1].data), e[2]);
  }
  throw Error(fn + ": argument " + std::to_string(i + 1) + " must be an MMA atom name or make_tiled_mma(...), got " +
              a[i].kind_name() + " `" + a[i].to_string() + "`");
}

Value make_tiled_mma_call(const Args& a) {
  const MmaAtom atom = atom_arg(a, 0, "make_tiled_mma");
  const Layout al = a.size() > 1 ? layout_arg(a, 1, "make_tiled_mma")
                                 : make_layout(IntTuple::tuple({IntTuple::static_int(1), IntTuple::static_int(1),
                                                                IntTuple::static_int(1)}));
  if (a.size() < 3) {
    const TiledMma t = make_tiled_mma(atom, al);
    return Value(MixedTuple{{Value(Symbol{t.atom.name}), Value(t.atom_layout_mnk)}});
  }
  const TiledMma t = make_tiled_mma(atom, al, a[2]);
  return Value(MixedTuple{{Value(Symbol{t.atom.name}), Value(t.atom_layout_mnk), t.permutation_mnk}});
}

// The operand of partition_A/B/C: a layout, or a composed (swizzled) layout, whose partition
// keeps the swizzle and carries the thread's offset inside (tiled_mma.hpp).
template <Partition (*OnLayout)(const TiledMma&, std::int64_t, const Layout&),
          ComposedLayout (*OnComposed)(const TiledMma&, std::int64_t, const ComposedLayout&)>
Value partition_call(const Args& a, const std::string& fn) {
  const TiledMma t = tiled_arg(a, 0, fn);
  const std::int64_t thread = integer_arg(a, 1, fn);
  if (a.at(2).is_composed()) return Value(OnComposed(t, thread, std::get<ComposedLayout>(a[2].data)));
  return Value(OnLayout(t, thread, layout_arg(a, 2, fn)).layout);
}

// partition_fragment_C's operand: only its shape is used (the fragment lives in registers), so a
// composed layout gives its inner layout; CuTe's compact fragment of the layout its slice decays
// to is the same function (compact column-major over the same sizes).
const Layout& shape_source_arg(const Args& a, std::size_t i, const std::string& fn) {
  if (a.at(i).is_composed()) return std::get<ComposedLayout>(a[i].data).layout;
  return layout_arg(a, i, fn);
}

// make_fragment_A/B's operand. For an SS GMMA operand the descriptor iterator's layout is fixed by
// the inner layout alone (the swizzle and the offset go into the descriptor: gmma_desc). A register
// fragment of a swizzled operand is refused: CuTe orders it by the strides of the plain layout its
// slice decays to (swizzle_layout.hpp's slice_and_offset), which the model does not compute.
const Layout& fragment_source_arg(const Args& a, const TiledMma& t, bool operand_a, const std::string& fn) {
  const bool descriptor = t.atom.arch == 90 && !(operand_a && t.atom.a_in_registers);
  if (a.at(1).is_composed()) {
    if (descriptor) return std::get<ComposedLayout>(a[1].data).layout;
    throw Error(fn + ": a register fragment of the swizzled operand " + a[1].to_string() +
                " is not modelled: CuTe orders it by the layout its slice decays to, not by the inner layout");
  }
  return layout_arg(a, 1, fn);
}

CopyAtom copy_atom_arg(const Args& a, std::size_t i, const std::string& fn) {
  return copy_atom(symbol_arg(a, i, fn, "a copy atom name such as SM75_U32x4_LDSM_N"));
}

Value copy_layout_call(const Args& a) {
  const CopyAtom atom = copy_atom_arg(a, 0, "copy_layout");
  const std::string& which = symbol_arg(a, 1, "copy_layout", "Src, Dst or Ref");
  if (a.size() > 2) {  // Copy_Atom<ATOM, T>'s layouts in BITS-bit elements (copy_atom_values)
    const std::int64_t bits = integer_arg(a, 2, "copy_layout");
    if (bits < 1 || bits > 1024) throw Error("copy_layout: element width " + std::to_string(bits) + " is out of range [1, 1024]");
    const CopyAtomValues v = copy_atom_values(atom, static_cast<int>(bits));
    if (which == "Src") return Value(v.src);
    if (which == "Dst") return Value(v.dst);
    if (which == "Ref") return Value(v.ref);
  }
  if (which == "Src") return Value(atom.src_layout);
  if (which == "Dst") return Value(atom.dst_layout);
  if (which == "Ref") return Value(atom.ref_layout);
  throw Error("copy_layout: argument 2 must be Src, Dst or Ref, got `" + which + "`");
}

// The arguments of cuTensorMapEncodeTiled, in its order: (rank, globalDim, globalStrides,
// boxDim, elementStrides, interleave, swizzle). globalStrides are in bytes for dimensions
// 1..rank-1 (dimension 0 is implicitly the element); interleave and swizzle are the driver's
// enum values (interleave 0 = NONE; swizzle 0 NONE, 1 32B, 2 64B, 3 128B).
Value tma_params_call(const Args& a) {
  const std::int64_t bits = integer_arg(a, 2, "tma_params");
  if (bits < 1 || bits > 1024) throw Error("tma_params: element width " + std::to_string(bits) + " is out of range");
  // Argument 3 is the multicast count (an integer) or the CTA tiler (a tuple), then the count.
  const bool tiled = a.size() > 3 && a.at(3).is_int_tuple() && std::get<IntTuple>(a.at(3).data).is_tuple();
  if (a.size() > 3 && !tiled && !(a.at(3).is_int_tuple() && std::get<IntTuple>(a.at(3).data).is_integer()))
    throw Error("tma_params: argument 3 must be the CTA tiler (a tuple of shapes, e.g. ((4,32),128)) or the multicast "
                "count (an integer), got " + a.at(3).kind_name() + " " + a.at(3).to_string());
  if (!tiled && a.size() > 4)
    throw Error("tma_params: with 5 arguments, argument 3 must be the CTA tiler (a tuple of shapes), got " + a.at(3).to_string());
  const std::size_t count_at = tiled ? 4 : 3;
  const std::int64_t multicast = a.size() > count_at ? integer_arg(a, count_at, "tma_params") : 1;
  if (multicast < 1 || multicast > 16) throw Error("tma_params: the multicast count must be 1 to 16, got " + std::to_string(multicast));
  const Layout& gmem = layout_arg(a, 0, "tma_params");
  const TmaParams p = tiled ? make_tma_params(gmem, a.at(1), std::get<IntTuple>(a.at(3).data), static_cast<int>(bits),
                                              static_cast<int>(multicast))
                            : make_tma_params(gmem, a.at(1), static_cast<int>(bits), static_cast<int>(multicast));
  auto list = [&](const auto& v, int from) {
    std::vector<IntTuple> e;
    for (int i = from; i < p.rank; ++i) e.push_back(IntTuple::integer(static_cast<std::int64_t>(v[i])));
    return IntTuple::tuple(std::move(e));
  };
  return Value(IntTuple::tuple({IntTuple::integer(p.rank), list(p.global_dim, 0), list(p.global_stride_bytes, 1),
                                list(p.box_dim, 0), list(p.element_stride, 0), IntTuple::integer(p.interleave),
                                IntTuple::integer(static_cast<std::int64_t>(p.swizzle))}));
}

TmaCopies tma_copies_call(const Args& a, const std::string& fn) {
  const std::int64_t bits = integer_arg(a, 2, fn);
  if (bits < 1 || bits > 1024) throw Error(fn + ": element width " + std::to_string(bits) + " is out of range");
  return tma_copies(layout_arg(a, 0, fn), a.at(1), static_cast<int>(bits));
}

}  // namespace

TiledMma tiled_mma_arg(const std::vector<Value>& args, std::size_t i, const std::string& fn) { return tiled_arg(args, i, fn); }

void register_atom_functions(FunctionTable& table) {
  table.add("mma_layout", {2, 2,
                           "mma_layout(ATOM, A|B|C)  the atom's (thread, value) -> column-major (m,k) | (n,k) | (m,n) layout",
                           mma_layout_call});
  table.add("mma_thrid", {1, 1, "mma_thrid(ATOM)  the atom's logical thread -> thread index layout",
                          [](const Args& a) { return Value(atom_arg(a, 0, "mma_thrid").thr_id); }});
  table.add("mma_shape", {1, 1, "mma_shape(ATOM)  the atom's (M,N,K)",
                          [](const Args& a) { return Value(atom_arg(a, 0, "mma_shape").shape_mnk); }});
  table.add("mma_types", {1, 1, "mma_types(ATOM)  the element types (D,A,B,C) in PTX spelling", mma_types_call});
  table.add("gmma_atom", {3, 3,
                          "gmma_atom(MN|K, INTER|SW32|SW64|SW128, BITS)  CuTe's GMMA SMEM layout atom for BITS-bit elements",
                          gmma_atom_call});
  table.add("gmma_desc", {2, 3,
                          "gmma_desc(LAYOUT, BITS [, base])  GMMA descriptor fields (start>>4, LBO>>4, SBO>>4, "
                          "base_offset, layout_type) of an (MN,K) SMEM tile",
                          gmma_desc_call});
  table.add("umma_atom", {3, 3,
                          "umma_atom(MN|K, INTER|SW32|SW64|SW128|SW128_32B, BITS)  CuTe's UMMA SMEM layout atom for BITS-bit "
                          "elements (SW128_32B: MN only)",
                          umma_atom_call});
  table.add("umma_desc", {2, 3,
                          "umma_desc(LAYOUT, BITS [, base])  UMMA SMEM descriptor fields (start>>4, LBO>>4, SBO>>4, version, "
                          "base_offset, lbo_mode, layout_type 0 none|1 128B_BASE32B|2 128B|4 64B|6 32B) of an (MN,K) tile",
                          [](const Args& a) { return umma_fields_value(umma_desc_arg(a, "umma_desc")); }});
  table.add("umma_desc_word", {2, 3, "umma_desc_word(LAYOUT, BITS [, base])  the 64-bit UMMA SMEM descriptor as (lo, hi) 32-bit halves",
                               [](const Args& a) { return umma_word_value(umma_desc_arg(a, "umma_desc_word").encode()); }});
  table.add("umma_desc_decode", {1, 1, "umma_desc_decode((lo, hi))  the fields of a 64-bit UMMA SMEM descriptor, as umma_desc prints them",
                                 umma_desc_decode_call});
  table.add("umma_instr_desc", {1, 1,
                                "umma_instr_desc(ATOM)  an SM100 atom's runtime instruction descriptor (make_runtime_instr_desc: "
                                "the 32-bit descriptor in the upper half)",
                                [](const Args& a) {
                                  const MmaAtom atom = atom_arg(a, 0, "umma_instr_desc");
                                  return Value(IntTuple::integer(static_cast<std::int64_t>(umma_idesc_of(atom, "umma_instr_desc").runtime())));
                                }});
  table.add("tma_params", {3, 5,
                           "tma_params(GMEM_LAYOUT, SMEM_LAYOUT, BITS [, CTA_TILER] [, MULTICAST])  cuTensorMapEncodeTiled's "
                           "arguments (rank, globalDim, globalStrides bytes of dims 1.., boxDim, elementStrides, interleave, swizzle "
                           "0 none|1 32B|2 64B|3 128B); CTA_TILER (a tuple of shapes, e.g. ((4,32),128)) picks the CTA tile from "
                           "the GMEM modes as make_tma_copy's cta_tiler (default: the SMEM mode sizes); MULTICAST CTAs each load "
                           "a slice of the box",
                           tma_params_call});
  table.add("tma_box_offsets", {3, 3,
                                "tma_box_offsets(GMEM_LAYOUT, SMEM_LAYOUT, BITS)  copy index -> SMEM element offset of each box "
                                "of the tile (before the swizzle)",
                                [](const Args& a) { return Value(tma_copies_call(a, "tma_box_offsets").smem_offsets); }});
  table.add("tma_box_coords", {3, 3,
                               "tma_box_coords(GMEM_LAYOUT, SMEM_LAYOUT, BITS)  copy index -> TMA coordinates of each box "
                               "relative to the tile's (k@i: k along TMA dimension i)",
                               [](const Args& a) { return Value(tma_copies_call(a, "tma_box_coords").coordinates); }});
  table.add("make_tiled_mma", {1, 3,
                               "make_tiled_mma(ATOM [, atom_layout_MNK [, permutation_MNK]])  the tiled MMA (ATOM, AtomLayoutMNK"
                               "[, PermutationMNK]), e.g. make_tiled_mma(SM90_64x64x16_F16F16F16_SS, (2,1,1):(1,2,2)), "
                               "make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN, (2,2,1):(2,1,0), (_,(8,2,2):(1,16,8),_))",
                               make_tiled_mma_call});
  table.add("partition_A", {3, 3, "partition_A(TILED, tid, LAYOUT)  thread tid's (V, RestM, RestK, ...) view of an (M,K,...) layout",
                            [](const Args& a) { return partition_call<partition_A, partition_A>(a, "partition_A"); }});
  table.add("partition_B", {3, 3, "partition_B(TILED, tid, LAYOUT)  thread tid's (V, RestN, RestK, ...) view of an (N,K,...) layout",
                            [](const Args& a) { return partition_call<partition_B, partition_B>(a, "partition_B"); }});
  table.add("partition_C", {3, 3, "partition_C(TILED, tid, LAYOUT)  thread tid's (V, RestM, RestN, ...) view of an (M,N,...) layout",
                            [](const Args& a) { return partition_call<partition_C, partition_C>(a, "partition_C"); }});
  table.add("partition_fragment_C", {2, 2, "partition_fragment_C(TILED, LAYOUT)  the compact accumulator fragment",
                                     [](const Args& a) {
                                       return Value(partition_fragment_C(tiled_arg(a, 0, "partition_fragment_C"),
                                                                         shape_source_arg(a, 1, "partition_fragment_C")));
                                     }});
  table.add("make_fragment_A", {2, 2,
                                "make_fragment_A(TILED, PARTITIONED)  SS GMMA: the descriptor iterator layout (16-byte units); "
                                "else the register fragment",
                                [](const Args& a) {
                                  const TiledMma t = tiled_arg(a, 0, "make_fragment_A");
                                  return Value(make_fragment_A(t, fragment_source_arg(a, t, true, "make_fragment_A")));
                                }});
  table.add("copy_layout", {2, 3,
                            "copy_layout(ATOM, Src|Dst|Ref [, BITS])  a copy atom's (thread, bit) -> bit layout, e.g. "
                            "copy_layout(SM75_U16x8_LDSM_T, Dst); with BITS, Copy_Atom<ATOM, T>'s layout in BITS-bit "
                            "elements (T's width must divide the bits one thread copies)",
                            copy_layout_call});
  table.add("tmem_valid", {1, 1,
                           "tmem_valid(ATOM)  a tcgen05.ld/st atom's ValID: logical bit -> TMEM bit address (2^21 per lane)",
                           [](const Args& a) {
                             const CopyAtom atom = copy_atom_arg(a, 0, "tmem_valid");
                             if (atom.kind != CopyKind::TmemLoad && atom.kind != CopyKind::TmemStore)
                               throw Error("tmem_valid: " + atom.name + " is not a tensor-memory copy atom (SM100_TMEM_LOAD_/STORE_)");
                             return Value(atom.tmem_val_id);
                           }});
  table.add("copy_thrid", {1, 1, "copy_thrid(ATOM)  a copy atom's logical thread -> lane layout",
                           [](const Args& a) { return Value(copy_atom_arg(a, 0, "copy_thrid").thr_id); }});
  table.add("make_fragment_B", {2, 2, "make_fragment_B(TILED, PARTITIONED)  as make_fragment_A for B",
                                [](const Args& a) {
                                  const TiledMma t = tiled_arg(a, 0, "make_fragment_B");
                                  return Value(make_fragment_B(t, fragment_source_arg(a, t, false, "make_fragment_B")));
                                }});
}

}  // namespace cuteref
