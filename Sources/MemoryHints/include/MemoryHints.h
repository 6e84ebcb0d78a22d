#ifndef FLEETSIM_MEMORY_HINTS_H
#define FLEETSIM_MEMORY_HINTS_H

// Hints to the CPU and the kernel about memory the simulator is about to use. They
// never fault and change no value, so a run's results do not depend on them; they are
// here because Swift has neither a prefetch nor madvise's flags of its own
// (docs/performance.md#prefetch).

#include <stddef.h>
#include <stdint.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

/// Starts loading the cache line at `address` (for writing where the CPU can) without
/// waiting for it.
static inline __attribute__((always_inline)) void fleetsim_prefetch(const void *address) {
    __builtin_prefetch(address, 1, 3);
}

/// Asks Linux to back the 2 MiB-aligned part of [address, address + length) with
/// transparent huge pages (madvise MADV_HUGEPAGE; a no-op elsewhere, or where the
/// kernel's setting is "never"). Call it before the memory is first written: pages
/// faulted in afterwards are huge.
static inline void fleetsim_advise_huge_pages(void *address, size_t length) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    const uintptr_t huge = (uintptr_t)2 << 20;
    const uintptr_t start = ((uintptr_t)address + huge - 1) & ~(huge - 1);
    const uintptr_t end = ((uintptr_t)address + length) & ~(huge - 1);
    if (end > start) (void)madvise((void *)start, end - start, MADV_HUGEPAGE);
#else
    (void)address;
    (void)length;
#endif
}

#endif
