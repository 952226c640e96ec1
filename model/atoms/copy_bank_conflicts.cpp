#include "atoms/copy_bank_conflicts.hpp"

#include <optional>
#include <sstream>

#include "checked_math.hpp"
#include "coordinates.hpp"
#include "enumeration_budget.hpp"
#include "error.hpp"
#include "evaluate.hpp"
#include "layout_value_stream.hpp"

namespace cuteref {

namespace {

std::string vector_type(int bits) {
  switch (bits) {
    case 8: return "b8";
    case 16: return "b16";
    case 32: return "b32";
    case 64: return "v2.b32";
    case 128: return "v4.b32";
  }
  throw Error("bank_conflicts: no shared-memory access of " + std::to_string(bits) + " bits");
}

SmemInstruction instruction_of(const CopyAtom& atom, bool source) {
  const std::string trans = atom.transpose ? ".trans" : "";
  switch (atom.kind) {
    case CopyKind::Ldmatrix:
      if (!source) throw Error("bank_conflicts: " + atom.name + " (ldmatrix) reads shared memory: the tensor is its source (S)");
      return smem_instruction("ldmatrix.x" + std::to_string(atom.matrices) + trans);
    case CopyKind::Stmatrix:
      if (source) throw Error("bank_conflicts: " + atom.name + " (stmatrix) writes shared memory: the tensor is its destination (D)");
      return smem_instruction("stmatrix.x" + std::to_string(atom.matrices) + trans);
    case CopyKind::CpAsync:
      // Measured on the H100 (gpu/RESULTS.md): cp.async's shared-memory wavefronts are not
      // counted as ld/st and do not follow the st.shared rule; the model gives no number.
      throw Error("bank_conflicts: " + atom.name + " (cp.async): its shared-memory wavefronts are not modeled (the H100's "
                  "counters do not follow the st.shared rule; gpu/RESULTS.md)");
    case CopyKind::Universal:
      return smem_instruction(std::string(source ? "ld" : "st") + ".shared." + vector_type(atom.vector_bits));
    case CopyKind::TmemLoad:
    case CopyKind::TmemStore:
      throw Error("bank_conflicts: " + atom.name + " (tcgen05.ld/st) moves data between tensor memory and registers, "
                  "not shared memory");
  }
  throw Error("bank_conflicts: unknown copy atom kind");
}

// One lane's element offsets in index order, one atom call (frg_v values) at a time: streamed by
// an odometer where the partition allows (layout_value_stream.hpp), else evaluated index by index.
class LaneOffsets {
 public:
  explicit LaneOffsets(const Partition& p) : plain_(p), stream_(plain_stream(p)) {}
  explicit LaneOffsets(const ComposedLayout& c) : composed_(c), stream_(stream_layout_like(Value(c))) {}

  // The next `n` offsets, appended to `out`.
  void take(std::int64_t n, std::vector<std::int64_t>& out) {
    for (std::int64_t k = 0; k < n; ++k, ++index_) {
      if (stream_) {
        if (index_ > 0) stream_->next();
        out.push_back(stream_->value());
      } else if (composed_) {
        out.push_back(apply_composed(*composed_, index_));
      } else {
        out.push_back(checked_add(plain_->offset, apply_index(plain_->layout, index_)));
      }
    }
  }

 private:
  static std::optional<LayoutLikeStream> plain_stream(const Partition& p) {
    if (p.layout.has_basis_strides()) return std::nullopt;
    try {
      return LayoutLikeStream{LayoutValueStream(p.layout, p.offset), std::nullopt};
    } catch (const Error&) {
      return std::nullopt;  // some value overflows: evaluated index by index, which says where
    }
  }

  std::optional<Partition> plain_;
  std::optional<ComposedLayout> composed_;
  std::optional<LayoutLikeStream> stream_;
  std::int64_t index_ = 0;
};

}  // namespace

CopyBankConflicts bank_conflicts_streamed(const TiledCopy& tc, const Value& smem, CopySide side,
                                          const CopyInstructionVisitor& visit) {
  const bool composed = smem.is_composed();
  if (!composed && !smem.is_layout())
    throw Error("bank_conflicts: the shared-memory tensor must be a layout or a composed layout, got " + smem.kind_name());
  CopyBankConflicts out;
  out.source = side == CopySide::Auto ? (tc.atom.kind == CopyKind::Ldmatrix || tc.atom.kind == CopyKind::Universal)
                                      : side == CopySide::Source;
  out.instruction = instruction_of(tc.atom, out.source);
  out.bits = tc.value_bits;
  const std::int64_t threads = tiled_copy_size(tc);
  const std::int64_t warps = (threads + 31) / 32;
  for (std::int64_t w = 0; w < warps; ++w) {
    // Each lane's partition, read one atom call at a time.
    std::vector<LaneOffsets> lanes;
    std::int64_t frg_v = 0, calls = 0;
    for (std::int64_t lane = 0; lane < 32 && 32 * w + lane < threads; ++lane) {
      const std::int64_t t = 32 * w + lane;
      Layout part = Layout(IntTuple::static_int(1), IntTuple::static_int(0));
      if (composed) {
        const ComposedLayout c = out.source ? partition_S(tc, t, std::get<ComposedLayout>(smem.data))
                                            : partition_D(tc, t, std::get<ComposedLayout>(smem.data));
        part = c.layout;
        lanes.emplace_back(c);
      } else {
        const Partition p = out.source ? partition_S(tc, t, std::get<Layout>(smem.data)) : partition_D(tc, t, std::get<Layout>(smem.data));
        part = p.layout;
        lanes.emplace_back(p);
      }
      charge_enumeration(size_value(part), "bank_conflicts");
      frg_v = size_value(mode(mode(part, 0), 0));
      calls = size_value(part) / frg_v;
    }
    CopyInstructionBanks ib;
    ib.warp = w;
    for (std::int64_t j = 0; j < calls; ++j) {
      ib.call = j;
      ib.offsets.resize(lanes.size());
      for (std::size_t lane = 0; lane < lanes.size(); ++lane) {
        ib.offsets[lane].clear();
        lanes[lane].take(frg_v, ib.offsets[lane]);
      }
      ib.wavefronts = smem_wavefronts(out.instruction, smem_accesses(out.instruction, ib.offsets, tc.value_bits));
      out.wavefronts = checked_add(out.wavefronts, ib.wavefronts.wavefronts);
      out.ideal = checked_add(out.ideal, ib.wavefronts.ideal);
      ++out.count;
      visit(out.instruction, ib);
    }
  }
  return out;
}

CopyBankConflicts bank_conflicts(const TiledCopy& tc, const Value& smem, CopySide side) {
  std::vector<CopyInstructionBanks> all;
  CopyBankConflicts out =
      bank_conflicts_streamed(tc, smem, side, [&](const SmemInstruction&, const CopyInstructionBanks& ib) { all.push_back(ib); });
  out.instructions = std::move(all);
  return out;
}

std::string describe_totals(const CopyBankConflicts& b) {
  std::ostringstream os;
  os << b.count << " x " << b.instruction.name << " (" << (b.source ? "source" : "destination")
     << " in shared memory): " << b.wavefronts << " wavefronts, ideal " << b.ideal << "\n";
  return os.str();
}

std::string describe_instruction(const SmemInstruction& instruction, const CopyInstructionBanks& ib) {
  const std::string d = describe(instruction, ib.wavefronts);
  return "warp " + std::to_string(ib.warp) + " call " + std::to_string(ib.call) + ": " +
         (ib.wavefronts.wavefronts == ib.wavefronts.ideal ? d.substr(0, d.find('\n') + 1) : d);
}

std::string describe(const CopyBankConflicts& b) {
  std::string out;
  for (const CopyInstructionBanks& ib : b.instructions) out += describe_instruction(b.instruction, ib);
  return out + describe_totals(b);
}

}  // namespace cuteref
