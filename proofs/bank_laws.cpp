// The named laws of shared-memory bank conflicts: stated as `cuteref prove` claims on the
// model's generic wavefront count (model/atoms/smem_banks_generic.hpp) at a symbolic tile
// position, so that the suite proves exactly what a user can state.
//
//   smem_wavefronts_swizzled_atoms: for every GMMA atom with a swizzle (SW32, SW64, SW128) of
//     8-, 16- and 32-bit elements, K- and MN-major, tiled to 1024 rows (the strided mode) by 2
//     atoms (the contiguous mode), ldmatrix.x4 (and for 16-bit elements stmatrix.x4) of the
//     16-row by 2-chunk block at rows 8i.., chunks 2j.. (any i, j in the tile; the x4
//     instruction's four 8 x 16-byte matrices as CuTe's A/B copies take them) need exactly 4
//     wavefronts: the minimum. 24 proofs.
//   smem_wavefronts_row_major_refuted: the same claim for a row-major tile of 128-byte rows
//     without a swizzle is refuted, with a counterexample replayed on the model (32).
#include <map>
#include <sstream>

#include "atoms/gmma_smem_atom.hpp"
#include "claim.hpp"
#include "error.hpp"
#include "function_table.hpp"
#include "laws.hpp"
#include "notation.hpp"

namespace cuteref::proofs {

namespace {

constexpr std::int64_t kRows = 1024;  // the strided extent of the tile (128 atoms of 8 rows)

struct AtomCase {
  bool k_major;
  GmmaSwizzle swizzle;
  int bits;
};

// The tile: a layout expression and its contiguous extent (2 atoms, at least 4 chunks).
std::string tile_expr(const AtomCase& a, std::int64_t& contiguous) {
  const std::int64_t atom_c = 8 * swizzle_width_bytes(a.swizzle) / a.bits, chunk = 128 / a.bits;
  contiguous = std::max<std::int64_t>(2 * atom_c, 4 * chunk);
  std::ostringstream s;
  s << "tile_to_shape(gmma_atom(" << (a.k_major ? "K" : "MN") << ", " << to_string(a.swizzle) << ", " << a.bits << "), ";
  if (a.k_major) s << "(" << kRows << "," << contiguous << "))";
  else s << "(" << contiguous << "," << kRows << "))";
  return s.str();
}

// The claim's left side: lane t supplies row t % 8 of matrix t / 8; matrix m covers rows
// 8i + 8(m % 2) .., chunk 2j + m / 2 (16 bytes each) of the tile. With `at`, the same for
// concrete (i, j), as the model's own language writes it (numbers, no arithmetic).
std::string lanes_expr(const std::string& tile, bool k_major, std::int64_t contiguous, int bits,
                       const std::pair<std::int64_t, std::int64_t>* at = nullptr) {
  const std::int64_t chunk = 128 / bits;
  std::ostringstream s;
  s << "(";
  for (int t = 0; t < 32; ++t) {
    const int m = t / 8, r = t % 8 + 8 * (m % 2);
    s << (t ? "," : "") << tile << "(";
    if (at) {
      const std::int64_t o = 8 * at->first + r, c = 2 * chunk * at->second + chunk * (m / 2);
      s << (k_major ? o + kRows * c : c + contiguous * o);
    } else {
      const std::string o = "8*i+" + std::to_string(r);
      const std::string c = std::to_string(2 * chunk) + "*j+" + std::to_string(chunk * (m / 2));
      if (k_major) s << o << "+" << kRows << "*(" << c << ")";
      else s << c << "+" << contiguous << "*(" << o << ")";
    }
    s << ")";
  }
  s << ")";
  return s.str();
}

struct Claim {
  std::string text;
  std::vector<std::string> where;
  std::string what;
  std::vector<std::map<std::string, std::int64_t>> domain_points;  // the statement's (ProveRequest)
};

// Runs one claim through `cuteref prove`, folding it into the law's result.
void run_claim(LawResult& r, const Claim& c, ProofStatus expected, bool sample) {
  ProveRequest req;
  req.claim = c.text;
  req.where = c.where;
  req.domain_points = c.domain_points;
  std::ostringstream out, err;
  ProofOutcome o;
  const int rc = prove_command(req, out, err, &o);
  ++r.proofs;
  r.ms += o.ms;
  r.paths += o.paths;
  r.unreachable += o.unreachable_paths;
  add_domain_points_checked(r.domain_points_checked, o.domain_points_checked);
  if (sample && !o.smt2.empty()) r.smt2.push_back(o.smt2.front());
  const ProofStatus got = rc == kProveProved    ? ProofStatus::Proved
                          : rc == kProveRefuted ? ProofStatus::Refuted
                          : rc == kProveVacuous ? ProofStatus::Vacuous
                                                : ProofStatus::Unknown;
  // A proved claim must have checked each of its points (require_domain_points_checked, per claim).
  LawResult checked;
  checked.status = got;
  checked.domain_points_checked = o.domain_points_checked;
  ProofOptions stated;
  stated.domain_points = c.domain_points;
  require_domain_points_checked(checked, stated);
  if (got != expected || checked.status != got) {
    r.status = ProofStatus::Unknown;
    r.detail += c.what + ": " + out.str() + err.str() + checked.detail;
  } else if (got == ProofStatus::Refuted && r.detail.size() < 400) {
    std::string text = out.str();
    for (char& ch : text)
      if (ch == '\n') ch = ' ';
    r.detail += c.what + ": " + text;
  }
}

// The concrete corner: the claim's left side on the model for (i, j) in a corner of the domain.
void corner(LawResult& r, const std::string& what, const std::string& instr, const std::string& tile, bool k_major,
            std::int64_t contiguous, int bits, std::int64_t max_j, bool expect_minimum) {
  for (std::int64_t i : {std::int64_t{0}, std::int64_t{1}, std::int64_t{2}, std::int64_t{3}, std::int64_t{100}, kRows / 8 - 2})
    for (std::int64_t j = 0; j <= max_j; ++j) {
      const std::pair<std::int64_t, std::int64_t> at{i, j};
      const Value v = parse_and_evaluate("smem_wavefronts(" + instr + ", " + lanes_expr(tile, k_major, contiguous, bits, &at) +
                                             ", " + std::to_string(bits) + ")",
                                         &standard_functions());
      const std::int64_t w = std::get<IntTuple>(v.data).value();
      ++r.corner_cases;
      if ((w == 4) != expect_minimum && r.corner_failure.empty())
        r.corner_failure = what + " at i=" + std::to_string(i) + ", j=" + std::to_string(j) + ": " + std::to_string(w);
    }
}

LawResult swizzled_atoms(const ProofOptions&) {
  LawResult r;
  r.status = ProofStatus::Proved;
  bool sample = true;
  for (GmmaSwizzle sw : {GmmaSwizzle::SW32, GmmaSwizzle::SW64, GmmaSwizzle::SW128})
    for (bool k_major : {true, false})
      for (int bits : {8, 16, 32}) {
        std::int64_t contiguous = 0;
        const AtomCase a{k_major, sw, bits};
        const std::string tile = tile_expr(a, contiguous);
        const std::int64_t max_j = contiguous / (2 * (128 / bits)) - 1;
        const std::string lanes = lanes_expr(tile, k_major, contiguous, bits);
        for (const char* instr : {"ldmatrix.x4", "stmatrix.x4"}) {
          // stmatrix stores 16-bit elements (CuTe's SM90_*_STSM_* with 16-bit types): proved for those.
          if (std::string(instr) == "stmatrix.x4" && bits != 16) continue;
          // "any 16-row x 2-chunk block of the tile": the first block, and the last rows (1008 to
          // 1023: i == (1024 - 16) / 8) at the last two chunks of the contiguous extent.
          const std::int64_t last_i = (kRows - 16) / 8, last_j = (contiguous / (128 / bits) - 2) / 2;
          const Claim c{std::string("smem_wavefronts(") + instr + ", " + lanes + ", " + std::to_string(bits) + ") == 4",
                        {"i in [0," + std::to_string(kRows / 8 - 2) + "]", "j in [0," + std::to_string(max_j) + "]"},
                        std::string(instr) + " on " + tile,
                        {{{"i", 0}, {"j", 0}}, {{"i", last_i}, {"j", last_j}}}};
          run_claim(r, c, ProofStatus::Proved, sample);
          sample = false;
          if (std::string(instr) == "ldmatrix.x4") corner(r, c.what, instr, tile, k_major, contiguous, bits, max_j, true);
        }
      }
  return r;
}

// A refutation names no domain points: a narrower range could only lose its counterexample.
LawResult row_major_refuted(const ProofOptions&) {
  LawResult r;
  r.status = ProofStatus::Refuted;
  // 16-bit elements, 64 per 128-byte row, no swizzle: a matrix's 8 rows share banks 0..3.
  std::string tile = "(";  // appended piece by piece: GCC 12's bogus -Wrestrict (GCC bug 105651)
  tile += std::to_string(kRows);
  tile += ",64):(64,1)";
  const std::string lanes = lanes_expr(tile, true, 64, 16);
  bool sample = true;
  for (const char* instr : {"ldmatrix.x4", "stmatrix.x4"}) {
    const Claim c{std::string("smem_wavefronts(") + instr + ", " + lanes + ", 16) == 4",
                  {"i in [0," + std::to_string(kRows / 8 - 2) + "]", "j in [0,3]"}, std::string(instr) + " on " + tile,
                  {}};
    run_claim(r, c, ProofStatus::Refuted, sample);
    sample = false;
    corner(r, c.what, instr, tile, true, 64, 16, 3, false);
  }
  return r;
}

}  // namespace

void add_bank_laws(std::vector<Law>& laws) {
  laws.push_back({"smem_wavefronts_swizzled_atoms",
                  "ldmatrix.x4 (8/16/32-bit) and stmatrix.x4 (16-bit) of any 16-row x 2-chunk block of a SW32/SW64/SW128 "
                  "GMMA atom tiling (K- and MN-major, 1024 rows) need exactly 4 wavefronts, the minimum",
                  ProofStatus::Proved, swizzled_atoms});
  laws.push_back({"smem_wavefronts_row_major_refuted",
                  "the same claim for an unswizzled row-major tile of 128-byte rows is refuted (8 rows per matrix share "
                  "banks 0..3: 32 wavefronts), the counterexample replayed on the model",
                  ProofStatus::Refuted, row_major_refuted});
}

}  // namespace cuteref::proofs
