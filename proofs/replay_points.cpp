#include "replay_points.hpp"

#include <set>

namespace cuteref::proofs {

namespace {

// The number of points of [lo, hi] (at most 2^64, so saturated at UINT64_MAX).
std::uint64_t width(std::int64_t lo, std::int64_t hi) {
  const std::uint64_t w = static_cast<std::uint64_t>(hi) - static_cast<std::uint64_t>(lo);
  return w == UINT64_MAX ? UINT64_MAX : w + 1;
}

// lo + k for 0 <= k < width(lo, hi), without signed overflow.
std::int64_t at(std::int64_t lo, std::uint64_t k) { return static_cast<std::int64_t>(static_cast<std::uint64_t>(lo) + k); }

std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// One value of [lo, hi] chosen by r: a bound or next to one, a small value, a power of two
// (and its neighbours) or anywhere; the kinds of values where the model's branches turn.
std::int64_t sample(std::int64_t lo, std::int64_t hi, std::uint64_t r) {
  const std::uint64_t w = width(lo, hi);
  const std::uint64_t kind = r % 6, x = r / 6;
  const std::uint64_t near = x % 4;
  switch (kind) {
    case 0: return at(lo, near < w ? near : 0);
    case 1: return at(lo, w - 1 - (near < w ? near : 0));
    case 2: {  // a small non-negative value, where the range has it
      const std::int64_t v = static_cast<std::int64_t>(x % 65);
      if (v >= lo && v <= hi) return v;
      return at(lo, x % w);
    }
    case 3: {  // 2^k - 1, 2^k or 2^k + 1
      const int k = static_cast<int>(x % 63);
      const std::int64_t v = (std::int64_t{1} << k) + static_cast<std::int64_t>(x / 63 % 3) - 1;
      if (v >= lo && v <= hi) return v;
      return at(lo, x % w);
    }
    default: return at(lo, w == UINT64_MAX ? x : x % w);
  }
}

}  // namespace

ReplayPoints replay_points(const std::vector<std::pair<std::string, std::pair<std::int64_t, std::int64_t>>>& ranges) {
  ReplayPoints out;
  std::uint64_t box = 1;
  for (const auto& [_, r] : ranges) {
    const std::uint64_t w = width(r.first, r.second);
    box = (w != 0 && box > kReplayWholeBox / w) ? kReplayWholeBox + 1 : box * w;
  }
  if (box <= kReplayWholeBox) {
    out.whole_box = true;
    for (std::uint64_t n = 0; n < box; ++n) {  // mixed radix, the first variable fastest
      std::map<std::string, std::int64_t> p;
      std::uint64_t rest = n;
      for (const auto& [name, r] : ranges) {
        const std::uint64_t w = width(r.first, r.second);
        p[name] = at(r.first, rest % w);
        rest /= w;
      }
      out.points.push_back(std::move(p));
    }
    return out;
  }
  std::set<std::map<std::string, std::int64_t>> seen;
  auto add = [&](std::map<std::string, std::int64_t> p) {
    if (seen.insert(p).second) out.points.push_back(std::move(p));
  };
  const std::size_t n = ranges.size();
  const std::uint64_t corners = n >= 63 ? UINT64_MAX : (std::uint64_t{1} << n);
  std::uint64_t state = 0x63757465726566ULL;  // a fixed seed: the same points every run
  for (std::uint64_t c = 0; c < corners && c < kReplayCorners; ++c) {
    // All corners when there are few; otherwise a deterministic choice of them.
    const std::uint64_t bits = corners <= kReplayCorners ? c : splitmix64(state);
    std::map<std::string, std::int64_t> p;
    for (std::size_t k = 0; k < n; ++k)
      p[ranges[k].first] = (k < 64 && (bits >> k) & 1) ? ranges[k].second.second : ranges[k].second.first;
    add(std::move(p));
  }
  for (std::size_t s = 0; s < kReplaySamples; ++s) {
    std::map<std::string, std::int64_t> p;
    for (const auto& [name, r] : ranges) p[name] = sample(r.first, r.second, splitmix64(state));
    add(std::move(p));
  }
  return out;
}

}  // namespace cuteref::proofs
