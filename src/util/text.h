// SPDX-License-Identifier: GPL-3.0-or-later
// Small helpers for the line-oriented text the protocols and files use:
// blanks, words cut out in place, trimming and strict integer parsing.
#ifndef SRC_TEXT_H
#define SRC_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

// Space, tab, CR, LF, VT or FF.
bool text_is_blank(char c);
// The first control byte of s's n bytes (NUL and DEL included, blanks not),
// or -1 when none: no part of a command line or a protocol.
int text_first_control(const char *s, size_t n);
// The next blank-separated word at *cursor, NUL-terminated in place (the
// line is modified), or NULL at the end of the line.
char *text_next_word(char **cursor);
// s without leading and trailing blanks (the end is cut in place).
char *text_trim(char *s);
// A whole decimal number in [min, max]; false for anything else or NULL.
bool text_parse_i64(const char *text, int64_t min, int64_t max, int64_t *out);
// Copies src into dst (dstsz bytes) like snprintf("%s"), but a cut, when src
// does not fit, falls between UTF-8 characters, never inside one (names,
// "½"). Returns the bytes copied.
size_t text_copy(char *dst, size_t dstsz, const char *src);
// The word for a count: one when n is 1, else many ("1 move", "2 moves").
static inline const char *text_plural(long long n, const char *one, const char *many) {
    return n == 1 ? one : many;
}

#endif
