// The argument grammar of `cuteref eval`, `describe`, `draw`, `banks`, `check` and `gpu`: each
// command line is parsed and validated into a request before any work starts, so that a
// malformed command line is one exception type whatever the command (UsageError,
// command_errors.hpp: exit 64). The fuzz target runs the same parsers.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "atoms/copy_bank_conflicts.hpp"
#include "command_errors.hpp"
#include "int_tuple.hpp"

namespace cuteref {

// An operand rather than an option: does not start with '-', or is '-' alone, or a negative
// number / expression (a '-' followed by a digit or '(').
bool is_operand(const std::string& a);

// The operands of a command line that has no option but `--`, which ends the options (for an
// operand that starts with '-'): eval, describe, banks. Throws UsageError naming the first
// unknown option.
std::vector<std::string> operands_of(const std::vector<std::string>& args);

// The picture formats, chosen by the output file's extension.
enum class PictureFormat { Latex, Svg, Html };

// The format of an output path: .tex, .svg, .html or .htm. `option` names the option in the
// diagnostic (e.g. "-o"). Throws UsageError for any other name.
PictureFormat picture_format_of(const std::string& path, const std::string& option);

// The (M,N) extents of a tile for a TV-layout picture: each the product of its mode (CuTe's
// product_each). Preconditions (checked, Error naming the tile): the tile has rank 2, M >= 1 and
// N >= 1 (the cells are found by index % M and index / M), M * N at most max_cells.
void tile_extents(const IntTuple& tile, std::int64_t max_cells, std::int64_t& rows, std::int64_t& cols);

// The most cells a picture may have.
inline constexpr std::int64_t kMaxPictureCells = 65536;

// `cuteref draw 'EXPR' [-o FILE] [--tile '(M,N)'] [--banks BITS]` (args after `draw`; `--` ends
// the options, for an EXPR that starts with '-').
struct DrawRequest {
  std::string expr;
  std::string out_path;           // empty: LaTeX on stdout
  std::optional<IntTuple> tile;   // validated by tile_extents
  int bank_bits = 0;              // 0, or a valid shared-memory element width (check_smem_element_bits)
};
DrawRequest parse_draw_arguments(const std::vector<std::string>& args);

// `cuteref banks INSTR 'ADDR' BITS` or `cuteref banks 'TILED_COPY' 'SMEM' [S|D]` (args after
// `banks`; `--` ends the options, of which there is none). An instruction is a bare PTX word
// (ldmatrix.x4), a tiled copy a call or a tuple.
struct BanksRequest {
  bool instruction = false;  // the first form
  std::string first;         // INSTR (a known name) or TILED_COPY (an EXPR)
  std::string second;        // ADDR or SMEM (an EXPR)
  int bits = 0;              // the first form: a valid element width
  CopySide side = CopySide::Auto;
};
BanksRequest parse_banks_arguments(const std::vector<std::string>& args);

// `cuteref check [PATH...] [-v] [--html FILE]` (args after `check`; `--` ends the options).
struct CheckRequest {
  std::vector<std::string> paths;  // empty: the project's corpus
  bool verbose = false;
  std::string html;                // empty: no page
};
CheckRequest parse_check_arguments(const std::vector<std::string>& args);

// `cuteref gpu [tma|tma_tile|wgmma|mma|ldmatrix|vendor|all|banks [--out DIR] [--dry-run]]` (args
// after `gpu`): checked here, so that a malformed command line exits 64 whether or not the
// harness (gpu/main.cu, which checks them again) was built. Throws UsageError.
void check_gpu_arguments(const std::vector<std::string>& args);

}  // namespace cuteref
