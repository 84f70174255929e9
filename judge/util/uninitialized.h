// SPDX-License-Identifier: MIT
#pragma once
// Large host buffers: a vector whose new elements are left uninitialized (a buffer of hundreds of
// MB that is about to be written whole, such as generated inputs or a reference's outputs, is
// written once, not first zeroed on one thread), in memory asked to be backed by huge pages.
// The first touch of fresh memory costs a page fault per 4 KiB page; for the judge's buffers of
// hundreds of MB those faults were a large share of preparing and checking a case (the most of it
// in a virtual machine), and a 2 MiB page takes one.
#include <malloc.h>
#include <sys/mman.h>

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <new>
#include <utility>
#include <vector>

namespace judge {

inline constexpr size_t kHugePageBytes = size_t(2) << 20;
// Smaller buffers stay with the ordinary allocator: rounding them up to huge pages would waste memory.
inline constexpr size_t kHugeBufferBytes = size_t(4) << 20;

// Asks for huge pages over the whole 2 MiB pages inside [p, p + bytes). Advice only: without
// transparent huge pages the memory works the same.
inline void AdviseHugePages(void* p, size_t bytes) {
  const uintptr_t begin = (reinterpret_cast<uintptr_t>(p) + kHugePageBytes - 1) & ~(kHugePageBytes - 1);
  const uintptr_t end = (reinterpret_cast<uintptr_t>(p) + bytes) & ~(kHugePageBytes - 1);
  if (end > begin) (void)::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
}

// Makes freed memory stay with the process for the next allocation, at the cost of keeping the
// judge's peak resident. glibc gives a buffer over 32 MiB its own mapping and unmaps it on free, so
// each fetch of a call's outputs, generated input and reference result of a large case touched fresh
// memory: a fault and a zeroed page per 4 KiB, about 300 MB/s on a virtual machine's CPU (measured
// here: 0.9 s to allocate and fill 256 MiB fresh, 0.01 s reused). One arena, as a thread's arena
// hands large blocks to mmap whatever the settings. Called first thing in main(), before any thread.
inline void KeepFreedMemoryForReuse() {
  (void)::mallopt(M_MMAP_MAX, 0);
  (void)::mallopt(M_TRIM_THRESHOLD, -1);  // -1: never (mallopt(3))
  (void)::mallopt(M_ARENA_MAX, 1);
}

template <typename T>
struct UninitializedAllocator : std::allocator<T> {
  template <typename U>
  struct rebind {
    using other = UninitializedAllocator<U>;
  };
  UninitializedAllocator() = default;
  template <typename U>
  UninitializedAllocator(const UninitializedAllocator<U>&) noexcept {}

  T* allocate(size_t n) {
    const size_t bytes = n * sizeof(T);
    if (bytes < kHugeBufferBytes) return std::allocator<T>::allocate(n);
    void* p = std::aligned_alloc(kHugePageBytes, (bytes + kHugePageBytes - 1) & ~(kHugePageBytes - 1));
    if (!p) throw std::bad_alloc();
    AdviseHugePages(p, bytes);
    return static_cast<T*>(p);
  }
  void deallocate(T* p, size_t n) {
    if (n * sizeof(T) < kHugeBufferBytes) return std::allocator<T>::deallocate(p, n);
    std::free(p);
  }
  template <typename U>
  void construct(U* p) noexcept {
    ::new (static_cast<void*>(p)) U;
  }
  template <typename U, typename... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
};

template <typename T>
using UninitializedVector = std::vector<T, UninitializedAllocator<T>>;

}  // namespace judge
