#include "line_commands.hpp"

#include <exception>
#include <new>

#include "descriptor.hpp"
#include "diagnostic_text.hpp"
#include "error.hpp"
#include "function_table.hpp"
#include "identity_layout.hpp"
#include "notation.hpp"

namespace cuteref {

namespace {

// The text of a value, or Error when it is longer than kMaxResultBytes (printing stops there).
std::string result_text(const Value& v) {
  std::string text;
  v.append_text(text, kMaxResultBytes);
  if (text.size() > kMaxResultBytes)
    throw Error("the result's text is longer than the limit of " + std::to_string(kMaxResultBytes) +
                " bytes (print a part of it, e.g. a mode, or its size)");
  return text;
}

}  // namespace

std::string diagnostic(const std::string& message) { return "error: " + shortened(printable(message)); }

std::string answer(const std::string& expr, bool& failed) {
  failed = true;
  try {
    std::string text = result_text(parse_and_evaluate(expr, &standard_functions()));
    failed = false;
    return text;
  } catch (const Error& e) {
    return diagnostic(e.what());
  } catch (const std::bad_alloc&) {
    return diagnostic("out of memory evaluating this expression");
  } catch (const std::exception& e) {
    return diagnostic(std::string("internal error: ") + e.what());
  }
}

std::string describe_report(const std::string& descriptor, const std::string* shape_text) {
  const Descriptor d = normalize(parse_descriptor(descriptor));
  const IntTuple stride = to_stride(d);
  std::string out = "descriptor: " + d.to_string() + "\nstride: " + stride.to_string() + "\n";
  for (const auto& line : explain(d)) out += line + "\n";
  if (shape_text) {
    const IntTuple shape = parse_int_tuple(*shape_text);
    const Layout l = to_layout(d, shape);
    out += "layout: " + l.to_string() + "\nsize: " + size(l).to_string() + "\n";
    if (stride.same_values(make_basis_like(shape)))
      out += "identity layout of " + shape.to_string() + ": L(i) is the coordinate of i\n";
  }
  if (out.size() > kMaxResultBytes)
    throw Error("the description is " + std::to_string(out.size()) + " bytes of text, more than the limit of " +
                std::to_string(kMaxResultBytes) + " bytes");
  return out;
}

}  // namespace cuteref
