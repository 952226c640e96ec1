// Laws of the notation (parser and printer).
//   layout round trip:     parse_layout(L.to_string()) == L exactly (shape, stride, static flags),
//                          for integer and scaled-basis strides, and a swizzled layout's printout
//                          parses back to the same printout;
//   descriptor round trip: parse_descriptor(D.to_string()) == D for every parsed descriptor D,
//                          and normalize commutes with printing (descriptor.hpp's round trip);
//   malformed text:        evaluating a malformed string throws cuteref::Error whose message
//                          starts with "column N: " with 1 <= N <= length + 1: never another
//                          exception, never a crash, never a value;
//   noise:                 any string over the notation's alphabet either evaluates or throws
//                          cuteref::Error (never another exception or a crash).
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <regex>

#include "descriptor.hpp"
#include "function_table.hpp"
#include "generators.hpp"
#include "law_support.hpp"
#include "notation.hpp"
#include "value.hpp"

namespace cuteref::props::notation_properties {
namespace {

using Printer = std::function<std::string(const Layout&)>;
using Evaluator = std::function<Value(const std::string&)>;

const Printer kPrint = [](const Layout& l) { return l.to_string(); };
const Evaluator kEvaluate = [](const std::string& text) { return parse_and_evaluate(text, &standard_functions()); };

Violation layout_round_trip(const Printer& print, const Layout& l) {
  const std::string text = print(l);
  try {
    const Layout back = parse_layout(text);
    if (!(back == l)) return "'" + text + "' parses to " + back.to_string() + ", not " + l.to_string();
  } catch (const Error& e) {
    return "the printout '" + text + "' of " + l.to_string() + " does not parse: " + e.what();
  }
  return std::nullopt;
}

Violation descriptor_round_trip(const std::string& text) {
  try {
    const Descriptor d = parse_descriptor(text);
    const Descriptor back = parse_descriptor(d.to_string());
    if (!(back == d)) return "'" + text + "' prints as '" + d.to_string() + "', which parses to '" + back.to_string() + "'";
    const Descriptor n = normalize(d);
    if (!(normalize(parse_descriptor(n.to_string())) == n)) return "normalized '" + n.to_string() + "' does not round-trip";
  } catch (const Error& e) {
    return "'" + text + "' was rejected: " + e.what();
  }
  return std::nullopt;
}

// The diagnostic must start with "column N: " and N must lie within the text (or one past it).
Violation diagnostic_with_column(const std::string& text, const std::string& message) {
  static const std::regex column(R"(^column ([0-9]+): .+)");
  std::smatch m;
  if (!std::regex_match(message, m, column)) return "'" + text + "': diagnostic without a column: " + message;
  const auto n = std::stoull(m[1].str());
  if (n < 1 || n > text.size() + 1) return "'" + text + "': column " + m[1].str() + " lies outside the text: " + message;
  return std::nullopt;
}

Violation malformed_law(const Evaluator& evaluate, const gen::MalformedText& bad) {
  try {
    const Value v = evaluate(bad.text);
    return "malformed '" + bad.text + "' (" + bad.what + ") evaluated to " + v.to_string();
  } catch (const Error& e) {
    return diagnostic_with_column(bad.text, e.what());
  } catch (const std::exception& e) {
    return "malformed '" + bad.text + "' threw a non-cuteref exception: " + e.what();
  }
}

using DescriptorParser = std::function<Descriptor(const std::string&)>;
const DescriptorParser kParseDescriptor = [](const std::string& t) { return normalize(parse_descriptor(t)); };

Violation malformed_descriptor_law(const gen::MalformedText& bad, const DescriptorParser& parse = kParseDescriptor) {
  try {
    const Descriptor d = parse(bad.text);
    return "malformed '" + bad.text + "' (" + bad.what + ") parsed to " + d.to_string();
  } catch (const ParseError& e) {
    return diagnostic_with_column(bad.text, e.what());
  } catch (const std::exception& e) {
    return "malformed '" + bad.text + "': not a ParseError: " + e.what();
  }
}

Violation noise_law(const std::string& text, const Evaluator& evaluate = kEvaluate) {
  try {
    (void)evaluate(text);
  } catch (const Error&) {
  } catch (const std::exception& e) {
    return "'" + text + "' threw a non-cuteref exception: " + e.what();
  }
  return std::nullopt;
}

// --- broken variants (test code only) ---
// A printer that forgets the static marks: `_8` prints as `8`.
std::string print_without_static_marks(const Layout& l) {
  std::string s = l.to_string();
  s.erase(std::remove(s.begin(), s.end(), '_'), s.end());
  return s;
}
// A lenient evaluator that turns a parse failure into a default layout.
Value lenient_evaluate(const std::string& text) {
  try {
    return kEvaluate(text);
  } catch (const Error&) {
    return Value(Layout(IntTuple::integer(1), IntTuple::integer(0)));
  }
}
// An evaluator whose diagnostics lose the column.
Value columnless_evaluate(const std::string& text) {
  try {
    return kEvaluate(text);
  } catch (const Error& e) {
    const std::string m = e.what();
    throw Error(m.substr(m.find(": ") + 2));
  }
}

// A descriptor parser that answers the empty group () where it should reject.
Descriptor lenient_descriptor(const std::string& text) {
  try {
    return kParseDescriptor(text);
  } catch (const Error&) {
    return Descriptor::group({});
  }
}
// An evaluator that lets a standard-library exception escape on unbalanced input (an unchecked
// index into its bracket stack).
Value evaluate_with_unchecked_brackets(const std::string& text) {
  const auto open = std::count(text.begin(), text.end(), '('), close = std::count(text.begin(), text.end(), ')');
  if (open != close) (void)std::vector<int>().at(static_cast<std::size_t>(open));
  return kEvaluate(text);
}

const gen::ShapeLimits kLimits{3, 4, 4, 1 << 20};

}  // namespace

RC_GTEST_PROP(Notation, layout_round_trip, ()) {
  const bool basis = *rc::gen::arbitrary<bool>();
  const Layout l = basis ? *gen::basis_layout(kLimits) : *gen::layout(kLimits);
  RC_TAG(basis ? "scaled-basis strides" : "integer strides");
  rc_require(layout_round_trip(kPrint, l));
  const Swizzle sw = *gen::swizzle();
  const std::string composed = sw.to_string() + " o " + l.to_string();
  if (!basis) {
    const std::string back = kEvaluate(composed).to_string();
    if (back != composed) RC_FAIL("'" + composed + "' evaluates to '" + back + "'");
  }
  count_random("notation round trip");
}

RC_GTEST_PROP(Notation, descriptor_round_trip, ()) {
  rc_require(descriptor_round_trip(*gen::descriptor_text()));
  count_random("descriptor round trip");
}

RC_GTEST_PROP(Notation, malformed_layouts_give_a_column_diagnostic, ()) {
  const auto bad = *gen::malformed_layout_text();
  RC_TAG(bad.what);
  rc_require(malformed_law(kEvaluate, bad));
  count_random("malformed text");
}

RC_GTEST_PROP(Notation, malformed_descriptors_give_a_column_diagnostic, ()) {
  const auto bad = *gen::malformed_descriptor_text();
  RC_TAG(bad.what);
  rc_require(malformed_descriptor_law(bad));
  count_random("malformed descriptor");
}

RC_GTEST_PROP(Notation, noise_never_crashes, ()) {
  rc_require(noise_law(*gen::notation_noise()));
  count_random("notation noise");
}

TEST(Notation, exhaustive) {
  const LeafAlphabet flat{range(1, 4), range(-2, 8)};
  const LeafAlphabet nested{range(1, 3), {0, 1, 2, 4}};
  {
    Exhaustive ex("notation round trip", "flat rank<=3, " + flat.to_string());
    for_each_flat_layout(3, flat, [&](const Layout& l) { ex.check(l.to_string(), layout_round_trip(kPrint, l)); });
  }
  {
    Exhaustive ex("notation round trip", "depth-2 nestings of <=4 leaves, " + nested.to_string());
    for_each_nested_layout(4, nested, [&](const Layout& l) { ex.check(l.to_string(), layout_round_trip(kPrint, l)); });
  }
  {
    // Every flat rank<=2 layout with every targeted edit at every position.
    Exhaustive ex("malformed text", "flat rank<=2 (extents 1..4, strides 0..4) x {extra '(', extra ')', '#' at every position, "
                                    "nothing after ':', '@' after ':', '::'}");
    for_each_flat_layout(2, LeafAlphabet{range(1, 4), range(0, 4)}, [&](const Layout& l) {
      const std::string t = l.to_string();
      const std::size_t colon = t.find(':');
      std::vector<gen::MalformedText> edits{{"(" + t, "extra '('"}, {t + ")", "extra ')'"},
                                            {t.substr(0, colon + 1), "nothing after ':'"},
                                            {t.substr(0, colon + 1) + "@" + t.substr(colon + 1), "'@' after ':'"},
                                            {t.substr(0, colon) + "::" + t.substr(colon + 1), "'::'"}};
      for (std::size_t p = 0; p <= t.size(); ++p) edits.push_back({t.substr(0, p) + "#" + t.substr(p), "'#'"});
      for (const auto& e : edits) ex.check(e.text, malformed_law(kEvaluate, e));
    });
  }
  {
    // Every descriptor of up to two entries, each a basis over a small alphabet or a group of
    // one or two such bases, and every targeted edit of each.
    const std::vector<std::string> bases{"1@0", "-1@1", "0@0", "2@0@1", "4/2@1", "16@2"};
    std::vector<std::string> entries = bases;
    for (const auto& x : bases) {
      entries.push_back("(" + x + ")");
      for (const auto& y : bases) entries.push_back("(" + x + ", " + y + ")");
    }
    std::vector<std::string> descriptors;
    for (const auto& x : entries) {
      descriptors.push_back("(" + x + ")");
      for (const auto& y : entries) descriptors.push_back("(" + x + "," + y + ")");
    }
    Exhaustive ok("descriptor round trip", "every descriptor of <= 2 entries over " + std::to_string(bases.size()) +
                                               " bases, entries a basis or a group of <= 2 bases");
    Exhaustive bad("malformed descriptor", "the same descriptors x {extra '(', extra ')', '#' at every position, "
                                           "'@' without a dimension, no opening '('}");
    for (const auto& d : descriptors) {
      ok.check(d, descriptor_round_trip(d));
      std::vector<gen::MalformedText> edits{{"(" + d, "extra '('"}, {d + ")", "extra ')'"}, {d.substr(1), "no '('"}};
      const std::size_t at = d.find('@');
      edits.push_back({d.substr(0, at + 1) + d.substr(d.find_first_of(",) ", at + 1)), "'@' without a dimension"});
      for (std::size_t p = 0; p <= d.size(); ++p) edits.push_back({d.substr(0, p) + "#" + d.substr(p), "'#'"});
      for (const auto& e : edits) bad.check(e.text, malformed_descriptor_law(e));
    }
  }
  {
    // Every string of length <= 4 over a small alphabet of the notation.
    const std::string alphabet = "(),:_1@/o<";
    Exhaustive ex("notation noise", "every string of length <= 4 over \"" + alphabet + "\"");
    std::function<void(std::string)> all = [&](std::string s) {
      ex.check("'" + s + "'", noise_law(s));
      if (s.size() == 4) return;
      for (char c : alphabet) all(s + c);
    };
    all("");
  }
}

TEST(Notation, mutants_are_caught) {
  expect_mutant_caught("malformed descriptor", "lenient parser returns ()", [] {
    rc_require(malformed_descriptor_law(*gen::malformed_descriptor_text(), lenient_descriptor));
  });
  expect_mutant_caught("notation noise", "std::out_of_range escapes on unbalanced brackets", [] {
    rc_require(noise_law(*gen::notation_noise(), evaluate_with_unchecked_brackets));
  });
  expect_mutant_caught("notation round trip", "printer drops the static marks", [] {
    rc_require(layout_round_trip(print_without_static_marks, *gen::layout(kLimits)));
  });
  expect_mutant_caught("malformed text", "lenient parser returns a default layout", [] {
    rc_require(malformed_law(lenient_evaluate, *gen::malformed_layout_text()));
  });
  expect_mutant_caught("malformed text", "diagnostic without its column", [] {
    rc_require(malformed_law(columnless_evaluate, *gen::malformed_layout_text()));
  });
  expect_mutant_caught("descriptor round trip", "descriptor printed normalized (6/2 as 3)", [] {
    const std::string text = *gen::descriptor_text();
    const Descriptor d = parse_descriptor(text);
    const Descriptor back = parse_descriptor(normalize(d).to_string());
    if (!(back == d)) RC_FAIL("'" + text + "' printed normalized parses to '" + back.to_string() + "'");
  });
}

}  // namespace cuteref::props::notation_properties
