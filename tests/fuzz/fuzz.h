// SPDX-License-Identifier: GPL-3.0-or-later
// Helpers shared by the libFuzzer targets in tests/fuzz (see tests/fuzz/README).
#ifndef TESTS_FUZZ_FUZZ_H
#define TESTS_FUZZ_FUZZ_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

// The input as a NUL-terminated string (it stops at the first NUL byte, as
// any C string would). The caller frees it.
static inline char *fuzz_string(const uint8_t *data, size_t size) {
    char *s = malloc(size + 1);
    if (!s)
        abort();
    memcpy(s, data, size);
    s[size] = '\0';
    return s;
}

// A broken property: print it and abort, so libFuzzer keeps the input.
__attribute__((noreturn, format(printf, 1, 2))) static inline void fuzz_fail(const char *fmt,
                                                                            ...) {
    va_list ap;
    va_start(ap, fmt);
    fputs("fuzz: property violated: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    abort();
}

#endif
