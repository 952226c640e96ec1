// Registers the tiled-copy functions of the expression language: make_tiled_copy,
// make_tiled_copy_A/B/C, their layouts, partition_S/D and retile. A tiled copy value is the
// tuple (ATOM, BITS, TiledLayout_TV, Tiler_MN), e.g.
//   make_tiled_copy(UniversalCopy<uint128_t>, 16, (16,8):(8,1), (1,8))
//   = (UniversalCopy<uint128_t>,16,((_8,_16),_8):((_128,_1),_16),(_16,_64))
// and every function that takes a tiled copy takes that tuple (or the call that makes it).
#include "atoms/copy_bank_conflicts.hpp"
#include "atoms/smem_banks.hpp"
#include "atoms/tiled_copy.hpp"
#include "atoms/tmem_tiled_copy.hpp"
#include "error.hpp"
#include "function_table.hpp"
#include "make_layout.hpp"

namespace cuteref {

namespace {

using Args = std::vector<Value>;

CopyAtom atom_of(const Args& a, std::size_t i, const std::string& fn) {
  return copy_atom(symbol_arg(a, i, fn, "a copy atom name such as UniversalCopy<uint128_t> or SM75_U32x4_LDSM_N"));
}

int bits_of(const Args& a, std::size_t i, const std::string& fn) {
  const std::int64_t bits = integer_arg(a, i, fn);
  if (bits < 1 || bits > 1024) throw Error(fn + ": element width " + std::to_string(bits) + " is out of range [1, 1024]");
  return static_cast<int>(bits);
}

Value tiled_copy_value(const TiledCopy& tc) {
  return Value(MixedTuple{{Value(Symbol{tc.atom.name}), Value(IntTuple::integer(tc.value_bits)), Value(tc.layout_tv),
                           tc.tiler_layouts ? *tc.tiler_layouts : Value(tc.tiler)}});
}

// make_tmem_copy(ATOM, BITS, TMEM): the layout argument maps coordinates to TMEM addresses.
Value make_tmem_copy_call(const Args& a) {
  const std::string fn = "make_tmem_copy";
  return tiled_copy_value(make_tmem_copy(atom_of(a, 0, fn), bits_of(a, 1, fn), layout_arg(a, 2, fn)));
}

// tmem_warp_lanes(TILED_COPY, TMEM): ((first, end) per warp).
Value tmem_warp_lanes_call(const Args& a) {
  const std::string fn = "tmem_warp_lanes";
  std::vector<IntTuple> warps;
  for (const auto& [first, end] : tmem_warp_lanes(tiled_copy_arg(a, 0, fn), layout_arg(a, 1, fn)))
    warps.push_back(IntTuple::tuple({IntTuple::integer(first), IntTuple::integer(end)}));
  return Value(IntTuple::tuple(std::move(warps)));
}

// A layout argument, or a shape standing for its compact column-major layout (CuTe's
// Layout<Shape<...>>).
Layout layout_or_shape(const Args& a, std::size_t i, const std::string& fn) {
  if (a.at(i).is_int_tuple() && !std::get<IntTuple>(a[i].data).has_underscore()) return make_layout(std::get<IntTuple>(a[i].data));
  return layout_arg(a, i, fn);
}

Value make_tiled_copy_call(const Args& a) {
  const std::string fn = "make_tiled_copy";
  const Layout val = a.size() > 3 ? layout_or_shape(a, 3, fn) : Layout(IntTuple::static_int(1), IntTuple::static_int(0));
  return tiled_copy_value(make_tiled_copy(atom_of(a, 0, fn), bits_of(a, 1, fn), layout_or_shape(a, 2, fn), val));
}

template <TiledCopy (*F)(const CopyAtom&, int, const TiledMma&)>
Value from_mma_call(const Args& a, const std::string& fn) {
  return tiled_copy_value(F(atom_of(a, 0, fn), bits_of(a, 1, fn), tiled_mma_arg(a, 2, fn)));
}

Value tiled_copy_layout_call(const Args& a) {
  const TiledCopy tc = tiled_copy_arg(a, 0, "tiled_copy_layout");
  const std::string& which = symbol_arg(a, 1, "tiled_copy_layout", "TV, S or D");
  if (which == "TV") return Value(tc.layout_tv);
  if (which == "S") return Value(tiled_copy_layout_S(tc));
  if (which == "D") return Value(tiled_copy_layout_D(tc));
  throw Error("tiled_copy_layout: argument 2 must be TV, S or D, got `" + which + "`");
}

// partition_S / partition_D of a plain layout (CuTe's printed layout, the offset goes to the
// pointer) or of a swizzled `Sw o O o L` (a composed layout keeping the offset).
template <bool Source>
Value partition_call(const Args& a) {
  const std::string fn = Source ? "partition_S" : "partition_D";
  const TiledCopy tc = tiled_copy_arg(a, 0, fn);
  const std::int64_t thread = integer_arg(a, 1, fn);
  if (a.at(2).is_composed()) {
    const ComposedLayout& c = std::get<ComposedLayout>(a[2].data);
    return Value(Source ? partition_S(tc, thread, c) : partition_D(tc, thread, c));
  }
  const Layout& l = layout_arg(a, 2, fn);
  // A coordinate tensor's offset is a coordinate (CuTe keeps it in the iterator): the layout alone.
  if (l.has_basis_strides())
    return Value((Source ? partition_and_offset_S(tc, thread, l) : partition_and_offset_D(tc, thread, l)).first);
  return Value((Source ? partition_S(tc, thread, l) : partition_D(tc, thread, l)).layout);
}

// partition_and_offset_S / _D: (layout, offset) as slice_and_offset's pair; the offset is an
// integer, or a coordinate for a tensor with scaled-basis strides (an identity layout).
template <bool Source>
Value partition_and_offset_call(const Args& a) {
  const std::string fn = Source ? "partition_and_offset_S" : "partition_and_offset_D";
  const TiledCopy tc = tiled_copy_arg(a, 0, fn);
  const std::int64_t thread = integer_arg(a, 1, fn);
  const Layout& l = layout_arg(a, 2, fn);
  auto [layout, offset] = Source ? partition_and_offset_S(tc, thread, l) : partition_and_offset_D(tc, thread, l);
  return make_tuple_value({Value(std::move(layout)), Value(std::move(offset))});
}

CopySide side_of(const Args& a, std::size_t i, const std::string& fn) {
  if (a.size() <= i) return CopySide::Auto;
  const std::string& w = symbol_arg(a, i, fn, "S or D (the tensor is the copy's source or destination)");
  if (w == "S") return CopySide::Source;
  if (w == "D") return CopySide::Destination;
  throw Error(fn + ": argument " + std::to_string(i + 1) + " must be S or D, got `" + w + "`");
}

Value smem_wavefronts_call(const Args& a) {
  const std::string fn = "smem_wavefronts";
  const SmemInstruction in = smem_instruction(symbol_arg(a, 0, fn, "a shared-memory instruction such as ldmatrix.x4 or ld.shared.v4.b32"));
  return Value(IntTuple::integer(smem_wavefronts(in, smem_accesses(in, a.at(1), bits_of(a, 2, fn))).wavefronts));
}

Value bank_conflicts_call(const Args& a) {
  const std::string fn = "bank_conflicts";
  // Only the totals: the instructions are streamed past (memory bounded by one warp's).
  const CopyBankConflicts b = bank_conflicts_streamed(tiled_copy_arg(a, 0, fn), a.at(1), side_of(a, 2, fn),
                                                      [](const SmemInstruction&, const CopyInstructionBanks&) {});
  return Value(IntTuple::tuple({IntTuple::integer(b.count),
                                IntTuple::integer(b.wavefronts), IntTuple::integer(b.ideal)}));
}

}  // namespace

TiledCopy tiled_copy_arg(const std::vector<Value>& a, std::size_t i, const std::string& fn) {
  if (a.at(i).is_mixed_tuple()) {
    const auto& e = std::get<MixedTuple>(a[i].data).elements;
    if (e.size() == 4 && e[0].is_symbol() && e[1].is_int_tuple() && std::get<IntTuple>(e[1].data).is_integer() &&
        e[2].is_layout() && e[3].is_int_tuple())
      return make_tiled_copy_tv(copy_atom(std::get<Symbol>(e[0].data).name),
                                static_cast<int>(std::get<IntTuple>(e[1].data).value()), std::get<Layout>(e[2].data),
                                std::get<IntTuple>(e[3].data));
    // make_tmem_copy's Tiler_MN: a tuple of layouts, one per tensor mode.
    if (e.size() == 4 && e[0].is_symbol() && e[1].is_int_tuple() && std::get<IntTuple>(e[1].data).is_integer() &&
        e[2].is_layout() && e[3].is_mixed_tuple()) {
      std::vector<IntTuple> shape;
      for (const Value& m : std::get<MixedTuple>(e[3].data).elements) {
        if (!m.is_layout()) break;
        shape.push_back(std::get<Layout>(m.data).shape());
      }
      if (shape.size() == std::get<MixedTuple>(e[3].data).elements.size()) {
        TiledCopy tc = make_tiled_copy_tv(copy_atom(std::get<Symbol>(e[0].data).name),
                                          static_cast<int>(std::get<IntTuple>(e[1].data).value()), std::get<Layout>(e[2].data),
                                          IntTuple::tuple(std::move(shape)));
        tc.tiler_layouts = e[3];
        return tc;
      }
    }
  }
  throw Error(fn + ": argument " + std::to_string(i + 1) +
              " must be a tiled copy (ATOM, BITS, TiledLayout_TV, Tiler_MN) as make_tiled_copy returns it, got " +
              a[i].kind_name() + " `" + a[i].to_string() + "`");
}

void register_copy_functions(FunctionTable& table) {
  table.add("make_tiled_copy", {3, 4,
                                "make_tiled_copy(ATOM, BITS, THR_LAYOUT [, VAL_LAYOUT])  CuTe's make_tiled_copy(Copy_Atom<ATOM, "
                                "BITS-bit T>, thr, val) as (ATOM, BITS, TiledLayout_TV, Tiler_MN); a shape stands for its "
                                "column-major layout",
                                make_tiled_copy_call});
  table.add("make_tiled_copy_A", {3, 3, "make_tiled_copy_A(ATOM, BITS, TILED_MMA)  the copy of the tiled MMA's A fragments",
                                  [](const Args& a) { return from_mma_call<make_tiled_copy_A>(a, "make_tiled_copy_A"); }});
  table.add("make_tiled_copy_B", {3, 3, "make_tiled_copy_B(ATOM, BITS, TILED_MMA)  the copy of the tiled MMA's B fragments",
                                  [](const Args& a) { return from_mma_call<make_tiled_copy_B>(a, "make_tiled_copy_B"); }});
  table.add("make_tiled_copy_C", {3, 3, "make_tiled_copy_C(ATOM, BITS, TILED_MMA)  the copy of the tiled MMA's C fragments",
                                  [](const Args& a) { return from_mma_call<make_tiled_copy_C>(a, "make_tiled_copy_C"); }});
  table.add("make_tiled_copy_C_atom",
            {3, 3,
             "make_tiled_copy_C_atom(ATOM, BITS, TILED_MMA)  the smallest copy that retiles the tiled MMA's C fragments: "
             "each thread's first NumValSrc C values (the atom's source values); Tiler_MN is a tuple of layouts",
             [](const Args& a) { return from_mma_call<make_tiled_copy_C_atom>(a, "make_tiled_copy_C_atom"); }});
  table.add("make_tmem_copy", {3, 3,
                               "make_tmem_copy(ATOM, BITS, TMEM)  CuTe's make_tmem_copy(Copy_Atom<ATOM, BITS-bit T>, TMEM tensor): "
                               "four warps of a tcgen05.ld/st atom over the TMEM layout (coordinate -> TMEM address), e.g. "
                               "partition_fragment_C of an SM100 tiled MMA; Tiler_MN is a tuple of layouts",
                               make_tmem_copy_call});
  table.add("tmem_warp_lanes", {2, 2,
                                "tmem_warp_lanes(TMEM_COPY, TMEM)  the TMEM lanes [first, end) each warp of a make_tmem_copy "
                                "reaches on TMEM; an error if a warp leaves its subpartition [32(w%4), 32(w%4)+32)",
                                tmem_warp_lanes_call});
  table.add("tiled_copy_layout", {2, 2,
                                  "tiled_copy_layout(TILED_COPY, TV|S|D)  TiledLayout_TV, get_layoutS_TV or get_layoutD_TV: "
                                  "(thread, value) -> index in the tile",
                                  tiled_copy_layout_call});
  table.add("tiled_copy_tiler", {1, 1, "tiled_copy_tiler(TILED_COPY)  Tiler_MN (a shape, or make_tmem_copy's tuple of layouts)",
                                 [](const Args& a) {
                                   const TiledCopy tc = tiled_copy_arg(a, 0, "tiled_copy_tiler");
                                   return tc.tiler_layouts ? *tc.tiler_layouts : Value(tc.tiler);
                                 }});
  table.add("tiled_copy_size", {1, 1, "tiled_copy_size(TILED_COPY)  the number of threads",
                                [](const Args& a) {
                                  return Value(IntTuple::integer(tiled_copy_size(tiled_copy_arg(a, 0, "tiled_copy_size"))));
                                }});
  table.add("partition_S", {3, 3,
                            "partition_S(TILED_COPY, tid, TENSOR)  thread tid's ((FrgV,FrgX), RestM, RestN, ...) source view; "
                            "a swizzled TENSOR keeps its swizzle and the offset",
                            partition_call<true>});
  table.add("partition_D", {3, 3, "partition_D(TILED_COPY, tid, TENSOR)  as partition_S for the destination",
                            partition_call<false>});
  table.add("partition_and_offset_S", {3, 3,
                                       "partition_and_offset_S(TILED_COPY, tid, TENSOR)  (partition_S, the offset CuTe moves into the "
                                       "pointer); for a coordinate TENSOR such as (M,N):(1@0,1@1) the offset is thread tid's first "
                                       "coordinate",
                                       partition_and_offset_call<true>});
  table.add("partition_and_offset_D", {3, 3, "partition_and_offset_D(TILED_COPY, tid, TENSOR)  as partition_and_offset_S for the destination",
                                       partition_and_offset_call<false>});
  table.add("smem_wavefronts", {3, 3,
                                "smem_wavefronts(INSTR, ADDR, BITS)  shared-memory wavefronts of one warp-wide INSTR (ld.shared.b32, "
                                "ld.shared.v4.b32, st.shared..., ldmatrix.x4[.trans], stmatrix.x4...) when thread t's value v is the "
                                "BITS-bit element at ADDR(t, v), ADDR of shape (32, V)",
                                smem_wavefronts_call});
  table.add("bank_conflicts", {2, 3,
                               "bank_conflicts(TILED_COPY, SMEM [, S|D])  (instructions, wavefronts, ideal wavefronts) of every "
                               "shared-memory instruction the tiled copy executes on SMEM",
                               bank_conflicts_call});
  table.add("retile", {2, 2,
                       "retile(TILED_COPY, FRAGMENT)  CuTe's retile_S/retile_D: a thread's fragment in the copy's value order",
                       [](const Args& a) {
                         return Value(retile(tiled_copy_arg(a, 0, "retile"), layout_arg(a, 1, "retile")));
                       }});
}

}  // namespace cuteref
