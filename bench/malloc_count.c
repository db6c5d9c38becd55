/* An LD_PRELOAD shim for bench/run.sh: counts the heap allocations of a process (malloc,
 * calloc, realloc; C++ operator new goes through malloc) and writes the count to stderr as
 * "mallocs=N" on SIGUSR2. The allocations themselves are glibc's (__libc_*), so the process
 * runs as it would without the shim, a relaxed atomic add slower per call. */
#define _GNU_SOURCE
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <unistd.h>

extern void* __libc_malloc(size_t size);
extern void* __libc_calloc(size_t count, size_t size);
extern void* __libc_realloc(void* ptr, size_t size);

static atomic_long allocations;

/* Formatted by hand: a signal handler may call write() but not printf. */
static void report(int signal_number) {
  (void)signal_number;
  char digits[24];
  size_t n = 0;
  unsigned long value = (unsigned long)atomic_load_explicit(&allocations, memory_order_relaxed);
  do {
    digits[n++] = (char)('0' + value % 10);
    value /= 10;
  } while (value != 0 && n < sizeof digits);
  char line[40] = "mallocs=";
  size_t at = 8;
  while (n > 0) line[at++] = digits[--n];
  line[at++] = '\n';
  const ssize_t ignored = write(STDERR_FILENO, line, at);
  (void)ignored;
}

__attribute__((constructor)) static void install(void) {
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_handler = report;
  action.sa_flags = SA_RESTART;
  sigaction(SIGUSR2, &action, NULL);
}

void* malloc(size_t size) {
  atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed);
  return __libc_malloc(size);
}

void* calloc(size_t count, size_t size) {
  atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed);
  return __libc_calloc(count, size);
}

void* realloc(void* ptr, size_t size) {
  atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed);
  return __libc_realloc(ptr, size);
}
