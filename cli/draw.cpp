#include "draw.hpp"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <optional>
#include <sstream>

#include "checked_math.hpp"
#include "command_arguments.hpp"
#include "equality.hpp"
#include "error.hpp"
#include "evaluate.hpp"
#include "function_table.hpp"
#include "layout.hpp"
#include "notation.hpp"
#include "make_layout.hpp"
#include "atoms/mma_atom.hpp"
#include "swizzle.hpp"
#include "atoms/tiled_copy.hpp"
#include "atoms/tiled_mma.hpp"

namespace cuteref {

namespace {

constexpr std::int64_t kMaxCells = kMaxPictureCells;

// CuTe's colour maps (cute/util/print_latex.hpp, print_svg.hpp): the values are CuTe's, so
// that the pictures compare cell for cell.
const char* const kTikzBW[8] = {"black!00", "black!40", "black!20", "black!60",
                                "black!10", "black!50", "black!30", "black!70"};
const char* const kTikzTV[8] = {"{rgb,255:red,175;green,175;blue,255}", "{rgb,255:red,175;green,255;blue,175}",
                                "{rgb,255:red,255;green,255;blue,175}", "{rgb,255:red,255;green,175;blue,175}",
                                "{rgb,255:red,210;green,210;blue,255}", "{rgb,255:red,210;green,255;blue,210}",
                                "{rgb,255:red,255;green,255;blue,210}", "{rgb,255:red,255;green,210;blue,210}"};
const char* const kSvgBW[8] = {"255,255,255", "230,230,230", "205,205,205", "180,180,180",
                               "155,155,155", "130,130,130", "105,105,105", "080,080,080"};
const char* const kSvgTV[8] = {"175,175,255", "175,255,175", "255,255,175", "255,175,175",
                               "210,210,255", "210,255,210", "255,255,210", "255,210,210"};

int mod8(std::int64_t v) { return static_cast<int>(((v % 8) + 8) % 8); }

// Bank b of 32 as a light colour: hue b * 360/32, saturation 0.55, lightness 0.78.
void bank_rgb(int bank, int& r, int& g, int& b) {
  const double h = bank * (360.0 / 32.0), s = 0.55, l = 0.78;
  const double c = (1 - std::fabs(2 * l - 1)) * s, hp = h / 60.0;
  const double x = c * (1 - std::fabs(std::fmod(hp, 2.0) - 1)), m = l - c / 2;
  double rr = 0, gg = 0, bb = 0;
  if (hp < 1) rr = c, gg = x;
  else if (hp < 2) rr = x, gg = c;
  else if (hp < 3) gg = c, bb = x;
  else if (hp < 4) gg = x, bb = c;
  else if (hp < 5) rr = x, bb = c;
  else rr = c, bb = x;
  r = static_cast<int>(std::lround((rr + m) * 255));
  g = static_cast<int>(std::lround((gg + m) * 255));
  b = static_cast<int>(std::lround((bb + m) * 255));
}

const Layout& inner_layout(const Value& v) {
  if (v.is_layout()) return std::get<Layout>(v.data);
  if (v.is_composed()) return std::get<ComposedLayout>(v.data).layout;
  throw Error("draw: " + v.kind_name() + " `" + v.to_string() +
              "` has no picture (a layout, a composed layout, a TV layout with --tile, or A == B)");
}

// The grid of a layout-like value: M = size of mode 0, N = size of the rest (CuTe's
// append<2> for rank 1: N = 1; modes 1.. grouped for rank > 2).
void grid_of(const Value& v, std::int64_t& rows, std::int64_t& cols) {
  const Layout& l = inner_layout(v);
  const std::int64_t total = layout_like_size(v);
  rows = rank(l) >= 2 ? size_value(mode(l, 0)) : total;
  cols = rows == 0 ? 0 : total / rows;
  if (total > kMaxCells)
    throw Error("draw: " + std::to_string(total) + " cells is more than the " + std::to_string(kMaxCells) +
                " a picture may have");
}

// CuTe's comment line: print of the layout as print_latex sees it (append<2> for rank 1).
std::string comment_layout(const Value& v) {
  const Layout& l = inner_layout(v);
  if (v.is_layout() && rank(l) == 1) {
    const Layout appended = make_layout_from_modes({mode(l, 0), Layout(IntTuple::static_int(1), IntTuple::static_int(0))});
    return appended.to_string();
  }
  return v.to_string();
}

std::string value_label(const IntTuple& t) { return t.is_integer() ? std::to_string(t.value()) : t.to_string(); }

DrawPanel layout_panel(const Value& v, int bank_bits) {
  DrawPanel p;
  grid_of(v, p.rows, p.cols);
  for (std::int64_t m = 0; m < p.rows; ++m)
    for (std::int64_t n = 0; n < p.cols; ++n) {
      const IntTuple value = evaluate_at(v, m + p.rows * n);
      DrawCell c{m, n, value_label(value), 0, false};
      if (bank_bits > 0 && (!value.is_integer() || value.value() < 0))
        throw Error("draw --banks: the value at (" + std::to_string(m) + "," + std::to_string(n) + ") is " +
                    value.to_string() + ", not an element offset >= 0 (a shared-memory address is a byte count)");
      if (value.is_integer()) {
        if (bank_bits > 0) {
          // bank_bits is a multiple of 8 (check_smem_element_bits): the byte address is exact.
          const std::int64_t byte = checked_mul(value.value(), bank_bits / 8);
          c.colour = static_cast<int>((byte / 4) % 32);
        } else {
          c.colour = mod8(value.value());
        }
      }
      p.cells.push_back(c);
    }
  return p;
}

DrawPanel tv_panel(const Value& v, const IntTuple& tile) {
  const Layout& l = inner_layout(v);
  if (rank(l) != 2) throw Error("draw: a TV layout has rank 2 (thread, value), got " + v.to_string());
  DrawPanel p;
  tile_extents(tile, kMaxCells, p.rows, p.cols);
  const std::int64_t threads = size_value(mode(l, 0)), values = size_value(mode(l, 1));
  if (checked_mul(threads, values) > 16 * kMaxCells) throw Error("draw: the TV layout " + v.to_string() + " is too large");
  std::vector<bool> filled(static_cast<std::size_t>(p.rows * p.cols), false);
  for (std::int64_t t = 0; t < threads; ++t)
    for (std::int64_t u = 0; u < values; ++u) {
      const IntTuple at = evaluate_at(v, t + threads * u);
      std::int64_t m, n;
      if (at.is_integer()) {
        m = at.value() % p.rows;  // idx2crd over (M,N): the last mode takes the quotient
        n = at.value() / p.rows;
      } else if (at.is_tuple() && at.rank() == 2 && at[0].is_integer() && at[1].is_integer()) {
        m = at[0].value();
        n = at[1].value();
      } else {
        throw Error("draw: the TV layout maps (" + std::to_string(t) + "," + std::to_string(u) + ") to " +
                    at.to_string() + ", not an index or an (m,n) coordinate of the tile");
      }
      if (m < 0 || n < 0 || m >= p.rows || n >= p.cols)
        throw Error("draw: the TV layout maps (" + std::to_string(t) + "," + std::to_string(u) + ") to (" +
                    std::to_string(m) + "," + std::to_string(n) + "), outside the tile " + tile.to_string());
      if (filled[static_cast<std::size_t>(m + p.rows * n)]) continue;  // the first (t,v) names the cell
      filled[static_cast<std::size_t>(m + p.rows * n)] = true;
      std::string label = "T";  // appended, not "T" + ...: GCC 12 warns falsely (-Wrestrict) on that form
      label += std::to_string(t);
      label += "\nV";
      label += std::to_string(u);
      p.cells.push_back({m, n, label, mod8(t), false});
    }
  return p;
}

// Split EXPR at a top-level `==` (outside parentheses and <...>): true with the two sides.
bool split_equality(const std::string& expr, std::string& lhs, std::string& rhs) {
  int depth = 0;
  for (std::size_t k = 0; k + 1 < expr.size(); ++k) {
    const char c = expr[k];
    if (c == '(' || c == '<' || c == '[') ++depth;
    if (c == ')' || c == '>' || c == ']') --depth;
    if (depth == 0 && c == '=' && expr[k + 1] == '=') {
      lhs = expr.substr(0, k);
      rhs = expr.substr(k + 2);
      return true;
    }
  }
  return false;
}

Value evaluate(const std::string& text) { return parse_and_evaluate(text, &standard_functions()); }

// A tiled MMA value as make_tiled_mma returns it: (ATOM, AtomLayoutMNK[, PermutationMNK]), or
// an atom's name alone (one atom). False for any other value.
std::optional<TiledMma> tiled_mma_of(const Value& v) {
  const Layout one = make_layout(IntTuple::tuple({IntTuple::static_int(1), IntTuple::static_int(1), IntTuple::static_int(1)}));
  if (v.is_symbol()) return make_tiled_mma(mma_atom(std::get<Symbol>(v.data).name), one);
  if (!v.is_mixed_tuple()) return std::nullopt;
  const auto& e = std::get<MixedTuple>(v.data).elements;
  if (e.size() == 2 && e[0].is_symbol() && e[1].is_layout())
    return make_tiled_mma(mma_atom(std::get<Symbol>(e[0].data).name), std::get<Layout>(e[1].data));
  if (e.size() == 3 && e[0].is_symbol() && e[1].is_layout())
    return make_tiled_mma(mma_atom(std::get<Symbol>(e[0].data).name), std::get<Layout>(e[1].data), e[2]);
  return std::nullopt;
}

// A tiled copy value as make_tiled_copy returns it: (ATOM, BITS, TiledLayout_TV, Tiler_MN).
std::optional<TiledCopy> tiled_copy_of(const Value& v) {
  if (!v.is_mixed_tuple()) return std::nullopt;
  const auto& e = std::get<MixedTuple>(v.data).elements;
  if (e.size() == 4 && e[0].is_symbol() && e[1].is_int_tuple() && std::get<IntTuple>(e[1].data).is_integer() &&
      e[2].is_layout() && e[3].is_int_tuple())
    return make_tiled_copy_tv(copy_atom(std::get<Symbol>(e[0].data).name),
                              static_cast<int>(std::get<IntTuple>(e[1].data).value()), std::get<Layout>(e[2].data),
                              std::get<IntTuple>(e[3].data));
  return std::nullopt;
}

// The S or D panel of a tiled copy over its (M,N) tile: CuTe's tidfrg_S/D(identity tile)(_,_,0):
// cell (m,n) names the first (thread, value), thread-major, whose tile index lands there.
DrawPanel copy_panel(const TiledCopy& tc, std::int64_t rows, std::int64_t cols, bool source) {
  DrawPanel p;
  p.rows = rows;
  p.cols = cols;
  if (checked_mul(rows, cols) > kMaxCells) throw Error("draw: the copy tile has too many cells");
  const Layout tile = make_layout(IntTuple::tuple({IntTuple::integer(rows), IntTuple::integer(cols)}));
  const Layout frg = source ? tidfrg_S(tc, tile) : tidfrg_D(tc, tile);
  const std::int64_t threads = size_value(mode(frg, 0)), values = size_value(mode(frg, 1));
  std::vector<bool> filled(static_cast<std::size_t>(rows * cols), false);
  const Value f(frg);
  for (std::int64_t t = 0; t < threads; ++t)
    for (std::int64_t u = 0; u < values; ++u) {
      const std::int64_t idx = evaluate_at(f, t + threads * u).value();  // rest coordinate 0
      if (idx < 0 || idx >= rows * cols) throw Error("draw: a copy value lies outside the tile");
      if (filled[static_cast<std::size_t>(idx)]) continue;
      filled[static_cast<std::size_t>(idx)] = true;
      std::string label = "T";
      label += std::to_string(t);
      label += "\nV";
      label += std::to_string(u);
      p.cells.push_back({idx % rows, idx / rows, label, mod8(t), false});
    }
  return p;
}

// CuTe's tile_size_mnk<i>: the permutation's size in mode i, or else the atom's extent times the
// atom layout's.
std::int64_t mma_tile_extent(const TiledMma& t, std::size_t i) {
  const std::int64_t atom = i == 0 ? t.atom.m : i == 1 ? t.atom.n : t.atom.k;
  const std::int64_t tiled = checked_mul(atom, size_value(mode(t.atom_layout_mnk, i)));
  const Value& perm = t.permutation_mnk;
  const Value* element = nullptr;
  if (perm.is_mixed_tuple() && i < std::get<MixedTuple>(perm.data).elements.size())
    element = &std::get<MixedTuple>(perm.data).elements[i];
  Value leaf = IntTuple::underscore();
  if (perm.is_int_tuple() && std::get<IntTuple>(perm.data).is_tuple() && i < std::get<IntTuple>(perm.data).rank()) {
    leaf = Value(std::get<IntTuple>(perm.data)[i]);
    element = &leaf;
  }
  if (element == nullptr) return tiled;
  if (element->is_layout()) return size_value(std::get<Layout>(element->data));
  if (element->is_int_tuple()) {
    const IntTuple& x = std::get<IntTuple>(element->data);
    if (x.is_underscore()) return tiled;
    return product(x).value();
  }
  throw Error("draw: the permutation element " + element->to_string() + " has no size");
}

// The panel of one operand: cell (r,c) of an R x C tile names the first (t,v) whose partition
// value (offset + P(v), an index of the compact column-major tile) lands there.
DrawPanel mma_panel(const TiledMma& t, std::int64_t rows, std::int64_t cols, char operand) {
  DrawPanel p;
  p.rows = rows;
  p.cols = cols;
  if (checked_mul(rows, cols) > kMaxCells) throw Error("draw: the MMA tile has too many cells");
  const Layout tile = make_layout(IntTuple::tuple({IntTuple::integer(rows), IntTuple::integer(cols)}));
  std::vector<bool> filled(static_cast<std::size_t>(rows * cols), false);
  const std::int64_t threads = tiled_mma_size(t);
  for (std::int64_t tid = 0; tid < threads; ++tid) {
    Partition part{tile, 0};
    try {
      part = operand == 'C' ? partition_C(t, tid, tile) : operand == 'A' ? partition_A(t, tid, tile) : partition_B(t, tid, tile);
    } catch (const Error&) {
      continue;  // a thread index outside the thread layout's image (SM70's quadpairs): no values
    }
    const Value frag(part.layout);
    const std::int64_t values = size_value(part.layout);
    for (std::int64_t v = 0; v < values; ++v) {
      const std::int64_t idx = part.offset + evaluate_at(frag, v).value();
      if (idx < 0 || idx >= rows * cols) throw Error("draw: a partition value lies outside the MMA tile");
      if (filled[static_cast<std::size_t>(idx)]) continue;
      filled[static_cast<std::size_t>(idx)] = true;
      std::string label = "T";
      label += std::to_string(tid);
      label += "\nV";
      label += std::to_string(v);
      p.cells.push_back({idx % rows, idx / rows, label, mod8(tid), false});
    }
  }
  return p;
}

}  // namespace

Picture draw_comparison(const Value& a, const Value& b, const std::string& a_title, const std::string& b_title,
                        int bank_bits) {
  Picture pic;
  DrawPanel pa = layout_panel(a, bank_bits), pb = layout_panel(b, bank_bits);
  pa.title = a_title;
  pb.title = b_title;
  pb.col_offset = pa.cols + 3;
  const Verdict verdict = functional_equal(a, b);
  const std::int64_t na = layout_like_size(a), nb = layout_like_size(b);
  std::int64_t first = -1;
  for (std::int64_t i = 0; i < std::min(na, nb); ++i) {
    if (evaluate_at(a, i).same_values(evaluate_at(b, i))) continue;
    DrawCell& ca = pa.cells[static_cast<std::size_t>((i % pa.rows) * pa.cols + i / pa.rows)];
    DrawCell& cb = pb.cells[static_cast<std::size_t>((i % pb.rows) * pb.cols + i / pb.rows)];
    ca.marked = cb.marked = true;
    if (first < 0) {
      first = i;
      ca.first = cb.first = true;
    }
  }
  pic.kind = bank_bits > 0 ? DrawKind::Banks : DrawKind::Layout;
  pic.comments = {"A: " + a.to_string(), "B: " + b.to_string()};
  pic.note = verdict.holds ? "A == B: true (equal as functions)" : "A == B: false: " + verdict.reason;
  if (first >= 0) pic.note += " (first differing index " + std::to_string(first) + ", marked)";
  pic.panels = {pa, pb};
  return pic;
}

Picture draw_expression(const std::string& expr, const DrawOptions& options) {
  Picture pic;
  std::string lhs, rhs;
  if (split_equality(expr, lhs, rhs)) {
    const Value a = evaluate(lhs), b = evaluate(rhs);
    return draw_comparison(a, b, "A = " + a.to_string(), "B = " + b.to_string(), options.bank_bits);
  }
  // A bare atom name (the language makes a name a value only as an argument): one atom.
  const bool bare_name = !expr.empty() && expr.find_first_of("(:=") == std::string::npos &&
                         (std::isalpha(static_cast<unsigned char>(expr[0])) != 0);
  const Value v = [&] {
    try {
      return evaluate(expr);
    } catch (const Error& e) {
      if (!bare_name || std::string(e.what()).find("unknown name") == std::string::npos) throw;
      return evaluate("make_tiled_mma(" + expr + ")");
    }
  }();
  const std::optional<TiledMma> mma =
      !options.tile && options.bank_bits == 0 && (v.is_symbol() || v.is_mixed_tuple()) ? tiled_mma_of(v) : std::nullopt;
  const std::optional<TiledCopy> copy =
      !mma && !options.tile && options.bank_bits == 0 && v.is_mixed_tuple() ? tiled_copy_of(v) : std::nullopt;
  if (copy) {
    if (!copy->tiler.is_tuple() || copy->tiler.rank() != 2)
      throw Error("draw: a tiled copy over a rank-2 tile (M,N) is drawn, got the tile " + copy->tiler.to_string());
    const std::int64_t rows = product(copy->tiler[0]).value(), cols = product(copy->tiler[1]).value();
    pic.kind = DrawKind::Copy;
    pic.comments = {"TiledCopy: " + v.to_string(), "Tile: (" + std::to_string(rows) + "," + std::to_string(cols) + ")"};
    pic.panels = {copy_panel(*copy, rows, cols, true), copy_panel(*copy, rows, cols, false)};
    pic.panels[0].title = "S";
    pic.panels[1].title = "D";
    pic.panels[1].col_offset = cols + 3;
    return pic;
  }
  if (mma) {
    const TiledMma& tiled = *mma;
    pic.kind = DrawKind::Mma;
    pic.mma_m = mma_tile_extent(tiled, 0);
    pic.mma_n = mma_tile_extent(tiled, 1);
    pic.mma_k = mma_tile_extent(tiled, 2);
    pic.comments = {"TiledMMA: " + v.to_string(), "Tile: (" + std::to_string(pic.mma_m) + "," + std::to_string(pic.mma_n) +
                                                    "," + std::to_string(pic.mma_k) + ")"};
    pic.panels = {mma_panel(tiled, pic.mma_m, pic.mma_n, 'C'), mma_panel(tiled, pic.mma_m, pic.mma_k, 'A'),
                  mma_panel(tiled, pic.mma_n, pic.mma_k, 'B')};
    pic.panels[0].title = "C";
    pic.panels[1].title = "A";
    pic.panels[2].title = "B";
    return pic;
  }
  if (options.tile) {
    pic.kind = DrawKind::ThreadValue;
    pic.comments = {"Layout TV: " + v.to_string(), "Tile: " + options.tile->to_string()};
    pic.panels = {tv_panel(v, *options.tile)};
    return pic;
  }
  pic.kind = options.bank_bits > 0 ? DrawKind::Banks : DrawKind::Layout;
  pic.comments = {"Layout: " + comment_layout(v)};
  if (options.bank_bits > 0)
    pic.comments.push_back("Shared-memory banks of " + std::to_string(options.bank_bits) +
                           "-bit elements: bank = (value * " + std::to_string(options.bank_bits) + " / 8 / 4) % 32");
  pic.panels = {layout_panel(v, options.bank_bits)};
  return pic;
}

namespace {

std::string tikz_fill(const Picture& p, const DrawCell& c) {
  if (p.kind == DrawKind::ThreadValue || p.kind == DrawKind::Copy) return kTikzTV[c.colour];
  if (p.kind == DrawKind::Banks) {
    int r, g, b;
    bank_rgb(c.colour, r, g, b);
    return "{rgb,255:red," + std::to_string(r) + ";green," + std::to_string(g) + ";blue," + std::to_string(b) + "}";
  }
  return kTikzBW[c.colour];
}

std::string svg_fill(const Picture& p, const DrawCell& c) {
  if (p.kind == DrawKind::ThreadValue || p.kind == DrawKind::Copy) return kSvgTV[c.colour];
  if (p.kind == DrawKind::Banks) {
    int r, g, b;
    bank_rgb(c.colour, r, g, b);
    return std::to_string(r) + "," + std::to_string(g) + "," + std::to_string(b);
  }
  return kSvgBW[c.colour];
}

// Text inside an XML comment may not contain "--".
std::string comment_safe(std::string s) {
  for (std::size_t k; (k = s.find("--")) != std::string::npos;) s.replace(k, 2, "- -");
  return s;
}

}  // namespace

namespace {

// print_latex of a TiledMMA (print_latex_mma): C at (m,n), A at (m, k-K-1), B at (k-K-1, n),
// each with its grid; axis labels for A and B only, as CuTe's.
std::string mma_latex(const Picture& p) {
  std::ostringstream o;
  for (const auto& c : p.comments) o << "% " << c << "\n";
  o << "\\documentclass[convert]{standalone}\n\\usepackage{tikz}\n\n\\begin{document}\n"
       "\\begin{tikzpicture}[x={(0cm,-1cm)},y={(1cm,0cm)},every node/.style={minimum size=1cm, outer sep=0pt}]\n\n";
  const std::int64_t M = p.mma_m, N = p.mma_n, K = p.mma_k;
  auto node = [&](const DrawCell& c, std::int64_t x, std::int64_t y) {
    const auto nl = c.label.find('\n');
    o << "\\node[fill=" << kTikzTV[c.colour] << "] at (" << x << "," << y << ") {\\shortstack{" << c.label.substr(0, nl)
      << " \\\\ " << c.label.substr(nl + 1) << "}};\n";
  };
  auto grid = [&](std::int64_t x0, std::int64_t y0, std::int64_t x1, std::int64_t y1) {
    o << "\\draw[color=black,thick,shift={(-0.5,-0.5)}] (" << x0 << "," << y0 << ") grid (" << x1 << "," << y1 << ");\n\n";
  };
  auto label = [&](std::int64_t x, std::int64_t y, std::int64_t text) {
    o << "\\node at (" << x << "," << y << ") {\\Large{\\texttt{" << text << "}}};\n";
  };
  for (const DrawCell& c : p.panels[0].cells) node(c, c.row, c.col);
  grid(0, 0, M, N);
  for (const DrawCell& c : p.panels[1].cells) node(c, c.row, c.col - K - 1);
  grid(0, -K - 1, M, -1);
  for (std::int64_t m = 0; m < M; ++m) label(m, -K - 2, m);
  for (std::int64_t k = 0; k < K; ++k) label(-1, k - K - 1, k);
  for (const DrawCell& c : p.panels[2].cells) node(c, c.col - K - 1, c.row);
  grid(-K - 1, 0, -1, N);
  for (std::int64_t n = 0; n < N; ++n) label(-K - 2, n, n);
  for (std::int64_t k = 0; k < K; ++k) label(k - K - 1, -1, k);
  o << "\\end{tikzpicture}\n\\end{document}\n";
  return o.str();
}

// print_svg of a TiledMMA (print_svg_mma): 20-unit cells, C at ((n+K+2), (m+K+2)), A at
// ((k+1), (m+K+2)), B at ((n+K+2), (k+1)), axis labels for A and B; each cell's rect and two
// texts are wrapped in a <g class="cell"> (lines CuTe does not have) for the renderer test.
std::string mma_svg(const Picture& p) {
  const int cs = 20;
  const std::int64_t M = p.mma_m, N = p.mma_n, K = p.mma_k;
  std::ostringstream o;
  for (const auto& c : p.comments) o << "<!-- " << comment_safe(c) << " -->\n";
  o << "<svg width=\"100%\" height=\"100%\" viewBox=\"0 0 " << (K + N + 2) * cs << " " << (K + M + 2) * cs
    << "\" preserveAspectRatio=\"xMidYMid meet\" xmlns=\"http://www.w3.org/2000/svg\">\n";
  auto cell = [&](std::size_t panel, const DrawCell& c, std::int64_t x, std::int64_t y, const char* close) {
    const auto nl = c.label.find('\n');
    o << "<g class=\"cell\" data-panel=\"" << panel << "\" data-row=\"" << c.row << "\" data-col=\"" << c.col << "\">\n";
    o << "<rect x=\"" << x << "\" y=\"" << y << "\" width=\"" << cs << "\" height=\"" << cs << "\" fill=\"rgb("
      << kSvgTV[c.colour] << ")\" stroke=\"black\"" << close << ">\n";
    o << "<text x=\"" << x + cs / 2 << "\" y=\"" << y + cs / 4
      << "\" text-anchor=\"middle\" alignment-baseline=\"central\" font-size=\"8\">" << c.label.substr(0, nl) << "</text>\n";
    o << "<text x=\"" << x + cs / 2 << "\" y=\"" << y + 3 * cs / 4
      << "\" text-anchor=\"middle\" alignment-baseline=\"central\" font-size=\"8\">" << c.label.substr(nl + 1) << "</text>\n";
    o << "</g>\n";
  };
  auto label = [&](std::int64_t x, std::int64_t y, std::int64_t text) {
    o << "<text x=\"" << x + cs / 2 << "\" y=\"" << y + cs / 2
      << "\" text-anchor=\"middle\" alignment-baseline=\"central\" font-size=\"12\">" << text << "</text>\n";
  };
  for (const DrawCell& c : p.panels[0].cells) cell(0, c, (c.col + K + 2) * cs, (c.row + K + 2) * cs, "/");
  for (const DrawCell& c : p.panels[1].cells) cell(1, c, (c.col + 1) * cs, (c.row + K + 2) * cs, " /");
  for (std::int64_t m = 0; m < M; ++m) label(0, (m + K + 2) * cs, m);
  for (std::int64_t k = 0; k < K; ++k) label((k + 1) * cs, (K + 1) * cs, k);
  for (const DrawCell& c : p.panels[2].cells) cell(2, c, (c.row + K + 2) * cs, (c.col + 1) * cs, " /");
  for (std::int64_t n = 0; n < N; ++n) label((n + K + 2) * cs, 0, n);
  for (std::int64_t k = 0; k < K; ++k) label((K + 1) * cs, (k + 1) * cs, k);
  o << "</svg>\n";
  return o.str();
}

// print_latex of a TiledCopy (print_latex_copy): S at (m,n) with its labels left and above, D
// at (m, n+N+3) with its row labels on its right (m, 2N+3) and column labels above.
std::string copy_latex(const Picture& p) {
  std::ostringstream o;
  for (const auto& c : p.comments) o << "% " << c << "\n";
  o << "\\documentclass[convert]{standalone}\n\\usepackage{tikz}\n\n\\begin{document}\n"
       "\\begin{tikzpicture}[x={(0cm,-1cm)},y={(1cm,0cm)},every node/.style={minimum size=1cm, outer sep=0pt}]\n\n";
  const std::int64_t M = p.panels[0].rows, N = p.panels[0].cols;
  auto node = [&](const DrawCell& c, std::int64_t x, std::int64_t y) {
    const auto nl = c.label.find('\n');
    o << "\\node[fill=" << kTikzTV[c.colour] << "] at (" << x << "," << y << ") {\\shortstack{" << c.label.substr(0, nl)
      << " \\\\ " << c.label.substr(nl + 1) << "}};\n";
  };
  auto label = [&](std::int64_t x, std::int64_t y, std::int64_t text) {
    o << "\\node at (" << x << "," << y << ") {\\Large{\\texttt{" << text << "}}};\n";
  };
  for (const DrawCell& c : p.panels[0].cells) node(c, c.row, c.col);
  o << "\\draw[color=black,thick,shift={(-0.5,-0.5)}] (0,0) grid (" << M << "," << N << ");\n\n";
  for (std::int64_t m = 0; m < M; ++m) label(m, -1, m);
  for (std::int64_t n = 0; n < N; ++n) label(-1, n, n);
  for (const DrawCell& c : p.panels[1].cells) node(c, c.row, c.col + N + 3);
  o << "\\draw[color=black,thick,shift={(-0.5,-0.5)}] (0," << N + 3 << ") grid (" << M << "," << 2 * N + 3 << ");\n\n";
  for (std::int64_t m = 0; m < M; ++m) label(m, 2 * N + 3, m);
  for (std::int64_t n = 0; n < N; ++n) label(-1, n + N + 3, n);
  o << "\\end{tikzpicture}\n\\end{document}\n";
  return o.str();
}

}  // namespace

std::string to_latex(const Picture& p) {
  if (p.kind == DrawKind::Mma) return mma_latex(p);
  if (p.kind == DrawKind::Copy) return copy_latex(p);
  std::ostringstream o;
  for (const auto& c : p.comments) o << "% " << c << "\n";
  if (!p.note.empty()) o << "% " << p.note << "\n";
  o << "\\documentclass[convert]{standalone}\n\\usepackage{tikz}\n\n\\begin{document}\n"
       "\\begin{tikzpicture}[x={(0cm,-1cm)},y={(1cm,0cm)},every node/.style={minimum size=1cm, outer sep=0pt}]\n\n";
  for (const DrawPanel& panel : p.panels) {
    for (const DrawCell& c : panel.cells) {
      std::string style = "fill=" + (c.first ? std::string("red!40") : tikz_fill(p, c));
      if (c.marked) style += ",draw=red,ultra thick";
      const std::string label = p.kind == DrawKind::ThreadValue
                                    ? "\\shortstack{" + c.label.substr(0, c.label.find('\n')) + " \\\\ " +
                                          c.label.substr(c.label.find('\n') + 1) + "}"
                                    : c.label;
      o << "\\node[" << style << "] at (" << c.row << "," << c.col + panel.col_offset << ") {" << label << "};\n";
    }
    o << "\\draw[color=black,thick,shift={(-0.5,-0.5)}] (0," << panel.col_offset << ") grid (" << panel.rows << ","
      << panel.cols + panel.col_offset << ");\n\n";
    for (std::int64_t m = 0; m < panel.rows; ++m)
      o << "\\node at (" << m << "," << panel.col_offset - 1 << ") {\\Large{\\texttt{" << m << "}}};\n";
    for (std::int64_t n = 0; n < panel.cols; ++n)
      o << "\\node at (" << -1 << "," << n + panel.col_offset << ") {\\Large{\\texttt{" << n << "}}};\n";
    if (!panel.title.empty())
      o << "\\node[anchor=west] at (" << panel.rows + 1 << "," << panel.col_offset - 1 << ") {\\texttt{"
        << panel.title << "}};\n";
  }
  o << "\\end{tikzpicture}\n\\end{document}\n";
  return o.str();
}

std::string to_svg(const Picture& p) {
  if (p.kind == DrawKind::Mma) return mma_svg(p);
  const int cs = 20;  // CuTe's print_svg cell size
  std::int64_t rows = 0, cols = 0;
  for (const DrawPanel& panel : p.panels) {
    rows = std::max(rows, panel.rows);
    cols = std::max(cols, panel.col_offset + panel.cols);
  }
  const bool titled = p.panels.size() > 1;
  const std::int64_t width = (cols + 2) * cs, height = (rows + 2 + (titled ? 2 : 0)) * cs;
  std::ostringstream o;
  for (const auto& c : p.comments) o << "<!-- " << comment_safe(c) << " -->\n";
  if (!p.note.empty()) o << "<!-- " << comment_safe(p.note) << " -->\n";
  o << "<svg width=\"100%\" height=\"100%\" viewBox=\"0 0 " << width << " " << height
    << "\" preserveAspectRatio=\"xMidYMid meet\" xmlns=\"http://www.w3.org/2000/svg\">\n";
  for (std::size_t k = 0; k < p.panels.size(); ++k) {
    const DrawPanel& panel = p.panels[k];
    for (const DrawCell& c : panel.cells) {
      const std::int64_t x = (c.col + panel.col_offset + 1) * cs, y = (c.row + 1) * cs;
      o << "<g class=\"cell\" data-panel=\"" << k << "\" data-row=\"" << c.row << "\" data-col=\"" << c.col << "\">";
      o << "<rect x=\"" << x << "\" y=\"" << y << "\" width=\"" << cs << "\" height=\"" << cs << "\" fill=\"rgb("
        << (c.first ? std::string("255,120,120") : svg_fill(p, c)) << ")\" stroke=\"" << (c.marked ? "red" : "black") << "\""
        << (c.marked ? " stroke-width=\"2\"" : "") << "/>";
      const auto nl = c.label.find('\n');
      if (nl == std::string::npos) {
        o << "<text x=\"" << x + cs / 2 << "\" y=\"" << y + cs / 2
          << "\" text-anchor=\"middle\" dominant-baseline=\"central\" font-size=\"" << (c.label.size() > 3 ? 6 : 8)
          << "\">" << xml_escape(c.label) << "</text>";
      } else {
        o << "<text x=\"" << x + cs / 2 << "\" y=\"" << y + cs / 4
          << "\" text-anchor=\"middle\" dominant-baseline=\"central\" font-size=\"8\">"
          << xml_escape(c.label.substr(0, nl)) << "</text>";
        o << "<text x=\"" << x + cs / 2 << "\" y=\"" << y + 3 * cs / 4
          << "\" text-anchor=\"middle\" dominant-baseline=\"central\" font-size=\"8\">"
          << xml_escape(c.label.substr(nl + 1)) << "</text>";
      }
      o << "</g>\n";
    }
    for (std::int64_t m = 0; m < panel.rows; ++m)
      o << "<text class=\"axis\" x=\"" << panel.col_offset * cs + cs / 2 << "\" y=\"" << (m + 1) * cs + cs / 2
        << "\" text-anchor=\"middle\" dominant-baseline=\"central\" font-size=\"12\">" << m << "</text>\n";
    for (std::int64_t n = 0; n < panel.cols; ++n)
      o << "<text class=\"axis\" x=\"" << (n + panel.col_offset + 1) * cs + cs / 2 << "\" y=\"" << cs / 2
        << "\" text-anchor=\"middle\" dominant-baseline=\"central\" font-size=\"12\">" << n << "</text>\n";
    if (titled)
      o << "<text class=\"title\" x=\"" << (panel.col_offset + 1) * cs << "\" y=\"" << (rows + 2) * cs
        << "\" font-size=\"10\">" << xml_escape(panel.title) << "</text>\n";
  }
  o << "</svg>\n";
  return o.str();
}

std::string to_html(const Picture& p, const std::string& expr) {
  std::ostringstream o;
  o << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>cuteref draw "
    << xml_escape(expr) << "</title>\n<style>body{font-family:sans-serif;margin:2em}"
       "figure{margin:0;max-width:60em}svg{max-height:80vh}</style>\n</head>\n<body>\n<h1>cuteref draw</h1>\n"
       "<p><code>" << xml_escape(expr) << "</code></p>\n<ul>\n";
  for (const auto& c : p.comments) o << "<li><code>" << xml_escape(c) << "</code></li>\n";
  o << "</ul>\n";
  if (!p.note.empty()) o << "<p class=\"note\">" << xml_escape(p.note) << "</p>\n";
  o << "<figure>\n" << to_svg(p) << "</figure>\n</body>\n</html>\n";
  return o.str();
}

std::string xml_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '&') out += "&amp;";
    else if (c == '<') out += "&lt;";
    else if (c == '>') out += "&gt;";
    else if (c == '"') out += "&quot;";
    else out += c;
  }
  return out;
}

}  // namespace cuteref
