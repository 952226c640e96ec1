// `cuteref check --html FILE` / `cuteref verify --html FILE`: the report as one self-contained
// HTML page (no script, no external resource): the text report, then each refuted seed claim
// with its derivation and, where the claimed and the correct value are both layouts, a
// picture of the two side by side (cuteref draw's `claimed == correct`: the cells where they
// differ outlined, the first differing index filled).
#pragma once

#include <string>
#include <vector>

#include "corpus_runner.hpp"

namespace cuteref {

std::string report_page(const std::string& title, const std::string& report_text, bool passed,
                        const std::vector<ClaimRefutation>& refutations);

}  // namespace cuteref
