#include "atoms/tmem_copy_atom.hpp"

#include <cctype>
#include <string>

#include "atoms/atom_table_notation.hpp"
#include "error.hpp"

namespace cuteref {

namespace {

using atom_table_notation::s;
using atom_table_notation::t;

constexpr std::int64_t kLaneBits = std::int64_t{1} << 21;  // CuTe's TMEM::DP_b: one lane in bit addresses

struct Shape {
  const char* name;
  std::int64_t lanes, row_bits, max_repeat;
};
constexpr Shape kShapes[] = {
    {"32dp32b", 32, 32, 128}, {"16dp32b", 16, 64, 128}, {"16dp64b", 16, 64, 128}, {"16dp128b", 16, 128, 64}, {"16dp256b", 16, 256, 32},
};

// (thread, register bit) -> logical bit of a tcgen05.ld of `shape` repeated r times (the header's table).
Layout load_destination(const std::string& shape, std::int64_t r) {
  if (shape == "32dp32b") return Layout(t({s(32), s(32 * r)}), t({s(32 * r), s(1)}));
  if (shape == "16dp32b") return Layout(t({t({s(16), s(2)}), s(32 * r)}), t({t({s(64 * r), s(32 * r)}), s(1)}));
  if (shape == "16dp64b") {
    const IntTuple thr = t({s(2), s(2), s(8)}), thr_stride = t({s(512 * r), s(32), s(64 * r)});
    if (r == 1) return Layout(t({thr, s(32)}), t({thr_stride, s(1)}));
    return Layout(t({thr, t({s(32), s(r)})}), t({thr_stride, t({s(1), s(64)})}));
  }
  // 16dp128b and 16dp256b: word t%4 (of W = B/4 bits) of lane t/4; registers: the word, lane + 8, repeats.
  const std::int64_t b = shape == "16dp128b" ? 128 : 256, w = b / 4;
  const IntTuple thr = t({s(4), s(8)}), thr_stride = t({s(w), s(b * r)});
  if (r == 1) return Layout(t({thr, t({s(w), s(2)})}), t({thr_stride, t({s(1), s(8 * b)})}));
  return Layout(t({thr, t({s(w), s(2), s(r)})}), t({thr_stride, t({s(1), s(8 * b * r), s(b)})}));
}

}  // namespace

std::optional<CopyAtom> tmem_copy_atom(std::string_view name_view) {
  const std::string name(name_view);
  const std::string load = "SM100_TMEM_LOAD_", store = "SM100_TMEM_STORE_";
  const bool is_load = name.rfind(load, 0) == 0;
  if (!is_load && name.rfind(store, 0) != 0) return std::nullopt;
  auto bad = [&](const std::string& what) -> Error { return Error("copy atom `" + name + "`: " + what); };
  std::string rest = name.substr(is_load ? load.size() : store.size());
  const Shape* shape = nullptr;
  for (const Shape& sh : kShapes)
    if (rest.rfind(sh.name, 0) == 0 && (!shape || std::string(sh.name).size() > std::string(shape->name).size())) shape = &sh;
  if (!shape) throw bad("the shape must be 32dp32b, 16dp32b, 16dp64b, 16dp128b or 16dp256b");
  rest = rest.substr(std::string(shape->name).size());
  std::size_t digits = 0;
  while (digits < rest.size() && digits < 4 && std::isdigit(static_cast<unsigned char>(rest[digits]))) ++digits;
  if (digits == 0 || rest[0] == '0' || rest.size() <= digits || rest[digits] != 'x')
    throw bad("expected the repeat count <R>x after the shape (R without leading zeros)");
  const std::int64_t r = std::stoll(rest.substr(0, digits));
  const std::string suffix = rest.substr(digits + 1);
  if (suffix != "" && suffix != "_16b") throw bad("unexpected suffix `" + suffix + "` (only _16b)");
  if (r < 1 || r > shape->max_repeat || (r & (r - 1)) != 0)
    throw bad("the repeat count of " + std::string(shape->name) + " is a power of two from 1 to " +
              std::to_string(shape->max_repeat) + ", got " + std::to_string(r));
  const bool packed = suffix == "_16b";

  const std::int64_t row = shape->row_bits * r, total = shape->lanes * row;
  CopyAtom a;
  a.name = name;
  a.kind = is_load ? CopyKind::TmemLoad : CopyKind::TmemStore;
  a.arch = 100;
  a.thr_id = Layout(s(32), s(1));
  a.tmem_val_id = packed ? Layout(t({t({s(16), s(row / 16)}), s(shape->lanes)}), t({t({s(1), s(32)}), s(kLaneBits)}))
                         : Layout(t({s(row), s(shape->lanes)}), t({s(1), s(kLaneBits)}));
  const Layout collective(t({s(32), s(total)}), t({s(0), s(1)}));  // the warp addresses the tile together
  const Layout registers = load_destination(shape->name, r);
  a.src_layout = is_load ? collective : registers;
  a.dst_layout = is_load ? registers : collective;
  a.ref_layout = collective;
  a.vector_bits = static_cast<int>(total / 32);
  return a;
}

}  // namespace cuteref
