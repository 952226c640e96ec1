#include "atoms/mma_atom.hpp"

#include <cctype>
#include <vector>

#include "atoms/atom_table_notation.hpp"
#include "atoms/umma_mma_atom.hpp"
#include "error.hpp"

namespace cuteref {

namespace {

using atom_table_notation::s;
using atom_table_notation::t;

[[noreturn]] void bad_name(std::string_view name, const std::string& what) {
  throw Error("MMA atom `" + std::string(name) + "`: " + what);
}

// "8x8x4" -> {8, 8, 4}.
std::vector<std::int64_t> parse_mnk(std::string_view name, const std::string& part) {
  std::vector<std::int64_t> out;
  std::int64_t v = 0;
  bool digits = false;
  for (char c : part + "x") {
    if (std::isdigit(static_cast<unsigned char>(c))) {
      if (v > 100000) bad_name(name, "shape `" + part + "` is out of range");
      v = v * 10 + (c - '0');
      digits = true;
    } else if (c == 'x' && digits) {
      out.push_back(v);
      v = 0;
      digits = false;
    } else {
      bad_name(name, "expected the shape MxNxK, found `" + part + "`");
    }
  }
  if (out.size() != 3) bad_name(name, "expected the shape MxNxK, found `" + part + "`");
  return out;
}

// "F32BF16BF16F32" -> {"f32", "bf16", "bf16", "f32"} (PTX spellings).
std::vector<std::string> parse_types(std::string_view name, const std::string& part) {
  static const char* const kTokens[] = {"BF16", "TF32", "E4M3", "E5M2", "F16", "F32", "S32", "S8", "U8"};
  std::vector<std::string> out;
  std::size_t pos = 0;
  while (pos < part.size()) {
    bool matched = false;
    for (const char* tok : kTokens) {
      const std::string tk(tok);
      if (part.compare(pos, tk.size(), tk) == 0) {
        std::string lower;
        for (char c : tk) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        out.push_back(lower);
        pos += tk.size();
        matched = true;
        break;
      }
    }
    if (!matched) bad_name(name, "unknown element type at `" + part.substr(pos) + "` in `" + part + "`");
  }
  return out;
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out(1);
  for (char c : s) {
    if (c == sep) out.emplace_back();
    else out.back() += c;
  }
  return out;
}


bool is_int8(const std::string& type) { return type == "s8" || type == "u8"; }
bool is_fp8(const std::string& type) { return type == "e4m3" || type == "e5m2"; }

void set_shape(MmaAtom& a, std::int64_t m, std::int64_t n, std::int64_t k) {
  a.m = m;
  a.n = n;
  a.k = k;
  a.shape_mnk = t({s(m), s(n), s(k)});
}

// ---------------------------------------------------------------- SM70 (Volta HMMA, quadpair)

MmaAtom sm70_atom(std::string_view name, const std::vector<std::string>& parts) {
  // SM70_8x8x4_<D A B C>_<transposes>
  if (parts.size() != 4) bad_name(name, "expected SM70_8x8x4_<DABC types>_<NT|TN|NN|TT>");
  const auto mnk = parse_mnk(name, parts[1]);
  if (mnk != std::vector<std::int64_t>{8, 8, 4}) bad_name(name, "SM70 HMMA atoms are 8x8x4");
  const auto types = parse_types(name, parts[2]);
  const bool f32_accum = types == std::vector<std::string>{"f32", "f16", "f16", "f32"};
  const bool f16_accum = types == std::vector<std::string>{"f16", "f16", "f16", "f16"};
  if (!f32_accum && !f16_accum) bad_name(name, "SM70 types are F16F16F16F16 or F32F16F16F32");
  const std::string& tr = parts[3];
  if (tr != "NT" && tr != "TN" && tr != "NN" && tr != "TT") bad_name(name, "expected NT, TN, NN or TT, found `" + tr + "`");

  MmaAtom a;
  a.arch = 70;
  set_shape(a, 8, 8, 4);
  a.type_d = types[0];
  a.type_a = types[1];
  a.type_b = types[2];
  a.type_c = types[3];
  a.a_in_registers = true;
  // Logical thread t -> lane: t0 in [0,4) are lanes 0..3, t1 selects the other half of the
  // quadpair, 16 lanes up.
  a.thr_id = Layout(t({s(4), s(2)}), t({s(1), s(16)}));
  // An operand that is not transposed (N for A, T for B) is M/N-major: each thread holds 4
  // consecutive rows of one k column. (t0, t1) -> (k = t0, rows 4*t1..): strides (8, 4); v -> row.
  const Layout mn_major(t({t({s(4), s(2)}), s(4)}), t({t({s(8), s(4)}), s(1)}));
  // A K-major operand: thread t holds row t, values run along k (stride = 8 rows).
  const Layout k_major(t({s(8), s(4)}), t({s(1), s(8)}));
  a.a_layout = tr[0] == 'N' ? mn_major : k_major;
  a.b_layout = tr[1] == 'T' ? mn_major : k_major;
  a.major_a = tr[0] == 'N' ? GmmaMajor::MN : GmmaMajor::K;
  a.major_b = tr[1] == 'T' ? GmmaMajor::MN : GmmaMajor::K;
  if (f16_accum) {
    // Thread t owns row t, its 8 values run along n (stride 8).
    a.c_layout = Layout(t({s(8), s(8)}), t({s(1), s(8)}));
  } else {
    // Threads: t0 -> row+1, t1 -> column pair +2 (stride 16), t2 -> row+4.
    // Values:  v0 -> column+1 (8), v1 -> row+2, v2 -> column+4 (32).
    a.c_layout = Layout(t({t({s(2), s(2), s(2)}), t({s(2), s(2), s(2)})}),
                        t({t({s(1), s(16), s(4)}), t({s(8), s(2), s(32)})}));
  }
  return a;
}

// ---------------------------------------------------------------- SM80 (Ampere mma.sync, one warp)
// Lane = 4 * groupID + threadID_in_group; in every layout below the thread mode is
// (4, 8) = (threadID_in_group, groupID).

MmaAtom sm80_atom(std::string_view name, const std::vector<std::string>& parts, bool sm89) {
  if (parts.size() != 4 && !(parts.size() == 5 && parts[4] == "SATURATE"))
    bad_name(name, "expected SM80_16x8xK_<DABC types>_TN");
  if (parts[3] != "TN") bad_name(name, "SM80 mma.sync atoms are TN only, found `" + parts[3] + "`");
  const auto mnk = parse_mnk(name, parts[1]);
  const auto types = parse_types(name, parts[2]);
  if (types.size() != 4) bad_name(name, "expected four element types D, A, B, C");
  if (mnk[0] != 16 || mnk[1] != 8) bad_name(name, "the supported SM80 atoms are 16x8xK");

  MmaAtom a;
  a.arch = 80;
  set_shape(a, mnk[0], mnk[1], mnk[2]);
  a.type_d = types[0];
  a.type_a = types[1];
  a.type_b = types[2];
  a.type_c = types[3];
  a.a_in_registers = true;
  a.thr_id = Layout(s(32), s(1));
  const bool saturate = parts.size() == 5;
  // C (16 x 8): c0,c1 at row groupID, columns 2*tig + {0,1}; c2,c3 eight rows down.
  // t: tig -> column pair (2*16), groupID -> row (1); v: column+1 (16), row+8 (8).
  a.c_layout = Layout(t({t({s(4), s(8)}), t({s(2), s(2)})}), t({t({s(32), s(1)}), t({s(16), s(8)})}));

  const std::string& ta = types[1];
  const std::string& tb = types[2];
  const bool f16 = ta == "f16" && tb == "f16" &&
                   ((types[0] == "f16" && types[3] == "f16") || (types[0] == "f32" && types[3] == "f32"));
  const bool bf16 = ta == "bf16" && tb == "bf16" && types[0] == "f32" && types[3] == "f32";
  const bool tf32 = ta == "tf32" && tb == "tf32" && types[0] == "f32" && types[3] == "f32";
  const bool i8 = is_int8(ta) && is_int8(tb) && types[0] == "s32" && types[3] == "s32";
  // SM89 (Ada) adds 16x8x32 mma.sync on e4m3/e5m2 with f32 or f16 accumulators.
  const bool fp8 = is_fp8(ta) && is_fp8(tb) &&
                   ((types[0] == "f32" && types[3] == "f32") || (types[0] == "f16" && types[3] == "f16"));
  if (saturate && !i8) bad_name(name, "_SATURATE exists only for integer atoms");
  if (sm89 != fp8) bad_name(name, sm89 ? "SM89 atoms are the 16x8x32 e4m3/e5m2 ones (F32 or F16 accumulators)"
                                       : "e4m3/e5m2 mma.sync atoms are SM89's");
  if (sm89) a.arch = 89;

  if ((f16 || bf16) && mnk[2] == 8) {
    // A (16 x 8): a0,a1 row groupID, k = 2*tig + {0,1}; a2,a3 row + 8.
    a.a_layout = Layout(t({t({s(4), s(8)}), t({s(2), s(2)})}), t({t({s(32), s(1)}), t({s(16), s(8)})}));
    // B (8 x 8 as n x k): b0,b1 at n = groupID, k = 2*tig + {0,1}.
    a.b_layout = Layout(t({t({s(4), s(8)}), s(2)}), t({t({s(16), s(1)}), s(8)}));
  } else if ((f16 || bf16) && mnk[2] == 16) {
    // A (16 x 16): as 16x8x8 plus a4..a7 at k + 8 (8 * 16 = 128).
    a.a_layout = Layout(t({t({s(4), s(8)}), t({s(2), s(2), s(2)})}),
                        t({t({s(32), s(1)}), t({s(16), s(8), s(128)})}));
    // B (8 x 16 as n x k): b0,b1 at k = 2*tig + {0,1}; b2,b3 at k + 8 (8 * 8 = 64).
    a.b_layout = Layout(t({t({s(4), s(8)}), t({s(2), s(2)})}), t({t({s(16), s(1)}), t({s(8), s(64)})}));
  } else if (tf32 && mnk[2] == 4) {
    // A (16 x 4), one tf32 per register: a0 (g, tig), a1 (g + 8, tig): t -> k (16), row (1).
    a.a_layout = Layout(t({t({s(4), s(8)}), s(2)}), t({t({s(16), s(1)}), s(8)}));
    // B (8 x 4 as n x k): b0 at n = groupID, k = tig; one value.
    a.b_layout = Layout(t({t({s(4), s(8)}), s(1)}), t({t({s(8), s(1)}), s(0)}));
  } else if (tf32 && mnk[2] == 8) {
    // A (16 x 8), one tf32 per register: a0 (g, tig), a1 (g+8, tig), a2 (g, tig+4), a3 (g+8, tig+4).
    a.a_layout = Layout(t({t({s(4), s(8)}), t({s(2), s(2)})}), t({t({s(16), s(1)}), t({s(8), s(64)})}));
    // B (8 x 8 as n x k): b0 at k = tig, b1 at k = tig + 4 (4 * 8 = 32).
    a.b_layout = Layout(t({t({s(4), s(8)}), s(2)}), t({t({s(8), s(1)}), s(32)}));
  } else if ((i8 || fp8) && mnk[2] == 32) {
    // (e4m3/e5m2 take the 8-bit integer fragments of the same shape.)
    // A (16 x 32), four 8-bit values per register: k = 4*tig + {0..3}; registers: row + 8, k + 16.
    a.a_layout = Layout(t({t({s(4), s(8)}), t({s(4), s(2), s(2)})}),
                        t({t({s(64), s(1)}), t({s(16), s(8), s(256)})}));
    // B (8 x 32 as n x k): k = 4*tig + {0..3} at n = groupID; second register k + 16 (16 * 8 = 128).
    a.b_layout = Layout(t({t({s(4), s(8)}), t({s(4), s(2)})}), t({t({s(32), s(1)}), t({s(8), s(128)})}));
  } else {
    bad_name(name,
             "not a supported SM80 atom: 16x8x8 / 16x8x16 with F16F16F16F16, F32F16F16F32, F32BF16BF16F32; "
             "16x8x4 / 16x8x8 F32TF32TF32F32; 16x8x32 S32{S8,U8}{S8,U8}S32; SM89 16x8x32 {F32,F16}{E4M3,E5M2}{E4M3,E5M2}{F32,F16}");
  }
  return a;
}

// ---------------------------------------------------------------- SM90 (Hopper wgmma, one warpgroup)

GmmaMajor parse_major(std::string_view name, const std::string& word) {
  std::string w = word;
  const std::string prefix = "GMMA::Major::";
  if (w.rfind(prefix, 0) == 0) w = w.substr(prefix.size());
  if (w == "K") return GmmaMajor::K;
  if (w == "MN") return GmmaMajor::MN;
  bad_name(name, "majorness must be K or MN, found `" + word + "`");
}

// The RS A fragment: the accumulator pattern over a 64 x K tile, with p = 32 / bits values
// packed per 32-bit register along k.
// t: (lane % 4 -> k group of p (stride p*64), lane / 4 -> row (1), warp -> 16 rows (16))
// v: (k within the register (64), row + 8 (8), k + 4p (4p * 64)); the first value mode is
// dropped when a register holds one value (tf32).
Layout gmma_register_a_layout(int bits) {
  const std::int64_t p = 32 / bits;
  const IntTuple thr_shape = t({s(4), s(8), s(4)});
  const IntTuple thr_stride = t({s(p * 64), s(1), s(16)});
  if (p == 1)
    return Layout(t({thr_shape, t({s(2), s(2)})}), t({thr_stride, t({s(8), s(4 * 64)})}));
  return Layout(t({thr_shape, t({s(p), s(2), s(2)})}), t({thr_stride, t({s(64), s(8), s(4 * p * 64)})}));
}

MmaAtom sm90_atom(std::string_view name, std::vector<std::string> parts, const std::string& template_args) {
  // SM90_64xNxK_<DAB>_<SS|RS>[_TN[_SATURATE]]
  if (parts.size() < 4 || parts.size() > 6) bad_name(name, "expected SM90_64xNxK_<DAB types>_<SS|RS>[_TN]");
  const auto mnk = parse_mnk(name, parts[1]);
  const auto types = parse_types(name, parts[2]);
  if (types.size() != 3) bad_name(name, "expected three element types D, A, B");
  const std::string& src = parts[3];
  if (src != "SS" && src != "RS") bad_name(name, "expected SS or RS, found `" + src + "`");
  const bool tn = parts.size() >= 5 && parts[4] == "TN";
  const bool saturate = parts.size() == 6 && parts[5] == "SATURATE";
  if (parts.size() >= 5 && !tn) bad_name(name, "unexpected suffix `" + parts[4] + "`");
  if (parts.size() == 6 && !saturate) bad_name(name, "unexpected suffix `" + parts[5] + "`");

  const std::string &d = types[0], &ta = types[1], &tb = types[2];
  const std::int64_t m = mnk[0], n = mnk[1], k = mnk[2];
  if (m != 64) bad_name(name, "wgmma has M = 64, found " + std::to_string(m));
  const bool sixteen = (ta == "f16" && tb == "f16" && (d == "f16" || d == "f32")) ||
                       (ta == "bf16" && tb == "bf16" && d == "f32");
  const bool tf32 = ta == "tf32" && tb == "tf32" && d == "f32";
  const bool fp8 = is_fp8(ta) && is_fp8(tb) && (d == "f16" || d == "f32");
  const bool i8 = is_int8(ta) && is_int8(tb) && d == "s32";
  if (!sixteen && !tf32 && !fp8 && !i8)
    bad_name(name, "type combination D=" + d + " A=" + ta + " B=" + tb +
                       " is not a wgmma (f16: f16|f32 <- f16; f32 <- bf16; f32 <- tf32; f16|f32 <- e4m3|e5m2; "
                       "s32 <- s8|u8)");
  const std::int64_t want_k = sixteen ? 16 : tf32 ? 8 : 32;
  if (k != want_k)
    bad_name(name, "K must be " + std::to_string(want_k) + " for " + ta + " (32 bytes), found " + std::to_string(k));
  if (n < 8 || n > 256 || n % 8 != 0) bad_name(name, "N must be a multiple of 8 in [8, 256], found " + std::to_string(n));
  if (i8 && n > 32 && n % 16 != 0)
    bad_name(name, "integer wgmma needs N in {8, 16, 24, 32} or a multiple of 16 up to 256, found " + std::to_string(n));
  if (saturate && !i8) bad_name(name, "_SATURATE exists only for integer atoms");

  MmaAtom a;
  a.arch = 90;
  set_shape(a, m, n, k);
  a.type_d = d;
  a.type_a = ta;
  a.type_b = tb;
  a.type_c = d;
  a.a_in_registers = src == "RS";
  if (sixteen) {
    if (tn) bad_name(name, "16-bit atoms take their majorness as template arguments (`<K,K>`), not `_TN`");
    if (!template_args.empty()) {
      const auto args = split(template_args.substr(1, template_args.size() - 2), ',');
      if (args.size() != 2) bad_name(name, "expected two majorness arguments <A,B>, found `" + template_args + "`");
      a.major_a = parse_major(name, args[0]);
      a.major_b = parse_major(name, args[1]);
    }
    if (a.a_in_registers && a.major_a != GmmaMajor::K)
      bad_name(name, "an RS atom reads A from registers, which is K-major (majorness of A must be K)");
    a.name = parts[0] + "_" + parts[1] + "_" + parts[2] + "_" + src + "<" + to_string(a.major_a) + "," +
             to_string(a.major_b) + ">";
  } else {
    if (!tn) bad_name(name, ta + " atoms are K-major only and are named with `_TN`");
    if (!template_args.empty())
      bad_name(name, ta + " atoms have no majorness arguments (K-major only), found `" + template_args + "`");
    a.name = std::string(name);
  }
  a.thr_id = Layout(s(128), s(1));
  a.a_layout = a.a_in_registers ? gmma_register_a_layout(mma_element_bits(ta)) : gmma_smem_operand_layout(64, k);
  a.b_layout = gmma_smem_operand_layout(n, k);
  a.c_layout = gmma_accumulator_layout(n);
  return a;
}

}  // namespace

int mma_element_bits(const std::string& type) {
  if (type == "f16" || type == "bf16") return 16;
  if (type == "tf32" || type == "f32" || type == "s32") return 32;
  if (type == "e4m3" || type == "e5m2" || type == "s8" || type == "u8") return 8;
  if (type == "e2m3" || type == "e3m2") return 6;
  throw Error("unknown element type `" + type + "`");
}

std::string to_string(GmmaMajor m) { return m == GmmaMajor::K ? "K" : "MN"; }

Layout gmma_smem_operand_layout(std::int64_t rows, std::int64_t k) {
  // Every thread (stride 0) sees the whole rows x K tile, column-major.
  return Layout(t({s(128), t({s(rows), s(k)})}), t({s(0), t({s(1), s(rows)})}));
}

Layout gmma_accumulator_layout(std::int64_t n) {
  if (n < 8 || n % 8 != 0) throw Error("gmma_accumulator_layout: N must be a positive multiple of 8, got " + std::to_string(n));
  // t: (lane % 4 -> column pair (2 * 64), lane / 4 -> row (1), warp -> 16 rows (16))
  // v: (column + 1 (64), row + 8 (8), next 8 columns (8 * 64 = 512))
  return Layout(t({t({s(4), s(8), s(4)}), t({s(2), s(2), s(n / 8)})}),
                t({t({s(128), s(1), s(16)}), t({s(64), s(8), s(512)})}));
}

MmaAtom mma_atom(std::string_view name) {
  std::string base(name);
  std::string template_args;
  if (const auto lt = base.find('<'); lt != std::string::npos) {
    if (base.back() != '>') bad_name(name, "unbalanced template arguments");
    template_args = base.substr(lt);
    base = base.substr(0, lt);
  }
  const auto parts = split(base, '_');
  if (parts.size() < 2) bad_name(name, "not an MMA Operation name (expected SM70_..., SM80_..., SM89_... or SM90_...)");
  MmaAtom a;
  if (parts[0] == "SM70" || parts[0] == "SM80" || parts[0] == "SM89") {
    if (!template_args.empty()) bad_name(name, parts[0] + " atoms take no template arguments");
    a = parts[0] == "SM70" ? sm70_atom(name, parts) : sm80_atom(name, parts, parts[0] == "SM89");
    a.name = std::string(name);
  } else if (parts[0] == "SM90") {
    a = sm90_atom(name, parts, template_args);
  } else if (parts[0] == "SM100") {
    a = umma_mma_atom(name);
  } else {
    bad_name(name, "unknown architecture prefix `" + parts[0] + "` (expected SM70, SM80, SM89, SM90 or SM100)");
  }
  return a;
}

}  // namespace cuteref
