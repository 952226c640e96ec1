// Complete small universes of layouts for the exhaustive bounded checks: every layout of a
// bounded form, so that a law checked over a universe holds for all of it, not for a sample.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "layout.hpp"

namespace cuteref::props {

// The values a leaf mode may take: every (extent, stride) pair of the two lists.
struct LeafAlphabet {
  std::vector<std::int64_t> extents;
  std::vector<std::int64_t> strides;
  std::string to_string() const;  // e.g. "extents 1..4, strides 0..8"
};

// Every flat layout of rank 1..max_rank over the alphabet (rank 1 as the leaf layout s:d,
// rank >= 2 as (s0,..):(d0,..)). Returns how many layouts were visited.
std::int64_t for_each_flat_layout(int max_rank, const LeafAlphabet& alphabet,
                                  const std::function<void(const Layout&)>& visit);

// Every layout of depth exactly 2 with 2..max_leaves leaves over the alphabet: a top-level
// tuple of leaves and tuples of >= 2 leaves, at least one of them a tuple, e.g. ((a,b)),
// ((a,b),c), (a,(b,c,d)), ((a,b),(c,d)). Returns how many layouts were visited.
std::int64_t for_each_nested_layout(int max_leaves, const LeafAlphabet& alphabet,
                                    const std::function<void(const Layout&)>& visit);

// How many layouts the two enumerations visit (printed before running them).
std::int64_t flat_universe_size(int max_rank, const LeafAlphabet& alphabet);
std::int64_t nested_universe_size(int max_leaves, const LeafAlphabet& alphabet);

// Range helper: {lo, lo+1, ..., hi}.
std::vector<std::int64_t> range(std::int64_t lo, std::int64_t hi);

}  // namespace cuteref::props
