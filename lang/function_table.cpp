#include "function_table.hpp"

#include "error.hpp"

namespace cuteref {

namespace {
std::string argument_error(const std::vector<Value>& args, std::size_t i, const std::string& fn,
                           const std::string& wanted) {
  std::string message = fn + ": argument " + std::to_string(i + 1) + " must be " + wanted + ", got " +
                        args[i].kind_name() + " `" + args[i].to_string() + "`";
  // A swizzled layout where a plain one is wanted: say why it is not simply unwrapped.
  if (args[i].is_composed() && wanted == "a layout")
    message += " (" + fn + " is not defined on swizzled layouts here: applied to the inner layout it would drop "
               "the swizzle, so the model refuses instead)";
  return message;
}
}  // namespace

const Layout& layout_arg(const std::vector<Value>& args, std::size_t i, const std::string& fn) {
  if (!args.at(i).is_layout()) throw Error(argument_error(args, i, fn, "a layout"));
  return std::get<Layout>(args[i].data);
}

const IntTuple& int_tuple_arg(const std::vector<Value>& args, std::size_t i, const std::string& fn) {
  if (!args.at(i).is_int_tuple()) throw Error(argument_error(args, i, fn, "an integer or integer tuple"));
  return std::get<IntTuple>(args[i].data);
}

std::int64_t integer_arg(const std::vector<Value>& args, std::size_t i, const std::string& fn) {
  const IntTuple& t = int_tuple_arg(args, i, fn);
  if (!t.is_integer()) throw Error(argument_error(args, i, fn, "an integer"));
  return t.value();
}

const std::string& symbol_arg(const std::vector<Value>& args, std::size_t i, const std::string& fn, const std::string& wanted) {
  if (!args.at(i).is_symbol()) throw Error(argument_error(args, i, fn, wanted));
  return std::get<Symbol>(args[i].data).name;
}

std::size_t index_arg(const std::vector<Value>& args, std::size_t i, const std::string& fn) {
  std::int64_t v = integer_arg(args, i, fn);
  if (v < 0) throw Error(fn + ": argument " + std::to_string(i + 1) + " must be non-negative, got " + std::to_string(v));
  return static_cast<std::size_t>(v);
}

const FunctionTable& standard_functions() {
  static const FunctionTable table = [] {
    FunctionTable t;
    register_layout_functions(t);
    register_basis_functions(t);
    register_atom_functions(t);
    register_copy_functions(t);
    register_algebra_functions(t);
    register_divide_product_functions(t);
    register_synthesis_functions(t);
    register_pycute_functions(t);
    register_f2_functions(t);
    return t;
  }();
  return table;
}

}  // namespace cuteref
