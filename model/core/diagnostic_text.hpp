// How a diagnostic's text is shown: one printable line of bounded length.
//
// printable(): the C0 control bytes and DEL of user text quoted in a message (a NUL, a raw
// escape sequence, a carriage return), and every byte that is not part of a well-formed UTF-8
// character (a lone lead byte, such as the first byte of `８` quoted alone, a stray
// continuation byte, an overlong or surrogate form), are written as \xNN; whole UTF-8
// characters stay as they are. Error's constructor applies it, so no diagnostic prints them
// raw, and a NUL cannot end what() early.
// shortened(): beyond kMaxDiagnosticBytes (diagnostics echo their operands, which may be
// large), the middle is replaced by a note of how many bytes were left out; the start (the
// column, the function, the precondition) and the end are kept, cut between UTF-8 characters.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace cuteref {

inline constexpr std::size_t kMaxDiagnosticBytes = 8192;

// The length of the well-formed UTF-8 character of two to four bytes at text[at] (RFC 3629's
// table: the second byte's range depends on the lead byte), 0 when there is none.
inline std::size_t utf8_character_length(std::string_view text, std::size_t at) {
  const auto byte = [&](std::size_t k) -> unsigned {
    return at + k < text.size() ? static_cast<unsigned char>(text[at + k]) : 0U;
  };
  const unsigned lead = byte(0);
  std::size_t length = 0;
  unsigned lo = 0x80, hi = 0xbf;  // the second byte's range
  if (lead >= 0xc2 && lead <= 0xdf) length = 2;
  else if (lead >= 0xe0 && lead <= 0xef) length = 3, lo = lead == 0xe0 ? 0xa0 : 0x80, hi = lead == 0xed ? 0x9f : 0xbf;
  else if (lead >= 0xf0 && lead <= 0xf4) length = 4, lo = lead == 0xf0 ? 0x90 : 0x80, hi = lead == 0xf4 ? 0x8f : 0xbf;
  else return 0;
  if (byte(1) < lo || byte(1) > hi) return 0;
  for (std::size_t k = 2; k < length; ++k)
    if (byte(k) < 0x80 || byte(k) > 0xbf) return 0;
  return length;
}

inline std::string printable(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t k = 0; k < text.size(); ++k) {
    const auto b = static_cast<unsigned char>(text[k]);
    if (b >= 0x20 && b < 0x7f) {
      out += text[k];
      continue;
    }
    if (const std::size_t n = b >= 0x80 ? utf8_character_length(text, k) : 0; n > 0) {
      out += text.substr(k, n);
      k += n - 1;
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
  // The cuts fall between characters: a UTF-8 continuation byte (0b10xxxxxx) stays with its lead.
  const auto continuation = [&](std::size_t k) { return (static_cast<unsigned char>(text[k]) & 0xc0) == 0x80; };
  std::size_t head = kMaxDiagnosticBytes * 3 / 4, tail = text.size() - kMaxDiagnosticBytes / 8;
  while (head > 0 && continuation(head)) --head;
  while (tail < text.size() && continuation(tail)) ++tail;
  return std::string(text.substr(0, head)) + " ... [" + std::to_string(tail - head) + " bytes left out] ... " +
         std::string(text.substr(tail));
}

}  // namespace cuteref
