#include "command_arguments.hpp"

#include "atoms/smem_banks.hpp"
#include "diagnostic_text.hpp"
#include "notation.hpp"

namespace cuteref {

namespace {

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// An option's integer-tuple value; a parse error is a usage error naming the option.
IntTuple option_int_tuple(const std::string& option, const std::string& text) {
  try {
    return parse_int_tuple(text);
  } catch (const Error& e) {
    throw UsageError(option + " '" + text + "': " + e.what());
  }
}

// An element width in bits, as --banks and banks' BITS take it: an integer that is a valid
// shared-memory element width, at most 1024 (the widest access, ld.shared.v2.b64, is 128 bits;
// a picture may colour wider elements).
int element_bits(const std::string& what, const std::string& text) {
  const IntTuple bits = option_int_tuple(what, text);
  if (!bits.is_integer() || bits.value() > 1024)
    throw UsageError(what + " expects an element width in bits (8, 16, 32, ..., at most 1024), got '" + text + "'");
  try {
    check_smem_element_bits(bits.value(), what);
  } catch (const Error& e) {
    throw UsageError(e.what());
  }
  return static_cast<int>(bits.value());
}

// The value of the option at args[i], advancing i; a usage error when it is missing.
const std::string& option_value(const std::vector<std::string>& args, std::size_t& i) {
  if (i + 1 >= args.size()) throw UsageError(args[i] + " needs a value");
  return args[++i];
}

}  // namespace

bool is_operand(const std::string& a) {
  return a.empty() || a[0] != '-' || a.size() == 1 || (a[1] >= '0' && a[1] <= '9') || a[1] == '(';
}

std::vector<std::string> operands_of(const std::vector<std::string>& args) {
  std::vector<std::string> operands;
  bool options_ended = false;
  for (const std::string& a : args) {
    if (!options_ended && a == "--") options_ended = true;
    else if (options_ended || is_operand(a)) operands.push_back(a);
    else throw UsageError("unknown option '" + printable(a) + "' (an operand that starts with '-' follows `--`)");
  }
  return operands;
}

PictureFormat picture_format_of(const std::string& path, const std::string& option) {
  if (ends_with(path, ".tex")) return PictureFormat::Latex;
  if (ends_with(path, ".svg")) return PictureFormat::Svg;
  if (ends_with(path, ".html") || ends_with(path, ".htm")) return PictureFormat::Html;
  throw UsageError(option + " '" + path + "': the file name must end in .tex, .svg or .html");
}

void tile_extents(const IntTuple& tile, std::int64_t max_cells, std::int64_t& rows, std::int64_t& cols) {
  if (!tile.is_tuple() || tile.rank() != 2)
    throw Error("draw: --tile must be a rank-2 tile (M,N), got " + tile.to_string());
  rows = product(tile[0]).value();
  cols = product(tile[1]).value();
  if (rows < 1 || cols < 1)
    throw Error("draw: --tile (M,N) needs M >= 1 and N >= 1, got " + tile.to_string() + " (M = " + std::to_string(rows) +
                ", N = " + std::to_string(cols) + ")");
  if (rows > max_cells / cols)
    throw Error("draw: the tile " + tile.to_string() + " has more than " + std::to_string(max_cells) + " cells");
}

DrawRequest parse_draw_arguments(const std::vector<std::string>& args) {
  DrawRequest r;
  bool have_expr = false, have_out = false, have_banks = false, options_ended = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (!options_ended && a == "--") {
      options_ended = true;
      continue;
    }
    if (options_ended || is_operand(a)) {
      if (have_expr) throw UsageError("more than one EXPR ('" + printable(r.expr) + "' and '" + printable(a) + "')");
      r.expr = a;
      have_expr = true;
    } else if (a == "-o") {
      if (have_out) throw UsageError("-o given twice");
      r.out_path = option_value(args, i);
      picture_format_of(r.out_path, "-o");
      have_out = true;
    } else if (a == "--tile") {
      if (r.tile) throw UsageError("--tile given twice");
      const IntTuple tile = option_int_tuple("--tile", option_value(args, i));
      std::int64_t rows = 0, cols = 0;
      try {
        tile_extents(tile, kMaxPictureCells, rows, cols);
      } catch (const Error& e) {
        throw UsageError(e.what());
      }
      r.tile = tile;
    } else if (a == "--banks") {
      if (have_banks) throw UsageError("--banks given twice");
      r.bank_bits = element_bits("--banks", option_value(args, i));
      have_banks = true;
    } else {
      throw UsageError("unknown option '" + printable(a) + "'");
    }
  }
  if (!have_expr) throw UsageError("no EXPR to draw");
  return r;
}

BanksRequest parse_banks_arguments(const std::vector<std::string>& options_and_operands) {
  const std::vector<std::string> args = operands_of(options_and_operands);
  if (args.size() < 2) throw UsageError("too few arguments");
  BanksRequest r;
  r.first = args[0];
  r.second = args[1];
  r.instruction = args[0].find('(') == std::string::npos;
  if (r.instruction) {
    if (args.size() != 3)
      throw UsageError("an instruction takes INSTR 'ADDR' BITS, got " + std::to_string(args.size()) + " arguments");
    try {
      smem_instruction(args[0]);
    } catch (const Error& e) {
      throw UsageError(e.what());
    }
    r.bits = element_bits("BITS", args[2]);
    return r;
  }
  if (args.size() > 3)
    throw UsageError("a tiled copy takes 'TILED_COPY' 'SMEM' [S|D], got " + std::to_string(args.size()) + " arguments");
  if (args.size() == 3) {
    if (args[2] == "S") r.side = CopySide::Source;
    else if (args[2] == "D") r.side = CopySide::Destination;
    else throw UsageError("the side must be S or D, got '" + printable(args[2]) + "'");
  }
  return r;
}

void check_gpu_arguments(const std::vector<std::string>& args) {
  if (args.empty()) return;  // all
  const std::string& what = args[0];
  if (what == "--help" || what == "tma" || what == "tma_tile" || what == "wgmma" || what == "attention_chain" ||
      what == "dsl" || what == "mma" || what == "ldmatrix" || what == "attention" || what == "vendor" || what == "all") {
    if (args.size() > 1) throw UsageError("gpu " + what + " takes no further argument, got '" + printable(args[1]) + "'");
    return;
  }
  if (what == "banks-kernels") {  // the banks probe's own child, run under ncu
    if (args.size() != 2) throw UsageError("gpu banks-kernels takes one CASE_FILE");
    return;
  }
  if (what != "banks")
    throw UsageError("unknown GPU probe '" + printable(what) + "' (tma, tma_tile, wgmma, attention_chain, dsl, mma, ldmatrix, attention, vendor, all, banks)");
  bool out = false, dry_run = false;
  for (std::size_t i = 1; i < args.size(); ++i) {
    if (args[i] == "--dry-run" && !dry_run) dry_run = true;
    else if (args[i] == "--out" && !out) {
      option_value(args, i);
      out = true;
    } else {
      throw UsageError("gpu banks takes [--out DIR] [--dry-run], got '" + printable(args[i]) + "'");
    }
  }
}

CheckRequest parse_check_arguments(const std::vector<std::string>& args) {
  CheckRequest r;
  bool options_ended = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (!options_ended && a == "--") options_ended = true;
    else if (options_ended || a.empty() || a[0] != '-') r.paths.push_back(a);
    else if (a == "-v" || a == "--verbose") r.verbose = true;
    else if (a == "--html") {
      if (!r.html.empty()) throw UsageError("--html given twice");
      r.html = option_value(args, i);
      if (r.html.empty()) throw UsageError("--html needs a file name");
    } else {
      throw UsageError("unknown option '" + printable(a) + "' (a path that starts with '-' follows `--`)");
    }
  }
  return r;
}

}  // namespace cuteref
