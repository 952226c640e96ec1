#include "error.hpp"

namespace cuteref {

Error::Error(const std::string& message) : std::runtime_error(printable(message)) {}

}  // namespace cuteref
