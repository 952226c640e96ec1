#include "int_tuple.hpp"

#include <algorithm>

#include "checked_math.hpp"
#include "error.hpp"

namespace cuteref {

IntTuple IntTuple::integer(std::int64_t value, bool is_static) {
  IntTuple t;
  t.kind_ = Kind::Integer;
  t.value_ = value;
  t.is_static_ = is_static;
  return t;
}

IntTuple IntTuple::basis(std::int64_t value, std::vector<int> printed_path, bool is_static) {
  if (printed_path.empty()) return integer(value, is_static);
  for (int d : printed_path)
    if (d < 0) throw Error("scaled basis: dimension index must be non-negative, got " + std::to_string(d));
  IntTuple t;
  t.kind_ = Kind::Basis;
  t.value_ = value;
  t.is_static_ = is_static;
  t.basis_path_ = std::move(printed_path);
  return t;
}

IntTuple IntTuple::underscore() {
  IntTuple t;
  t.kind_ = Kind::Underscore;
  t.is_static_ = true;
  return t;
}

IntTuple IntTuple::tuple(std::vector<IntTuple> elements) {
  IntTuple t;
  t.kind_ = Kind::Tuple;
  t.elements_ = std::move(elements);
  return t;
}

std::int64_t IntTuple::value() const {
  if (kind_ != Kind::Integer && kind_ != Kind::Basis)
    throw Error("expected an integer, got " + to_string());
  return value_;
}

const IntTuple& IntTuple::operator[](std::size_t i) const {
  if (!is_tuple()) {
    if (i == 0) return *this;
    throw Error("mode " + std::to_string(i) + " out of range for rank-1 " + to_string());
  }
  if (i >= elements_.size())
    throw Error("mode " + std::to_string(i) + " out of range for rank-" +
                std::to_string(elements_.size()) + " " + to_string());
  return elements_[i];
}

int IntTuple::depth() const {
  if (!is_tuple()) return 0;
  int d = 0;
  for (const auto& e : elements_) d = std::max(d, e.depth());
  return d + 1;
}

bool IntTuple::all_static() const {
  if (is_tuple()) return std::all_of(elements_.begin(), elements_.end(), [](const IntTuple& e) { return e.all_static(); });
  return is_static_;
}

bool IntTuple::has_underscore() const {
  if (is_tuple()) return std::any_of(elements_.begin(), elements_.end(), [](const IntTuple& e) { return e.has_underscore(); });
  return is_underscore();
}

bool IntTuple::has_basis() const {
  if (is_tuple()) return std::any_of(elements_.begin(), elements_.end(), [](const IntTuple& e) { return e.has_basis(); });
  return is_basis();
}

bool IntTuple::operator==(const IntTuple& o) const {
  if (kind_ != o.kind_) return false;
  if (is_tuple()) return elements_ == o.elements_;
  return value_ == o.value_ && is_static_ == o.is_static_ && basis_path_ == o.basis_path_;
}

bool IntTuple::same_values(const IntTuple& o) const {
  if (kind_ != o.kind_) return false;
  if (is_tuple()) {
    if (elements_.size() != o.elements_.size()) return false;
    for (std::size_t i = 0; i < elements_.size(); ++i)
      if (!elements_[i].same_values(o.elements_[i])) return false;
    return true;
  }
  return value_ == o.value_ && basis_path_ == o.basis_path_;
}

std::string IntTuple::to_string() const {
  switch (kind_) {
    case Kind::Underscore:
      return "_";
    case Kind::Integer:
      return (is_static_ ? "_" : "") + std::to_string(value_);
    case Kind::Basis: {
      std::string s = (is_static_ ? "_" : "") + std::to_string(value_);
      for (int d : basis_path_) s += "@" + std::to_string(d);
      return s;
    }
    case Kind::Tuple: {
      std::string s = "(";
      for (std::size_t i = 0; i < elements_.size(); ++i) {
        if (i) s += ",";
        s += elements_[i].to_string();
      }
      return s + ")";
    }
  }
  return "?";
}

bool congruent(const IntTuple& a, const IntTuple& b) {
  if (a.is_tuple() != b.is_tuple()) return false;
  if (!a.is_tuple()) return true;
  if (a.rank() != b.rank()) return false;
  for (std::size_t i = 0; i < a.rank(); ++i)
    if (!congruent(a[i], b[i])) return false;
  return true;
}

bool weakly_congruent(const IntTuple& a, const IntTuple& b) {
  if (!a.is_tuple()) return true;
  if (!b.is_tuple()) return false;
  if (a.rank() != b.rank()) return false;
  for (std::size_t i = 0; i < a.rank(); ++i)
    if (!weakly_congruent(a[i], b[i])) return false;
  return true;
}

IntTuple leaf_mul(const IntTuple& a, const IntTuple& b) {
  return IntTuple::integer(checked_mul(a.value(), b.value()), a.is_static() && b.is_static());
}

IntTuple leaf_add(const IntTuple& a, const IntTuple& b) {
  return IntTuple::integer(checked_add(a.value(), b.value()), a.is_static() && b.is_static());
}

IntTuple product(const IntTuple& t) {
  if (t.is_integer()) return t;
  if (!t.is_tuple()) throw Error("product: expected integers, got " + t.to_string());
  IntTuple r = IntTuple::static_int(1);
  for (const auto& e : t.elements()) r = leaf_mul(r, product(e));
  return r;
}

void flatten_into(const IntTuple& t, std::vector<IntTuple>& out) {
  if (!t.is_tuple()) {
    out.push_back(t);
    return;
  }
  for (const auto& e : t.elements()) flatten_into(e, out);
}

IntTuple flatten(const IntTuple& t) {
  if (!t.is_tuple()) return t;
  std::vector<IntTuple> leaves;
  flatten_into(t, leaves);
  return IntTuple::tuple(std::move(leaves));
}

IntTuple wrap(const IntTuple& t) { return t.is_tuple() ? t : IntTuple::tuple({t}); }

}  // namespace cuteref
