// SPDX-License-Identifier: GPL-3.0-or-later
// Words, trimming and numbers.
#include "src/util/text.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

bool text_is_blank(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f';
}

int text_first_control(const char *s, size_t n) {
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if ((c < 0x20 && !text_is_blank((char)c)) || c == 0x7f)
            return c;
    }
    return -1;
}

char *text_next_word(char **cursor) {
    char *p = *cursor;
    while (*p && text_is_blank(*p))
        p++;
    if (!*p) {
        *cursor = p;
        return NULL;
    }
    char *start = p;
    while (*p && !text_is_blank(*p))
        p++;
    if (*p)
        *p++ = '\0';
    *cursor = p;
    return start;
}

char *text_trim(char *s) {
    while (*s && text_is_blank(*s))
        s++;
    size_t n = strlen(s);
    while (n > 0 && text_is_blank(s[n - 1]))
        s[--n] = '\0';
    return s;
}

bool text_parse_i64(const char *text, int64_t min, int64_t max, int64_t *out) {
    if (!text)
        return false;
    char *end;
    errno = 0;
    long long v = strtoll(text, &end, 10);
    if (errno || end == text || *end || v < min || v > max)
        return false;
    *out = v;
    return true;
}

size_t text_copy(char *dst, size_t dstsz, const char *src) {
    if (dstsz == 0)
        return 0;
    size_t n = strlen(src);
    if (n >= dstsz) {
        // Back over the continuation bytes of a character that would be cut.
        size_t k = n = dstsz - 1;
        while (k > 0 && n - k < 3 && ((unsigned char)src[k] & 0xC0) == 0x80)
            k--;
        if (((unsigned char)src[k] & 0xC0) != 0x80)
            n = k;
    }
    memmove(dst, src, n);
    dst[n] = '\0';
    return n;
}
