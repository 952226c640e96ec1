// `cuteref draw`: pictures of layouts, in CuTe's own formats where CuTe has one.
//
// A Picture is a list of panels; a panel is a grid of cells (row m, column n, label, colour)
// with its axis labels, at an offset in the picture. The values in the cells are the model's
// (evaluate.hpp); the layout of the picture follows CuTe's print_latex (cute/util/print_latex.hpp
// of the nvidia-cutlass wheel), so that the LaTeX output is, cell for cell, CuTe's:
//   layout L (rank <= 2)    M x N grid, cell (m,n) = L(m,n), BWx8 colour of L(m,n) % 8,
//                           row labels at column -1, column labels at row -1 (print_latex);
//                           a rank-1 layout is (L, 1:0) as CuTe's append<2>; a layout of rank
//                           > 2 is drawn as (mode 0, modes 1.. grouped), a cuteref extension
//   composed layout         the same, cells = the composed function (swizzle o offset o L)
//   TV layout + tile (M,N)  cell of (m,n) = "T t / V v" for the first (t,v) (t-major) with
//                           L_TV(t,v) = (m,n) (idx2crd over (M,N) for integer values),
//                           coloured by t % 8 (print_latex_tv)
//   A == B                  two panels (A at columns 0.., B at columns N+3.., as CuTe's copy
//                           pictures place S and D), the differing cells marked and the first
//                           differing index named (a cuteref extension)
//   --banks BITS            a layout or composed layout of BITS-bit elements with cells coloured
//                           by shared-memory bank (4-byte word % 32; a cuteref extension)
//   TiledMMA                an atom name or make_tiled_mma(...): C (M x N), A (M x K) and B (N x K)
//                           panels of the tile, each cell the first (thread, value) of the model's
//                           partition_C/A/B reaching it (print_latex / print_svg of a TiledMMA;
//                           the SVG is CuTe's print_svg format)
//   TiledCopy               make_tiled_copy(...) and friends: S and D panels of the tile (D at
//                           columns N+3..), each cell the first (thread, value) of the model's
//                           tidfrg_S/D of the tile reaching it (print_latex of a TiledCopy)
// SVG: CuTe has no print_svg for layouts (only for TiledMMA); cuteref's SVG places the same
// cells on a 20-unit grid as CuTe's print_svg does, with CuTe's SVG colours. HTML: a
// self-contained page with the SVG inline.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "int_tuple.hpp"
#include "value.hpp"

namespace cuteref {

struct DrawCell {
  std::int64_t row = 0, col = 0;  // grid position within the panel
  std::string label;              // "12", or "T3\nV1" for thread-value cells
  int colour = 0;                 // colour index: BWx8 (value % 8), TV (thread % 8), or a bank
  bool marked = false;            // a cell where A and B differ
  bool first = false;             // the first differing index of A == B
};

struct DrawPanel {
  std::string title;           // e.g. "A", "B"; empty for a single panel
  std::int64_t rows = 0, cols = 0;
  std::int64_t col_offset = 0;  // where the panel starts (in cells)
  std::vector<DrawCell> cells;
};

enum class DrawKind { Layout, ThreadValue, Banks, Mma, Copy };

struct Picture {
  DrawKind kind = DrawKind::Layout;
  std::vector<std::string> comments;  // what is drawn (CuTe's "% Layout: ..." line first)
  std::vector<DrawPanel> panels;
  std::string note;                   // e.g. the first differing index of A == B
  std::int64_t mma_m = 0, mma_n = 0, mma_k = 0;  // Mma: the tile; panels are C (m,n), A (m,k), B (n,k)
};

struct DrawOptions {
  std::optional<IntTuple> tile;  // (M,N): draw EXPR as a TV layout over this tile
  int bank_bits = 0;             // > 0: colour cells by shared-memory bank of BITS-bit elements
};

// The picture of EXPR's value. Throws Error for values that have no picture (with why), and
// for more than 65536 cells.
Picture draw_expression(const std::string& expr, const DrawOptions& options);

// The picture of a == b for two layout-like values: two panels titled a_title and b_title, the
// cells where they differ marked, the first differing index filled (as `cuteref draw 'A == B'`).
Picture draw_comparison(const Value& a, const Value& b, const std::string& a_title, const std::string& b_title,
                        int bank_bits = 0);

std::string to_latex(const Picture& p);
std::string to_svg(const Picture& p);
std::string to_html(const Picture& p, const std::string& expr);

// `s` with & < > " written as XML entities: text for SVG and HTML elements and attributes.
std::string xml_escape(const std::string& s);

}  // namespace cuteref
