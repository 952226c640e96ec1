// Lines of a file descriptor (batch's stdin), read with read(2) so that a read error (stdin a
// directory, an I/O error) is seen as one, not as the end of the input, and with a bound on
// the bytes kept per line: a longer line is read to its end and reported by its length, so
// that no line exhausts the memory and the lines after it are still read.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace cuteref {

class LineReader {
 public:
  enum class Status { Line, TooLong, End, Error };
  struct Result {
    Status status;
    std::string line;         // Line: its bytes, without '\n' (a '\r' before it is removed too)
    std::size_t length = 0;   // TooLong: the line's length in bytes
    int error = 0;            // Error: errno
  };

  // `before_blocking` runs before each read(2) call that may wait for input (e.g. to flush
  // the answers so far, so that a program driving batch line by line gets them).
  LineReader(int fd, std::size_t max_line_bytes, void (*before_blocking)() = nullptr)
      : fd_(fd), max_(max_line_bytes), before_blocking_(before_blocking), buffer_(1 << 16) {}

  // The next line. A last line without '\n' is a line; after End or Error, End again.
  Result next();

 private:
  bool fill();  // reads more bytes into the buffer; false at the end or on an error (error_ set)

  int fd_;
  std::size_t max_;
  void (*before_blocking_)();
  std::vector<char> buffer_;
  std::size_t begin_ = 0, end_ = 0;  // unread bytes: buffer_[begin_, end_)
  bool at_end_ = false;
  int error_ = 0;
};

}  // namespace cuteref
