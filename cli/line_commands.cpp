#include "line_commands.hpp"

#include "descriptor.hpp"
#include "error.hpp"
#include "function_table.hpp"
#include "identity_layout.hpp"
#include "notation.hpp"

namespace cuteref {

std::string batch_line(const std::string& line) {
  try {
    return parse_and_evaluate(line, &standard_functions()).to_string();
  } catch (const Error& e) {
    return std::string("error: ") + e.what();
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
  return out;
}

}  // namespace cuteref
