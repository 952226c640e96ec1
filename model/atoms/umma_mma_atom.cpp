#include "atoms/umma_mma_atom.hpp"

#include <cctype>
#include <string>
#include <vector>

#include "atoms/atom_table_notation.hpp"
#include "error.hpp"

namespace cuteref {

namespace {

using atom_table_notation::s;
using atom_table_notation::t;

[[noreturn]] void bad(std::string_view name, const std::string& what) {
  throw Error("MMA atom `" + std::string(name) + "`: " + what);
}

std::string strip_scope(std::string w, const std::vector<std::string>& scopes) {
  for (const std::string& p : scopes)
    if (w.rfind(p, 0) == 0) w = w.substr(p.size());
  return w;
}

// A C++ element type name -> its PTX spelling.
std::string element_type(std::string_view name, const std::string& word, const char* which) {
  const std::string w = strip_scope(word, {"cute::", "cutlass::"});
  static const std::pair<const char*, const char*> kTypes[] = {
      {"half_t", "f16"},        {"bfloat16_t", "bf16"},   {"tfloat32_t", "tf32"},   {"float", "f32"},
      {"int8_t", "s8"},         {"uint8_t", "u8"},        {"int32_t", "s32"},       {"float_e4m3_t", "e4m3"},
      {"float_e5m2_t", "e5m2"}, {"float_e2m3_t", "e2m3"}, {"float_e3m2_t", "e3m2"},
  };
  for (const auto& [cpp, ptx] : kTypes)
    if (w == cpp) return ptx;
  if (w == "float_e2m1_t")
    bad(name, std::string(which) + " type float_e2m1_t: CuTe's make_instr_desc encodes it as MXF4's E2M1 (1), which the "
                                   "f8f6f4 kind reads as E5M2; not modelled");
  bad(name, std::string(which) + " type `" + word +
                "` is not one of half_t, bfloat16_t, tfloat32_t, float, int8_t, uint8_t, int32_t, float_e4m3_t, "
                "float_e5m2_t, float_e2m3_t, float_e3m2_t");
}

std::int64_t extent(std::string_view name, const std::string& word, const char* which) {
  if (word.empty() || word.size() > 4) bad(name, std::string(which) + " `" + word + "` is not an extent");
  for (char c : word)
    if (!std::isdigit(static_cast<unsigned char>(c))) bad(name, std::string(which) + " `" + word + "` is not an extent");
  return std::stoll(word);
}

GmmaMajor major_arg(std::string_view name, const std::string& word, const char* which) {
  const std::string w = strip_scope(word, {"cute::", "UMMA::Major::"});
  if (w == "K") return GmmaMajor::K;
  if (w == "MN") return GmmaMajor::MN;
  bad(name, std::string(which) + " major must be K or MN, found `" + word + "`");
}

std::uint32_t flag_arg(std::string_view name, const std::string& word, const std::string& scope, const char* off,
                       const char* on, const char* which) {
  const std::string w = strip_scope(word, {"cute::", scope});
  if (w == off) return 0;
  if (w == on) return 1;
  bad(name, std::string(which) + " must be " + off + " or " + on + ", found `" + word + "`");
}

// CuTe's UMMA format codes (mma_sm100_desc.hpp) of a PTX element type.
std::uint32_t operand_format(const std::string& type) {
  if (type == "f16" || type == "e4m3" || type == "u8") return 0;
  if (type == "bf16" || type == "e5m2" || type == "s8") return 1;
  if (type == "tf32") return 2;
  if (type == "e2m3") return 3;
  if (type == "e3m2") return 4;
  throw Error("no UMMA format for `" + type + "`");
}

std::uint32_t d_format(const std::string& type) { return type == "f16" ? 0 : type == "f32" ? 1 : 2; }

}  // namespace

MmaAtom umma_mma_atom(std::string_view name) {
  std::string base(name), args_text;
  if (const auto lt = base.find('<'); lt != std::string::npos) {
    if (base.back() != '>') bad(name, "unbalanced template arguments");
    args_text = base.substr(lt + 1, base.size() - lt - 2);
    base = base.substr(0, lt);
  }
  // SM100_MMA_<KIND>[_2x1SM]_<SS|TS>
  std::vector<std::string> parts(1);
  for (char c : base) {
    if (c == '_') parts.emplace_back();
    else parts.back() += c;
  }
  const bool pair = parts.size() == 5 && parts[3] == "2x1SM";
  if (!(parts.size() == 4 || pair) || parts[1] != "MMA")
    bad(name, "expected SM100_MMA_<TF32|F16BF16|S8|F8F6F4>[_2x1SM]_<SS|TS><...>");
  const std::string& kind = parts[2];
  const std::string& src = parts.back();
  if (kind != "TF32" && kind != "F16BF16" && kind != "S8" && kind != "F8F6F4")
    bad(name, "the kind must be TF32, F16BF16, S8 or F8F6F4 (the dense tcgen05.mma kinds modelled), found `" + kind + "`");
  if (src != "SS" && src != "TS") bad(name, "expected SS (A and B from shared memory) or TS (A from tensor memory), found `" + src + "`");
  const bool ts = src == "TS";

  std::vector<std::string> args(1);
  for (char c : args_text) {
    if (std::isspace(static_cast<unsigned char>(c))) continue;
    if (c == ',') args.emplace_back();
    else args.back() += c;
  }
  // The optional trailing arguments each Operation takes after <A,B,C,M,N,A_major,B_major>.
  std::vector<std::string> optional;
  if (kind == "S8" && !ts) optional = {"saturate"};
  else if (ts) optional = {"negate_a", "negate_b", "saturate"};
  else optional = {"negate_a", "negate_b"};
  if (args_text.empty() || args.size() < 7 || args.size() > 7 + optional.size())
    bad(name, "expected the template arguments <A, B, C, M, N, A_major, B_major" +
                  std::string(optional.size() == 1 ? ", [saturate]" : optional.size() == 2 ? ", [negate_a, negate_b]"
                                                                                            : ", [negate_a, negate_b, saturate]") +
                  ">");

  const std::string ta = element_type(name, args[0], "A"), tb = element_type(name, args[1], "B"),
                    tc = element_type(name, args[2], "C");
  const std::int64_t m = extent(name, args[3], "M"), n = extent(name, args[4], "N");
  const GmmaMajor major_a = major_arg(name, args[5], "A"), major_b = major_arg(name, args[6], "B");
  UmmaInstrDescriptor d;
  for (std::size_t i = 7; i < args.size(); ++i) {
    if (optional[i - 7] == "saturate") d.saturate = flag_arg(name, args[i], "UMMA::Saturate::", "False", "True", "saturate");
    else if (optional[i - 7] == "negate_a") d.negate_a = flag_arg(name, args[i], "UMMA::ScaleIn::", "One", "Neg", "negate A");
    else d.negate_b = flag_arg(name, args[i], "UMMA::ScaleIn::", "One", "Neg", "negate B");
  }

  // Element types the kind takes (PTX ISA, tcgen05.mma kinds).
  auto is = [](const std::string& x, std::initializer_list<const char*> set) {
    for (const char* e : set)
      if (x == e) return true;
    return false;
  };
  if (kind == "TF32" && !(ta == "tf32" && tb == "tf32" && tc == "f32"))
    bad(name, "the tf32 kind computes f32 <- tfloat32_t x tfloat32_t, found C=" + tc + " A=" + ta + " B=" + tb);
  if (kind == "F16BF16" && !((ta == "f16" && tb == "f16" && (tc == "f16" || tc == "f32")) || (ta == "bf16" && tb == "bf16" && tc == "f32")))
    bad(name, "the f16 kind computes f16|f32 <- half_t x half_t or f32 <- bfloat16_t x bfloat16_t, found C=" + tc + " A=" + ta +
                  " B=" + tb);
  if (kind == "S8" && !(is(ta, {"s8", "u8"}) && is(tb, {"s8", "u8"}) && tc == "s32"))
    bad(name, "the i8 kind computes int32_t <- int8_t|uint8_t x int8_t|uint8_t, found C=" + tc + " A=" + ta + " B=" + tb);
  if (kind == "F8F6F4" && !(is(ta, {"e4m3", "e5m2", "e2m3", "e3m2"}) && is(tb, {"e4m3", "e5m2", "e2m3", "e3m2"}) && is(tc, {"f16", "f32"})))
    bad(name, "the f8f6f4 kind computes half_t|float <- float_e4m3_t|float_e5m2_t|float_e2m3_t|float_e3m2_t, found C=" + tc +
                  " A=" + ta + " B=" + tb);
  if (d.saturate && kind != "S8") bad(name, "saturate is for the i8 kind only");
  if ((d.negate_a || d.negate_b) && kind == "S8") bad(name, "the i8 kind has no negation");
  if (ts && major_a != GmmaMajor::K) bad(name, "a TS atom reads A from tensor memory, which is K-major (A_major must be K)");
  for (const auto& [type, major] : {std::pair{ta, major_a}, std::pair{tb, major_b}})
    if (major == GmmaMajor::MN && is(type, {"e2m3", "e3m2"}))
      bad(name, "an MN-major operand must be 8 bits or wider; " + type + " is K-major only");

  // Shapes, as CuTe's Operations assert them.
  auto n_rule = [&](std::int64_t step, std::int64_t lo, bool eight_too) {
    if (!((n % step == 0 && n >= lo && n <= 256) || (eight_too && n == 8)))
      bad(name, "N must be " + std::string(eight_too ? "8 or " : "") + "a multiple of " + std::to_string(step) + " in [" +
                    std::to_string(lo) + ", 256] for this atom, found " + std::to_string(n));
  };
  if (!pair) {
    if (m != 64 && m != 128) bad(name, "M must be 64 or 128 for one CTA, found " + std::to_string(m));
    if (kind == "S8") n_rule(16, 16, true);
    else if (ts) m == 64 ? n_rule(8, 8, false) : n_rule(16, 16, false);
    else if (kind == "F8F6F4" && major_b == GmmaMajor::MN) n_rule(16, 16, false);
    else n_rule(8, 8, false);
  } else {
    if (m != 128 && m != 256) bad(name, "M must be 128 or 256 for a CTA pair (2x1SM), found " + std::to_string(m));
    if (ts || kind == "S8") n_rule(32, 32, false);
    else if (kind == "F8F6F4" && major_b == GmmaMajor::MN) n_rule(32, 32, false);
    else n_rule(16, 16, false);
  }

  MmaAtom a;
  a.arch = 100;
  a.name = base + "<";
  for (std::size_t i = 0; i < args.size(); ++i) a.name += (i ? "," : "") + args[i];
  a.name += ">";
  const std::int64_t k = kind == "F8F6F4" ? 32 : 256 / mma_element_bits(ta);
  a.m = m;
  a.n = n;
  a.k = k;
  a.shape_mnk = t({s(m), s(n), s(k)});
  a.type_d = tc;
  a.type_a = ta;
  a.type_b = tb;
  a.type_c = tc;
  a.major_a = major_a;
  a.major_b = major_b;
  a.cta_group = pair ? 2 : 1;
  a.a_in_tmem = ts;
  if (!pair) {
    a.thr_id = Layout(s(1), s(0));
    a.a_layout = Layout(t({s(1), t({s(m), s(k)})}), t({s(0), t({s(1), s(m)})}));
    a.b_layout = Layout(t({s(1), t({s(n), s(k)})}), t({s(0), t({s(1), s(n)})}));
    a.c_layout = Layout(t({s(1), t({s(m), s(n)})}), t({s(0), t({s(1), s(m)})}));
  } else {
    // Peer CTA v: rows v * M/2 .. of A and C, columns v * N/2 .. of B.
    a.thr_id = Layout(s(2), s(1));
    a.a_layout = Layout(t({s(2), t({s(m / 2), s(k)})}), t({s(m / 2), t({s(1), s(m)})}));
    a.b_layout = Layout(t({s(2), t({s(n / 2), s(k)})}), t({s(n / 2), t({s(1), s(n)})}));
    a.c_layout = Layout(t({s(2), t({s(m / 2), s(n)})}), t({s(m / 2), t({s(1), s(m)})}));
  }
  d.d_format = d_format(tc);
  d.a_format = operand_format(ta);
  d.b_format = operand_format(tb);
  d.a_major = major_a == GmmaMajor::MN ? 1 : 0;
  d.b_major = major_b == GmmaMajor::MN ? 1 : 0;
  d.n_dim = static_cast<std::uint32_t>(n >> 3);
  d.m_dim = static_cast<std::uint32_t>(m >> 4);
  a.umma_idesc = d;
  return a;
}

}  // namespace cuteref
