// The points at which a proved claim is replayed on the concrete model before `proved` is
// printed (claim.cpp): defence in depth against a defect of the symbolic path. Z3's proof
// covers every point of the box; the replay checks that the model itself agrees at these.
//
// The box is the product of the variables' ranges. A box of at most kReplayWholeBox points
// is enumerated whole; a larger one gives its corners (every combination of lo and hi, at
// most kReplayCorners of them) and kReplaySamples deterministic points: for each variable,
// values near its bounds, small values and values spread over the range, mixed by a fixed
// splitmix64 sequence, so that the same request replays the same points every time.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace cuteref::proofs {

inline constexpr std::uint64_t kReplayWholeBox = 4096;  // 2^12
inline constexpr std::size_t kReplayCorners = 256;
inline constexpr std::size_t kReplaySamples = 300;

struct ReplayPoints {
  std::vector<std::map<std::string, std::int64_t>> points;
  bool whole_box = false;  // every point of the box
};

// `ranges`: each variable's [lo, hi], lo <= hi. No variable: one point, the empty one.
// Post: no point is repeated; every coordinate lies in its range.
ReplayPoints replay_points(const std::vector<std::pair<std::string, std::pair<std::int64_t, std::int64_t>>>& ranges);

}  // namespace cuteref::proofs
