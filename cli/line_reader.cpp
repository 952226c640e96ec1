#include "line_reader.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace cuteref {

bool LineReader::fill() {
  if (at_end_) return false;
  if (before_blocking_) before_blocking_();
  for (;;) {
    const ssize_t n = ::read(fd_, buffer_.data(), buffer_.size());
    if (n > 0) {
      begin_ = 0;
      end_ = static_cast<std::size_t>(n);
      return true;
    }
    if (n < 0 && errno == EINTR) continue;
    at_end_ = true;
    if (n < 0) error_ = errno;
    return false;
  }
}

LineReader::Result LineReader::next() {
  std::string line;
  std::size_t length = 0;  // bytes of the line so far (all of them, kept or not)
  bool any = false;        // anything read for this line (a last line without '\n')
  for (;;) {
    if (begin_ == end_ && !fill()) {
      if (error_ != 0) {
        const int e = error_;
        error_ = 0;
        return {Status::Error, "", 0, e};
      }
      if (!any) return {Status::End, "", 0, 0};
      break;
    }
    any = true;
    const char* start = buffer_.data() + begin_;
    const void* nl = std::memchr(start, '\n', end_ - begin_);
    const std::size_t take = nl ? static_cast<std::size_t>(static_cast<const char*>(nl) - start) : end_ - begin_;
    if (length + take <= max_ + 1) line.append(start, take);  // one byte past the bound tells a '\r'
    else if (line.size() <= max_) line.append(start, max_ + 1 - line.size());
    length += take;
    begin_ += take;
    if (nl) {
      ++begin_;
      break;
    }
  }
  if (length > 0 && line.size() == length && line.back() == '\r') {
    line.pop_back();
    --length;
  }
  if (length > max_) return {Status::TooLong, "", length, 0};
  return {Status::Line, std::move(line), length, 0};
}

}  // namespace cuteref
