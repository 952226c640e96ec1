#include "descriptor.hpp"

#include <cctype>
#include <limits>

#include "checked_math.hpp"
#include "error.hpp"
#include "input_limits.hpp"

namespace cuteref {

std::string DescriptorCount::to_string() const {
  std::string s = std::to_string(numerator);
  if (denominator != 1) {
    s += '/';
    s += std::to_string(denominator);
  }
  return s;
}

Descriptor Descriptor::basis(DescriptorCount count, std::vector<int> dims, std::size_t column) {
  const std::string what = "descriptor basis " + count.to_string();
  if (count.denominator == 0) throw Error(what + "@...: zero denominator");
  if (dims.empty()) throw Error(what + ": a basis needs at least one '@' dimension");
  if (dims.size() > static_cast<std::size_t>(kMaxDescriptorDepth))
    throw Error(what + ": more than " + std::to_string(kMaxDescriptorDepth) + " dimensions");
  for (int d : dims)
    if (d < 0 || d > kMaxBasisDimension)
      throw Error(what + ": dimension " + std::to_string(d) + " is outside [0, " +
                  std::to_string(kMaxBasisDimension) + "]");
  Descriptor n;
  n.kind_ = Kind::Basis;
  n.count_ = count;
  n.dims_ = std::move(dims);
  n.column_ = column;
  return n;
}

Descriptor Descriptor::group(std::vector<Descriptor> entries, std::size_t column) {
  Descriptor n;
  n.kind_ = Kind::Group;
  n.entries_ = std::move(entries);
  n.column_ = column;
  return n;
}

bool Descriptor::operator==(const Descriptor& o) const {
  if (kind_ != o.kind_) return false;
  if (is_group()) return entries_ == o.entries_;
  return count_ == o.count_ && dims_ == o.dims_;
}

std::string Descriptor::to_string() const {
  if (is_basis()) {
    std::string s = count_.to_string();
    for (int d : dims_) {
      s += '@';
      s += std::to_string(d);
    }
    return s;
  }
  std::string s = "(";
  for (std::size_t i = 0; i < entries_.size(); ++i) {
    if (i) s += ", ";
    s += entries_[i].to_string();
  }
  return s + ")";
}

namespace {

class DescriptorParser {
 public:
  DescriptorParser(std::string_view text, std::size_t pos) : text_(text), pos_(pos) {}

  Descriptor complete() {
    skip_ws();
    if (at_end()) fail("empty descriptor: expected '(' to open a group");
    Descriptor d = group_at_top();
    skip_ws();
    if (!at_end()) {
      if (peek() == ')') fail("unbalanced ')': no matching '('");
      fail("unexpected trailing text after the descriptor, starting with " + next());
    }
    return d;
  }

  Descriptor group_at_top() {
    skip_ws();
    if (at_end()) fail("expected '(' to open a descriptor group, found end of input");
    if (peek() != '(') fail("a descriptor is a group: expected '(', found " + next());
    return group(1);
  }

  std::size_t position() const { return pos_; }

 private:
  std::string_view text_;
  std::size_t pos_;

  bool at_end() const { return pos_ >= text_.size(); }
  char peek() const { return at_end() ? '\0' : text_[pos_]; }
  bool digit() const { return std::isdigit(static_cast<unsigned char>(peek())) != 0; }
  void skip_ws() {
    while (!at_end() && (peek() == ' ' || peek() == '\t')) ++pos_;
  }
  std::string next() const { return at_end() ? "end of input" : std::string("'") + peek() + "'"; }
  [[noreturn]] void fail(const std::string& what) const { fail_at(pos_, what); }
  [[noreturn]] static void fail_at(std::size_t pos, const std::string& what) { throw ParseError(pos + 1, what); }

  // Precondition: peek() == '('. `depth` is the nesting level of this group (1 = root).
  Descriptor group(int depth) {
    const std::size_t open = pos_;
    if (depth > kMaxDescriptorDepth)
      fail("groups nested deeper than " + std::to_string(kMaxDescriptorDepth) + " levels");
    ++pos_;
    std::vector<Descriptor> entries;
    skip_ws();
    if (peek() == ')') {
      ++pos_;
      return Descriptor::group(std::move(entries), open + 1);
    }
    for (;;) {
      skip_ws();
      if (at_end()) fail_at(open, "unbalanced '(': no matching ')' before end of input");
      entries.push_back(entry(depth));
      skip_ws();
      if (peek() == ',') {
        ++pos_;
        continue;
      }
      if (peek() == ')') {
        ++pos_;
        return Descriptor::group(std::move(entries), open + 1);
      }
      if (at_end()) fail_at(open, "unbalanced '(': no matching ')' before end of input");
      fail("expected ',' or ')' after a descriptor entry, found " + next());
    }
  }

  Descriptor entry(int depth) {
    if (peek() == '(') return group(depth + 1);
    if (peek() == '-' || digit()) return basis();
    if (peek() == ')') fail("expected a descriptor entry (a group or a basis N@dim) after ',', found ')'");
    fail("expected a descriptor entry (a group '(' or a basis N@dim), found " + next());
  }

  // A signed decimal within int64. `what` names the number in diagnostics.
  std::int64_t integer(const std::string& what) {
    const std::size_t start = pos_;
    bool negative = false;
    if (peek() == '-') {
      negative = true;
      ++pos_;
    }
    if (!digit()) fail("expected the digits of " + what + ", found " + next());
    // Accumulate negatively so that INT64_MIN is reachable.
    std::int64_t v = 0;
    while (digit()) {
      const int d = peek() - '0';
      if (v < (std::numeric_limits<std::int64_t>::min() + d) / 10)
        fail_at(start, what + " is too large: it does not fit in 64-bit signed integers");
      v = v * 10 - d;
      ++pos_;
    }
    if (!negative) {
      if (v == std::numeric_limits<std::int64_t>::min())
        fail_at(start, what + " is too large: it does not fit in 64-bit signed integers");
      v = -v;
    }
    return v;
  }

  int dimension() {
    skip_ws();
    const std::size_t start = pos_;
    if (!digit()) fail("expected a dimension (a non-negative integer) after '@', found " + next());
    std::int64_t v = 0;
    while (digit()) {
      v = v * 10 + (peek() - '0');
      ++pos_;
      if (v > kMaxBasisDimension)
        fail_at(start, "basis dimension is too large (at most " + std::to_string(kMaxBasisDimension) + ")");
    }
    return static_cast<int>(v);
  }

  Descriptor basis() {
    const std::size_t start = pos_;
    DescriptorCount count;
    count.numerator = integer("the count");
    skip_ws();
    if (peek() == '/') {
      ++pos_;
      skip_ws();
      const std::size_t den = pos_;
      count.denominator = integer("the denominator");
      if (count.denominator == 0)
        fail_at(den, "zero denominator in the count " + count.to_string() + " of a basis");
    }
    skip_ws();
    if (peek() != '@')
      fail("expected '@' after the count " + count.to_string() + " (a basis is N@dim), found " + next());
    std::vector<int> dims;
    while (peek() == '@') {
      ++pos_;
      if (dims.size() == static_cast<std::size_t>(kMaxDescriptorDepth))
        fail("a basis names more than " + std::to_string(kMaxDescriptorDepth) + " dimensions");
      dims.push_back(dimension());
      skip_ws();
    }
    return Descriptor::basis(count, std::move(dims), start + 1);
  }
};

// The reduced form p/q (q > 0) of a count, for diagnostics; magnitudes in unsigned so
// that INT64_MIN needs no special case.
std::string reduced_text(const DescriptorCount& c) {
  auto magnitude = [](std::int64_t v) {
    return v < 0 ? std::uint64_t{0} - static_cast<std::uint64_t>(v) : static_cast<std::uint64_t>(v);
  };
  std::uint64_t p = magnitude(c.numerator), q = magnitude(c.denominator);
  std::uint64_t a = p, b = q;
  while (b != 0) {
    const std::uint64_t t = a % b;
    a = b;
    b = t;
  }
  if (a > 1) {
    p /= a;
    q /= a;
  }
  const bool negative = p != 0 && ((c.numerator < 0) != (c.denominator < 0));
  std::string s = negative ? "-" : "";
  s += std::to_string(p);
  s += '/';
  s += std::to_string(q);
  return s;
}

void collect(const Descriptor& d, std::vector<std::size_t>& position, std::vector<std::string>& out) {
  if (d.is_group()) {
    for (std::size_t i = 0; i < d.entries().size(); ++i) {
      position.push_back(i);
      collect(d.entries()[i], position, out);
      position.pop_back();
    }
    return;
  }
  std::string mode = "(";
  for (std::size_t i = 0; i < position.size(); ++i) {
    if (i) mode += ',';
    mode += std::to_string(position[i]);
  }
  mode += ")";
  std::string e = "E<";  // outermost index first, the reverse of the printed dims
  for (std::size_t i = d.dims().size(); i-- > 0;) e += std::to_string(d.dims()[i]) + (i ? "," : "");
  e += ">";
  out.push_back("mode " + mode + ": one step adds " + d.count().to_string() + "*" + e);
}

Descriptor from_stride_at(const IntTuple& t, const IntTuple& whole) {
  if (t.is_tuple()) {
    std::vector<Descriptor> entries;
    for (const auto& e : t.elements()) entries.push_back(from_stride_at(e, whole));
    return Descriptor::group(std::move(entries));
  }
  if (!t.is_basis())
    throw Error("descriptor of stride " + whole.to_string() + ": the leaf " + t.to_string() +
                " is not a scaled basis (a descriptor entry is N@dim)");
  return Descriptor::basis({t.value(), 1}, t.basis_path());
}

}  // namespace

Descriptor parse_descriptor(std::string_view text) {
  if (text.size() > kMaxExpressionBytes)
    throw ParseError(kMaxExpressionBytes + 1, "the descriptor is " + std::to_string(text.size()) +
                                                  " bytes, longer than the limit of " +
                                                  std::to_string(kMaxExpressionBytes) + " bytes");
  return DescriptorParser(text, 0).complete();
}

Descriptor parse_descriptor_group(std::string_view text, std::size_t& pos) {
  DescriptorParser p(text, pos);
  Descriptor d = p.group_at_top();
  pos = p.position();
  return d;
}

Descriptor normalize(const Descriptor& d) {
  if (d.is_group()) {
    std::vector<Descriptor> entries;
    for (const auto& e : d.entries()) entries.push_back(normalize(e));
    return Descriptor::group(std::move(entries), d.column());
  }
  const DescriptorCount& c = d.count();
  auto reject = [&d](const std::string& why) {
    const std::string what = "basis " + d.to_string() + ": " + why;
    if (d.column() != 0) throw ParseError(d.column(), what);
    throw Error(what);
  };
  // Checked before the remainder: INT64_MIN % -1 is itself undefined.
  if (c.numerator == std::numeric_limits<std::int64_t>::min() && c.denominator == -1)
    reject("count " + c.to_string() + " overflows 64 bits");
  if (c.numerator % c.denominator != 0)
    reject("count " + c.to_string() + (reduced_text(c) == c.to_string() ? "" : " = " + reduced_text(c)) +
           " does not normalize to an integer; a fractional stride has no layout");
  return Descriptor::basis({c.numerator / c.denominator, 1}, d.dims(), d.column());
}

bool is_normalized(const Descriptor& d) {
  if (d.is_basis()) return d.count().denominator == 1;
  for (const auto& e : d.entries())
    if (!is_normalized(e)) return false;
  return true;
}

bool equivalent(const Descriptor& a, const Descriptor& b) { return normalize(a) == normalize(b); }

IntTuple to_stride(const Descriptor& d) {
  const Descriptor n = normalize(d);
  if (n.is_basis()) return IntTuple::basis(n.count().numerator, n.dims());
  std::vector<IntTuple> elements;
  for (const auto& e : n.entries()) elements.push_back(to_stride(e));
  return IntTuple::tuple(std::move(elements));
}

Descriptor from_stride(const IntTuple& stride) {
  if (!stride.is_tuple())
    throw Error("descriptor of stride " + stride.to_string() + ": a descriptor is a group; the stride must be a tuple");
  return from_stride_at(stride, stride);
}

Layout to_layout(const Descriptor& d, const IntTuple& shape) {
  IntTuple stride = to_stride(d);
  if (!congruent(shape, stride))
    throw Error("layout of descriptor " + d.to_string() + ": shape " + shape.to_string() +
                " is not congruent with the descriptor's stride " + stride.to_string());
  return Layout(shape, stride);
}

std::vector<std::string> explain(const Descriptor& d) {
  std::vector<std::string> out;
  std::vector<std::size_t> position;
  collect(normalize(d), position, out);
  return out;
}

}  // namespace cuteref
