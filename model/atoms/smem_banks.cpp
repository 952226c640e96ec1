#include "atoms/smem_banks.hpp"

#include "atoms/smem_banks_generic.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <sstream>

#include "checked_math.hpp"
#include "coordinates.hpp"
#include "error.hpp"
#include "evaluate.hpp"

namespace cuteref {

namespace {

constexpr int kBanks = 32;
constexpr int kBankBytes = 4;

const char* const kNames =
    "ld.shared.b8, ld.shared.b16, ld.shared.b32, ld.shared.b64, ld.shared.b128, ld.shared.v2.b32, ld.shared.v4.b32, "
    "ld.shared.v2.b64, the same with st.shared, ldmatrix.x1, ldmatrix.x2, ldmatrix.x4, stmatrix.x1, stmatrix.x2, "
    "stmatrix.x4 (each also with .trans)";

// The vector suffix of ld/st.shared: bytes per thread.
int vector_bytes(std::string_view type) {
  static const std::pair<const char*, int> kTypes[] = {{"b8", 1},      {"b16", 2},     {"b32", 4},     {"b64", 8},
                                                       {"b128", 16},   {"v2.b32", 8},  {"v4.b32", 16}, {"v2.b64", 16}};
  for (const auto& [n, b] : kTypes)
    if (type == n) return b;
  return 0;
}

// True when every accessing thread t has a partner t ^ k that accesses the same address.
bool uniform_pairs(const std::map<int, const SmemAccess*>& by_thread, int k) {
  for (const auto& [t, a] : by_thread) {
    const auto p = by_thread.find(t ^ k);
    if (p == by_thread.end() || p->second->byte_address != a->byte_address) return false;
  }
  return !by_thread.empty();
}

// Threads whose accesses one phase serves (see the header's rules 1 and 2).
std::vector<std::vector<int>> phase_threads(const SmemInstruction& in, bool packed) {
  int groups = 1;
  if (in.op == SmemOp::LoadMatrix || in.op == SmemOp::StoreMatrix) groups = in.matrices;
  else if (in.access_bytes == 8) groups = packed ? 1 : 2;
  else if (in.access_bytes == 16) groups = packed ? 2 : 4;
  const int per = (in.op == SmemOp::LoadMatrix || in.op == SmemOp::StoreMatrix) ? 8 : 32 / groups;
  std::vector<std::vector<int>> out(static_cast<std::size_t>(groups));
  for (int g = 0; g < groups; ++g)
    for (int t = g * per; t < (g + 1) * per; ++t) out[static_cast<std::size_t>(g)].push_back(t);
  return out;
}

std::string thread_list(const std::vector<int>& ts) {
  std::ostringstream out;
  for (std::size_t i = 0; i < ts.size(); ++i) {
    std::size_t j = i;
    while (j + 1 < ts.size() && ts[j + 1] == ts[j] + 1) ++j;
    out << (i ? "," : "") << 't' << ts[i];
    if (j > i) out << "-t" << ts[j];
    i = j;
  }
  return out.str();
}

}  // namespace

SmemInstruction smem_instruction(std::string_view name) {
  SmemInstruction in;
  in.name = std::string(name);
  auto fail = [&]() -> SmemInstruction {
    throw Error("smem instruction `" + std::string(name) + "`: not a known shared-memory instruction; the known ones are " +
                kNames);
  };
  for (const char* prefix : {"ld.shared.", "st.shared."}) {
    const std::string_view p(prefix);
    if (name.substr(0, p.size()) == p) {
      in.op = prefix[0] == 'l' ? SmemOp::Load : SmemOp::Store;
      in.access_bytes = vector_bytes(name.substr(p.size()));
      if (in.access_bytes == 0) return fail();
      return in;
    }
  }
  for (const char* prefix : {"ldmatrix.x", "stmatrix.x"}) {
    const std::string_view p(prefix);
    if (name.substr(0, p.size()) != p) continue;
    std::string_view rest = name.substr(p.size());
    if (rest.empty() || (rest[0] != '1' && rest[0] != '2' && rest[0] != '4')) return fail();
    in.op = prefix[0] == 'l' ? SmemOp::LoadMatrix : SmemOp::StoreMatrix;
    in.matrices = rest[0] - '0';
    in.access_bytes = 16;
    rest.remove_prefix(1);
    if (rest == ".trans") in.transpose = true;
    else if (!rest.empty()) return fail();
    return in;
  }
  return fail();
}

void check_smem_element_bits(std::int64_t bits, const std::string& fn) {
  if (bits < 8 || bits % 8 != 0)
    throw Error(fn + ": the element width must be a positive multiple of 8 bits (shared memory is byte-addressed), got " +
                std::to_string(bits));
}

std::vector<SmemAccess> smem_accesses(const SmemInstruction& in, const std::vector<std::vector<std::int64_t>>& offsets,
                                      int bits) {
  const std::string fn = "smem_wavefronts(" + in.name + ")";
  check_smem_element_bits(bits, fn);
  const std::int64_t bytes = bits / 8;
  const bool matrix = in.op == SmemOp::LoadMatrix || in.op == SmemOp::StoreMatrix;
  // threads whose addresses are read (a warp with fewer threads leaves the others inactive)
  const int addressing = matrix ? 8 * in.matrices : static_cast<int>(offsets.size());
  if (offsets.size() > 32 || static_cast<int>(offsets.size()) < addressing)
    throw Error(fn + ": expected the addresses of " + (matrix ? std::to_string(addressing) + " to " : std::string("at most ")) +
                "32 threads, got " + std::to_string(offsets.size()));
  std::vector<SmemAccess> out;
  for (int t = 0; t < addressing; ++t) {
    const auto& v = offsets[static_cast<std::size_t>(t)];
    const std::int64_t width = checked_mul(static_cast<std::int64_t>(v.size()), bytes);
    if (width != in.access_bytes)
      throw Error(fn + ": thread " + std::to_string(t) + " has " + std::to_string(v.size()) + " values of " + std::to_string(bits) +
                  " bits (" + std::to_string(width) + " bytes), the instruction accesses " + std::to_string(in.access_bytes) +
                  (matrix ? " bytes per row (8 16-bit elements)" : " bytes per thread"));
    const std::int64_t first = checked_mul(v[0], bytes);
    for (std::size_t j = 1; j < v.size(); ++j)
      if (v[j] != v[0] + static_cast<std::int64_t>(j))
        throw Error(fn + ": thread " + std::to_string(t) + "'s values are not " + (matrix ? "one row of " : "one vector of ") +
                    std::to_string(in.access_bytes) + " contiguous bytes: value " + std::to_string(j) + " is at element " +
                    std::to_string(v[j]) + ", value 0 at " + std::to_string(v[0]));
    if (first < 0) throw Error(fn + ": thread " + std::to_string(t) + " addresses byte " + std::to_string(first) + " < 0");
    if (first % in.access_bytes != 0)
      throw Error(fn + ": thread " + std::to_string(t) + "'s " + std::to_string(in.access_bytes) + "-byte access at byte " +
                  std::to_string(first) + " is not aligned to " + std::to_string(in.access_bytes) + " bytes");
    out.push_back({t, first, in.access_bytes});
  }
  return out;
}

std::vector<SmemAccess> smem_accesses(const SmemInstruction& in, const Value& addr, int bits) {
  const std::string fn = "smem_wavefronts(" + in.name + ")";
  if (addr.is_int_tuple()) {
    // Explicit addresses: thread t's access starts at element offset ADDR[t] (an integer tuple
    // of at most 32 entries) and covers the instruction's width.
    const IntTuple& a = std::get<IntTuple>(addr.data);
    if (!a.is_tuple() || a.rank() == 0 || a.rank() > 32)
      throw Error(fn + ": ADDR must be a layout of shape (32, V) or a tuple of at most 32 element offsets, got " + a.to_string());
    if (bits < 8 || bits % 8 != 0 || (8 * in.access_bytes) % bits != 0)
      throw Error(fn + ": the element width must be a multiple of 8 bits dividing the access, got " + std::to_string(bits));
    std::vector<std::vector<std::int64_t>> offsets;
    for (std::size_t t = 0; t < a.rank(); ++t) {
      if (!a[t].is_integer()) throw Error(fn + ": ADDR entry " + std::to_string(t) + " is not an integer: " + a[t].to_string());
      std::vector<std::int64_t> v;
      for (std::int64_t i = 0; i < 8 * in.access_bytes / bits; ++i) v.push_back(checked_add(a[t].value(), i));
      offsets.push_back(std::move(v));
    }
    return smem_accesses(in, offsets, bits);
  }
  const Layout* inner = addr.is_layout() ? &std::get<Layout>(addr.data)
                        : addr.is_composed() ? &std::get<ComposedLayout>(addr.data).layout
                                             : nullptr;
  if (!inner) throw Error(fn + ": ADDR must be a layout or a composed layout of shape (32, V), got " + addr.kind_name());
  const std::int64_t total = size_value(*inner);
  if (rank(*inner) < 2 || size_value(mode(*inner, 0)) != 32)
    throw Error(fn + ": ADDR must have shape (32, V) (thread, value), got " + addr.to_string());
  const std::int64_t values = total / 32;
  std::vector<std::vector<std::int64_t>> offsets(32);
  for (std::int64_t t = 0; t < 32; ++t)
    for (std::int64_t v = 0; v < values; ++v) {
      const std::int64_t index = t + 32 * v;  // colexicographic (t, v)
      offsets[static_cast<std::size_t>(t)].push_back(addr.is_layout() ? apply_index(*inner, index)
                                                                       : apply_composed(std::get<ComposedLayout>(addr.data), index));
    }
  return smem_accesses(in, offsets, bits);
}

SmemWavefronts smem_wavefronts(const SmemInstruction& in, const std::vector<SmemAccess>& accesses) {
  std::map<int, const SmemAccess*> by_thread;
  for (const SmemAccess& a : accesses) by_thread[a.thread] = &a;
  SmemWavefronts out;
  out.packed = in.op == SmemOp::Load && in.access_bytes >= 8 && (uniform_pairs(by_thread, 1) || uniform_pairs(by_thread, 2));
  for (const std::vector<int>& threads : phase_threads(in, out.packed)) {
    // bank -> word -> threads
    std::map<int, std::map<std::int64_t, std::vector<int>>> banks;
    SmemPhase phase;
    for (int t : threads) {
      auto it = by_thread.find(t);
      if (it == by_thread.end()) continue;
      phase.threads.push_back(t);
      const SmemAccess& a = *it->second;
      const std::int64_t first_word = a.byte_address / kBankBytes;
      const std::int64_t words = std::max<std::int64_t>(1, a.bytes / kBankBytes);
      for (std::int64_t w = first_word; w < first_word + words; ++w) {
        auto& list = banks[static_cast<int>(w % kBanks)][w];
        if (list.empty() || list.back() != t) list.push_back(t);
      }
    }
    if (phase.threads.empty()) continue;
    std::size_t fullest = 0;
    for (const auto& [bank, words] : banks)
      if (words.size() > fullest) {
        fullest = words.size();
        phase.worst_bank = bank;
        phase.worst_words.clear();
        for (const auto& [word, ts] : words) phase.worst_words.push_back({word, ts});
      }
    phase.wavefronts = std::max<std::int64_t>(1, static_cast<std::int64_t>(fullest));
    out.wavefronts += phase.wavefronts;
    out.ideal += 1;
    out.phases.push_back(std::move(phase));
  }
  // The count is the generic definition's (smem_banks_generic.hpp, which the proofs run
  // symbolically); the phases above only describe it, and must agree.
  std::vector<std::optional<CheckedInt>> address(32);
  for (const auto& [t, a] : by_thread)
    if (t >= 0 && t < 32) address[static_cast<std::size_t>(t)] = CheckedInt(a->byte_address);
  const bool matrix = in.op == SmemOp::LoadMatrix || in.op == SmemOp::StoreMatrix;
  const std::int64_t generic =
      instruction_wavefronts<CheckedInt>(address, in.access_bytes, matrix ? in.matrices : 0, in.op == SmemOp::Load).v;
  if (generic != out.wavefronts)
    throw Error("smem_wavefronts: internal disagreement between the count (" + std::to_string(generic) + ") and its phases (" +
                std::to_string(out.wavefronts) + ") for " + in.name);
  return out;
}

std::string describe(const SmemInstruction& in, const SmemWavefronts& w) {
  std::ostringstream os;
  os << in.name << ": " << w.wavefronts << " wavefront" << (w.wavefronts == 1 ? "" : "s") << " (ideal " << w.ideal << ", "
     << (w.wavefronts == w.ideal ? "no bank conflict" : std::to_string(w.wavefronts - w.ideal) + " extra from bank conflicts")
     << ")" << (w.packed ? "; threads t and t^1 (or t^2) load the same address: phases of twice the threads" : "") << "\n";
  for (std::size_t p = 0; p < w.phases.size(); ++p) {
    const SmemPhase& ph = w.phases[p];
    os << "  phase " << p << " (" << thread_list(ph.threads) << "): " << ph.wavefronts << " wavefront"
       << (ph.wavefronts == 1 ? "" : "s");
    if (ph.wavefronts > 1) {
      os << "; bank " << ph.worst_bank << " holds " << ph.worst_words.size() << " distinct words:";
      for (const BankWord& bw : ph.worst_words) os << " [byte " << bw.word * kBankBytes << ": " << thread_list(bw.threads) << "]";
    }
    os << "\n";
  }
  return os.str();
}

}  // namespace cuteref
