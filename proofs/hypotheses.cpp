#include "hypotheses.hpp"

#include <map>
#include <optional>

#include "coordinates.hpp"
#include "enumeration_budget.hpp"
#include "error.hpp"
#include "function_table.hpp"
#include "parser.hpp"
#include "symbolic_evaluator.hpp"

namespace cuteref::proofs {

namespace {

bool is_predicate(std::string_view name) {
  return name == "divides" || name == "admissible" || name == "defined" || name == "injective";
}

// The model's functions and the four predicates (whose meaning is this file's: a predicate is
// a whole hypothesis, never a value).
const FunctionTable& hypothesis_functions() {
  static const FunctionTable table = [] {
    FunctionTable t = standard_functions();
    auto predicate = [&](const std::string& name, std::size_t arity, const std::string& signature) {
      t.add(name, FunctionSpec{arity, arity, signature, [name](const std::vector<Value>&) -> Value {
                                 throw Error(name + "(...) is a hypothesis: it is only allowed as a whole --assume");
                               }});
    };
    predicate("divides", 2, "divides(A, B)");
    predicate("admissible", 2, "admissible(A, B)");
    predicate("defined", 1, "defined(EXPR)");
    predicate("injective", 1, "injective(L)");
    return t;
  }();
  return table;
}

void refuse_nested_predicates(const Node& n, const std::string& text) {
  for (const Node& c : n.children) {
    if (c.kind == Node::Kind::Call && is_predicate(c.name))
      throw Error("--assume '" + text + "': column " + std::to_string(c.column()) + ": " + std::string(c.name) +
                  "(...) is a hypothesis, only allowed as the whole --assume");
    refuse_nested_predicates(c, text);
  }
}

// `l OP r` and divides(d, n), once for the symbolic statement (T = SymInt: a Z3 formula) and
// the concrete check (T = int64: a bool).
template <class T>
auto compared(std::string_view op, const T& l, const T& r) {
  if (op == "==") return l == r;
  if (op == "!=") return !(l == r);
  if (op == "<") return l < r;
  if (op == "<=") return !(r < l);
  if (op == ">") return r < l;
  return l >= r;
}
template <class T>
auto divides_value(const T& d, const T& n, const T& zero, const T& one) {
  return d >= one && n % d == zero;
}

Node composition_of(const Node& call) {
  Node c = call;
  c.name = "composition";
  return c;
}

// f(), or nullopt where the model refuses it (an Error, its diagnostic kept in `why`): a
// hypothesis does not hold where the model cannot evaluate what it names (state_hypothesis
// makes the same preconditions hypotheses for Z3). A spent enumeration budget is not a
// refusal: it propagates, and the replay counts the point as too large to check.
template <class F>
auto unless_refused(F&& f, std::string& why) -> std::optional<decltype(f())> {
  try {
    return f();
  } catch (const Error& e) {
    if (enumeration_budget_spent()) throw;
    why = std::string("the model refuses it: ") + e.what();
    return std::nullopt;
  }
}

std::optional<Value> model_value(const Node& n, const VariableValues& values, std::string& why) {
  return unless_refused([&] { return evaluate(n, &standard_functions(), &values); }, why);
}

// A side of a comparison or of divides at the point, or nullopt where the model cannot
// evaluate it. A value that is not an integer is an Error.
std::optional<std::int64_t> concrete_integer(const Hypothesis& h, const Node& n, const VariableValues& values,
                                             std::string& why) {
  const std::optional<Value> v = model_value(n, values, why);
  if (!v) return std::nullopt;
  if (!v->is_int_tuple() || !std::get<IntTuple>(v->data).is_integer())
    throw Error("--assume '" + h.text + "': only integers are compared");
  return std::get<IntTuple>(v->data).value();
}

}  // namespace

Hypothesis parse_hypothesis(const std::string& text) {
  Hypothesis h{text, {}, {}};
  try {
    h.parsed = parse_text(text, ParseMode::Hypothesis, &hypothesis_functions());
    h.tree = h.parsed.root();
  } catch (const ParseError& e) {
    throw Error("--assume '" + text + "': " + e.what());
  }
  const bool predicate = h.tree.kind == Node::Kind::Call && is_predicate(h.tree.name);
  if (h.tree.kind != Node::Kind::Compare && !predicate)
    throw Error("--assume '" + text + "': expected EXPR OP EXPR (OP one of == != < <= > >=), divides(A, B), "
                "admissible(A, B), defined(EXPR) or injective(L)");
  refuse_nested_predicates(h.tree, text);
  // divides(A, B) means A >= 1 and B % A == 0. A divisor without variables that is not positive
  // would make the hypothesis false everywhere (or, read mathematically, mean something else:
  // B == 0, 2 | B); such a request is malformed, not a hypothesis to prove anything from.
  if (predicate && h.tree.name == "divides" && !mentions_variable(h.tree.children[0])) {
    const EnumerationBudgetScope budget;
    const Value d = evaluate(h.tree.children[0], &standard_functions());
    if (!d.is_int_tuple() || !std::get<IntTuple>(d.data).is_integer())
      throw Error("--assume '" + text + "': the divisor of divides(A, B) must be an integer");
    const std::int64_t v = std::get<IntTuple>(d.data).value();
    if (v < 1) {
      const std::string magnitude = std::to_string(-static_cast<unsigned long long>(v));  // no overflow at INT64_MIN
      throw Error("--assume '" + text + "': the divisor is " + std::to_string(v) +
                  "; divides(A, B) takes a divisor A >= 1 (" +
                  (v == 0 ? std::string("for B == 0, write that")
                          : "for B divisible by " + magnitude + ", write divides(" + magnitude + ", B)") + ")");
    }
  }
  return h;
}

std::vector<DivisibilityFact> divisibility_facts(const std::vector<Hypothesis>& hypotheses) {
  std::vector<DivisibilityFact> facts;
  auto spelled = [](const Node& n) -> std::optional<std::string> {
    if (n.kind == Node::Kind::Integer) return std::to_string(n.integer);
    if (n.is_variable_word()) return std::string(n.name);
    return std::nullopt;
  };
  for (const Hypothesis& h : hypotheses) {
    if (h.tree.kind != Node::Kind::Call || h.tree.name != "divides") continue;
    const auto d = spelled(h.tree.children[0]), v = spelled(h.tree.children[1]);
    if (d && v) facts.push_back({*d, *v});
  }
  return facts;
}

void state_hypothesis(const Hypothesis& h, const std::map<std::string, SymInt>& variables, SymbolicScope& scope) {
  using K = SymVal::Kind;
  using Ops = ScalarOps<SymInt>;
  const std::size_t before = scope.obligations().size();
  auto side = [&](const Node& n) { return evaluate_symbolically(n, variables); };
  auto integer = [&](const SymVal& v) -> SymInt {
    if (v.kind != K::Int) throw Unsupported("--assume '" + h.text + "': only integers are compared");
    return *v.i;
  };
  const Node& t = h.tree;
  z3::expr statement = scope.ctx().bool_val(true);
  if (t.kind == Node::Kind::Compare) {
    statement = compared(t.name, integer(side(t.children[0])), integer(side(t.children[1])));
  } else if (t.name == "defined") {
    (void)side(t.children[0]);
  } else if (t.name == "injective") {
    if (scope.encoding() != Encoding::Int64Range)
      throw Unsupported("--assume '" + h.text + "': injective(L) is a quantified formula, stated only in the integer "
                        "encoding, and this claim has bit operations");
    const SymVal v = side(t.children[0]);
    if (v.kind == K::Layout) statement = injective(SymLayout{v.t, v.stride});
    else if (v.kind == K::Model && v.model && v.model->is_layout()) statement = injective(lift(std::get<Layout>(v.model->data)));
    else throw Error("--assume '" + h.text + "': injective takes a layout with integer strides");
  } else if (t.name == "divides") {
    statement = divides_value(integer(side(t.children[0])), integer(side(t.children[1])), Ops::constant(0), Ops::constant(1));
  } else {  // admissible
    (void)side(composition_of(t));
  }
  for (const Obligation& o : scope.take_obligations_after(before)) scope.add_hypothesis(z3::implies(o.guard, o.condition));
  scope.add_hypothesis(statement);
}

std::optional<std::string> hypothesis_fails(const Hypothesis& h, const VariableValues& values) {
  const EnumerationBudgetScope budget;
  const Node& t = h.tree;
  std::string why;
  if (t.kind == Node::Kind::Compare || t.name == "divides") {
    const std::optional<std::int64_t> a = concrete_integer(h, t.children[0], values, why);
    if (!a) return why;
    const std::optional<std::int64_t> b = concrete_integer(h, t.children[1], values, why);
    if (!b) return why;
    const bool holds = t.kind == Node::Kind::Compare ? compared(t.name, *a, *b) : divides_value<std::int64_t>(*a, *b, 0, 1);
    if (holds) return std::nullopt;
    return "it is false: its sides are " + std::to_string(*a) + " and " + std::to_string(*b);
  }
  if (t.name == "injective") {
    // L's values are the model's: where the model cannot evaluate L, its size or one of its
    // values (a 64-bit overflow), L has no values there and the hypothesis does not hold (as
    // `defined`). Only a layout too large to enumerate is left undecided (an Error).
    const std::optional<Value> v = model_value(t.children[0], values, why);
    if (!v) return why;
    if (!v->is_layout()) throw Error("--assume '" + h.text + "': injective takes a layout");
    const Layout& l = std::get<Layout>(v->data);
    const std::optional<std::int64_t> n = unless_refused([&] { return size_value(l); }, why);
    if (!n) return why;
    constexpr std::int64_t kLimit = std::int64_t{1} << 22;
    if (*n > kLimit) throw Error("--assume '" + h.text + "': " + std::to_string(*n) + " elements, too many to check");
    std::map<std::int64_t, std::int64_t> first_index_of;
    for (std::int64_t i = 0; i < *n; ++i) {
      const std::optional<std::int64_t> x = unless_refused([&] { return apply_index(l, i); }, why);
      if (!x) return why;
      const auto [it, fresh] = first_index_of.emplace(*x, i);
      if (!fresh)
        return "it is false: L(" + std::to_string(it->second) + ") == L(" + std::to_string(i) + ") == " + std::to_string(*x);
    }
    return std::nullopt;
  }
  // defined, admissible: the model evaluates it
  if (model_value(t.name == "defined" ? t.children[0] : composition_of(t), values, why)) return std::nullopt;
  return why;
}

bool hypothesis_holds(const Hypothesis& h, const VariableValues& values) { return !hypothesis_fails(h, values); }

}  // namespace cuteref::proofs
