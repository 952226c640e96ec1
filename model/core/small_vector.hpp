// A vector with inline room for N elements, for the algebra's hot paths: the flattened
// modes of a layout are few (rarely above N), so most of them never touch the heap.
// Past N elements it moves to a heap block and grows like std::vector.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>
#include <type_traits>
#include <utility>

namespace cuteref {

template <class T, std::size_t N>
class SmallVector {
 public:
  using value_type = T;
  using iterator = T*;
  using const_iterator = const T*;
  using size_type = std::size_t;
  using reference = T&;
  using const_reference = const T&;

  // User-provided (not `= default`): value-initialization (`SmallVector v{}`) must not
  // zero the inline storage.
  SmallVector() noexcept {}
  SmallVector(const SmallVector& o) { append(o.begin(), o.end()); }
  SmallVector(SmallVector&& o) noexcept {
    if (o.data_ != o.inline_data()) {  // take o's heap block
      data_ = o.data_;
      size_ = o.size_;
      capacity_ = o.capacity_;
      o.data_ = o.inline_data();
      o.size_ = 0;
      o.capacity_ = N;
      return;
    }
    if constexpr (std::is_trivially_copyable_v<T>) {
      if (o.size_ > 0) std::memcpy(static_cast<void*>(data_), o.data_, o.size_ * sizeof(T));
      size_ = o.size_;
      o.size_ = 0;
      return;
    }
    for (std::size_t i = 0; i < o.size_; ++i) new (data_ + i) T(std::move(o.data_[i]));
    size_ = o.size_;
    o.clear();
  }
  SmallVector& operator=(const SmallVector& o) {
    if (this != &o) {
      clear();
      append(o.begin(), o.end());
    }
    return *this;
  }
  SmallVector& operator=(SmallVector&& o) noexcept {
    if (this != &o) {
      this->~SmallVector();
      new (this) SmallVector(std::move(o));
    }
    return *this;
  }
  ~SmallVector() {
    if constexpr (!std::is_trivially_destructible_v<T>) clear();
    if (data_ != inline_data()) ::operator delete(data_);
  }

  std::size_t size() const noexcept { return size_; }
  bool empty() const noexcept { return size_ == 0; }
  T* data() noexcept { return data_; }
  const T* data() const noexcept { return data_; }
  T* begin() noexcept { return data_; }
  T* end() noexcept { return data_ + size_; }
  const T* begin() const noexcept { return data_; }
  const T* end() const noexcept { return data_ + size_; }
  T& operator[](std::size_t i) noexcept { return data_[i]; }
  const T& operator[](std::size_t i) const noexcept { return data_[i]; }
  T& front() noexcept { return data_[0]; }
  const T& front() const noexcept { return data_[0]; }
  T& back() noexcept { return data_[size_ - 1]; }
  const T& back() const noexcept { return data_[size_ - 1]; }

  void reserve(std::size_t n) {
    if (n > capacity_) grow(n);
  }
  void push_back(const T& v) { emplace_back(v); }
  void push_back(T&& v) { emplace_back(std::move(v)); }
  template <class... Args>
  T& emplace_back(Args&&... args) {
    if (size_ == capacity_) {
      T tmp(std::forward<Args>(args)...);  // args may refer to an element
      grow(2 * capacity_);
      return *new (data_ + size_++) T(std::move(tmp));
    }
    return *new (data_ + size_++) T(std::forward<Args>(args)...);
  }
  template <class It>
  void append(It first, It last) {
    reserve(size_ + static_cast<std::size_t>(last - first));
    for (; first != last; ++first) new (data_ + size_++) T(*first);
  }
  // Grows by n elements left uninitialized and returns the first of them, for the caller to
  // write. @pre T is trivially copyable (no constructor is skipped).
  T* append_uninitialized(std::size_t n) {
    static_assert(std::is_trivially_copyable_v<T>);
    reserve(size_ + n);
    T* first = data_ + size_;
    size_ += n;
    return first;
  }
  void pop_back() noexcept { data_[--size_].~T(); }
  // Removes the element at `pos`, shifting the later ones down.
  T* erase(T* pos) {
    std::move(pos + 1, end(), pos);
    pop_back();
    return pos;
  }
  // Removes [first, last), shifting the later ones down.
  T* erase(T* first, T* last) {
    if (first == last) return first;
    T* new_end = std::move(last, end(), first);
    truncate(static_cast<std::size_t>(new_end - data_));
    return first;
  }
  // Shrinks to n elements (n <= size()).
  void truncate(std::size_t n) noexcept {
    if constexpr (std::is_trivially_destructible_v<T>) {
      if (size_ > n) size_ = n;
    } else {
      while (size_ > n) pop_back();
    }
  }
  void clear() noexcept { truncate(0); }
  // n elements: shrinks, or grows with value-initialized elements.
  void resize(std::size_t n) {
    if (n <= size_) return truncate(n);
    reserve(n);
    while (size_ < n) new (data_ + size_++) T();
  }

  friend bool operator==(const SmallVector& a, const SmallVector& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end());
  }

 private:
  T* inline_data() noexcept { return reinterpret_cast<T*>(storage_); }
  void grow(std::size_t n) {
    if (n <= size_ || n > static_cast<std::size_t>(PTRDIFF_MAX) / sizeof(T)) throw std::bad_array_new_length();
    T* block = static_cast<T*>(::operator new(n * sizeof(T)));
    for (std::size_t i = 0; i < size_; ++i) {
      new (block + i) T(std::move(data_[i]));
      data_[i].~T();
    }
    if (data_ != inline_data()) ::operator delete(data_);
    data_ = block;
    capacity_ = n;
  }

  alignas(T) unsigned char storage_[N * sizeof(T)];
  T* data_ = inline_data();
  std::size_t size_ = 0;
  std::size_t capacity_ = N;
};

}  // namespace cuteref
