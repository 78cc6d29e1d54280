// SPDX-License-Identifier: GPL-3.0-or-later
// The reader of opening lines (openline.h): lines cut at '\n', comments at a
// word-initial '#', move numbers skipped, each move played from the start.
#include "src/game/openline.h"

#include <ctype.h>
#include <string.h>

#include "engine/fen.h"
#include "engine/notation.h"

// The comment: from a '#' that starts a word. Cuts the line there and
// returns the text after the '#', or NULL when there is none.
static char *split_comment(char *line) {
    for (char *p = line; *p; p++) {
        if (*p == '#' && (p == line || isspace((unsigned char)p[-1]))) {
            *p = '\0';
            return p + 1;
        }
    }
    return NULL;
}

// The move in a token past its move number ("12." / "12..." / "1.e4"); NULL
// when the token is only a move number or dots.
static const char *skip_move_number(const char *tok) {
    const char *p = tok;
    while (isdigit((unsigned char)*p))
        p++;
    if (*p != '.')
        return tok;
    while (*p == '.')
        p++;
    return *p ? p : NULL;
}

static bool is_result(const char *tok) {
    return strcmp(tok, "1-0") == 0 || strcmp(tok, "0-1") == 0 || strcmp(tok, "1/2-1/2") == 0 ||
           strcmp(tok, "*") == 0;
}

// The next blank-separated word at *p, cut in place; NULL at the end.
static char *next_word(char **p) {
    char *s = *p;
    while (isspace((unsigned char)*s))
        s++;
    if (!*s) {
        *p = s;
        return NULL;
    }
    char *w = s;
    while (*s && !isspace((unsigned char)*s))
        s++;
    if (*s)
        *s++ = '\0';
    *p = s;
    return w;
}

// One line: false when a callback stopped the reading.
static bool read_line(char *line, long lineno, const OpenLineVisitor *v) {
    const char *comment = split_comment(line);
    Board board;
    board_set_start(&board);
    int plies = 0;
    for (char *p = line, *tok; (tok = next_word(&p));) {
        const char *text = skip_move_number(tok);
        if (!text)
            continue;
        if (is_result(text))
            break;
        Move m = MOVE_NONE;
        char err[160] = "";
        if (notation_parse_move(&board, text, &m, err, sizeof err) != NOTATION_OK) {
            if (v->error)
                v->error(v->ctx, lineno, plies, text, err);
            return true;
        }
        if (v->move && !v->move(v->ctx, &board, m))
            return false;
        board_play(&board, m);
        plies++;
    }
    return plies == 0 || !v->line || v->line(v->ctx, &board, comment, lineno);
}

bool openline_read(char *text, const OpenLineVisitor *v) {
    char *p = text;
    if ((unsigned char)p[0] == 0xEF && (unsigned char)p[1] == 0xBB && (unsigned char)p[2] == 0xBF)
        p += 3; // a UTF-8 byte order mark
    for (long lineno = 1; *p; lineno++) {
        char *line = p;
        char *end = strchr(p, '\n');
        if (end) {
            *end = '\0';
            p = end + 1;
        } else {
            p += strlen(p);
        }
        if (!read_line(line, lineno, v))
            return false;
    }
    return true;
}
