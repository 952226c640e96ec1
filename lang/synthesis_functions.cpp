// Registers the synthesis functions of the expression language: register_permutation (what
// moves when one fragment's registers are used as another's) and swizzle_for (the swizzle of
// least shared-memory wavefronts for the given tiled copies).
#include "atoms/register_permutation.hpp"
#include "atoms/smem_banks.hpp"
#include "atoms/swizzle_synthesis.hpp"
#include "atoms/tiled_copy.hpp"
#include "error.hpp"
#include "function_table.hpp"

namespace cuteref {

namespace {

using Args = std::vector<Value>;

int bits_in_range(std::int64_t bits, const std::string& fn) {
  if (bits < 1 || bits > 1024) throw Error(fn + ": element width " + std::to_string(bits) + " is out of range [1, 1024]");
  return static_cast<int>(bits);
}

// A tiled copy value (ATOM, BITS, TiledLayout_TV, Tiler_MN), as make_tiled_copy returns it.
bool is_tiled_copy(const Value& v) {
  if (!v.is_mixed_tuple()) return false;
  const auto& e = std::get<MixedTuple>(v.data).elements;
  return e.size() == 4 && e[0].is_symbol() && e[1].is_int_tuple() && e[2].is_layout() && (e[3].is_int_tuple() || e[3].is_mixed_tuple());
}

// Argument i and i+1: (TILED_MMA, A|B|C), (TILED_COPY, TV|S|D) or (TV_LAYOUT, (rows, cols)).
RegisterFragment fragment_arg(const Args& a, std::size_t i, int bits, const std::string& fn) {
  if (a.at(i).is_layout()) {
    const IntTuple& tile = int_tuple_arg(a, i + 1, fn);
    if (!tile.is_tuple() || tile.rank() != 2 || !tile[0].is_integer() || !tile[1].is_integer())
      throw Error(fn + ": argument " + std::to_string(i + 2) + " must be the tile (rows, cols) of the TV layout before it, got `" +
                  tile.to_string() + "`");
    if (bits == 0)
      throw Error(fn + ": with a plain TV layout the element width is needed: give BITS as the fifth argument");
    return tv_register_fragment(std::get<Layout>(a[i].data), tile[0].value(), tile[1].value(), bits,
                                a[i].to_string());
  }
  if (is_tiled_copy(a.at(i))) {  // (TILED_COPY, TV|S|D): its TiledLayout_TV or get_layoutS/D_TV over Tiler_MN
    const TiledCopy tc = tiled_copy_arg(a, i, fn);
    const std::string& w = symbol_arg(a, i + 1, fn, "TV, S or D (the tiled copy's layout)");
    Layout tv = tc.layout_tv;
    if (w == "S") tv = tiled_copy_layout_S(tc);
    else if (w == "D") tv = tiled_copy_layout_D(tc);
    else if (w != "TV") throw Error(fn + ": argument " + std::to_string(i + 2) + " must be TV, S or D after a tiled copy, got `" + w + "`");
    if (tc.tiler_layouts)
      throw Error(fn + ": the tiled copy's tile is a tuple of layouts " + tc.tiler_layouts->to_string() +
                  " (make_tmem_copy's), not a (rows, cols) register tile");
    if (!tc.tiler.is_tuple() || tc.tiler.rank() != 2 || !tc.tiler[0].is_integer() || !tc.tiler[1].is_integer())
      throw Error(fn + ": the tiled copy's tile " + tc.tiler.to_string() + " is not 2-D (rows, cols)");
    return tv_register_fragment(tv, tc.tiler[0].value(), tc.tiler[1].value(), bits != 0 ? bits : tc.value_bits,
                                tc.atom.name + " " + w);
  }
  const TiledMma mma = tiled_mma_arg(a, i, fn);
  const std::string& w = symbol_arg(a, i + 1, fn, "A, B or C (the operand)");
  MmaOperand op;
  if (w == "A") op = MmaOperand::A;
  else if (w == "B") op = MmaOperand::B;
  else if (w == "C") op = MmaOperand::C;
  else throw Error(fn + ": argument " + std::to_string(i + 2) + " must be A, B or C, got `" + w + "`");
  return mma_register_fragment(mma, op, bits);
}

CopySide side_word(const std::string& w, std::size_t i, const std::string& fn) {
  if (w == "S") return CopySide::Source;
  if (w == "D") return CopySide::Destination;
  throw Error(fn + ": argument " + std::to_string(i + 1) + " must be S or D (or, last, TMA or GMMA), got `" + w + "`");
}

}  // namespace

SwizzleSynthesis swizzle_for_args(const std::vector<Value>& args, const std::string& fn) {
  // A last argument TMA or GMMA: the answer must be a mode those engines encode.
  std::vector<Value> a = args;
  SwizzleModes modes = SwizzleModes::Any;
  if (a.size() > 2 && a.back().is_symbol()) {
    const std::string& w = std::get<Symbol>(a.back().data).name;
    if (w == "TMA" || w == "GMMA") {
      modes = SwizzleModes::TmaGmma;
      a.pop_back();
    }
  }
  const Layout& smem = layout_arg(a, 0, fn);
  std::vector<SwizzleAccess> accesses;
  // The instruction form: swizzle_for(ADDR, INSTR, BITS), ADDR of shape (32, V) as smem_wavefronts takes.
  if (a.size() == 3 && a[1].is_symbol()) {
    SwizzleAccess acc{TiledCopy{}, CopySide::Auto, smem_instruction(std::get<Symbol>(a[1].data).name),
                      bits_in_range(integer_arg(a, 2, fn), fn)};
    accesses.push_back(std::move(acc));
    return swizzle_for(smem, accesses, modes);
  }
  for (std::size_t i = 1; i < a.size(); ++i) {
    SwizzleAccess acc{tiled_copy_arg(a, i, fn), CopySide::Auto, std::nullopt, 0};
    if (i + 1 < a.size() && a[i + 1].is_symbol()) {
      acc.side = side_word(std::get<Symbol>(a[i + 1].data).name, i + 1, fn);
      ++i;
    }
    accesses.push_back(std::move(acc));
  }
  return swizzle_for(smem, accesses, modes);
}

RegisterPermutation register_permutation_args(const std::vector<Value>& a, const std::string& fn) {
  const int bits = a.size() > 4 ? bits_in_range(integer_arg(a, 4, fn), fn) : 0;
  const RegisterFragment to = fragment_arg(a, 2, bits, fn);
  // FROM keeps its own element type (an f32 accumulator), a plain TV layout the BITS given.
  return register_permutation(fragment_arg(a, 0, a.at(0).is_layout() ? to.bits : 0, fn), to);
}

namespace {

Value table_value(const std::vector<std::int64_t>& table) {
  std::vector<IntTuple> e;
  for (std::int64_t v : table) e.push_back(IntTuple::integer(v));
  return Value(IntTuple::tuple(std::move(e)));
}

Value register_permutation_call(const Args& a) {
  const std::string fn = "register_permutation";
  const RegisterPermutation r = register_permutation_args(a, fn);
  std::vector<Value> e{Value(Symbol{to_string(r.move)})};
  const Layout identity_values(IntTuple::integer(r.values), IntTuple::integer(1));
  switch (r.move) {
    case RegisterMove::Identity: e.push_back(Value(identity_values)); break;
    case RegisterMove::Permute:
    case RegisterMove::Relabel:
      // A permutation that is no layout is given as its table (k -> PI(k), v -> P(v)).
      if (r.move == RegisterMove::Relabel) e.push_back(r.relabel_layout ? Value(*r.relabel_layout) : table_value(r.relabel));
      if (!r.value_moves) e.push_back(Value(identity_values));
      else if (r.value_permutation) e.push_back(Value(*r.value_permutation));
      else if (r.distinct_value_permutations == 1) e.push_back(table_value(r.value_table));
      else {  // thread-dependent: per thread t, its table v -> P_t(v)
        std::vector<IntTuple> per_thread;
        for (std::int64_t t = 0; t < r.threads; ++t) {
          std::vector<IntTuple> row;
          for (std::int64_t v = 0; v < r.values; ++v) row.push_back(IntTuple::integer(r.source[t + r.threads * v].value));
          per_thread.push_back(IntTuple::tuple(std::move(row)));
        }
        e.push_back(Value(IntTuple::tuple(std::move(per_thread))));
      }
      break;
    case RegisterMove::Shuffle:
      // -1: no schedule (values from another warp, or beyond the schedule's bound; `cuteref synth`)
      e.push_back(Value(IntTuple::integer(r.schedule_computed ? r.shuffle_rounds : -1)));
      if (r.source_layout) e.push_back(Value(*r.source_layout));
      break;
  }
  return Value(MixedTuple{std::move(e)});
}

}  // namespace

void register_synthesis_functions(FunctionTable& table) {
  table.add("register_permutation",
            {4, 5,
             "register_permutation(FROM, C|A|B, TO, C|A|B [, BITS])  what moves when FROM's registers are used as TO's over "
             "the same tile: (identity, V) | (permute, P) | (relabel, PI, P) | (shuffle, ROUNDS [, SOURCE]); FROM and TO are "
             "tiled MMAs with an operand, tiled copies with TV|S|D, or TV layouts with their tile (rows, cols) (then BITS is "
             "needed)",
             register_permutation_call});
  table.add("swizzle_for", {2, SIZE_MAX,
                            "swizzle_for(SMEM, TILED_COPY [, S|D] [, TILED_COPY [, S|D]]... [, TMA|GMMA]) | swizzle_for(ADDR, INSTR, BITS "
                            "[, TMA|GMMA])  Sw<B,M,S> o smem_ptr o SMEM of least total wavefronts for the copies, or for one "
                            "instruction at ADDR(t, v); with TMA or GMMA one of the modes they encode (none, Sw<1|2|3,4,3>) (the "
                            "family and the certificate: `cuteref synth swizzle`)",
                            [](const Args& a) { return swizzle_for_layout(swizzle_for_args(a, "swizzle_for")); }});
}

}  // namespace cuteref
