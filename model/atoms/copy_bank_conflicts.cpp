#include "atoms/copy_bank_conflicts.hpp"

#include <sstream>

#include "coordinates.hpp"
#include "enumeration_budget.hpp"
#include "error.hpp"
#include "evaluate.hpp"

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

}  // namespace

CopyBankConflicts bank_conflicts(const TiledCopy& tc, const Value& smem, CopySide side) {
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
    // Each lane's partition: (layout, how to read an index) as a composed layout or plain.
    std::vector<std::vector<std::int64_t>> per_lane_all;  // lane -> all its element offsets
    std::int64_t frg_v = 0, calls = 0;
    for (std::int64_t lane = 0; lane < 32 && 32 * w + lane < threads; ++lane) {
      const std::int64_t t = 32 * w + lane;
      std::vector<std::int64_t> all;
      Layout part = Layout(IntTuple::static_int(1), IntTuple::static_int(0));
      if (composed) {
        const ComposedLayout c = out.source ? partition_S(tc, t, std::get<ComposedLayout>(smem.data))
                                            : partition_D(tc, t, std::get<ComposedLayout>(smem.data));
        part = c.layout;
        charge_enumeration(size_value(c.layout), "bank_conflicts");
        for (std::int64_t i = 0; i < size_value(c.layout); ++i) all.push_back(apply_composed(c, i));
      } else {
        const Partition p = out.source ? partition_S(tc, t, std::get<Layout>(smem.data)) : partition_D(tc, t, std::get<Layout>(smem.data));
        part = p.layout;
        charge_enumeration(size_value(p.layout), "bank_conflicts");
        for (std::int64_t i = 0; i < size_value(p.layout); ++i) all.push_back(p.offset + apply_index(p.layout, i));
      }
      frg_v = size_value(mode(mode(part, 0), 0));
      calls = size_value(part) / frg_v;
      per_lane_all.push_back(std::move(all));
    }
    for (std::int64_t j = 0; j < calls; ++j) {
      CopyInstructionBanks ib;
      ib.warp = w;
      ib.call = j;
      for (const auto& all : per_lane_all)
        ib.offsets.emplace_back(all.begin() + j * frg_v, all.begin() + (j + 1) * frg_v);
      ib.wavefronts = smem_wavefronts(out.instruction, smem_accesses(out.instruction, ib.offsets, tc.value_bits));
      out.wavefronts += ib.wavefronts.wavefronts;
      out.ideal += ib.wavefronts.ideal;
      out.instructions.push_back(std::move(ib));
    }
  }
  return out;
}

std::string describe(const CopyBankConflicts& b) {
  std::ostringstream os;
  os << b.instructions.size() << " x " << b.instruction.name << " (" << (b.source ? "source" : "destination")
     << " in shared memory): " << b.wavefronts << " wavefronts, ideal " << b.ideal << "\n";
  for (const CopyInstructionBanks& ib : b.instructions) {
    os << "warp " << ib.warp << " call " << ib.call << ": ";
    const std::string d = describe(b.instruction, ib.wavefronts);
    os << (ib.wavefronts.wavefronts == ib.wavefronts.ideal ? d.substr(0, d.find('\n') + 1) : d);
  }
  return os.str();
}

}  // namespace cuteref
