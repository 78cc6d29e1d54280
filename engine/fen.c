// SPDX-License-Identifier: GPL-3.0-or-later
// FEN parsing with strict validation, and FEN output.
#include <assert.h>
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/errmsg.h"
#include "engine/fen.h"
#include "engine/movegen.h"
#include "engine/zobrist.h"

enum { FEN_FIELDS = 6, FIELD_MAX = 96 };

static const char piece_chars[] = "PpNnBbRrQqKk";
static const char *const color_names[COLOR_NB] = { "white", "black" };

static Piece piece_from_char(char c) {
    const char *p = strchr(piece_chars, c);
    return (c && p) ? (Piece)(p - piece_chars) : NO_PIECE;
}

// Splits on runs of blanks; returns the number of fields found (up to max+1,
// so that "too many" is visible).
static int split_fields(const char *fen, char fields[][FIELD_MAX], int max, bool *too_long) {
    int n = 0;
    *too_long = false;
    const char *p = fen;
    while (*p) {
        while (*p && isspace((unsigned char)*p))
            p++;
        if (!*p)
            break;
        size_t len = 0;
        while (p[len] && !isspace((unsigned char)p[len]))
            len++;
        if (n < max) {
            if (len >= FIELD_MAX) {
                *too_long = true;
                len = FIELD_MAX - 1;
            }
            memcpy(fields[n], p, len);
            fields[n][len] = '\0';
        }
        n++;
        while (*p && !isspace((unsigned char)*p))
            p++;
    }
    return n;
}

static bool parse_placement(Board *b, const char *field, char *err, size_t errsz) {
    int rank = 7, file = 0;
    bool after_digit = false;
    for (const char *p = field; *p; p++) {
        char c = *p;
        // "17" or "44" would still add up to 8 squares; FEN writes one digit
        // per run of empty squares, so two in a row are malformed.
        bool digit = c >= '0' && c <= '9';
        if (digit && after_digit)
            return errmsg_set(err, errsz, "board: rank %d: two digits in a row", rank + 1);
        after_digit = digit;
        if (c == '/') {
            if (file != 8)
                return errmsg_set(err, errsz, "board: rank %d has %d squares, expected 8", rank + 1,
                                  file);
            if (rank == 0)
                return errmsg_set(err, errsz, "board: more than 8 ranks");
            rank--;
            file = 0;
        } else if (c >= '1' && c <= '8') {
            file += c - '0';
            if (file > 8)
                return errmsg_set(err, errsz, "board: rank %d has more than 8 squares", rank + 1);
        } else {
            Piece pc = piece_from_char(c);
            if (pc == NO_PIECE)
                return errmsg_set(err, errsz, "board: unexpected character '%c'", c);
            if (file >= 8)
                return errmsg_set(err, errsz, "board: rank %d has more than 8 squares", rank + 1);
            b->squares[make_square(file, rank)] = (uint8_t)pc;
            file++;
        }
    }
    if (rank != 0)
        return errmsg_set(err, errsz, "board: %d ranks, expected 8", 8 - rank);
    if (file != 8)
        return errmsg_set(err, errsz, "board: rank 1 has %d squares, expected 8", file);
    return true;
}

static bool parse_counter(const char *field, const char *name, long min, long max, long *out,
                          char *err, size_t errsz) {
    char *end;
    if (!isdigit((unsigned char)field[0]))
        return errmsg_set(err, errsz, "%s '%s' is not a number", name, field);
    errno = 0;
    long v = strtol(field, &end, 10);
    if (*end)
        return errmsg_set(err, errsz, "%s '%s' is not a number", name, field);
    // The text, not v, goes into the message: strtol saturates on overflow.
    if (errno == ERANGE || v < min || v > max)
        return errmsg_set(err, errsz, "%s %s out of range %ld..%ld", name, field, min, max);
    *out = v;
    return true;
}

// Checks that the material could arise in a game: one king each, at most
// 16 pieces and 8 pawns a side, and no pawn on the first or last rank.
static bool validate_material(const Board *b, char *err, size_t errsz) {
    for (Color c = WHITE; c <= BLACK; c++) {
        int kings = bb_count(board_pieces(b, c, KING));
        if (kings == 0)
            return errmsg_set(err, errsz, "board: no %s king", color_names[c]);
        if (kings > 1)
            return errmsg_set(err, errsz, "board: %d %s kings", kings, color_names[c]);
        int pawns = bb_count(board_pieces(b, c, PAWN));
        if (pawns > 8)
            return errmsg_set(err, errsz, "board: %d %s pawns", pawns, color_names[c]);
        if (bb_count(b->colors[c]) > 16)
            return errmsg_set(err, errsz, "board: %d %s pieces", bb_count(b->colors[c]),
                              color_names[c]);
    }
    if (b->pieces[PAWN] & BB_RANK_8)
        return errmsg_set(err, errsz, "pawn on rank 8");
    if (b->pieces[PAWN] & BB_RANK_1)
        return errmsg_set(err, errsz, "pawn on rank 1");
    return true;
}

// The castling field: "-", X-FEN (KQkq for the outermost rook on that side
// of the king, a file letter for another one) or Shredder-FEN (file letters
// only, "HAha"). Sets the rights, their rooks, and b->chess960 when the
// field or the squares are not standard chess's.
static bool parse_castling(Board *b, const char *field, char *err, size_t errsz) {
    b->castling = 0;
    b->chess960 = false;
    if (strcmp(field, "-") == 0)
        return true;
    for (const char *p = field; *p; p++) {
        char ch = *p, lower = (char)tolower((unsigned char)ch);
        bool letter = lower == 'k' || lower == 'q';
        if (!letter && (lower < 'a' || lower > 'h'))
            return errmsg_set(err, errsz, "castling: unexpected character '%c'", ch);
        Color c = isupper((unsigned char)ch) ? WHITE : BLACK;
        int back = c == WHITE ? 0 : 7;
        char ksq[3];
        Bitboard kings = board_pieces(b, c, KING) & bb_rank(back);
        if (!kings)
            return errmsg_set(err, errsz, "castling: '%c' but the %s king is not on rank %d", ch,
                              color_names[c], back + 1);
        Square k = bb_lsb(kings);
        square_name(k, ksq);
        Bitboard rooks = board_pieces(b, c, ROOK) & bb_rank(back);
        Bitboard right_of = rooks & ~((bb_square(k) << 1) - 1),
                 left_of = rooks & (bb_square(k) - 1);
        Square r;
        if (letter) {
            Bitboard side = lower == 'k' ? right_of : left_of;
            if (!side)
                return errmsg_set(err, errsz,
                                  "castling: '%c' but no %s rook on the %s of the king on %s", ch,
                                  color_names[c], lower == 'k' ? "kingside" : "queenside", ksq);
            r = lower == 'k' ? bb_msb(side) : bb_lsb(side);
        } else {
            r = make_square(lower - 'a', back);
            char rsq[3];
            square_name(r, rsq);
            if (b->squares[r] != make_piece(c, ROOK))
                return errmsg_set(err, errsz, "castling: '%c' but no %s rook on %s", ch,
                                  color_names[c], rsq);
        }
        int i = castle_index(c, square_file(r) > square_file(k));
        if (b->castling & (1 << i))
            return errmsg_set(err, errsz, "castling: '%c' given twice", ch);
        b->castling |= (uint8_t)(1 << i);
        b->castle_rook[i] = (uint8_t)r;
        // Standard chess is the king on e1 with rooks in the corners, written KQkq.
        if (!letter || square_file(k) != 4 || (square_file(r) != 0 && square_file(r) != 7))
            b->chess960 = true;
    }
    return true;
}

// An en-passant square is possible when a pawn of the side not to move stands
// just in front of it, having come from the square just behind, which must
// now be empty, as must the square itself.
static bool parse_ep(Board *b, const char *field, char *err, size_t errsz) {
    b->ep = SQ_NONE;
    if (strcmp(field, "-") == 0)
        return true;
    Square ep = square_from_name(field);
    if (ep == SQ_NONE || field[2] != '\0')
        return errmsg_set(err, errsz, "en passant: '%s' is not a square", field);
    Color us = b->side, them = !us;
    int push = them == WHITE ? 8 : -8;
    Square pawn_sq = ep + push, origin = ep - push;
    if (square_rank(ep) != 2 && square_rank(ep) != 5)
        return errmsg_set(err, errsz, "en passant square %s impossible: not on rank 3 or 6", field);
    if (square_rank(ep) != (us == WHITE ? 5 : 2))
        return errmsg_set(err, errsz, "en passant square %s impossible with %s to move", field,
                          color_names[us]);
    if (b->squares[pawn_sq] != make_piece(them, PAWN) || b->squares[ep] != NO_PIECE ||
        b->squares[origin] != NO_PIECE)
        return errmsg_set(err, errsz, "en passant square %s impossible", field);
    b->ep = (uint8_t)ep;
    return true;
}

// A FEN is ASCII: a character beyond it (a dash or a no-break space pasted
// from a web page, a letter of another alphabet) is named with its field, or
// the count of fields it breaks would be all the user learns. False with err
// set at the first such character.
static bool fen_is_ascii(const char *fen, char *err, size_t errsz) {
    static const char *const field_names[FEN_FIELDS] = { "placement",      "side to move",
                                                         "castling",       "en passant",
                                                         "halfmove clock", "fullmove number" };
    int field = 0;
    bool in_field = false;
    for (const unsigned char *p = (const unsigned char *)fen; *p; p++) {
        if (*p < 0x80) {
            bool blank = isspace(*p) != 0;
            if (!blank && !in_field)
                field++;
            in_field = !blank;
            continue;
        }
        // The whole UTF-8 character and its code point (a no-break space
        // cannot be seen when quoted).
        int len = *p >= 0xf0 ? 4 : *p >= 0xe0 ? 3 : *p >= 0xc0 ? 2 : 1;
        unsigned long cp = len == 1 ? *p : *p & (0x7fu >> len);
        int i = 1;
        for (; i < len && (p[i] & 0xc0) == 0x80; i++)
            cp = cp << 6 | (p[i] & 0x3fu);
        int at = in_field ? field : field + 1; // a character outside a field starts one
        const char *name = at >= 1 && at <= FEN_FIELDS ? field_names[at - 1] : "extra";
        if (i < len || len == 1) // not UTF-8: the byte itself
            return errmsg_set(err, errsz,
                              "%s field (field %d): cannot read byte 0x%02X (a FEN "
                              "is plain ASCII)",
                              name, at, *p);
        return errmsg_set(err, errsz,
                          "%s field (field %d): cannot read '%.*s' (U+%04lX; a FEN "
                          "is plain ASCII)",
                          name, at, len, (const char *)p, cp);
    }
    return true;
}

bool board_set_fen(Board *out, const char *fen, char *err, size_t errsz) {
    board_init_tables();
    char fields[FEN_FIELDS][FIELD_MAX];
    bool too_long;
    if (!fen)
        return errmsg_set(err, errsz, "empty FEN");
    if (!fen_is_ascii(fen, err, errsz))
        return false;
    int n = split_fields(fen, fields, FEN_FIELDS, &too_long);
    if (n != FEN_FIELDS && n != 4)
        return errmsg_set(err, errsz, "expected 6 fields, got %d", n);
    if (too_long)
        return errmsg_set(err, errsz, "a field is too long");

    // Build into a scratch board so that a rejected FEN changes nothing.
    Board scratch;
    Board *b = &scratch;
    memset(b, 0, sizeof *b);
    memset(b->squares, NO_PIECE, sizeof b->squares);
    b->ep = SQ_NONE;
    b->last_move = MOVE_NONE;

    if (!parse_placement(b, fields[0], err, errsz))
        return false;
    for (Square s = 0; s < SQ_NB; s++) {
        if (b->squares[s] != NO_PIECE) {
            Piece p = (Piece)b->squares[s];
            b->pieces[piece_type(p)] |= bb_square(s);
            b->colors[piece_color(p)] |= bb_square(s);
        }
    }
    if (!validate_material(b, err, errsz))
        return false;

    if (strcmp(fields[1], "w") == 0)
        b->side = WHITE;
    else if (strcmp(fields[1], "b") == 0)
        b->side = BLACK;
    else
        return errmsg_set(err, errsz, "side to move '%s' must be 'w' or 'b'", fields[1]);

    if (!parse_castling(b, fields[2], err, errsz) || !parse_ep(b, fields[3], err, errsz))
        return false;
    board_setup_castling(b);

    long halfmove = 0, fullmove = 1;
    if (n == FEN_FIELDS) {
        if (!parse_counter(fields[4], "halfmove clock", 0, 10000, &halfmove, err, errsz) ||
            !parse_counter(fields[5], "fullmove number", 1, 10000, &fullmove, err, errsz))
            return false;
    }
    b->halfmove = (uint16_t)halfmove;
    b->fullmove = (uint16_t)fullmove;

    Color us = b->side, them = !us;
    Bitboard occ = board_occupied(b);
    if (board_attackers_to(b, board_king(b, them), occ) & b->colors[us])
        return errmsg_set(err, errsz, "side not to move is in check");
    b->checkers = board_attackers_to(b, board_king(b, us), occ) & b->colors[them];
    if (bb_count(b->checkers) > 2)
        return errmsg_set(err, errsz, "side to move is in check by %d pieces",
                          bb_count(b->checkers));
    if (b->ep != SQ_NONE && b->checkers) {
        // After a double push the only possible checks come from the pushed
        // pawn itself or a line it uncovered.
        Square pushed = b->ep + (us == WHITE ? -8 : 8);
        Bitboard others = b->checkers & ~bb_square(pushed);
        Square origin = b->ep + (us == WHITE ? 8 : -8);
        if (others && !(attacks_line(board_king(b, us), origin) & others)) {
            char sq[3];
            square_name(b->ep, sq);
            return errmsg_set(err, errsz, "en passant square %s impossible with this check", sq);
        }
    }
    // Keep the en-passant square only when a legal capture uses it.
    if (b->ep != SQ_NONE) {
        MoveList list;
        movegen_noisy(b, &list);
        bool used = false;
        for (int i = 0; i < list.count; i++)
            used |= move_kind(list.moves[i]) == MOVE_EN_PASSANT;
        if (!used)
            b->ep = SQ_NONE;
    }
    b->key = board_compute_key(b);
    b->pawn_key = board_compute_pawn_key(b);
    *out = *b;
    return true;
}

bool fen_is_placement_only(const char *text) {
    char fields[1][FIELD_MAX];
    bool too_long;
    return text && split_fields(text, fields, 1, &too_long) == 1 && strchr(fields[0], '/');
}

// The castling rights the pieces still allow: a king and a rook of one side
// on their home squares (standard chess; the history cannot be known).
static void infer_castling(const Board *b, char *out, size_t outsz) {
    static const struct {
        Square king, rook;
        Piece king_piece, rook_piece;
        char letter;
    } rights[] = {
        { SQ_E1, SQ_H1, W_KING, W_ROOK, 'K' },
        { SQ_E1, SQ_A1, W_KING, W_ROOK, 'Q' },
        { SQ_E8, SQ_H8, B_KING, B_ROOK, 'k' },
        { SQ_E8, SQ_A8, B_KING, B_ROOK, 'q' },
    };
    size_t n = 0;
    for (size_t i = 0; i < sizeof rights / sizeof rights[0] && n + 1 < outsz; i++)
        if (b->squares[rights[i].king] == rights[i].king_piece &&
            b->squares[rights[i].rook] == rights[i].rook_piece)
            out[n++] = rights[i].letter;
    if (n == 0 && outsz > 1)
        out[n++] = '-';
    if (outsz > 0)
        out[n] = '\0';
}

bool board_set_placement(Board *b, const char *placement, char *castling, size_t castlingsz,
                         char *err, size_t errsz) {
    if (!fen_is_placement_only(placement))
        return errmsg_set(err, errsz,
                          "not a placement-only FEN (one field of ranks separated "
                          "by '/')");
    // Parsed first without rights, so the pieces can be looked at; then
    // again with the rights they allow (still every check of the strict parser).
    char fen[FIELD_MAX + 32], rights[8];
    Board pieces;
    char placement_field[1][FIELD_MAX];
    bool too_long;
    split_fields(placement, placement_field, 1, &too_long);
    if (too_long)
        return errmsg_set(err, errsz, "the placement is too long");
    snprintf(fen, sizeof fen, "%s w - - 0 1", placement_field[0]);
    if (!board_set_fen(&pieces, fen, err, errsz))
        return false;
    infer_castling(&pieces, rights, sizeof rights);
    snprintf(fen, sizeof fen, "%s w %s - 0 1", placement_field[0], rights);
    if (!board_set_fen(b, fen, err, errsz))
        return false;
    if (castling && castlingsz > 0)
        snprintf(castling, castlingsz, "%s", rights);
    return true;
}

void board_set_start(Board *b) {
    bool ok = board_set_fen(b, BOARD_START_FEN, NULL, 0);
    assert(ok);
    (void)ok;
}

// The castling field: each right as KQkq when its rook is the outermost on
// that side of the king (X-FEN; always so in standard chess), else as the
// rook's file; or always as the file (Shredder-FEN).
static size_t castling_field(const Board *b, bool shredder, char *out) {
    size_t n = 0;
    if (!b->castling)
        out[n++] = '-';
    for (int i = 0; i < 4; i++) {
        if (!(b->castling & (1 << i)))
            continue;
        Color c = i & 2 ? BLACK : WHITE;
        Square r = b->castle_rook[i];
        Bitboard rooks = board_pieces(b, c, ROOK) & bb_rank(square_rank(r));
        Bitboard beyond = i & 1 ? rooks & (bb_square(r) - 1) : rooks & ~((bb_square(r) << 1) - 1);
        char ch = shredder || beyond ? (char)('a' + square_file(r)) : "kq"[i & 1];
        out[n++] = c == WHITE ? (char)toupper((unsigned char)ch) : ch;
    }
    return n;
}

static void write_fen(const Board *b, bool shredder, char *buf, size_t bufsz) {
    char tmp[FEN_MAX];
    size_t n = 0;
    for (int rank = 7; rank >= 0; rank--) {
        int empty = 0;
        for (int file = 0; file < 8; file++) {
            Piece p = (Piece)b->squares[make_square(file, rank)];
            if (p == NO_PIECE) {
                empty++;
                continue;
            }
            if (empty)
                tmp[n++] = (char)('0' + empty);
            empty = 0;
            tmp[n++] = piece_chars[p];
        }
        if (empty)
            tmp[n++] = (char)('0' + empty);
        if (rank)
            tmp[n++] = '/';
    }
    tmp[n++] = ' ';
    tmp[n++] = b->side == WHITE ? 'w' : 'b';
    tmp[n++] = ' ';
    n += castling_field(b, shredder, tmp + n);
    char ep[3];
    square_name(b->ep == SQ_NONE ? -1 : b->ep, ep);
    snprintf(tmp + n, sizeof tmp - n, " %s %u %u", ep, (unsigned)b->halfmove,
             (unsigned)b->fullmove);
    snprintf(buf, bufsz, "%s", tmp);
}

void board_to_fen(const Board *b, char *buf, size_t bufsz) {
    write_fen(b, false, buf, bufsz);
}

void board_to_shredder_fen(const Board *b, char *buf, size_t bufsz) {
    write_fen(b, true, buf, bufsz);
}
