#include "symbolic_functions.hpp"

#include <set>

#include "atoms/smem_banks.hpp"
#include "atoms/smem_banks_generic.hpp"
#include "coalesce_generic.hpp"
#include "cosize_generic.hpp"
#include "function_table.hpp"
#include "symbolic_algebra.hpp"
#include "symbolic_recast.hpp"
#include "symbolic_swizzle_composition.hpp"
#include "symbolic_typed_inverse.hpp"

namespace cuteref::proofs {

namespace {

using K = SymVal::Kind;
using Ops = ScalarOps<SymInt>;

bool is_layout(const SymVal& v) { return v.kind == K::Layout; }
bool is_integer(const SymVal& v) { return v.kind == K::Int; }
bool is_shape(const SymVal& v) { return v.kind == K::Int || v.kind == K::Tuple; }
SymLayout layout_of(const SymVal& v) { return {v.t, v.stride}; }
SymTuple tree_of(const SymVal& v) { return v.kind == K::Int ? SymTuple::of(*v.i) : v.t; }

SymVal integer_value(SymInt s) {
  SymVal v;
  v.kind = K::Int;
  v.i = std::move(s);
  return v;
}
SymVal layout_value(const SymLayout& l) {
  SymVal v;
  v.kind = K::Layout;
  v.t = l.shape;
  v.stride = l.stride;
  return v;
}
SymVal layout_value(const SymFlaggedLayout& l) {
  SymVal v = layout_value(SymLayout{values_of(l.shape), values_of(l.stride)});
  v.t_static = flags_of(l.shape);
  v.stride_static = flags_of(l.stride);
  return v;
}

// A layout with its static flags (recast's operands); `fn` names the operation where the flags
// are not tracked.
SymFlaggedLayout flagged(const SymVal& l, const char* fn) {
  if (!l.t_static || !l.stride_static)
    throw Unsupported(std::string("`") + fn + "` of a layout whose static leaves (CuTe's _N, which " + fn +
                      " reads) are not known: it, or one of its leaves, is computed on symbolic values by an "
                      "operation other than upcast, downcast and arithmetic (the model's size(_6:x) is _6, "
                      "x + 1 is a run-time integer)");
  return {with_flags(l.t, *l.t_static), with_flags(l.stride, *l.stride_static)};
}

// Whether every leaf of a flag tree is static (CuTe's all_static).
bool all_of_flags(const StaticFlags& f) {
  if (!f.is_tuple()) return *f.leaf;
  for (const auto& e : f.elements)
    if (!all_of_flags(e)) return false;
  return true;
}

// The flat modes of a layout, as the model's filter and cosize read them.
void flat_modes(const SymVal& l, std::vector<SymInt>& shapes, std::vector<SymInt>& strides) {
  std::vector<SymTuple> shape_leaves, stride_leaves;
  flatten_leaves(l.t, shape_leaves);
  flatten_leaves(l.stride, stride_leaves);
  for (std::size_t k = 0; k < shape_leaves.size(); ++k) {
    shapes.push_back(*shape_leaves[k].leaf);
    strides.push_back(*stride_leaves[k].leaf);
  }
}

// How an integer n in a tiler stands for a layout: composition's n:_1 (composition.cpp's
// tiler), or the divides' and products' make_layout(n) (tiler.cpp), which is _1:_0 for a
// static _1 (make_layout.cpp's compact_leaf_stride) and n:_1 otherwise.
enum class IntegerTiler { UnitStride, MakeLayout };

// A tiler (tiler.cpp): a layout, an integer n or a tuple of them, element i applied to mode i.
// `flags`: the integers' static flags, absent where not tracked (then an integer that may be 1
// in a MakeLayout tiler cannot be decided: `unknown`).
SymTiler integer_tiler(const SymTuple& t, const std::optional<StaticFlags>& flags, IntegerTiler form) {
  if (t.is_tuple()) {
    std::vector<SymTiler> elements;
    for (std::size_t i = 0; i < t.elements.size(); ++i)
      elements.push_back(integer_tiler(t.elements[i], flags ? std::optional<StaticFlags>((*flags)[i]) : std::nullopt, form));
    return SymTiler::of_tuple(std::move(elements));
  }
  Ops::require(*t.leaf >= Ops::constant(1), [] { return std::string("an integer tiler must be >= 1"); });
  bool zero_stride = false;
  if (form == IntegerTiler::MakeLayout && Ops::decide(*t.leaf == Ops::constant(1))) {
    if (!flags)
      throw Unsupported("an integer tiler 1 computed on symbolic values: make_layout gives a static _1 the stride _0 "
                        "and a run-time 1 the stride 1, and its static flag is not tracked");
    zero_stride = *flags->leaf;
  }
  return SymTiler::of_layout(SymLayout{SymTuple::of(*t.leaf), SymTuple::of(Ops::constant(zero_stride ? 0 : 1))});
}
// The static flags of an integer or integer tuple value, where tracked.
std::optional<StaticFlags> shape_flags(const SymVal& t) {
  if (t.kind != K::Int) return t.t_static;
  return t.int_static ? std::optional<StaticFlags>(StaticFlags::of(*t.int_static)) : std::nullopt;
}
std::optional<SymTiler> tiler_of(const SymVal& t, IntegerTiler form) {
  if (t.kind == K::Tiler) {
    std::vector<SymTiler> elements;
    for (const auto& part : t.parts) {
      const std::optional<SymTiler> e = tiler_of(part, form);
      if (!e) return std::nullopt;
      elements.push_back(*e);
    }
    return SymTiler::of_tuple(std::move(elements));
  }
  if (t.kind == K::Layout) return SymTiler::of_layout(layout_of(t));
  if (is_shape(t)) return integer_tiler(tree_of(t), shape_flags(t), form);
  return std::nullopt;
}

// ---- the forms -------------------------------------------------------------------------

std::optional<SymVal> coalesce(const std::vector<SymVal>& a) {
  if (a.size() != 1 || !is_layout(a[0])) return std::nullopt;
  auto [shape, stride] = coalesce_tree(a[0].t, a[0].stride, ScalarCoalesceOps<SymInt>{});
  return layout_value(SymLayout{std::move(shape), std::move(stride)});
}

// The model's filter (coalesce.cpp): filter_flat_modes on the flattened modes.
std::optional<SymVal> filter(const std::vector<SymVal>& a) {
  if (a.size() != 1 || !is_layout(a[0])) return std::nullopt;
  std::vector<SymInt> shapes, strides;
  flat_modes(a[0], shapes, strides);
  filter_flat_modes<ScalarLeaf<SymInt>>(shapes, strides);
  if (shapes.size() == 1) return layout_value(SymLayout{SymTuple::of(shapes[0]), SymTuple::of(strides[0])});
  SymLayout l{SymTuple{}, SymTuple{}};
  for (std::size_t k = 0; k < shapes.size(); ++k) {
    l.shape.elements.push_back(SymTuple::of(shapes[k]));
    l.stride.elements.push_back(SymTuple::of(strides[k]));
  }
  return layout_value(l);
}

// The model's cosize (core/layout.cpp; a composed layout's is its layout's): CosizeSum over the
// leaf modes, left to right.
std::optional<SymVal> cosize(const std::vector<SymVal>& a) {
  if (a.size() != 1 || (a[0].kind != K::Layout && a[0].kind != K::Composed)) return std::nullopt;
  std::vector<SymInt> shapes, strides;
  flat_modes(a[0], shapes, strides);
  CosizeSum<ScalarLeaf<SymInt>> sum;
  for (std::size_t k = 0; k < shapes.size(); ++k) sum.add(shapes[k], strides[k]);
  return integer_value(sum.result());
}

// The model's size of a shape requires its leaves >= 1 (a layout's were checked when built).
std::optional<SymVal> size(const std::vector<SymVal>& a) {
  if (a.size() != 1) return std::nullopt;
  if (a[0].kind == K::Layout || a[0].kind == K::Composed) return integer_value(tuple_product<SymInt>(a[0].t));
  if (a[0].kind != K::Tuple) return std::nullopt;
  std::vector<SymTuple> leaves;
  flatten_leaves(a[0].t, leaves);
  for (const auto& l : leaves)
    Ops::require(*l.leaf >= Ops::constant(1), [] { return std::string("size: a shape's leaves must be >= 1"); });
  return integer_value(tuple_product<SymInt>(a[0].t));
}

// smem_wavefronts(INSTR, (a0, a1, ...), BITS) with symbolic element offsets: the model's generic
// count (smem_banks_generic.hpp) on the lanes' byte addresses.
std::optional<SymVal> wavefronts(const std::vector<SymVal>& a) {
  if (a.size() != 3 || a[1].kind != K::Tuple) return std::nullopt;
  const auto instr = lower(a[0]);
  const auto bits_value = lower(a[2], /*with_flags=*/false);  // its value only
  if (!instr || !instr->is_symbol() || !bits_value || !bits_value->is_int_tuple())
    throw Unsupported("smem_wavefronts on symbolic values takes a concrete instruction and element width");
  const SmemInstruction in = smem_instruction(std::get<Symbol>(instr->data).name);
  const std::int64_t bits = std::get<IntTuple>(bits_value->data).value();
  if (bits < 8 || bits % 8 != 0 || (8 * in.access_bytes) % bits != 0)
    throw Error("smem_wavefronts: the element width must be a multiple of 8 bits dividing the access");
  const bool matrix = in.op == SmemOp::LoadMatrix || in.op == SmemOp::StoreMatrix;
  const std::size_t lanes = matrix ? static_cast<std::size_t>(8 * in.matrices) : a[1].t.rank();
  if (!a[1].t.is_tuple() || a[1].t.rank() == 0 || a[1].t.rank() < lanes || a[1].t.rank() > 32)
    throw Error("smem_wavefronts: ADDR must be a tuple of at most 32 element offsets, one per thread");
  // As the model (smem_banks.cpp's smem_accesses): every entry, the threads past `lanes` too, is
  // an integer whose access's last element offset, entry + values - 1, fits in 64 bits (a
  // side condition: the model's checked add refuses it); the lanes' byte addresses are checked
  // by instruction_wavefronts.
  const std::int64_t values = 8 * in.access_bytes / bits;
  std::vector<std::optional<SymInt>> address(lanes);
  for (std::size_t t = 0; t < a[1].t.rank(); ++t) {
    if (a[1].t[t].is_tuple()) throw Error("smem_wavefronts: ADDR's entries must be integers");
    (void)(*a[1].t[t].leaf + Ops::constant(values - 1));
    if (t < lanes) address[t] = *a[1].t[t].leaf * Ops::constant(bits / 8);
  }
  return integer_value(
      instruction_wavefronts<SymInt>(address, in.access_bytes, matrix ? in.matrices : 0, in.op == SmemOp::Load));
}

std::optional<SymVal> complement(const std::vector<SymVal>& a) {
  if (a.size() != 2 || !is_layout(a[0]) || !is_shape(a[1])) return std::nullopt;
  std::vector<SymInt> cotarget;
  std::vector<SymTuple> leaves;
  flatten_leaves(tree_of(a[1]), leaves);
  for (const auto& l : leaves) cotarget.push_back(*l.leaf);
  return layout_value(sym_complement(layout_of(a[0]), cotarget));
}

std::optional<SymVal> composition(const std::vector<SymVal>& a) {
  if (a.size() != 2) return std::nullopt;
  if (is_layout(a[0]) && is_layout(a[1])) return layout_value(sym_composition(layout_of(a[0]), layout_of(a[1])));
  // composition(S o O o L, B) = S o O o (L o B), as the model's (composition.cpp).
  if (a[0].kind == K::Composed && is_layout(a[1])) {
    SymVal c = a[0];
    const SymLayout inner = sym_composition(layout_of(a[0]), layout_of(a[1]));
    c.t = inner.shape;
    c.stride = inner.stride;
    c.t_static.reset();
    c.stride_static.reset();
    return c;
  }
  // composition(L, Sw o O o B): the model's swizzle moved to L's side, with every check of the
  // model's (symbolic_swizzle_composition.hpp).
  if (is_layout(a[0]) && a[1].kind == K::Composed && !a[1].pointer) {
    const SymSwizzledLayout r = sym_composition_through_swizzle(layout_of(a[0]), Swizzle(a[1].b, a[1].m, a[1].s),
                                                                a[1].offset, layout_of(a[1]));
    SymVal c;
    c.kind = K::Composed;
    c.b = r.swizzle.bits(), c.m = r.swizzle.base(), c.s = r.swizzle.shift();
    c.offset = Ops::constant(0);  // the model's static _0
    c.offset_static = true;
    c.t = r.layout.shape;
    c.stride = r.layout.stride;
    return c;
  }
  if (a[1].kind == K::Composed)
    throw Unsupported("composition(A, S o O o L) with symbolic parts and A not a layout, or an smem_ptr offset: "
                      "composition(L, Sw o O o B) and composition(S o O o L, B) are proved");
  // composition(L, (T0, T1, ...)): mode by mode (tiler_generic.hpp).
  if (is_layout(a[0]))
    if (const std::optional<SymTiler> tiler = tiler_of(a[1], IntegerTiler::UnitStride))
      return layout_value(sym_composition_by_tiler(layout_of(a[0]), *tiler));
  return std::nullopt;
}

// coalesce(L [, profile]): the model's walk, by a profile where one is given (coalesce_generic.hpp).
std::optional<SymVal> coalesce_any(const std::vector<SymVal>& a) {
  if (a.size() == 1) return coalesce(a);
  if (a.size() != 2 || !is_layout(a[0])) return std::nullopt;
  if (is_shape(a[1])) return layout_value(sym_coalesce_by_profile(layout_of(a[0]), tree_of(a[1])));
  if (a[1].kind == K::Model && a[1].model->is_int_tuple())
    return layout_value(sym_coalesce_by_profile(layout_of(a[0]), std::get<IntTuple>(a[1].model->data)));
  return std::nullopt;
}

// NAME(L, TILER) for the four forms of divide or product.
SymbolicFunction divide_or_product(bool divide, TilerForm form, const std::string& name) {
  return {name + "(L, T) with T a layout, an integer or a tuple of them",
          [=](const std::vector<SymVal>& a) -> std::optional<SymVal> {
            if (a.size() != 2 || !is_layout(a[0])) return std::nullopt;
            const std::optional<SymTiler> tiler = tiler_of(a[1], IntegerTiler::MakeLayout);
            if (!tiler) return std::nullopt;
            return layout_value(divide ? sym_divide(layout_of(a[0]), *tiler, form)
                                       : sym_product(layout_of(a[0]), *tiler, form));
          }};
}

SymbolicFunction blocked_or_raked(bool blocked, const std::string& name) {
  return {name + "(A, B)", [=](const std::vector<SymVal>& a) -> std::optional<SymVal> {
            if (a.size() != 2 || !is_layout(a[0]) || !is_layout(a[1])) return std::nullopt;
            return layout_value(sym_blocked_product(layout_of(a[0]), layout_of(a[1]), blocked));
          }};
}

std::optional<SymVal> tile_to_shape(const std::vector<SymVal>& a) {
  if (a.size() != 2 || !is_layout(a[0]) || !is_shape(a[1])) return std::nullopt;
  // The model checks divisibility when every leaf of the target is static, and its copies
  // count of mode i is static when that mode of the target and of the block are (then a _1 has
  // the stride _0: make_layout). Flags not tracked (computed by a symbolic operation) cannot
  // be decided.
  const std::optional<StaticFlags> flags = shape_flags(a[1]);
  if (!flags || !a[0].t_static)
    throw Unsupported("tile_to_shape of a block or target computed on symbolic values: whether their leaves are "
                      "static (CuTe then requires divisibility, and makes a single copy's stride _0) is not tracked");
  const StaticFlags target_flags = flags->is_tuple() ? *flags : StaticFlags::tuple({*flags});
  const StaticFlags& block_flags = *a[0].t_static;
  std::vector<bool> copies_static(target_flags.rank());
  for (std::size_t i = 0; i < copies_static.size(); ++i) {
    // A mode past the block's rank is the static _1:_0 (append_to_rank).
    const bool block_static = !block_flags.is_tuple() ? (i > 0 || *block_flags.leaf)
                              : i < block_flags.rank() ? all_of_flags(block_flags[i])
                                                       : true;
    copies_static[i] = all_of_flags(target_flags[i]) && block_static;
  }
  return layout_value(sym_tile_to_shape(layout_of(a[0]), tree_of(a[1]), all_of_flags(*flags), copies_static));
}

// Registers `f` under `name`, a function of the model's table.
void add(std::map<std::string, SymbolicFunction>& table, const std::string& name, SymbolicFunction f) {
  if (!standard_functions().find(name))
    throw Error("internal: the symbolic form of '" + name + "' names no function of the model");
  table.emplace(name, std::move(f));
}

// A form whose model operation may reject its input: the model's check is a side condition
// (Error from a require), and what the generic code does not cover is `unknown`.
SymbolicFunction checked(std::string forms, std::function<std::optional<SymVal>(const std::vector<SymVal>&)> f) {
  return {std::move(forms), [f = std::move(f)](const std::vector<SymVal>& a) -> std::optional<SymVal> {
            try {
              return f(a);
            } catch (const Unsupported&) {
              throw;
            } catch (const Error& e) {
              throw Unsupported(e.what());
            }
          }};
}

std::map<std::string, SymbolicFunction> build() {
  std::map<std::string, SymbolicFunction> t;
  add(t, "coalesce", checked("coalesce(L), coalesce(L, profile)", coalesce_any));
  add(t, "filter", {"filter(L)", filter});
  add(t, "cosize", {"cosize(L), cosize(C)", cosize});
  add(t, "size", {"size(L), size(C), size(SHAPE)", size});
  add(t, "smem_wavefronts", {"smem_wavefronts(INSTR, (a0, ...), BITS)", wavefronts});
  add(t, "downcast", {"downcast(L, n)", [](const std::vector<SymVal>& a) -> std::optional<SymVal> {
                        // a layout without a static _1 stride is refused by the model for every
                        // value of the variables: its diagnostic is the claim's error
                        if (a.size() != 2 || !is_layout(a[0]) || !is_integer(a[1])) return std::nullopt;
                        return layout_value(sym_downcast(flagged(a[0], "downcast"), *a[1].i));
                      }});
  add(t, "upcast", checked("upcast(L, n)", [](const std::vector<SymVal>& a) -> std::optional<SymVal> {
        if (a.size() != 2 || !is_layout(a[0]) || !is_integer(a[1])) return std::nullopt;
        return layout_value(sym_upcast(flagged(a[0], "upcast"), *a[1].i));
      }));
  add(t, "complement", checked("complement(L, M)", complement));
  add(t, "composition", checked("composition(A, B), composition(A, (T0, T1, ...)), composition(S o O o L, B), "
                                "composition(L, Sw o O o B)", composition));
  add(t, "recast", checked("recast(L, old_bits, new_bits)", [](const std::vector<SymVal>& a) -> std::optional<SymVal> {
        if (a.size() != 3 || !is_layout(a[0]) || !is_integer(a[1]) || !is_integer(a[2])) return std::nullopt;
        const auto old_bits = concrete_of(*a[1].i), new_bits = concrete_of(*a[2].i);
        if (!old_bits || !new_bits) throw Unsupported("recast with symbolic element widths (CuTe's are types' sizes)");
        return layout_value(sym_recast(flagged(a[0], "recast"), *old_bits, *new_bits));
      }));
  add(t, "max_common_vector", checked("max_common_vector(A, B)", [](const std::vector<SymVal>& a) -> std::optional<SymVal> {
        if (a.size() != 2 || !is_layout(a[0]) || !is_layout(a[1])) return std::nullopt;
        return integer_value(sym_max_common_vector(layout_of(a[0]), layout_of(a[1])));
      }));
  add(t, "max_common_layout", checked("max_common_layout(A, B)", [](const std::vector<SymVal>& a) -> std::optional<SymVal> {
        if (a.size() != 2 || !is_layout(a[0]) || !is_layout(a[1])) return std::nullopt;
        return layout_value(sym_max_common_layout(layout_of(a[0]), layout_of(a[1])));
      }));
  const std::pair<const char*, TilerForm> forms[] = {
      {"logical", TilerForm::Logical}, {"zipped", TilerForm::Zipped}, {"tiled", TilerForm::Tiled}, {"flat", TilerForm::Flat}};
  for (const auto& [form, f] : forms) {
    for (const bool divide : {true, false}) {
      const std::string name = std::string(form) + (divide ? "_divide" : "_product");
      SymbolicFunction g = divide_or_product(divide, f, name);
      add(t, name, checked(g.forms, g.call));
    }
  }
  for (const bool blocked : {true, false}) {
    const std::string name = blocked ? "blocked_product" : "raked_product";
    SymbolicFunction g = blocked_or_raked(blocked, name);
    add(t, name, checked(g.forms, g.call));
  }
  add(t, "right_inverse_full", checked("right_inverse_full(L)", [](const std::vector<SymVal>& a) -> std::optional<SymVal> {
        if (a.size() != 1 || !is_layout(a[0])) return std::nullopt;
        return layout_value(sym_right_inverse(layout_of(a[0])));
      }));
  add(t, "right_inverse", checked("right_inverse(L) (CuTe's: static strides only)",
                                  [](const std::vector<SymVal>& a) -> std::optional<SymVal> {
        if (a.size() != 1 || !is_layout(a[0])) return std::nullopt;
        return layout_value(sym_right_inverse_typed(flagged(a[0], "right_inverse")));
      }));
  add(t, "left_inverse", checked("left_inverse(L)", [](const std::vector<SymVal>& a) -> std::optional<SymVal> {
        if (a.size() != 1 || !is_layout(a[0])) return std::nullopt;
        return layout_value(sym_left_inverse(layout_of(a[0])));
      }));
  add(t, "tile_to_shape", checked("tile_to_shape(L, SHAPE)", tile_to_shape));
  return t;
}

}  // namespace

const std::map<std::string, SymbolicFunction>& symbolic_functions() {
  static const std::map<std::string, SymbolicFunction> table = build();
  return table;
}

}  // namespace cuteref::proofs
