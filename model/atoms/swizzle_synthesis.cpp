#include "atoms/swizzle_synthesis.hpp"

#include <algorithm>
#include <map>
#include <sstream>

#include "checked_math.hpp"
#include "coordinates.hpp"
#include "enumeration_budget.hpp"
#include "error.hpp"
#include "evaluate.hpp"

namespace cuteref {

namespace {

// The byte-address swizzles TMA and GMMA take: 32B, 64B, 128B (B = 1, 2, 3; M = 4; S = 3).
bool tma_gmma_mode(const Swizzle& sw) { return sw.base() == 4 && sw.shift() == 3 && sw.bits() >= 1 && sw.bits() <= 3; }

std::string member_name(const SwizzleMember& m) { return m.swizzle ? m.swizzle->to_string() : "no swizzle"; }

// Search order = tie-break order: unswizzled, the TMA/GMMA modes by B, then the rest with S > 0
// by (B, M, S), then those with S < 0 by (B, M, |S|): the box filtered by swizzle_family_member.
std::vector<std::optional<Swizzle>> family_members(SwizzleModes modes) {
  std::vector<std::optional<Swizzle>> out{std::nullopt};
  for (int b = 1; b <= 3; ++b) out.emplace_back(Swizzle(b, 4, 3));
  for (int sign : {1, -1})
    for (int b = 1; b <= kSwizzleFamilyMaxBits; ++b)
      for (int m = 0; m <= kSwizzleFamilyMaxBase; ++m)
        for (int s = 1; s <= kSwizzleFamilyMaxShift; ++s) {
          if (!swizzle_family_member<CheckedInt>(b, m, sign * s, modes) || (sign > 0 && tma_gmma_mode(Swizzle(b, m, s))))
            continue;
          out.emplace_back(Swizzle(b, m, sign * s));
        }
  return out;
}

// Every instruction of every access on the unswizzled SMEM, those of one access with the same
// lane offsets grouped (the partitions are computed once: a member only moves the offsets).
// Diagnostics of an access that does not fit SMEM are thrown.
std::vector<SwizzleInstructionClass> instruction_classes(const Layout& smem, const std::vector<SwizzleAccess>& accesses) {
  std::vector<SwizzleInstructionClass> out;
  for (std::size_t a = 0; a < accesses.size(); ++a) {
    const SwizzleAccess& acc = accesses[a];
    if (acc.instruction) {
      (void)smem_accesses(*acc.instruction, Value(smem), acc.bits);  // its diagnostics, and (32, V) checked
      SwizzleInstructionClass p{a, *acc.instruction, std::vector<std::vector<std::int64_t>>(32), 1};
      const std::int64_t values = size_value(smem) / 32;
      for (std::int64_t t = 0; t < 32; ++t)
        for (std::int64_t v = 0; v < values; ++v) p.offsets[t].push_back(apply_index(smem, t + 32 * v));
      out.push_back(std::move(p));
      continue;
    }
    const CopyBankConflicts b = bank_conflicts(acc.copy, Value(smem), acc.side);
    std::map<std::vector<std::vector<std::int64_t>>, std::size_t> seen;
    for (const CopyInstructionBanks& ib : b.instructions) {
      auto [it, fresh] = seen.emplace(ib.offsets, out.size());
      if (fresh) out.push_back({a, b.instruction, ib.offsets, 0});
      ++out[it->second].count;
    }
  }
  return out;
}

// The accesses' wavefronts when every element offset o is read at move(o). Errors of move and of
// smem_accesses (a swizzle that splits an access or an element) propagate: the member is infeasible.
// per_class (if given): each class's wavefronts of one execution.
template <class Move>
std::int64_t total_wavefronts(const std::vector<SwizzleInstructionClass>& classes, std::size_t accesses, int bits, Move&& move,
                              std::vector<std::int64_t>* per_access, std::vector<std::int64_t>* per_class = nullptr) {
  std::vector<std::int64_t> per(accesses, 0);
  if (per_class) per_class->clear();
  for (const SwizzleInstructionClass& p : classes) {
    std::vector<std::vector<std::int64_t>> moved = p.offsets;
    for (auto& lane : moved)
      for (std::int64_t& o : lane) o = move(o);
    const std::int64_t once = smem_wavefronts(p.instruction, smem_accesses(p.instruction, moved, bits)).wavefronts;
    if (per_class) per_class->push_back(once);
    per[p.access] = checked_add(per[p.access], checked_mul(p.count, once));
  }
  std::int64_t total = 0;
  for (std::int64_t w : per) total = checked_add(total, w);
  if (per_access) *per_access = per;
  return total;
}

std::int64_t max_offset(const std::vector<SwizzleInstructionClass>& classes) {
  std::int64_t m = 0;
  for (const SwizzleInstructionClass& p : classes)
    for (const auto& lane : p.offsets)
      for (std::int64_t o : lane) m = std::max(m, o);
  return m;
}

SwizzlePadding padding_alternative(const Layout& smem, const std::vector<SwizzleInstructionClass>& plain, std::size_t accesses, int bits) {
  SwizzlePadding out;
  const IntTuple& shape = smem.shape();
  const IntTuple& stride = smem.stride();
  const bool flat2 = shape.is_tuple() && shape.rank() == 2 && shape[0].is_integer() && shape[1].is_integer() &&
                     stride[0].is_integer() && stride[1].is_integer();
  if (!flat2 || !((stride[0].value() == 1) != (stride[1].value() == 1))) {
    out.why_not = "SMEM is not a flat rank-2 layout with exactly one unit-stride mode";
    return out;
  }
  const int pitch_mode = stride[0].value() == 1 ? 1 : 0;
  const std::int64_t pitch = stride[pitch_mode].value(), run = shape[1 - pitch_mode].value();
  if (pitch < run) {
    out.why_not = "SMEM's rows overlap (the stride " + std::to_string(pitch) + " is below the row length " + std::to_string(run) + ")";
    return out;
  }
  out.tried = true;
  const std::int64_t max_pad = 128 * 8 / bits;
  for (std::int64_t pad = 1; pad <= max_pad; ++pad) {
    // Element (i along the row, r the row) at r * pitch + i moves to r * (pitch + pad) + i.
    auto move = [&](std::int64_t o) { return checked_add(checked_mul(o / pitch, pitch + pad), o % pitch); };
    try {
      const std::int64_t total = total_wavefronts(plain, accesses, bits, move, nullptr);
      if (!out.found || total < out.total) {
        std::vector<IntTuple> st{stride[0], stride[1]};
        st[pitch_mode] = IntTuple::integer(pitch + pad);
        out.found = true;
        out.pad = pad;
        out.total = total;
        out.extra_bytes = (cosize(Layout(shape, IntTuple::tuple(st))).value() - cosize(smem).value()) * bits / 8;
      }
    } catch (const Error&) {
      // a pad that breaks an access's alignment: not a candidate
    }
  }
  return out;
}

}  // namespace

Value swizzled_smem(const Layout& smem, const std::optional<Swizzle>& sw, int bits) {
  if (!sw) return Value(smem);
  ComposedOffset token;
  token.pointer_token = "smem_ptr[" + std::to_string(bits) + "b](unset)";
  token.pointer_element_bits = bits;
  return Value(ComposedLayout{*sw, token, smem});
}

SwizzleSynthesis swizzle_for(const Layout& smem, const std::vector<SwizzleAccess>& accesses, SwizzleModes modes) {
  if (accesses.empty()) throw Error("swizzle_for: no tiled copy given: name at least one copy that reads or writes the layout");
  SwizzleSynthesis out;
  out.smem = smem;
  out.modes = modes;
  out.accesses = accesses;
  auto width = [](const SwizzleAccess& a) { return a.instruction ? a.bits : a.copy.value_bits; };
  out.bits = width(accesses.front());
  for (const SwizzleAccess& a : accesses)
    if (width(a) != out.bits)
      throw Error("swizzle_for: the accesses move elements of different widths (" + std::to_string(out.bits) + " and " +
                  std::to_string(width(a)) + " bits); one shared-memory layout holds one element type");
  if (out.bits % 8 != 0)
    throw Error("swizzle_for: elements of " + std::to_string(out.bits) + " bits are not whole bytes (the swizzle acts on byte addresses)");
  // The unswizzled layout first: its diagnostics (a copy that does not fit the layout) are the user's.
  for (const SwizzleAccess& a : accesses) {
    if (a.instruction) {
      const SmemWavefronts w = smem_wavefronts(*a.instruction, smem_accesses(*a.instruction, Value(smem), a.bits));
      out.access_names.push_back(a.instruction->name + " at the addresses SMEM(t, v)");
      out.ideal.push_back(w.ideal);
      out.instructions.push_back(1);
      out.ideal_total += w.ideal;
      continue;
    }
    const CopyBankConflicts b = bank_conflicts(a.copy, Value(smem), a.side);
    out.access_names.push_back(b.instruction.name + (b.source ? " (source)" : " (destination)") + " of " + a.copy.atom.name);
    out.ideal.push_back(b.ideal);
    out.instructions.push_back(static_cast<std::int64_t>(b.instructions.size()));
    out.ideal_total += b.ideal;
  }
  out.classes = instruction_classes(smem, accesses);
  const std::vector<SwizzleInstructionClass>& plain = out.classes;
  const std::vector<std::optional<Swizzle>> members = family_members(modes);
  // Every member and pad reads every offset once: charged to the evaluation's budget up front.
  std::int64_t offsets = 0;
  for (const SwizzleInstructionClass& p : plain)
    for (const auto& lane : p.offsets) offsets = checked_add(offsets, static_cast<std::int64_t>(lane.size()));
  charge_enumeration(checked_mul(offsets, static_cast<std::int64_t>(members.size()) + 128), "swizzle_for");
  // A member reads element o at Sw(o * bytes) / bytes, the model's own composed-layout
  // evaluation of Sw o smem_ptr[Nb](unset) o (identity over the offsets).
  const Layout identity(IntTuple::integer(checked_add(max_offset(plain), 1)), IntTuple::integer(1));
  out.class_least.assign(plain.size(), -1);
  for (const std::optional<Swizzle>& sw : members) {
    std::vector<std::int64_t> per_class;
    SwizzleMember m;
    m.swizzle = sw;
    m.tma_gmma = !sw || tma_gmma_mode(*sw);
    try {
      if (!sw) {
        m.total = total_wavefronts(plain, accesses.size(), out.bits, [](std::int64_t o) { return o; }, &m.wavefronts, &per_class);
      } else {
        const ComposedLayout moved = std::get<ComposedLayout>(swizzled_smem(identity, sw, out.bits).data);
        m.total = total_wavefronts(plain, accesses.size(), out.bits, [&](std::int64_t o) { return apply_composed(moved, o); },
                                   &m.wavefronts, &per_class);
      }
      m.feasible = true;
      for (std::size_t c = 0; c < per_class.size(); ++c)
        if (out.class_least[c] < 0 || per_class[c] < out.class_least[c]) out.class_least[c] = per_class[c];
    } catch (const Error& e) {
      m.infeasible_reason = e.what();
      ++out.infeasible;
    }
    out.family.push_back(std::move(m));
  }
  // The first member (in tie-break order) of least total; the next-best is the least greater total.
  for (std::size_t i = 0; i < out.family.size(); ++i)
    if (out.family[i].feasible && (!out.family[out.best].feasible || out.family[i].total < out.family[out.best].total)) out.best = i;
  const std::int64_t min_total = out.family[out.best].total;
  for (std::size_t i = 0; i < out.family.size(); ++i) {
    const SwizzleMember& m = out.family[i];
    if (!m.feasible) continue;
    if (m.total == min_total) ++out.members_at_minimum;
    else if (!out.next_best || m.total < out.family[*out.next_best].total) out.next_best = i;
  }
  // Each access's least cost over the family (why the ideal may be out of reach: an access that
  // cannot reach its own ideal in the family, or accesses that want different members).
  out.least.assign(accesses.size(), 0);
  for (std::size_t a = 0; a < accesses.size(); ++a) {
    bool any = false;
    for (const SwizzleMember& m : out.family)
      if (m.feasible && (!any || m.wavefronts[a] < out.least[a])) out.least[a] = m.wavefronts[a], any = true;
  }
  out.padding = padding_alternative(smem, plain, accesses.size(), out.bits);
  return out;
}

std::string describe_family(SwizzleModes modes, int bits) {
  const std::string composed = " o smem_ptr[" + std::to_string(bits) + "b](unset) o SMEM";
  if (modes == SwizzleModes::TmaGmma)
    return "the unswizzled layout and Sw<B,4,3>" + composed + " for B = 1, 2, 3 (the none, 32B, 64B and 128B modes a TMA "
           "tensor map and a GMMA descriptor encode; byte addresses)";
  return "the unswizzled layout and Sw<B,M,S>" + composed + " for 1 <= B <= " + std::to_string(kSwizzleFamilyMaxBits) +
         ", 0 <= M <= " + std::to_string(kSwizzleFamilyMaxBase) + ", B <= |S| <= " + std::to_string(kSwizzleFamilyMaxShift) +
         ", S of either sign (byte addresses)";
}

SwizzleTriple swizzle_triple(const SwizzleMember& m) {
  if (!m.swizzle) return {};
  return {m.swizzle->bits(), m.swizzle->base(), m.swizzle->shift()};
}

Value swizzle_for_layout(const SwizzleSynthesis& s) { return swizzled_smem(s.smem, s.family[s.best].swizzle, s.bits); }

std::string describe(const SwizzleSynthesis& s) {
  std::ostringstream os;
  const SwizzleMember& best = s.family[s.best];
  const SwizzleMember& plain = s.family.front();
  os << "swizzle_for " << s.smem.to_string() << " (" << s.bits << "-bit elements): " << swizzle_for_layout(s).to_string() << "\n";
  os << "  total wavefronts " << best.total << " (ideal " << s.ideal_total << ", unswizzled " << plain.total << ")\n";
  for (std::size_t a = 0; a < s.accesses.size(); ++a)
    os << "  access " << a + 1 << ": " << s.instructions[a] << " x " << s.access_names[a] << ": " << best.wavefronts[a]
       << " wavefronts, ideal " << s.ideal[a] << ", unswizzled " << plain.wavefronts[a] << "\n";
  os << "  family: " << describe_family(s.modes, s.bits) << ": " << s.family.size() << " members, "
     << s.family.size() - static_cast<std::size_t>(s.infeasible) << " feasible, " << s.infeasible
     << " infeasible (the swizzle splits an access or an element); every feasible member evaluated with the exact wavefront count ("
     << s.classes.size() << " distinct instruction" << (s.classes.size() == 1 ? "" : "s") << ")\n";
  os << "  minimum " << best.total << ", reached by " << s.members_at_minimum << " member" << (s.members_at_minimum == 1 ? "" : "s")
     << "; chosen " << member_name(best) << (best.tma_gmma ? " (TMA/GMMA can express it)" : " (TMA/GMMA cannot express it)") << "\n";
  if (s.next_best)
    os << "  next best: " << s.family[*s.next_best].total << " wavefronts (" << member_name(s.family[*s.next_best]) << ")\n";
  if (!s.padding.tried)
    os << "  padding: not tried (" << s.padding.why_not << ")\n";
  else if (!s.padding.found)
    os << "  padding: no row-stride padding up to 128 bytes is accepted by every access\n";
  else
    os << "  padding alternative: the row stride + " << s.padding.pad << " elements gives " << s.padding.total
       << " wavefronts (the least over pads 1.." << 128 * 8 / s.bits << ") for " << s.padding.extra_bytes << " more bytes of SMEM\n";
  if (best.total == s.ideal_total)
    os << "  the minimum equals the ideal, one wavefront per phase: no layout at all does better\n";
  else {
    os << "  the ideal " << s.ideal_total << " (one wavefront per phase) is a lower bound for every layout; no member of the family reaches it:";
    for (std::size_t a = 0; a < s.accesses.size(); ++a)
      os << (a ? "," : "") << " access " << a + 1 << " alone needs at least " << s.least[a] << " (ideal " << s.ideal[a] << ")";
    std::int64_t separate = 0;
    for (std::int64_t l : s.least) separate += l;
    if (separate < best.total) os << "; no one member gives every access its least (" << separate << " in sum)";
    os << "\n";
  }
  return os.str();
}

}  // namespace cuteref
