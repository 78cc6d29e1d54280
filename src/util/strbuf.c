// SPDX-License-Identifier: GPL-3.0-or-later
// The growable string of strbuf.h: doubling capacity, at least 256 bytes.
#include "src/util/strbuf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { STRBUF_FIRST_CAP = 256 };

// Room for n more bytes and the NUL; false (and failed) when there is none.
static bool reserve(StrBuf *b, size_t n) {
    if (b->failed)
        return false;
    if (b->cap - b->len > n && b->s)
        return true;
    size_t cap = b->cap ? b->cap : STRBUF_FIRST_CAP;
    while (cap - b->len <= n) {
        if (cap > (size_t)-1 / 2) {
            b->failed = true;
            return false;
        }
        cap *= 2;
    }
    char *s = realloc(b->s, cap);
    if (!s) {
        b->failed = true;
        return false;
    }
    b->s = s;
    b->cap = cap;
    b->s[b->len] = '\0'; // a new buffer is an empty string
    return true;
}

void strbuf_add(StrBuf *b, const char *s, size_t n) {
    if (!reserve(b, n))
        return;
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = '\0';
}

void strbuf_puts(StrBuf *b, const char *s) {
    strbuf_add(b, s, strlen(s));
}

void strbuf_printf(StrBuf *b, const char *fmt, ...) {
    if (!reserve(b, 0))
        return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
    va_end(ap);
    if (n < 0) {
        b->failed = true;
        b->s[b->len] = '\0';
        return;
    }
    if ((size_t)n >= b->cap - b->len) { // did not fit: grow and format again
        b->s[b->len] = '\0';
        if (!reserve(b, (size_t)n))
            return;
        va_start(ap, fmt);
        vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
        va_end(ap);
    }
    b->len += (size_t)n;
}

char *strbuf_take(StrBuf *b, size_t *len) {
    if (!reserve(b, 0)) {
        strbuf_free(b);
        return NULL;
    }
    char *s = b->s;
    if (len)
        *len = b->len;
    *b = (StrBuf){ 0 };
    return s;
}

void strbuf_free(StrBuf *b) {
    free(b->s);
    *b = (StrBuf){ 0 };
}
