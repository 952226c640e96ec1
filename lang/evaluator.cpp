#include "evaluator.hpp"

#include <vector>

#include "binary_operator.hpp"
#include "equality.hpp"
#include "error.hpp"
#include "scalar.hpp"

namespace cuteref {

namespace {

class Evaluator {
 public:
  Evaluator(const FunctionTable* functions, const VariableValues* variables)
      : functions_(functions), variables_(variables) {}

  Value operator()(const Node& n) const {
    using K = Node::Kind;
    switch (n.kind) {
      case K::Integer: return Value(IntTuple::integer(n.integer, n.is_static));
      case K::Underscore: return Value(IntTuple::underscore());
      case K::Word: {
        if (variables_ && n.is_variable_word())
          if (auto it = variables_->find(std::string(n.name)); it != variables_->end())
            return Value(IntTuple::integer(it->second));
        return Value(Symbol{std::string(n.name)});
      }
      case K::Tuple: {
        std::vector<Value> elements;
        elements.reserve(n.children.size());
        for (const Node& c : n.children) elements.push_back((*this)(c));
        return make_tuple_value(std::move(elements));
      }
      case K::Literal: return Value(n.basis());
      case K::Group: return (*this)(n.children[0]);
      case K::Layout: return layout(n);
      case K::Basis:
      case K::F2Stride: throw ParseError(n.column(), "a scaled basis or F2 value is only allowed as a stride");
      case K::Swizzle: return Value(swizzle(n));
      case K::Composed: return composed(n);
      case K::Descriptor: return Value(n.basis());
      case K::MajorTag: return Value(MajorTag{n.integer == 1});
      case K::Call: return call(n);
      case K::Apply: return apply(n);
      case K::Negate: {
        const std::int64_t x = integer_of(n.children[0], "-");
        return at(n, [&] { return Value(IntTuple::integer((CheckedInt(0) - CheckedInt(x)).v)); });
      }
      case K::Binary: return arithmetic(n);
      case K::Compare: return compare(n);
    }
    throw Error("unknown syntax node");
  }

 private:
  const FunctionTable* functions_;
  const VariableValues* variables_;

  // Runs `f`, turning an evaluation Error into one that names the column where `n` starts.
  template <class F>
  static Value at(const Node& n, F&& f) {
    try {
      return f();
    } catch (const ParseError&) {
      throw;
    } catch (const Error& e) {
      throw Error("column " + std::to_string(n.column()) + ": " + e.what());
    }
  }

  std::int64_t integer_of(const Node& n, const std::string& op) const {
    const Value v = (*this)(n);
    if (!v.is_int_tuple() || !std::get<IntTuple>(v.data).is_integer())
      throw Error("column " + std::to_string(n.column()) + ": '" + op + "' takes integers, found " + v.kind_name());
    return std::get<IntTuple>(v.data).value();
  }

  Value arithmetic(const Node& n) const {
    CheckedInt acc = integer_of(n.children[0], binary_operator_text(n.ops()[0]));
    for (std::size_t k = 0; k < n.ops().size(); ++k) {
      const char op = n.ops()[k];
      const CheckedInt y = integer_of(n.children[k + 1], binary_operator_text(op));
      at(n.children[k + 1], [&] {
        acc = apply_binary_operator(op, acc, y);
        return Value(IntTuple::integer(0));
      });
    }
    return Value(IntTuple::integer(acc.v));
  }

  Value compare(const Node& n) const {
    const Value lhs = (*this)(n.children[0]), rhs = (*this)(n.children[1]);
    if (n.name == "==") return at(n, [&] { return Value(functional_equal(lhs, rhs)); });
    auto integer = [&](const Value& v, const Node& side) {
      if (!v.is_int_tuple() || !std::get<IntTuple>(v.data).is_integer())
        throw Error("column " + std::to_string(side.column()) + ": '" + std::string(n.name) + "' compares integers, found " +
                    v.kind_name());
      return std::get<IntTuple>(v.data).value();
    };
    const std::int64_t l = integer(lhs, n.children[0]), r = integer(rhs, n.children[1]);
    const bool holds = n.name == "!=" ? l != r : n.name == "<" ? l < r : n.name == "<=" ? l <= r : n.name == ">" ? l > r : l >= r;
    return Value(Verdict{holds, holds ? "" : std::to_string(l) + " " + std::string(n.name) + " " + std::to_string(r) + " is false"});
  }

  Value call(const Node& n) const {
    if (!functions_) throw ParseError(n.column(), "expected a literal, found the name '" + std::string(n.name) + "'");
    const FunctionSpec* spec = functions_->find(n.name);
    if (!spec) throw ParseError(n.column(), "unknown function '" + std::string(n.name) + "'");
    std::vector<Value> args;
    args.reserve(n.children.size());
    for (const Node& c : n.children) args.push_back((*this)(c));
    return at(n, [&] { return spec->call(args); });
  }

  Value apply(const Node& n) const {
    if (!functions_) throw ParseError(n.column(), "application is not allowed in a literal");
    std::vector<Value> call_args{(*this)(n.children[0])};
    std::vector<Value> args;
    for (std::size_t k = 1; k < n.children.size(); ++k) args.push_back((*this)(n.children[k]));
    if (args.size() == 1) call_args.push_back(std::move(args[0]));
    else call_args.push_back(make_tuple_value(std::move(args)));
    const FunctionSpec* spec = functions_->find("__apply__");
    if (!spec) throw Error("application is not available");
    return at(n, [&] { return spec->call(call_args); });
  }

  // ---- literals ---------------------------------------------------------------------------

  // SHAPE ":" STRIDE, checked as CuTe's Layout: an integer shape without '_' whose leaves are
  // >= 1, a stride congruent with it; F2 strides make an F2 layout.
  Value layout(const Node& n) const {
    const Node& shape_node = n.children[0];
    const Value shape_value = (*this)(shape_node);
    if (!shape_value.is_int_tuple())
      throw ParseError(n.colon + 1, "a layout's shape must be an integer tuple, not " + shape_value.kind_name());
    const IntTuple& shape = std::get<IntTuple>(shape_value.data);
    if (shape.has_underscore()) throw ParseError(n.colon + 1, "a layout's shape cannot contain '_'");
    bool f2 = false;
    const IntTuple stride = stride_tree(n.children[1], f2);
    std::size_t k = 0;
    if (const IntTuple* leaf = first_nonpositive_leaf(shape, k)) {
      const std::optional<std::size_t> literal = literal_leaf(shape_node, k);
      throw ParseError(literal ? *literal + 1 : n.colon + 1,
                       "shape leaf " + leaf->to_string() +
                           " must be a positive integer (CuTe has no empty or negative modes)");
    }
    if (!congruent(shape, stride))
      throw ParseError(n.children[1].column(),
                       "stride " + stride.to_string() + " is not congruent with shape " + shape.to_string());
    if (f2) return Value(F2Layout(shape, stride));
    return Value(Layout(shape, stride));
  }

  // The first leaf of `t` (in the order of its leaves) whose value is below 1, or null; `k`
  // counts the leaves before it (@pre k is 0 at the top).
  static const IntTuple* first_nonpositive_leaf(const IntTuple& t, std::size_t& k) {
    if (t.is_leaf()) {
      if (t.value() >= 1) {
        ++k;
        return nullptr;
      }
      return &t;
    }
    for (const IntTuple& e : t.elements())
      if (const IntTuple* found = first_nonpositive_leaf(e, k)) return found;
    return nullptr;
  }

  // The k-th leaf of a shape written as literals only (integers and tuples), or null; `k` is
  // consumed (SIZE_MAX once a non-literal part is met).
  static std::optional<std::size_t> literal_leaf(const Node& n, std::size_t& k) {
    if (n.kind == Node::Kind::Integer) {
      if (k-- == 0) return n.offset;
      return std::nullopt;
    }
    if (n.kind == Node::Kind::Literal) {
      if (k < n.payload->leaf_offsets.size()) return n.payload->leaf_offsets[k];
      k -= n.payload->leaf_offsets.size();
      return std::nullopt;
    }
    if (n.kind != Node::Kind::Tuple) {
      k = SIZE_MAX;  // not literal: stop
      return std::nullopt;
    }
    for (const Node& c : n.children) {
      if (const std::optional<std::size_t> found = literal_leaf(c, k)) return found;
      if (k == SIZE_MAX) return std::nullopt;
    }
    return std::nullopt;
  }

  // A stride tree: its leaves integers, scaled bases or F2 values (`f2` set where any is).
  IntTuple stride_tree(const Node& n, bool& f2) const {
    switch (n.kind) {
      case Node::Kind::Tuple: {
        std::vector<IntTuple> elements;
        for (const Node& c : n.children) elements.push_back(stride_tree(c, f2));
        return IntTuple::tuple(std::move(elements));
      }
      case Node::Kind::Basis:
      case Node::Kind::Literal: return n.basis();
      case Node::Kind::F2Stride: f2 = true; return IntTuple::integer(n.integer);
      case Node::Kind::Underscore: throw ParseError(n.column(), "'_' is not a stride");
      default: break;
    }
    const Value v = (*this)(n);
    if (!v.is_int_tuple() || std::get<IntTuple>(v.data).has_underscore())
      throw ParseError(n.column(), "expected a stride (integer, scaled basis, F2 value `F9` or tuple), found " +
                                       v.kind_name());
    return std::get<IntTuple>(v.data);
  }

  Swizzle swizzle(const Node& n) const {
    static constexpr const char* kNames[] = {"swizzle B", "swizzle M", "swizzle S"};
    int p[3];
    for (int k = 0; k < 3; ++k) {
      const Node& c = n.children[k];
      const Value v = (*this)(c);
      if (!v.is_int_tuple() || !std::get<IntTuple>(v.data).is_integer())
        throw ParseError(c.column(), std::string(kNames[k]) + " must be an integer, found " + v.kind_name());
      const std::int64_t x = std::get<IntTuple>(v.data).value();
      if (x < -64 || x > 64)
        throw ParseError(c.column(), std::string(kNames[k]) + " " + std::to_string(x) + " is out of range [-64, 64]");
      p[k] = static_cast<int>(x);
    }
    try {
      return Swizzle(p[0], p[1], p[2]);
    } catch (const ParseError&) {
      throw;
    } catch (const Error& e) {
      throw ParseError(n.column(), e.what());
    }
  }

  // SWIZZLE "o" [OFFSET "o"] LAYOUT.
  Value composed(const Node& n) const {
    const Swizzle sw = swizzle(n.children[0]);
    std::optional<ComposedOffset> offset;
    if (n.pointer()) offset = *n.pointer();
    const Node& term = n.children.back();
    if (n.children.size() == 3) {
      const Node& o = n.children[1];
      const Value v = (*this)(o);
      if (!v.is_int_tuple() || !std::get<IntTuple>(v.data).is_integer())
        throw ParseError(o.column(), "the offset of a composed layout must be an integer");
      offset = ComposedOffset{std::get<IntTuple>(v.data), "", 0};
    }
    const Value layout_value = (*this)(term);
    if (!layout_value.is_layout()) {
      if (offset && !n.pointer())
        throw ParseError(term.column(), "expected a layout after the offset of a composed layout");
      throw ParseError(term.column(), "expected a layout (or an offset) after 'o' in a composed layout, found " +
                                          layout_value.kind_name());
    }
    return Value(ComposedLayout{sw, offset, std::get<Layout>(layout_value.data)});
  }
};

}  // namespace

Value evaluate(const Node& node, const FunctionTable* functions, const VariableValues* variables) {
  return Evaluator(functions, variables)(node);
}

}  // namespace cuteref
