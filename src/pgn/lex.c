// SPDX-License-Identifier: GPL-3.0-or-later
// The reader's lexing of tag lines, annotations, null moves and clocks.
#include "src/pgn/lex.h"

#include <string.h>

// A line of the form [Name "..."] (a tag pair starting in column 1).
bool pgn_lex_tag_line(const char *s, size_t n) {
    size_t i = 0;
    if (n < 5 || s[i++] != '[')
        return false;
    while (i < n && is_space(s[i]))
        i++;
    size_t name = i;
    while (i < n && is_name_char(s[i]))
        i++;
    if (i == name)
        return false;
    while (i < n && is_space(s[i]))
        i++;
    if (i >= n || s[i] != '"')
        return false;
    while (n > i && is_space(s[n - 1]))
        n--;
    return s[n - 1] == ']';
}

// Takes a [%clk h:mm:ss(.f)] command out of s (in place); its value in *ms.
void pgn_lex_take_clock(char *s, long long *ms) {
    char *c = strstr(s, "[%clk");
    if (!c)
        return;
    const char *p = c + 5;
    long long f[3] = { 0, 0, 0 };
    while (*p == ' ')
        p++;
    for (int k = 0; k < 3; k++) {
        if (*p < '0' || *p > '9')
            return;
        while (*p >= '0' && *p <= '9' && f[k] < 100000000)
            f[k] = f[k] * 10 + (*p++ - '0');
        if (k < 2 && *p++ != ':')
            return;
    }
    long long frac = 0;
    if (*p == '.') {
        p++;
        int digits = 0;
        while (*p >= '0' && *p <= '9') {
            if (digits < 3) {
                frac = frac * 10 + (*p - '0');
                digits++;
            }
            p++;
        }
        for (; digits < 3; digits++)
            frac *= 10;
    }
    while (*p == ' ')
        p++;
    if (*p != ']' || f[1] > 59 || f[2] > 59)
        return;
    *ms = (f[0] * 3600 + f[1] * 60 + f[2]) * 1000 + frac;
    // Remove it and the blanks on one side, so "a [%clk ..] b" becomes "a b".
    char *end = (char *)p + 1;
    while (*end == ' ')
        end++;
    if (*end == '\0')
        while (c > s && c[-1] == ' ')
            c--;
    memmove(c, end, strlen(end) + 1);
}

// "--" (ChessBase, Scid, pgn-extract) or "Z0": a null move.
bool pgn_lex_null_move(const char *s, size_t n) {
    return n == 2 && ((s[0] == '-' && s[1] == '-') || (s[0] == 'Z' && s[1] == '0'));
}

// "!", "?", "!!", "??", "!?", "?!" as NAGs 1-6; 0 for anything else.
int pgn_lex_suffix_nag(const char *s, size_t n) {
    static const char *const marks[] = { "!", "?", "!!", "??", "!?", "?!" };
    for (int i = 0; i < 6; i++)
        if (strlen(marks[i]) == n && !memcmp(marks[i], s, n))
            return i + 1;
    return 0;
}
