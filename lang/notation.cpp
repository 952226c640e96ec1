#include "notation.hpp"

#include <optional>

#include "enumeration_budget.hpp"
#include "error.hpp"
#include "evaluator.hpp"
#include "parser.hpp"

namespace cuteref {

namespace {

// The tree of this thread's outermost parse_and_evaluate, kept from call to call so that a
// batch of lines reuses its storage; a nested call (a function that parses text of its own)
// builds a tree of its own.
struct ReusedTree {
  SyntaxTree tree;
  bool in_use = false;
};

}  // namespace

Value parse_and_evaluate(std::string_view text, const FunctionTable* functions) {
  thread_local ReusedTree reused;
  std::optional<SyntaxTree> own;
  SyntaxTree* tree = &reused.tree;
  if (reused.in_use) tree = &own.emplace();
  struct Claim {
    bool& in_use;
    bool held;
    ~Claim() {
      if (held) in_use = false;
    }
  } claim{reused.in_use, !reused.in_use};
  reused.in_use = true;
  parse_text(text, functions ? ParseMode::Expression : ParseMode::Literal, functions, *tree);
  const EnumerationBudgetScope budget;
  Value v = evaluate(tree->root(), functions);
  // A bare word means something only as an argument (an atom name, an enum word): on its own
  // it is most likely a misspelt function or value, so it is not echoed back.
  if (v.is_symbol())
    throw ParseError(1, "unknown name '" + std::get<Symbol>(v.data).name +
                            "' (a bare word is only meaningful as an argument, e.g. an MMA atom name)");
  return v;
}

IntTuple parse_int_tuple(std::string_view text) {
  Value v = parse_and_evaluate(text, nullptr);
  if (!v.is_int_tuple()) throw ParseError(1, "expected an integer tuple, found " + v.kind_name());
  return std::get<IntTuple>(v.data);
}

Layout parse_layout(std::string_view text) {
  Value v = parse_and_evaluate(text, nullptr);
  if (!v.is_layout()) throw ParseError(1, "expected a layout, found " + v.kind_name());
  return std::get<Layout>(v.data);
}

}  // namespace cuteref
