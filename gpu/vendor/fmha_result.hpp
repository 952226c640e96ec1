// The result comparisons of CUTLASS's Hopper FMHA (fmha_probe.cu): the float64 reference of
// O = softmax(scale * Q K^T) V over the model's GMEM addressing, the error bound, and the first
// element outside it. Host code, no CUDA.
#pragma once

#include <cmath>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace cuteref_gpu::vendor {

// (batch, head) pairs, sequence lengths and head dim of one run; tensors (seq, D, (B, H)) with D
// contiguous, as the example's strides (seq stride D, head stride seq * D, batch stride H * seq * D).
struct FmhaProblem {
  int batches = 1, heads = 2, seq_q = 256, seq_kv = 256, dim = 64;
  std::int64_t offset(int b, int h, int row, int d, int seq) const {
    return ((std::int64_t(b) * heads + h) * seq + row) * dim + d;
  }
};

// The element offset of V(k, d) as the reference reads it; the kernel's addressing unless a
// control changes it.
using VAddress = std::function<std::int64_t(const FmhaProblem&, int b, int h, int k, int d)>;
// The key index the reference pairs with score column k (P's column), identity unless a control
// changes it.
using PColumn = std::function<int(int k)>;

// O in float64: O(q, d) = sum_k p_k V(k, d) / sum_k p_k, p_k = exp(scale * (S(q,k) - max_k S)).
inline std::vector<double> fmha_reference(const FmhaProblem& p, const std::vector<double>& q, const std::vector<double>& k,
                                          const std::vector<double>& v, const VAddress& at_v, const PColumn& column) {
  std::vector<double> o(std::size_t(p.batches) * p.heads * p.seq_q * p.dim);
  const double scale = 1.0 / std::sqrt(double(p.dim));
  std::vector<double> s(p.seq_kv);
  for (int b = 0; b < p.batches; ++b)
    for (int h = 0; h < p.heads; ++h)
      for (int i = 0; i < p.seq_q; ++i) {
        double top = -INFINITY;
        for (int j = 0; j < p.seq_kv; ++j) {
          double dot = 0;
          for (int d = 0; d < p.dim; ++d) dot += q[p.offset(b, h, i, d, p.seq_q)] * k[p.offset(b, h, j, d, p.seq_kv)];
          s[j] = scale * dot;
          top = std::max(top, s[j]);
        }
        double l = 0;
        for (int j = 0; j < p.seq_kv; ++j) l += std::exp(s[j] - top);
        for (int d = 0; d < p.dim; ++d) {
          double acc = 0;
          for (int j = 0; j < p.seq_kv; ++j) acc += std::exp(s[j] - top) * v[at_v(p, b, h, column(j), d)];
          o[p.offset(b, h, i, d, p.seq_q)] = acc / l;
        }
      }
  return o;
}

// "" when every |O - reference| <= bound; else the first element outside it, with its (b, h, q, d).
inline std::string fmha_first_difference(const FmhaProblem& p, const std::vector<double>& got, const std::vector<double>& want,
                                         double bound, std::int64_t* compared) {
  *compared = 0;
  for (int b = 0; b < p.batches; ++b)
    for (int h = 0; h < p.heads; ++h)
      for (int i = 0; i < p.seq_q; ++i)
        for (int d = 0; d < p.dim; ++d) {
          const std::int64_t at = p.offset(b, h, i, d, p.seq_q);
          ++*compared;
          if (!(std::fabs(got[at] - want[at]) <= bound))
            return "O(b " + std::to_string(b) + ", h " + std::to_string(h) + ", q " + std::to_string(i) + ", d " + std::to_string(d) +
                   ") = " + std::to_string(got[at]) + ", reference " + std::to_string(want[at]) + ", bound " + std::to_string(bound);
        }
  return "";
}

}  // namespace cuteref_gpu::vendor
