// The corpus runner behind `cuteref check` and the corpus part of `cuteref verify`.
//
// Corpus files (corpus/**/*.txt) hold one case per line:
//   EXPR => EXPECTED                      the model's value must equal EXPECTED (functionally
//                                         for layouts, see equality.hpp)
//   EXPR => error: SUBSTRING              the model must reject EXPR with a diagnostic
//                                         containing SUBSTRING
//   EXPR => EXPECTED | claimed: CLAIMED   also records a seed document's claim about EXPR;
//                                         the runner reports whether the claim agrees with
//                                         the (independently derived) EXPECTED or is refuted,
//                                         and the counterexample (after `error: SUBSTRING`,
//                                         a claim is refuted: the input is rejected)
// `#` starts a comment line. Blank lines are ignored. Anything else is a malformed case, a
// failure: no '=>' or more than one, more than one '| claimed:', an empty part, a right-hand
// side starting with "error" that is not `error: SUBSTRING` with a non-empty SUBSTRING.
// Directories are walked for *.txt regular files; an entry that is neither a regular file nor
// a directory entered (a FIFO, a socket, a device, a dangling symbolic link, a symbolic link to
// a directory) or a directory that cannot be read is reported as a failure, not skipped. Each case's EXPECTED comes from an
// independent source named in the comments above it (hand derivation, CuTe docs, vendor).
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace cuteref {

struct CorpusSummary {
  int cases = 0;
  int passed = 0;
  int failed = 0;
  int claims_agree = 0;
  int claims_refuted = 0;
  int unreadable = 0;  // paths reported as unreadable (see above): the run fails
  // One entry per refuted claim: where, the claim, the correct value, the counterexample, and
  // the derivation (the comment lines above the case).
  std::vector<std::string> refuted_claims;
};

// Runs every case of the given files or directories (recursively, *.txt), writing one
// line per failure and per seed claim verdict to `out`.
CorpusSummary run_corpus(const std::vector<std::string>& paths, std::ostream& out, bool verbose);

// The cases of one corpus text read from `in` (the body of run_corpus for one file; the fuzz
// target feeds it arbitrary text): adds to `sum`, names lines `name:LINE` in `out`.
void run_corpus_stream(std::istream& in, const std::string& name, std::ostream& out, bool verbose, CorpusSummary& sum);

}  // namespace cuteref
