#include "value.hpp"

#include "error.hpp"

namespace cuteref {

std::string Value::kind_name() const {
  struct Visitor {
    std::string operator()(const IntTuple& t) const {
      if (t.is_integer()) return "an integer";
      if (t.is_underscore()) return "`_`";
      if (t.is_basis()) return "a scaled basis";
      return "an integer tuple";
    }
    std::string operator()(const Layout&) const { return "a layout"; }
    std::string operator()(const Swizzle&) const { return "a swizzle"; }
    std::string operator()(const ComposedLayout&) const { return "a composed layout"; }
    std::string operator()(const Verdict&) const { return "a comparison result"; }
    std::string operator()(const MixedTuple&) const { return "a tuple of layouts"; }
    std::string operator()(const MajorTag&) const { return "a major-ness tag"; }
    std::string operator()(const Symbol&) const { return "a name"; }
    std::string operator()(const F2Layout&) const { return "an F2 layout"; }
  };
  return std::visit(Visitor{}, data);
}

std::string Value::to_string() const {
  std::string s;
  append_text(s);
  return s;
}

void Value::append_text(std::string& out, std::size_t limit) const {
  struct Visitor {
    std::string& out;
    std::size_t limit;
    void operator()(const IntTuple& t) const { t.append_text(out, limit); }
    void operator()(const Layout& l) const { l.append_text(out, limit); }
    void operator()(const Swizzle& s) const { out += s.to_string(); }
    void operator()(const ComposedLayout& c) const { c.append_text(out, limit); }
    void operator()(const Verdict& v) const { out += v.holds ? "true" : "false: " + v.reason; }
    void operator()(const MixedTuple& m) const {
      out += '(';
      for (std::size_t i = 0; i < m.elements.size() && out.size() <= limit; ++i) {
        if (i) out += ',';
        m.elements[i].append_text(out, limit);
      }
      out += ')';
    }
    void operator()(const MajorTag& t) const { out += t.row_major ? "LayoutRight" : "LayoutLeft"; }
    void operator()(const Symbol& s) const { out += s.name; }
    void operator()(const F2Layout& l) const { l.append_text(out, limit); }
  };
  if (out.size() <= limit) std::visit(Visitor{out, limit}, data);
}

Value make_tuple_value(std::vector<Value> elements) {
  if (elements.size() > kMaxTupleElements)  // the IntTuple bound, for mixed tuples too
    throw Error("a tuple of " + std::to_string(elements.size()) + " elements, more than the limit of " +
                std::to_string(kMaxTupleElements) + " (the rank of a tuple, shape, stride or tiler)");
  bool all_int = true;
  for (const auto& e : elements) all_int = all_int && e.is_int_tuple();
  if (all_int) {
    std::vector<IntTuple> ts;
    for (auto& e : elements) ts.push_back(std::get<IntTuple>(e.data));
    return Value(IntTuple::tuple(std::move(ts)));
  }
  return Value(MixedTuple{std::move(elements)});
}

}  // namespace cuteref
