// SPDX-License-Identifier: GPL-3.0-or-later
// A growable string: text appended piece by piece (bytes, strings, printf),
// always NUL-terminated, then taken by the caller. A failed allocation makes
// the buffer failed: later appends do nothing and strbuf_take returns NULL,
// so a writer checks once at the end. A zeroed StrBuf is an empty one.
#ifndef SRC_UTIL_STRBUF_H
#define SRC_UTIL_STRBUF_H

#include <stdbool.h>
#include <stddef.h>

typedef struct StrBuf {
    char *s;     // the text so far (NULL until the first append)
    size_t len;  // its length, without the NUL
    size_t cap;  // bytes allocated
    bool failed; // an allocation failed: the text is incomplete
} StrBuf;

// Appends n bytes of s.
void strbuf_add(StrBuf *b, const char *s, size_t n);
// Appends the string s.
void strbuf_puts(StrBuf *b, const char *s);
// Appends the formatted text.
__attribute__((format(printf, 2, 3))) void strbuf_printf(StrBuf *b, const char *fmt, ...);
// The text, which the caller then owns and frees (an empty buffer gives "");
// NULL when an allocation failed. *len (when not NULL) gets its length. The
// buffer is left empty.
char *strbuf_take(StrBuf *b, size_t *len);
// Frees the text and empties the buffer.
void strbuf_free(StrBuf *b);

#endif
