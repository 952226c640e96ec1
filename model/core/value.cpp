#include "value.hpp"

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
  };
  return std::visit(Visitor{}, data);
}

std::string Value::to_string() const {
  struct Visitor {
    std::string operator()(const IntTuple& t) const { return t.to_string(); }
    std::string operator()(const Layout& l) const { return l.to_string(); }
    std::string operator()(const Swizzle& s) const { return s.to_string(); }
    std::string operator()(const ComposedLayout& c) const { return c.to_string(); }
    std::string operator()(const Verdict& v) const { return v.holds ? "true" : "false: " + v.reason; }
    std::string operator()(const MixedTuple& m) const {
      std::string s = "(";
      for (std::size_t i = 0; i < m.elements.size(); ++i) {
        if (i) s += ",";
        s += m.elements[i].to_string();
      }
      return s + ")";
    }
    std::string operator()(const MajorTag& t) const { return t.row_major ? "LayoutRight" : "LayoutLeft"; }
    std::string operator()(const Symbol& s) const { return s.name; }
  };
  return std::visit(Visitor{}, data);
}

Value make_tuple_value(std::vector<Value> elements) {
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
