#include "max_common.hpp"

#include "coalesce.hpp"
#include "composition.hpp"
#include "inverse.hpp"
#include "layout_mode_ops.hpp"
#include "max_common_generic.hpp"

namespace cuteref {

namespace {

// max_common_generic.hpp's operations on the model's layouts.
struct MaxCommonOps : LayoutModeOps {
  Layout right_inverse_full(const Layout& l) const { return cuteref::right_inverse_full(l); }
  Layout compose(const Layout& a, const Layout& b) const { return composition(a, b); }
  Layout coalesce(const Layout& l) const { return cuteref::coalesce(l); }
  bool has_unit_stride(const Layout& m) const { return m.stride().is_integer() && m.stride().value() == 1; }
  IntTuple shape(const Layout& m) const { return m.shape(); }
  IntTuple one() const { return IntTuple::static_int(1); }
  Layout unit_layout() const { return Layout(IntTuple::static_int(1), IntTuple::static_int(0)); }
};

}  // namespace

IntTuple max_common_vector(const Layout& a, const Layout& b) { return max_common_vector_of(a, b, MaxCommonOps{}); }

Layout max_common_layout(const Layout& a, const Layout& b) { return max_common_layout_of(a, b, MaxCommonOps{}); }

}  // namespace cuteref
