#include "symbolic_evaluator.hpp"

#include "binary_operator.hpp"
#include "enumeration_budget.hpp"
#include "evaluator.hpp"
#include "function_table.hpp"
#include "swizzle_eval.hpp"
#include "symbolic_functions.hpp"

namespace cuteref::proofs {

namespace {

using K = SymVal::Kind;
using Ops = ScalarOps<SymInt>;

class SymbolicEvaluator {
 public:
  explicit SymbolicEvaluator(const std::map<std::string, SymInt>& variables) : variables_(variables) {}

  SymVal operator()(const Node& n) const {
    current_scope().check_deadline();
    if (!mentions_variable(n)) return lift<SymInt>(evaluate(n, &standard_functions()));
    switch (n.kind) {
      case Node::Kind::Word: return variable(n);
      case Node::Kind::Tuple: {
        std::vector<SymVal> elements;
        for (const Node& c : n.children) elements.push_back((*this)(c));
        return tuple_of(elements);
      }
      case Node::Kind::Group: return grouped((*this)(n.children[0]));
      case Node::Kind::Layout: return layout(n);
      case Node::Kind::Composed: return composed(n);
      case Node::Kind::Swizzle: throw Unsupported("a symbolic swizzle parameter");
      case Node::Kind::Call: return call(n);
      case Node::Kind::Apply: return apply(n);
      case Node::Kind::Negate: return grouped(run_time_integer(Ops::constant(0) - as_int(n.children[0], "-")));
      case Node::Kind::Binary: return arithmetic(n);
      default: break;
    }
    throw ParseError(n.column(), "this expression is not a value of a claim's side");
  }

 private:
  const std::map<std::string, SymInt>& variables_;

  // An integer whose static flag is not tracked (a symbolic operation's result).
  static SymVal integer(SymInt s) {
    SymVal v;
    v.kind = K::Int;
    v.i = std::move(s);
    return v;
  }
  // A run-time integer: a variable, and the model's arithmetic, whose result is dynamic
  // whatever its operands (`_2 + _3` is 5).
  static SymVal run_time_integer(SymInt s) {
    SymVal v = integer(std::move(s));
    v.int_static = false;
    return v;
  }
  static SymVal grouped(SymVal v) {
    v.grouped = true;
    return v;
  }

  SymVal variable(const Node& n) const {
    const auto it = variables_.find(std::string(n.name));
    if (it == variables_.end()) throw ParseError(n.column(), "unknown name '" + std::string(n.name) + "'");
    return run_time_integer(it->second);
  }

  SymInt as_int(const Node& n, const std::string& op) const {
    const SymVal v = (*this)(n);
    if (v.kind != K::Int) throw ParseError(n.column(), "'" + op + "' takes integers");
    return *v.i;
  }

  SymVal arithmetic(const Node& n) const {
    SymInt acc = as_int(n.children[0], binary_operator_text(n.ops()[0]));
    for (std::size_t k = 0; k < n.ops().size(); ++k) {
      const char op = n.ops()[k];
      const SymInt y = as_int(n.children[k + 1], binary_operator_text(op));
      acc = apply_binary_operator(op, acc, y);
    }
    return grouped(run_time_integer(acc));
  }

  // The static flags of an Int or Tuple used as a shape or stride (absent where not tracked).
  static std::optional<StaticFlags> flags_of_val(const SymVal& v) {
    if (v.kind == K::Int) return v.int_static ? std::optional<StaticFlags>(StaticFlags::of(*v.int_static)) : std::nullopt;
    return v.t_static;
  }

  static SymVal tuple_of(const std::vector<SymVal>& elements) {
    SymVal v;
    v.kind = K::Tuple;
    std::vector<SymTuple> e;
    std::vector<StaticFlags> flags;
    bool flags_known = true;
    for (const auto& x : elements) {
      if (x.kind != K::Int && x.kind != K::Tuple) return tiler_of(elements);
      e.push_back(x.kind == K::Int ? SymTuple::of(*x.i) : x.t);
      const std::optional<StaticFlags> f = flags_of_val(x);
      if (f) flags.push_back(*f);
      flags_known = flags_known && f.has_value();
    }
    v.t = SymTuple::tuple(std::move(e));
    if (flags_known) v.t_static = StaticFlags::tuple(std::move(flags));
    return v;
  }

  // A tuple of layouts (a tiler): a concrete model value, or a symbolic tiler.
  static SymVal tiler_of(const std::vector<SymVal>& elements) {
    std::vector<Value> values;
    for (const auto& y : elements) {
      auto l = lower(y);
      if (!l) {
        for (const auto& z : elements)
          if (z.kind != K::Int && z.kind != K::Tuple && z.kind != K::Layout && z.kind != K::Tiler)
            throw Unsupported("a tuple of layouts with symbolic leaves and an element that is not a layout, an integer or a tuple");
        SymVal tiler;
        tiler.kind = K::Tiler;
        tiler.parts = elements;
        return tiler;
      }
      values.push_back(*l);
    }
    return lift<SymInt>(make_tuple_value(std::move(values)));
  }

  // A stride: integers and tuples of them (a scaled basis or an F2 value with variables beside
  // it has no symbolic form).
  SymVal stride(const Node& n) const {
    if (n.kind == Node::Kind::Basis)
      throw Unsupported("a scaled-basis stride in a layout with variables: the claim language evaluates integer "
                        "strides only; such a layout is evaluated where it has no variable");
    if (n.kind == Node::Kind::F2Stride)
      throw Unsupported("an F2 layout (XOR strides Fk) with symbolic extents: the claim language applies and compares "
                        "F2 layouts of concrete shape and strides, at symbolic indices");
    if (n.kind == Node::Kind::Tuple) {
      std::vector<SymVal> elements;
      for (const Node& c : n.children) elements.push_back(stride(c));
      return tuple_of(elements);
    }
    return (*this)(n);
  }

  // SHAPE:STRIDE, checked as the model's Layout is: congruent, every shape leaf >= 1.
  SymVal layout(const Node& n) const {
    const SymVal shape = (*this)(n.children[0]);
    const SymVal stride_value = stride(n.children[1]);
    auto tree = [&](const SymVal& v, const Node& at) -> SymTuple {
      if (v.kind == K::Int) return SymTuple::of(*v.i);
      if (v.kind == K::Tuple) return v.t;
      throw ParseError(at.column(), "a layout's shape and stride must be integers or tuples");
    };
    SymVal l;
    l.kind = K::Layout;
    l.t = tree(shape, n.children[0]);
    l.stride = tree(stride_value, n.children[1]);
    l.t_static = flags_of_val(shape);
    l.stride_static = flags_of_val(stride_value);
    check_layout(l.t, l.stride, n);
    return l;
  }
  static void check_layout(const SymTuple& sh, const SymTuple& st, const Node& n) {
    if (sh.is_tuple() != st.is_tuple() || sh.rank() != st.rank())
      throw ParseError(n.colon + 1, "shape and stride are not congruent");
    if (!sh.is_tuple()) {
      Ops::require(*sh.leaf >= Ops::constant(1), [] { return std::string("a layout's shape leaves must be >= 1"); });
      return;
    }
    for (std::size_t k = 0; k < sh.rank(); ++k) check_layout(sh[k], st[k], n);
  }

  // SWIZZLE "o" [OFFSET "o"] LAYOUT with symbolic parts: the swizzle concrete, checked as the
  // model's parser checks it.
  SymVal composed(const Node& n) const {
    const Value sw = evaluate(n.children[0], &standard_functions());
    const Swizzle& s = std::get<Swizzle>(sw.data);
    SymVal c;
    c.kind = K::Composed;
    c.b = s.bits(), c.m = s.base(), c.s = s.shift();
    if (n.pointer())
      throw Unsupported("a composed layout with an smem_ptr offset in a claim with variables: the claim language "
                        "reads integer offsets only; write this side without variables");
    if (n.children.size() == 3) {
      const SymVal o = (*this)(n.children[1]);
      if (o.kind != K::Int) throw ParseError(n.children[1].column(), "the offset of a composed layout must be an integer");
      c.offset = *o.i;
      c.offset_static = o.int_static;
    }
    const SymVal term = (*this)(n.children.back());
    if (term.kind != K::Layout)
      throw ParseError(n.children.back().column(), "expected a layout (or an offset) after 'o' in a composed layout");
    c.t = term.t;
    c.stride = term.stride;
    c.t_static = term.t_static;
    c.stride_static = term.stride_static;
    return c;
  }

  SymVal apply(const Node& n) const {
    const SymVal f = (*this)(n.children[0]);
    if (n.children.size() != 2) throw Unsupported("only application to one integer is supported on symbolic values");
    const SymVal x = (*this)(n.children[1]);
    if (x.kind != K::Int) throw Unsupported("only application to one integer is supported on symbolic values");
    const SymInt& i = *x.i;
    if (f.kind == K::Swizzle) return integer(swizzle_value(i, Ops::constant(f.b), Ops::constant(f.m), Ops::constant(f.s)));
    if (function_like(f)) return integer(value_at(f, i));  // i >= 0: value_at's precondition
    if (f.kind == K::Int || f.kind == K::Tuple) throw ParseError(n.column(), "this value cannot be applied to an index");
    throw Unsupported("application of " + (f.model ? f.model->kind_name() : std::string("this value")) +
                      " to a symbolic index (the model applies it where the index is concrete)");
  }

  SymVal call(const Node& n) const {
    std::vector<SymVal> args;
    for (const Node& c : n.children) args.push_back((*this)(c));
    // The model gets the arguments only where each is concrete with its static flags known.
    // A result of a symbolic operation that happens to be concrete on a branch has no tracked
    // flags, and the model's answer may depend on them in value, not only in print
    // (`make_layout((_1,4))` is `(_1,4):(_0,_1)`, tile_to_shape checks a static target): such
    // an argument takes the symbolic form, or the claim is `unknown`.
    const std::string name(n.name);
    std::vector<Value> values;
    for (const auto& a : args) {
      auto l = lower(a);
      if (!l) break;
      values.push_back(*l);
    }
    if (values.size() == args.size()) {
      const FunctionSpec* spec = standard_functions().find(n.name);
      try {
        return lift<SymInt>(spec->call(values));
      } catch (const ParseError&) {
        throw;
      } catch (const Error& e) {
        throw Error("column " + std::to_string(n.column()) + ": " + e.what());
      }
    }
    const auto& table = symbolic_functions();
    const auto it = table.find(name);
    if (it != table.end())
      if (std::optional<SymVal> v = it->second.call(args)) return *v;
    std::string covered;
    for (const auto& entry : table)
      if (entry.second.forms.rfind("none", 0) != 0) covered += (covered.empty() ? "" : ", ") + entry.second.forms;
    throw Unsupported("`" + name + "` on symbolic arguments" +
                      (it != table.end() ? " of this form (symbolically: " + it->second.forms + ")" : "") +
                      "; the functions with a symbolic form: " + covered);
  }
};

}  // namespace

SymVal evaluate_symbolically(const Node& node, const std::map<std::string, SymInt>& variables) {
  const EnumerationBudgetScope budget;
  return SymbolicEvaluator(variables)(node);
}

}  // namespace cuteref::proofs
