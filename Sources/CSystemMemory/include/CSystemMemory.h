#ifndef C_SYSTEM_MEMORY_H
#define C_SYSTEM_MEMORY_H

#include <stdlib.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

/// Returns the heap's free pages to the system where the C library can (glibc's malloc_trim); 0 elsewhere.
static inline int c_system_memory_give_back(void) {
#if defined(__GLIBC__)
    return malloc_trim(0);
#else
    return 0;
#endif
}

/// Makes every thread allocate from one heap (glibc's M_ARENA_MAX), so that memory one thread frees is what
/// the next allocation on any thread reuses; nothing elsewhere.
static inline void c_system_memory_use_one_arena(void) {
#if defined(__GLIBC__)
    mallopt(M_ARENA_MAX, 1);
#endif
}

#endif
