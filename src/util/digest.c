// SPDX-License-Identifier: GPL-3.0-or-later
// FNV-1a, 64 bits (the prime and basis are the published ones).
#include "src/util/digest.h"

#include <string.h>

static const uint64_t FNV_PRIME = 0x100000001b3ULL;
// After each string: a byte no UTF-8 text contains.
enum { STRING_SEPARATOR = 0xff };

uint64_t digest_bytes(uint64_t h, const void *data, size_t n) {
    const unsigned char *p = data;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * FNV_PRIME;
    return h;
}

uint64_t digest_u64(uint64_t h, uint64_t v) {
    for (int i = 0; i < 8; i++, v >>= 8)
        h = (h ^ (v & 0xff)) * FNV_PRIME;
    return h;
}

uint64_t digest_string(uint64_t h, const char *s) {
    h = digest_bytes(h, s, strlen(s));
    return (h ^ STRING_SEPARATOR) * FNV_PRIME;
}
