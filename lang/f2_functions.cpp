// F2 layouts in the expression language (model/f2): the literal `(8,8):(F1,F9)` is parsed by
// notation.cpp; this file adds to_f2 / from_f2, the Triton bridge linear_layout /
// from_linear_layout, and gives the existing functions that are defined on F2 layouts
// (application, size, cosize, shape, coalesce, composition, complement, the inverses, PyCuTe's
// layout_add and coalesce_z) their F2 case,
// each falling through to the function registered before it for every other value.
#include <optional>

#include "error.hpp"
#include "f2_algebra.hpp"
#include "f2_layout_add.hpp"
#include "function_table.hpp"
#include "linear_layout_bridge.hpp"
#include "make_layout.hpp"
#include "coordinates.hpp"

namespace cuteref {

namespace {

using Args = std::vector<Value>;

const F2Layout* f2_arg(const Args& a, std::size_t i) {
  return i < a.size() && a[i].is_f2_layout() ? &std::get<F2Layout>(a[i].data) : nullptr;
}

// Replaces the registered function `name` by one that handles F2 layouts with `f2_case` (which
// returns nullopt for any other arguments) and calls the registered one otherwise.
void add_f2_case(FunctionTable& t, const std::string& name, std::function<std::optional<Value>(const Args&)> f2_case) {
  const FunctionSpec* registered = t.find(name);
  if (registered == nullptr) throw Error("F2 functions: no function '" + name + "' to extend");
  FunctionSpec spec = *registered;
  spec.signature += "  (F2 layouts too)";
  spec.call = [original = registered->call, f2_case = std::move(f2_case)](const Args& a) {
    if (auto v = f2_case(a)) return std::move(*v);
    return original(a);
  };
  t.add(name, std::move(spec));
}

std::optional<Value> apply_f2(const Args& a) {
  const F2Layout* f = f2_arg(a, 0);
  if (f == nullptr) return std::nullopt;
  const IntTuple& arg = int_tuple_arg(a, 1, "F2 layout application");
  if (arg.has_underscore())
    throw Error("F2 layout application: slicing " + f->to_string() + " with " + arg.to_string() +
                " is not defined here (the slice's offset would have to be XOR-ed, not added)");
  const IntTuple index = arg.is_integer() ? arg : crd2idx(arg, f->shape(), make_layout(f->shape()).stride());
  return Value(IntTuple::integer(apply_index(*f, index.value())));
}

std::string name_of(const Value& v, const std::string& fn) {
  if (!v.is_symbol()) throw Error(fn + ": an input dimension's name must be a bare word (register, lane, ...), got " + v.to_string());
  return std::get<Symbol>(v.data).name;
}

const std::vector<Value>& pair_of(const Value& v, const std::string& fn, const std::string& what) {
  if (!v.is_mixed_tuple() || std::get<MixedTuple>(v.data).elements.size() != 2)
    throw Error(fn + ": expected " + what + ", got " + v.kind_name() + " `" + v.to_string() + "`");
  return std::get<MixedTuple>(v.data).elements;
}

// ((name, x), (name, x), ...) or one pair (name, x).
std::vector<Value> pairs_of(const Value& v, const std::string& fn, const std::string& what) {
  if (!v.is_mixed_tuple()) throw Error(fn + ": expected a tuple of " + what + ", got " + v.kind_name() + " `" + v.to_string() + "`");
  const auto& elements = std::get<MixedTuple>(v.data).elements;
  if (elements.size() == 2 && elements[0].is_symbol()) return {v};
  return elements;
}

std::vector<std::int64_t> tile_arg(const Args& a, std::size_t i, const std::string& fn) {
  std::vector<std::int64_t> tile;
  if (i >= a.size()) return tile;
  const IntTuple& t = int_tuple_arg(a, i, fn);
  if (t.is_integer()) return {t.value()};
  for (const IntTuple& e : t.elements()) {
    if (!e.is_integer()) throw Error(fn + ": the tile must be a flat tuple of integers, got " + t.to_string());
    tile.push_back(e.value());
  }
  return tile;
}

Value linear_layout_call(const Args& a) {
  const std::string fn = "linear_layout";
  const F2Layout f = to_f2(a[0]);
  std::vector<InputDimBits> dims;
  for (const Value& p : pairs_of(a[1], fn, "(name, bits) pairs")) {
    const auto& pair = pair_of(p, fn, "a (name, bits) pair");
    const IntTuple* bits = pair[1].is_int_tuple() ? &std::get<IntTuple>(pair[1].data) : nullptr;
    if (bits == nullptr || !bits->is_integer()) throw Error(fn + ": the bit count of " + pair[0].to_string() + " must be an integer");
    if (bits->value() < 0 || bits->value() > 63) throw Error(fn + ": bit count " + bits->to_string() + " is not in [0, 63]");
    dims.push_back({name_of(pair[0], fn), static_cast<int>(bits->value())});
  }
  const LinearLayoutBases bases = to_linear_layout(f, dims, tile_arg(a, 2, fn));
  std::vector<Value> out;
  for (const auto& dim : bases.inputs) {
    std::vector<IntTuple> vectors;
    for (const auto& v : dim.bases) {
      std::vector<IntTuple> entries;
      for (std::int64_t x : v) entries.push_back(IntTuple::integer(x));
      vectors.push_back(IntTuple::tuple(std::move(entries)));
    }
    out.push_back(Value(MixedTuple{{Value(Symbol{dim.name}), Value(IntTuple::tuple(std::move(vectors)))}}));
  }
  return Value(MixedTuple{std::move(out)});
}

Value from_linear_layout_call(const Args& a) {
  const std::string fn = "from_linear_layout";
  LinearLayoutBases bases;
  for (const Value& p : pairs_of(a[0], fn, "(name, basis vectors) pairs")) {
    const auto& pair = pair_of(p, fn, "a (name, basis vectors) pair");
    LinearLayoutBases::InputDim dim{name_of(pair[0], fn), {}};
    if (!pair[1].is_int_tuple()) throw Error(fn + ": the basis vectors of " + dim.name + " must be a tuple of integer tuples");
    const IntTuple& vectors = std::get<IntTuple>(pair[1].data);
    if (!vectors.is_tuple()) throw Error(fn + ": the basis vectors of " + dim.name + " must be a tuple, got " + vectors.to_string());
    for (const IntTuple& v : vectors.elements()) {
      std::vector<std::int64_t> entries;
      if (v.is_integer()) entries.push_back(v.value());
      for (const IntTuple& e : v.elements()) {
        if (!e.is_integer()) throw Error(fn + ": basis vector " + v.to_string() + " must hold integers");
        entries.push_back(e.value());
      }
      dim.bases.push_back(std::move(entries));
    }
    bases.inputs.push_back(std::move(dim));
  }
  return Value(from_linear_layout(bases, tile_arg(a, 1, fn)));
}

}  // namespace

void register_f2_functions(FunctionTable& t) {
  t.add("to_f2", {1, 1, "to_f2(L | Sw o L | Sw o smem_ptr o L)  the F2 layout of the same function, e.g. (8,8):(F1,F9)",
                  [](const Args& a) { return Value(to_f2(a[0])); }});
  t.add("from_f2", {1, 2, "from_f2(F [, BITS])  the integer layout or Sw<B,M,S> o L of an F2 layout's function; with BITS, "
                          "Sw o smem_ptr[BITSb](unset) o L (the swizzle on bytes)",
                    [](const Args& a) {
                      const F2Layout* f = f2_arg(a, 0);
                      if (f == nullptr) throw Error("from_f2: argument 1 must be an F2 layout, got " + a[0].kind_name() + " `" + a[0].to_string() + "`");
                      if (a.size() == 1) return from_f2(*f);
                      const std::int64_t bits = integer_arg(a, 1, "from_f2");
                      if (bits < 0 || bits > 4096) throw Error("from_f2: element width " + std::to_string(bits) + " bits is out of range");
                      return from_f2(*f, static_cast<int>(bits));
                    }});
  t.add("linear_layout", {2, 3, "linear_layout(X, ((register,3),(lane,5),...) [, (M,N)])  Triton's basis vectors per input dim",
                          linear_layout_call});
  t.add("from_linear_layout", {1, 2, "from_linear_layout(((lane,((0,2),...)),...) [, (M,N)])  the F2 layout of Triton's bases",
                               from_linear_layout_call});
  add_f2_case(t, "__apply__", apply_f2);
  add_f2_case(t, "size", [](const Args& a) -> std::optional<Value> {
    if (const F2Layout* f = f2_arg(a, 0)) return Value(product(f->shape()));
    return std::nullopt;
  });
  add_f2_case(t, "cosize", [](const Args& a) -> std::optional<Value> {
    if (const F2Layout* f = f2_arg(a, 0)) return Value(IntTuple::integer(cosize(*f)));
    return std::nullopt;
  });
  add_f2_case(t, "shape", [](const Args& a) -> std::optional<Value> {
    if (const F2Layout* f = f2_arg(a, 0)) return Value(f->shape());
    return std::nullopt;
  });
  add_f2_case(t, "coalesce", [](const Args& a) -> std::optional<Value> {
    const F2Layout* f = f2_arg(a, 0);
    if (f == nullptr) return std::nullopt;
    if (a.size() > 1) throw Error("coalesce: a profile is not defined for the F2 layout " + f->to_string() + " here");
    return Value(coalesce(*f));
  });
  add_f2_case(t, "composition", [](const Args& a) -> std::optional<Value> {
    if (!f2_arg(a, 0) && !f2_arg(a, 1)) return std::nullopt;
    return Value(f2_composition(a[0], a[1]));
  });
  add_f2_case(t, "complement", [](const Args& a) -> std::optional<Value> {
    const F2Layout* f = f2_arg(a, 0);
    if (f == nullptr) return std::nullopt;
    if (a.size() == 1) return Value(complement(*f));
    return Value(complement(*f, integer_arg(a, 1, "complement")));
  });
  add_f2_case(t, "right_inverse", [](const Args& a) -> std::optional<Value> {
    if (const F2Layout* f = f2_arg(a, 0)) return Value(right_inverse(*f));
    return std::nullopt;
  });
  // PyCuTe's layout_add over F2 strides; an integer layout takes part only where it is 0 everywhere.
  add_f2_case(t, "layout_add", [](const Args& a) -> std::optional<Value> {
    const F2Layout *f = f2_arg(a, 0), *g = f2_arg(a, 1);
    if (f && g) return Value(layout_add(*f, *g));
    if (f) return Value(layout_add(*f, layout_arg(a, 1, "layout_add")));
    if (g) return Value(layout_add(*g, layout_arg(a, 0, "layout_add")));
    return std::nullopt;
  });
  add_f2_case(t, "coalesce_z", [](const Args& a) -> std::optional<Value> {
    const F2Layout* f = f2_arg(a, 0);
    if (f == nullptr) return std::nullopt;
    if (a.size() > 1) throw Error("coalesce_z: a profile is not defined for the F2 layout " + f->to_string() + " here");
    return Value(coalesce_z(*f));
  });
  add_f2_case(t, "left_inverse", [](const Args& a) -> std::optional<Value> {
    if (const F2Layout* f = f2_arg(a, 0)) return Value(left_inverse(*f));
    return std::nullopt;
  });
}

}  // namespace cuteref
