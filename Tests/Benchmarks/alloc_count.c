/* Counts a process's heap allocations for the benchmarks: an LD_PRELOAD library (built with
 * cc -O2 -shared -fPIC) that passes malloc, calloc, realloc, memalign, aligned_alloc,
 * posix_memalign and free to glibc and counts them in a file the benchmark reads while the process
 * runs: ALLOC_COUNT_FILE, three little-endian 64-bit counters (allocations, frees, bytes asked for).
 * Works for the statically linked Swift runtime too: libc stays a shared library. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);
extern void __libc_free(void *);

static uint64_t before_mapping[3];
static uint64_t *counters = before_mapping;

__attribute__((constructor)) static void map_counters(void) {
    const char *path = getenv("ALLOC_COUNT_FILE");
    if (!path) return;
    int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0 || ftruncate(fd, 4096) != 0) return;
    uint64_t *mapped = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (mapped == MAP_FAILED) return;
    for (int i = 0; i < 3; i++) mapped[i] = before_mapping[i];
    counters = mapped;
}

static void counted(size_t size) {
    __atomic_fetch_add(&counters[0], 1, __ATOMIC_RELAXED);
    __atomic_fetch_add(&counters[2], size, __ATOMIC_RELAXED);
}

void *malloc(size_t size) { counted(size); return __libc_malloc(size); }
void *calloc(size_t count, size_t size) { counted(count * size); return __libc_calloc(count, size); }
void *memalign(size_t alignment, size_t size) { counted(size); return __libc_memalign(alignment, size); }
void *aligned_alloc(size_t alignment, size_t size) { counted(size); return __libc_memalign(alignment, size); }

void *realloc(void *pointer, size_t size) {
    counted(size);
    return __libc_realloc(pointer, size);
}

int posix_memalign(void **result, size_t alignment, size_t size) {
    counted(size);
    void *pointer = __libc_memalign(alignment, size);
    if (!pointer) return ENOMEM;
    *result = pointer;
    return 0;
}

void free(void *pointer) {
    if (pointer) __atomic_fetch_add(&counters[1], 1, __ATOMIC_RELAXED);
    __libc_free(pointer);
}
