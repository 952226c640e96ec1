#include "atoms/umma_instr_desc.hpp"

#include <string>

#include "error.hpp"

namespace cuteref {

namespace {

// Each field: its first bit and its width.
struct Field {
  std::uint32_t UmmaInstrDescriptor::*member;
  int bit, width;
  const char* name;
};

constexpr Field kFields[] = {
    {&UmmaInstrDescriptor::sparse_id2, 0, 2, "sparse_id2"}, {&UmmaInstrDescriptor::sparse, 2, 1, "sparse"},
    {&UmmaInstrDescriptor::saturate, 3, 1, "saturate"},     {&UmmaInstrDescriptor::d_format, 4, 2, "d_format"},
    {&UmmaInstrDescriptor::a_format, 7, 3, "a_format"},     {&UmmaInstrDescriptor::b_format, 10, 3, "b_format"},
    {&UmmaInstrDescriptor::negate_a, 13, 1, "negate_a"},    {&UmmaInstrDescriptor::negate_b, 14, 1, "negate_b"},
    {&UmmaInstrDescriptor::a_major, 15, 1, "a_major"},      {&UmmaInstrDescriptor::b_major, 16, 1, "b_major"},
    {&UmmaInstrDescriptor::n_dim, 17, 6, "n_dim"},          {&UmmaInstrDescriptor::m_dim, 24, 5, "m_dim"},
    {&UmmaInstrDescriptor::max_shift, 30, 2, "max_shift"},
};

}  // namespace

std::uint32_t UmmaInstrDescriptor::encode() const {
  std::uint32_t w = 0;
  for (const Field& f : kFields) {
    const std::uint32_t v = this->*f.member;
    if (v >> f.width != 0)
      throw Error(std::string("UmmaInstrDescriptor::encode: field ") + f.name + " = " + std::to_string(v) +
                  " does not fit its " + std::to_string(f.width) + " bits");
    w |= v << f.bit;
  }
  return w;
}

UmmaInstrDescriptor UmmaInstrDescriptor::decode(std::uint32_t w) {
  UmmaInstrDescriptor d;
  for (const Field& f : kFields) d.*f.member = (w >> f.bit) & ((1u << f.width) - 1);
  return d;
}

}  // namespace cuteref
