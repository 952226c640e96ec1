#include "atoms/register_permutation.hpp"

#include <algorithm>
#include <functional>
#include <map>
#include <set>
#include <sstream>

#include "checked_math.hpp"
#include "coalesce.hpp"
#include "composition.hpp"
#include "coordinates.hpp"
#include "enumeration_budget.hpp"
#include "error.hpp"
#include "inverse.hpp"

namespace cuteref {

namespace {

constexpr std::int64_t kMaxTile = std::int64_t{1} << 24;
// The relabeling search's bounds (register values of both fragments; columns, whose pairs it may try).
constexpr std::int64_t kMaxRelabelSearch = std::int64_t{1} << 20;
constexpr std::int64_t kMaxRelabelColumns = 4096;
// The greedy shuffle schedule's bound, in words to move (beyond it only the lower bound is given).
constexpr std::int64_t kMaxScheduledWords = std::int64_t{1} << 16;

IntTuple dynamic_int(std::int64_t v) { return IntTuple::integer(v); }

// A fragment over the common tile: (thread, extended value) -> common-tile index, as a layout
// (T, (V, RM, RC)) : (.., (.., M, Mc * C)) built from the fragment's own TV layout.
Layout extend(const RegisterFragment& f, std::int64_t mc, std::int64_t nc) {
  Layout tv = f.layout_tv;
  // idx = m + rows * c  ->  m + mc * c: compose with (rows, cols):(1, mc) when rows != mc.
  if (f.rows != mc) tv = composition(Layout(IntTuple::tuple({dynamic_int(f.rows), dynamic_int(f.cols)}), IntTuple::tuple({dynamic_int(1), dynamic_int(mc)})), tv);
  const Layout repeats(IntTuple::tuple({dynamic_int(mc / f.rows), dynamic_int(nc / f.cols)}), IntTuple::tuple({dynamic_int(f.rows), dynamic_int(checked_mul(mc, f.cols))}));
  return make_layout_from_modes(mode(tv, 0), make_layout_from_modes({mode(tv, 1), repeats}));
}

std::int64_t lane_register(std::int64_t value, int bits) { return bits >= 32 ? value * (bits / 32) : value / (32 / bits); }

// Kuhn's augmenting paths: a perfect matching of columns k to columns n over `edges`, each
// column's candidates tried in the order given (k itself first, so PI stays near the identity).
std::optional<std::vector<std::int64_t>> perfect_matching(const std::vector<std::vector<std::int64_t>>& edges) {
  const std::size_t n = edges.size();
  std::vector<std::int64_t> owner(n, -1), match(n, -1);
  for (std::size_t k = 0; k < n; ++k) {
    std::vector<char> seen(n, 0);
    std::function<bool(std::size_t)> augment = [&](std::size_t u) {
      for (std::int64_t v : edges[u]) {
        if (seen[v]) continue;
        seen[v] = 1;
        if (owner[v] < 0 || augment(static_cast<std::size_t>(owner[v]))) {
          owner[v] = static_cast<std::int64_t>(u);
          match[u] = v;
          return true;
        }
      }
      return false;
    };
    if (!augment(k)) return std::nullopt;
  }
  return match;
}

// Columns grouped by signature (the (thread, row) pairs holding them); TO's group g is paired
// with FROM's group of the same signature, k-th smallest column to k-th smallest. Nullopt when
// some signature has no FROM group of the same size.
using Signature = std::set<std::pair<std::int64_t, std::int64_t>>;
std::optional<std::vector<std::int64_t>> order_preserving_matching(const std::vector<Signature>& to, const std::vector<Signature>& from) {
  std::map<Signature, std::vector<std::int64_t>> to_groups, from_groups;
  for (std::size_t k = 0; k < to.size(); ++k) to_groups[to[k]].push_back(static_cast<std::int64_t>(k));
  for (std::size_t n = 0; n < from.size(); ++n) from_groups[from[n]].push_back(static_cast<std::int64_t>(n));
  std::vector<std::int64_t> pi(to.size(), -1);
  for (const auto& [sig, cols] : to_groups) {
    auto it = from_groups.find(sig);
    if (it == from_groups.end() || it->second.size() != cols.size()) return std::nullopt;
    for (std::size_t i = 0; i < cols.size(); ++i) pi[cols[i]] = it->second[i];
  }
  return pi;
}

std::string hex4(unsigned v) {
  std::ostringstream os;
  os << "0x" << std::hex << v;
  return os.str();
}

}  // namespace

std::string to_string(RegisterMove m) {
  switch (m) {
    case RegisterMove::Identity: return "identity";
    case RegisterMove::Permute: return "permute";
    case RegisterMove::Relabel: return "relabel";
    case RegisterMove::Shuffle: return "shuffle";
  }
  return "?";
}

std::optional<Layout> layout_of_table(const std::vector<std::int64_t>& table) {
  const std::int64_t n = static_cast<std::int64_t>(table.size());
  if (n == 0 || table[0] != 0) return std::nullopt;
  std::vector<IntTuple> shape, stride;
  std::int64_t covered = 1;  // the modes found so far span indices [0, covered)
  while (covered < n) {
    const std::int64_t step = table[covered];
    // The largest extent e (dividing n / covered) with table[i*covered + j] = i*step + table[j].
    std::int64_t e = 1;
    while (covered * (e + 1) <= n) {
      bool ok = true;
      for (std::int64_t j = 0; j < covered && ok; ++j) ok = table[e * covered + j] == e * step + table[j];
      if (!ok) break;
      ++e;
    }
    while (e > 1 && (n / covered) % e != 0) --e;
    if (e <= 1) return std::nullopt;
    shape.push_back(dynamic_int(e));
    stride.push_back(dynamic_int(step));
    covered *= e;
  }
  if (shape.empty()) return Layout(IntTuple::static_int(1), IntTuple::static_int(0));
  Layout l(IntTuple::tuple(shape), IntTuple::tuple(stride));
  for (std::int64_t i = 0; i < n; ++i)
    if (apply_index(l, i) != table[i]) return std::nullopt;
  return coalesce(l);
}

RegisterFragment mma_register_fragment(const TiledMma& mma, MmaOperand op, int bits) {
  const MmaAtom& a = mma.atom;
  const char* which = op == MmaOperand::A ? "A" : op == MmaOperand::B ? "B" : "C";
  if (a.arch == 90 && ((op == MmaOperand::A && !a.a_in_registers) || op == MmaOperand::B))
    throw Error(std::string("register_permutation: operand ") + which + " of " + a.name +
                " is read from shared memory through a descriptor, not from registers (only RS GMMA's A and the "
                "accumulator C are register fragments on SM90)");
  RegisterFragment f;
  f.name = a.name + " " + which;
  f.layout_tv = tiled_mma_layout_tv(mma, op);
  const int xi = op == MmaOperand::B ? 1 : 0, yi = op == MmaOperand::C ? 1 : 2;
  f.rows = tiled_mma_tile_size(mma, xi);
  f.cols = tiled_mma_tile_size(mma, yi);
  f.bits = bits != 0 ? bits
                     : mma_element_bits(op == MmaOperand::A ? a.type_a : op == MmaOperand::B ? a.type_b : a.type_d);
  return f;
}

RegisterFragment tv_register_fragment(const Layout& layout_tv, std::int64_t rows, std::int64_t cols, int bits,
                                      std::string name) {
  if (rank(layout_tv) != 2)
    throw Error("register_permutation: a TV layout must have rank 2 (thread, value), got " + layout_tv.to_string());
  if (rows < 1 || cols < 1)
    throw Error("register_permutation: the tile (" + std::to_string(rows) + "," + std::to_string(cols) + ") must have positive extents");
  RegisterFragment f{std::move(name), layout_tv, rows, cols, bits};
  return f;
}

RegisterPermutation register_permutation(const RegisterFragment& from, const RegisterFragment& to) {
  for (const RegisterFragment* f : {&from, &to})
    if (rank(f->layout_tv) != 2)
      throw Error("register_permutation: the TV layout of " + f->name + " must have rank 2, got " + f->layout_tv.to_string());
  const int bits = to.bits;
  if (bits != 8 && bits != 16 && bits != 32 && bits != 64)
    throw Error("register_permutation: the element width in registers must be 8, 16, 32 or 64 bits, got " + std::to_string(bits));
  const std::int64_t threads = size_value(mode(from.layout_tv, 0));
  if (size_value(mode(to.layout_tv, 0)) != threads)
    throw Error("register_permutation: the fragments have different thread counts: " + from.name + " has " +
                std::to_string(threads) + ", " + to.name + " has " + std::to_string(size_value(mode(to.layout_tv, 0))));
  RegisterPermutation r;
  r.from_name = from.name;
  r.to_name = to.name;
  r.bits = bits;
  r.from_bits = from.bits;
  const std::int64_t mc = lcm64(from.rows, to.rows), nc = lcm64(from.cols, to.cols);
  if (checked_mul(mc, nc) > kMaxTile)
    throw Error("register_permutation: the common tile (" + std::to_string(mc) + "," + std::to_string(nc) +
                ") of the tiles (" + std::to_string(from.rows) + "," + std::to_string(from.cols) + ") and (" +
                std::to_string(to.rows) + "," + std::to_string(to.cols) + ") exceeds 2^24 elements");
  r.tile_rows = mc;
  r.tile_cols = nc;
  r.from_rows = from.rows, r.from_cols = from.cols, r.to_rows = to.rows, r.to_cols = to.cols;
  r.threads = threads;
  // Each fragment inside its own tile, before it is extended to the common one.
  for (const RegisterFragment* f : {&from, &to}) {
    charge_enumeration(size_value(f->layout_tv), "register_permutation");
    for (std::int64_t i = 0; i < size_value(f->layout_tv); ++i) {
      const std::int64_t idx = apply_index(f->layout_tv, i);
      if (idx < 0 || idx >= f->rows * f->cols)
        throw Error("register_permutation: " + f->name +
                    (f->name == f->layout_tv.to_string() ? "" : " (TV layout " + f->layout_tv.to_string() + ")") +
                    " maps (thread " + std::to_string(i % threads) + ", value " + std::to_string(i / threads) + ") to " +
                    std::to_string(idx) + ", outside its tile (" + std::to_string(f->rows) + "," + std::to_string(f->cols) + ")");
    }
  }
  r.from_ext = extend(from, mc, nc);
  r.to_ext = extend(to, mc, nc);
  const std::int64_t to_values = size_value(r.to_ext) / threads;
  r.values = to_values;
  charge_enumeration(checked_add(size_value(r.from_ext), size_value(r.to_ext)), "register_permutation");

  // Every extended value's index in the common tile (inside it: each fragment is inside its tile).
  auto indices = [&](const Layout& ext) {
    std::vector<std::int64_t> idx(static_cast<std::size_t>(size_value(ext)));
    for (std::int64_t i = 0; i < size_value(ext); ++i) idx[i] = apply_index(ext, i);
    return idx;
  };
  const std::vector<std::int64_t> from_idx = indices(r.from_ext), to_idx = indices(r.to_ext);
  std::vector<std::vector<std::int64_t>> holders(static_cast<std::size_t>(mc * nc));  // tile index -> FROM flat indices
  for (std::int64_t i = 0; i < static_cast<std::int64_t>(from_idx.size()); ++i) holders[from_idx[i]].push_back(i);

  // The source of each TO value when TO's element (m, k) is read as (m, pi(k)): the exact same
  // (thread, value) if FROM holds it there, else the same thread, else the first holder.
  auto sources = [&](const std::vector<std::int64_t>& pi) {
    std::vector<RegisterSource> src(to_idx.size());
    for (std::int64_t i = 0; i < static_cast<std::int64_t>(to_idx.size()); ++i) {
      const std::int64_t m = to_idx[i] % mc, k = to_idx[i] / mc;
      const std::int64_t e = m + mc * pi[k];
      const std::int64_t t = i % threads;
      if (holders[e].empty())
        throw Error("register_permutation: " + from.name + " holds no register with element (" + std::to_string(m) + "," +
                    std::to_string(pi[k]) + ") of the common tile, which " + to.name + "'s thread " + std::to_string(t) +
                    " value " + std::to_string(i / threads) + " needs");
      std::int64_t pick = holders[e].front();
      for (std::int64_t h : holders[e])
        if (h == i || (h % threads == t && pick % threads != t)) pick = h;
      src[i] = {pick % threads, pick / threads};
    }
    return src;
  };
  std::vector<std::int64_t> identity_pi(static_cast<std::size_t>(nc));
  for (std::int64_t k = 0; k < nc; ++k) identity_pi[k] = k;
  r.source = sources(identity_pi);
  auto same_thread = [&](const std::vector<RegisterSource>& src) {
    for (std::size_t i = 0; i < src.size(); ++i)
      if (src[i].thread != static_cast<std::int64_t>(i) % threads) return false;
    return true;
  };
  auto exact = [&](const std::vector<RegisterSource>& src) {
    for (std::size_t i = 0; i < src.size(); ++i)
      if (src[i].thread + threads * src[i].value != static_cast<std::int64_t>(i)) return false;
    return true;
  };

  // The algebra's answer where FROM is a bijection onto the common tile.
  bool bijective = static_cast<std::int64_t>(from_idx.size()) == mc * nc;
  for (const auto& h : holders) bijective = bijective && h.size() == 1;
  if (bijective) {
    try {
      const Layout alg = composition(right_inverse_full(r.from_ext), r.to_ext);
      std::string verdict = "agrees at all " + std::to_string(to_idx.size()) + " (thread, value) pairs";
      for (std::int64_t i = 0; i < static_cast<std::int64_t>(to_idx.size()); ++i)
        if (apply_index(alg, i) != r.source[i].thread + threads * r.source[i].value) {
          verdict = "DISAGREES at (thread, value) index " + std::to_string(i);
          break;
        }
      r.algebra_check = "composition(right_inverse(FROM), TO) = " + alg.to_string() + ": " + verdict;
    } catch (const Error& e) {
      r.algebra_check = std::string("composition(right_inverse(FROM), TO) not computed: ") + e.what();
    }
  }

  std::vector<std::int64_t> pi = identity_pi;
  if (exact(r.source)) {
    r.move = RegisterMove::Identity;
  } else if (same_thread(r.source)) {
    r.move = RegisterMove::Permute;
  } else {
    // Relabel: column k of TO may become column n when every (thread, row) holding (m, k) in TO
    // holds (m, n) in FROM ("strong" when also at the same value index). The search keeps a set
    // per column and may try every column pair: bounded, with a diagnostic beyond the bound (a
    // shuffle answer without the search could hide a relabeling).
    if (checked_add(static_cast<std::int64_t>(from_idx.size()), static_cast<std::int64_t>(to_idx.size())) > kMaxRelabelSearch ||
        nc > kMaxRelabelColumns)
      throw Error("register_permutation: data crosses lanes, and the search for a relabeling of the contraction index is "
                  "bounded to " + std::to_string(kMaxRelabelColumns) + " columns and " + std::to_string(kMaxRelabelSearch) +
                  " register values; the common tile (" + std::to_string(mc) + "," + std::to_string(nc) + ") with " +
                  std::to_string(from_idx.size() + to_idx.size()) + " values exceeds it");
    std::vector<Signature> sig_to(nc), sig_from(nc);
    for (std::int64_t i = 0; i < static_cast<std::int64_t>(to_idx.size()); ++i)
      sig_to[to_idx[i] / mc].insert({i % threads, to_idx[i] % mc});
    for (std::int64_t i = 0; i < static_cast<std::int64_t>(from_idx.size()); ++i)
      sig_from[from_idx[i] / mc].insert({i % threads, from_idx[i] % mc});
    // The one column n at which FROM holds each TO value of column k at the same (thread, value),
    // if there is one: -1 none, -2 not yet seen.
    std::vector<std::int64_t> same_value_column(nc, -2);
    for (std::int64_t i = 0; i < static_cast<std::int64_t>(to_idx.size()); ++i) {
      const std::int64_t k = to_idx[i] / mc;
      std::int64_t n = -1;
      if (i < static_cast<std::int64_t>(from_idx.size()) && from_idx[i] % mc == to_idx[i] % mc) n = from_idx[i] / mc;
      if (same_value_column[k] == -2) same_value_column[k] = n;
      else if (same_value_column[k] != n) same_value_column[k] = -1;
    }
    std::vector<std::vector<std::int64_t>> weak(nc), strong(nc);
    for (std::int64_t k = 0; k < nc; ++k) {
      std::vector<std::int64_t> order{k};
      for (std::int64_t n = 0; n < nc; ++n)
        if (n != k) order.push_back(n);
      for (std::int64_t n : order) {
        if (!std::includes(sig_from[n].begin(), sig_from[n].end(), sig_to[k].begin(), sig_to[k].end())) continue;
        weak[k].push_back(n);
        if (same_value_column[k] == n) strong[k].push_back(n);
      }
    }
    // Canonical first: columns of equal signature in TO and FROM paired in increasing order (the
    // relabeling that keeps each thread's columns in order); else any matching, same value first.
    std::optional<std::vector<std::int64_t>> match = order_preserving_matching(sig_to, sig_from);
    if (!match) match = perfect_matching(strong);
    if (!match) match = perfect_matching(weak);
    if (match) {
      r.move = RegisterMove::Relabel;
      pi = *match;
      r.relabel = pi;
      r.relabel_layout = layout_of_table(pi);
      r.source = sources(pi);
    } else {
      r.move = RegisterMove::Shuffle;
    }
  }

  // Within-thread movement: the value permutation per thread, uniform or not.
  if (r.move != RegisterMove::Shuffle) {
    std::set<std::vector<std::int64_t>> perms;
    std::vector<std::int64_t> p0;
    for (std::int64_t t = 0; t < threads; ++t) {
      std::vector<std::int64_t> p(static_cast<std::size_t>(to_values));
      for (std::int64_t v = 0; v < to_values; ++v) p[v] = r.source[t + threads * v].value;
      if (t == 0) p0 = p;
      perms.insert(std::move(p));
    }
    r.distinct_value_permutations = static_cast<std::int64_t>(perms.size());
    for (std::int64_t v = 0; v < to_values; ++v) r.value_moves = r.value_moves || p0[v] != v;
    if (perms.size() == 1) r.value_permutation = layout_of_table(p0);
    r.value_table = p0;
    if (r.value_moves && bits < 32) {
      const int per_reg = 32 / bits, bytes = bits / 8;
      for (std::int64_t d = 0; d < to_values / per_reg; ++d) {
        std::vector<std::int64_t> regs;
        unsigned selector = 0;
        for (int b = 0; b < 4; ++b) {
          const std::int64_t sv = p0[d * per_reg + b / bytes];
          const std::int64_t sreg = sv / per_reg;
          const int sbyte = static_cast<int>((sv % per_reg) * bytes + b % bytes);
          auto it = std::find(regs.begin(), regs.end(), sreg);
          if (it == regs.end()) regs.push_back(sreg), it = regs.end() - 1;
          const int slot = static_cast<int>(it - regs.begin());
          selector |= static_cast<unsigned>((slot == 0 ? 0 : 4) + sbyte) << (4 * b);
        }
        std::string line = "TO[" + std::to_string(d) + "] = ";
        if (regs.size() == 1 && selector == 0x3210u)
          line += "FROM[" + std::to_string(regs[0]) + "] (no instruction)";
        else if (regs.size() == 1)
          line += "prmt(FROM[" + std::to_string(regs[0]) + "], FROM[" + std::to_string(regs[0]) + "], " + hex4(selector) + ")";
        else if (regs.size() == 2)
          line += "prmt(FROM[" + std::to_string(regs[0]) + "], FROM[" + std::to_string(regs[1]) + "], " + hex4(selector) + ")";
        else
          line += std::to_string(regs.size()) + " source registers: " + std::to_string(regs.size() - 1) + " prmt";
        r.prmt.push_back(std::move(line));
      }
    }
  } else {
    std::vector<std::int64_t> flat(r.source.size());
    for (std::size_t i = 0; i < flat.size(); ++i) flat[i] = r.source[i].thread + threads * r.source[i].value;
    r.source_layout = layout_of_table(flat);
    // Words: (source thread, source 32-bit register); each lane receives and sends one per round.
    std::map<std::int64_t, std::set<std::pair<std::int64_t, std::int64_t>>> receive;
    std::map<std::int64_t, std::set<std::int64_t>> send;
    for (std::size_t i = 0; i < r.source.size(); ++i) {
      const std::int64_t t = static_cast<std::int64_t>(i) % threads;
      const RegisterSource& src = r.source[i];
      if (src.thread == t) continue;
      if (src.thread / 32 != t / 32) r.crosses_warps = true;
      const std::int64_t words = bits > 32 ? bits / 32 : 1;
      for (std::int64_t w = 0; w < words; ++w) {
        const std::int64_t reg = lane_register(src.value, bits) + w;
        receive[t].insert({src.thread, reg});
        send[src.thread].insert(reg);
      }
    }
    for (const auto& [t, w] : receive) r.max_words_received = std::max<std::int64_t>(r.max_words_received, static_cast<std::int64_t>(w.size()));
    r.shuffle_lower_bound = r.max_words_received;
    for (const auto& [t, w] : send) r.shuffle_lower_bound = std::max<std::int64_t>(r.shuffle_lower_bound, static_cast<std::int64_t>(w.size()));
    std::int64_t words = 0;
    for (const auto& [t, w] : receive) words += static_cast<std::int64_t>(w.size());
    r.schedule_computed = !r.crosses_warps && words <= kMaxScheduledWords;
    if (r.schedule_computed) {
      auto pending = receive;
      while (!pending.empty()) {
        ++r.shuffle_rounds;
        std::map<std::int64_t, std::int64_t> sends;  // lane -> the register it sends this round
        std::vector<std::int64_t> order;
        for (const auto& [t, w] : pending) order.push_back(t);
        std::stable_sort(order.begin(), order.end(), [&](std::int64_t a, std::int64_t b) { return pending[a].size() > pending[b].size(); });
        for (std::int64_t t : order) {
          for (auto it = pending[t].begin(); it != pending[t].end(); ++it) {
            auto s_it = sends.find(it->first);
            if (s_it == sends.end() || s_it->second == it->second) {
              sends[it->first] = it->second;
              pending[t].erase(it);
              break;
            }
          }
        }
        for (auto it = pending.begin(); it != pending.end();) it = it->second.empty() ? pending.erase(it) : std::next(it);
      }
    }
  }

  // The instance as a claim over a symbolic index x = t + T * v of TO's (thread, value) domain:
  // FROM(Z(x)) == Q(TO(x)), Z the source map (x itself, or t + T * P(v), or the shuffle's
  // source) and Q the relabeling of the tile index m + Mc * k -> m + Mc * PI(k) (none: x itself),
  // each a layout found from its table (the claim language applies layouts to one integer).
  std::vector<std::int64_t> z(r.source.size());
  for (std::size_t i = 0; i < z.size(); ++i) z[i] = r.source[i].thread + threads * r.source[i].value;
  const std::optional<Layout> z_layout = exact(r.source) ? std::optional<Layout>() : layout_of_table(z);
  std::optional<Layout> q_layout;
  if (r.move == RegisterMove::Relabel) {
    std::vector<std::int64_t> q(static_cast<std::size_t>(mc * nc));
    for (std::int64_t i = 0; i < mc * nc; ++i) q[i] = i % mc + mc * pi[i / mc];
    q_layout = layout_of_table(q);
  }
  if ((exact(r.source) || z_layout) && (r.move != RegisterMove::Relabel || q_layout)) {
    // Composed where the algebra composes them (Z3 then meets one layout per side; nested
    // applications of these layouts exceed a minute), else nested.
    const std::string from_s = r.from_ext.to_string(), to_s = r.to_ext.to_string();
    std::string lhs = z_layout ? from_s + "(" + z_layout->to_string() + "(x))" : from_s + "(x)";
    std::string rhs = q_layout ? q_layout->to_string() + "(" + to_s + "(x))" : to_s + "(x)";
    try {
      if (z_layout) {
        (void)composition(r.from_ext, *z_layout);
        lhs = "composition(" + from_s + ", " + z_layout->to_string() + ")(x)";
      }
      if (q_layout) {
        (void)composition(*q_layout, r.to_ext);
        rhs = "composition(" + q_layout->to_string() + ", " + to_s + ")(x)";
      }
    } catch (const Error&) {
    }
    r.claim = lhs + " == " + rhs;
    r.claim_domain = threads * to_values;
  }
  return r;
}

std::string describe(const RegisterPermutation& r) {
  std::ostringstream os;
  os << to_string(r.move) << ": " << r.to_name << " from " << r.from_name << " (" << r.bits << "-bit elements), over the tile ("
     << r.tile_rows << "," << r.tile_cols << "), " << r.threads << " threads x " << r.values << " values\n";
  if (r.from_rows != r.to_rows || r.from_cols != r.to_cols)
    os << "  the tiles differ: FROM's (" << r.from_rows << "," << r.from_cols << "), TO's (" << r.to_rows << "," << r.to_cols
       << "); each is repeated to the common tile (" << r.tile_rows << "," << r.tile_cols
       << "), its repeats after its own values (as successive MMAs of TO consume one FROM fragment)\n";
  os << "  FROM (thread, value) -> tile index: " << r.from_ext.to_string() << "\n";
  os << "  TO   (thread, value) -> tile index: " << r.to_ext.to_string() << "\n";
  switch (r.move) {
    case RegisterMove::Identity:
      os << "  thread t's value v of TO is its value v of FROM: nothing moves\n";
      break;
    case RegisterMove::Relabel:
      os << "  no thread exchanges data once TO's mode-1 (contraction) index k is read as PI(k), PI = ";
      if (r.relabel_layout) {
        os << r.relabel_layout->to_string() << "\n";
      } else {
        os << "(no layout) [";
        for (std::size_t k = 0; k < r.relabel.size(); ++k) os << (k ? "," : "") << r.relabel[k];
        os << "]\n";
      }
      os << "  the other operand of TO's MMA must be read through the same PI: B's element (n, k) taken from B(n, PI(k))"
         << (r.relabel_layout ? ", i.e. composition(B, (_, " + r.relabel_layout->to_string() + "))" : std::string()) << "\n";
      break;
    case RegisterMove::Permute:
      os << "  data stays in its thread; values move\n";
      break;
    case RegisterMove::Shuffle:
      break;
  }
  if (r.move != RegisterMove::Shuffle && r.move != RegisterMove::Identity) {
    if (!r.value_moves) os << "  within each thread: no value moves\n";
    else if (r.value_permutation)
      os << "  within each thread: value v of TO is value P(v) of FROM, P = " << r.value_permutation->to_string()
         << " (the same for every thread)\n";
    else
      os << "  within each thread: " << r.distinct_value_permutations << " distinct value permutations (thread-dependent)\n";
    if (r.value_moves && r.bits >= 32) os << "  32-bit or wider elements: the permutation is a renaming of registers\n";
    if (r.value_moves && r.bits < 32 && r.from_bits >= 32)
      os << "  before FROM's " << r.from_bits << "-bit values are converted to " << r.bits
         << " bits, P is a renaming of FROM's registers (no instruction); after the conversion, in prmt:\n";
    for (const std::string& p : r.prmt) os << "    " << p << "\n";
  }
  if (r.move == RegisterMove::Shuffle) {
    os << "  data crosses lanes";
    if (r.source_layout) os << "; source (thread + " << r.threads << " * value) of each TO (thread, value): " << r.source_layout->to_string();
    os << "\n";
    for (std::int64_t t = 0; t < std::min<std::int64_t>(r.threads, 4); ++t) {
      os << "  thread " << t << ":";
      for (std::int64_t v = 0; v < r.values; ++v) {
        const RegisterSource& s = r.source[t + r.threads * v];
        os << " v" << v << "<-(t" << s.thread << ",v" << s.value << ")";
      }
      os << "\n";
    }
    if (r.crosses_warps)
      os << "  some values come from another warp: a warp shuffle cannot move them (shared memory)\n";
    else if (!r.schedule_computed)
      os << "  shuffle rounds: at least " << r.shuffle_lower_bound << " (a lane receives up to " << r.max_words_received
         << " of FROM's 32-bit registers from other lanes, one per round); no schedule computed above 65,536 words\n";
    else
      os << "  shuffle rounds: " << r.shuffle_rounds << " (lower bound " << r.shuffle_lower_bound
         << ": a lane receives up to " << r.max_words_received << " of FROM's 32-bit registers from other lanes, one per round"
         << (r.shuffle_rounds == r.shuffle_lower_bound ? "; the fewest" : "") << ")\n";
  }
  if (!r.algebra_check.empty()) os << "  " << r.algebra_check << "\n";
  if (!r.claim.empty())
    os << "  claim (x in [0, " << r.claim_domain - 1 << "]): " << r.claim << "\n";
  return os.str();
}

}  // namespace cuteref
