// How a diagnostic's text is shown: one printable line of bounded length.
//
// printable(): the C0 control bytes and DEL of user text quoted in a message (a NUL, a raw
// escape sequence, a carriage return) are written as \xNN. Error's constructor applies it, so
// no diagnostic prints them raw, and a NUL cannot end what() early.
// shortened(): beyond kMaxDiagnosticBytes (diagnostics echo their operands, which may be
// large), the middle is replaced by a note of how many bytes were left out; the start (the
// column, the function, the precondition) and the end are kept.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace cuteref {

inline constexpr std::size_t kMaxDiagnosticBytes = 8192;

inline std::string printable(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    const auto b = static_cast<unsigned char>(c);
    if (b >= 0x20 && b != 0x7f) {
      out += c;
      continue;
    }
    static constexpr char hex[] = "0123456789abcdef";
    out += "\\x";
    out += hex[b >> 4];
    out += hex[b & 15];
  }
  return out;
}

inline std::string shortened(std::string_view text) {
  if (text.size() <= kMaxDiagnosticBytes) return std::string(text);
  const std::size_t head = kMaxDiagnosticBytes * 3 / 4, tail = kMaxDiagnosticBytes / 8;
  return std::string(text.substr(0, head)) + " ... [" + std::to_string(text.size() - head - tail) +
         " bytes left out] ... " + std::string(text.substr(text.size() - tail));
}

}  // namespace cuteref
