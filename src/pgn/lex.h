// SPDX-License-Identifier: GPL-3.0-or-later
// Inside src/pgn only: the lexing the reader (read.c) does on the bytes of
// a PGN file, apart from its state: character classes, tag-pair lines,
// suffix annotations, null moves and [%clk] commands in comments.
#ifndef SRC_PGN_LEX_H
#define SRC_PGN_LEX_H

#include <stdbool.h>
#include <stddef.h>

static inline bool is_space(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

static inline bool is_name_char(char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
}

// What a symbol token (a move, a move number, a result) is made of:
// letters, digits and _+#=:-/, by table as the lexer looks at every byte.
static const bool symbol_chars[256] = {
    ['0'] = 1, ['1'] = 1, ['2'] = 1, ['3'] = 1, ['4'] = 1, ['5'] = 1, ['6'] = 1, ['7'] = 1,
    ['8'] = 1, ['9'] = 1, ['a'] = 1, ['b'] = 1, ['c'] = 1, ['d'] = 1, ['e'] = 1, ['f'] = 1,
    ['g'] = 1, ['h'] = 1, ['i'] = 1, ['j'] = 1, ['k'] = 1, ['l'] = 1, ['m'] = 1, ['n'] = 1,
    ['o'] = 1, ['p'] = 1, ['q'] = 1, ['r'] = 1, ['s'] = 1, ['t'] = 1, ['u'] = 1, ['v'] = 1,
    ['w'] = 1, ['x'] = 1, ['y'] = 1, ['z'] = 1, ['A'] = 1, ['B'] = 1, ['C'] = 1, ['D'] = 1,
    ['E'] = 1, ['F'] = 1, ['G'] = 1, ['H'] = 1, ['I'] = 1, ['J'] = 1, ['K'] = 1, ['L'] = 1,
    ['M'] = 1, ['N'] = 1, ['O'] = 1, ['P'] = 1, ['Q'] = 1, ['R'] = 1, ['S'] = 1, ['T'] = 1,
    ['U'] = 1, ['V'] = 1, ['W'] = 1, ['X'] = 1, ['Y'] = 1, ['Z'] = 1, ['_'] = 1, ['+'] = 1,
    ['#'] = 1, ['='] = 1, [':'] = 1, ['-'] = 1, ['/'] = 1,
};

static inline bool is_symbol_char(char c) {
    return symbol_chars[(unsigned char)c];
}

// Whether a line has the form [Name "..."] (a tag pair starting in column 1).
bool pgn_lex_tag_line(const char *s, size_t n);
// Takes a [%clk h:mm:ss(.f)] command out of s (in place); its value in *ms.
void pgn_lex_take_clock(char *s, long long *ms);
// "--" (ChessBase, Scid, pgn-extract) or "Z0": a null move.
bool pgn_lex_null_move(const char *s, size_t n);
// "!", "?", "!!", "??", "!?", "?!" as NAGs 1-6; 0 for anything else.
int pgn_lex_suffix_nag(const char *s, size_t n);

#endif
