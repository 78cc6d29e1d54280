// SPDX-License-Identifier: GPL-3.0-or-later
// Moves as text: coordinate and SAN output, and a lenient SAN/coordinate parser
// that matches what was typed against the legal moves and explains failures.
// The parser reads the text into a pattern (piece, from-square hints,
// destination, promotion) and tries only the moves that pattern allows with
// movegen_is_legal; the full legal move list is generated only to explain a
// failure. It is the one SAN parser: the PGN reader uses it for every move.
#include "engine/notation.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "engine/errmsg.h"
#include "engine/movegen.h"

static const char piece_letters[PIECE_TYPE_NB] = { 'P', 'N', 'B', 'R', 'Q', 'K' };
static const char *const piece_names[PIECE_TYPE_NB] = { "pawn", "knight", "bishop",
                                                        "rook", "queen",  "king" };

// Longest input we look at; anything longer is not a move.
enum { INPUT_MAX = 48 };

// ---------------------------------------------------------------------------
// Output

void notation_to_uci(Move m, char *buf) {
    if (m == MOVE_NONE || m == MOVE_NULL) {
        strcpy(buf, "0000");
        return;
    }
    square_name(move_from(m), buf);
    square_name(move_to(m), buf + 2);
    if (move_is_promotion(m)) {
        buf[4] = (char)tolower((unsigned char)piece_letters[move_promotion(m)]);
        buf[5] = '\0';
    }
}

void notation_to_uci_in(const Board *b, Move m, char *buf) {
    notation_to_uci(m, buf);
    if (b->chess960 && move_kind(m) == MOVE_CASTLING && m != MOVE_NULL)
        square_name(b->castle_rook[castle_index_of(m)], buf + 2);
}

// Whether the legal move m gives check and whether it mates, found on a copy.
static void check_state(const Board *b, Move m, bool *check, bool *mate) {
    Board after = *b;
    board_play(&after, m);
    *check = board_in_check(&after);
    *mate = *check && movegen_count(&after) == 0;
}

// SAN given the legal move list of b (so that callers with a list at hand
// need not generate it again for every move).
static void san_with_list(const Board *b, const MoveList *list, Move m, char *buf) {
    char s[MOVE_TEXT_MAX + 4];
    int n = 0;
    Square from = move_from(m), to = move_to(m);
    PieceType pt = piece_type(board_piece_on(b, from));

    if (move_kind(m) == MOVE_CASTLING) {
        strcpy(s, square_file(to) == 6 ? "O-O" : "O-O-O");
        n = (int)strlen(s);
    } else {
        bool capture = board_is_capture(b, m);
        if (pt == PAWN) {
            // A pawn never needs more than its file: pushes and captures onto
            // one square always differ by it.
            if (capture)
                s[n++] = (char)('a' + square_file(from));
        } else {
            s[n++] = piece_letters[pt];
            // Other pieces of this type that can legally go to the same square.
            bool other = false, same_file = false, same_rank = false;
            for (int i = 0; i < list->count; i++) {
                Move o = list->moves[i];
                Square of = move_from(o);
                if (move_to(o) != to || of == from || move_kind(o) == MOVE_CASTLING ||
                    piece_type(board_piece_on(b, of)) != pt)
                    continue;
                other = true;
                same_file |= square_file(of) == square_file(from);
                same_rank |= square_rank(of) == square_rank(from);
            }
            if (other) {
                if (!same_file) {
                    s[n++] = (char)('a' + square_file(from));
                } else if (!same_rank) {
                    s[n++] = (char)('1' + square_rank(from));
                } else {
                    s[n++] = (char)('a' + square_file(from));
                    s[n++] = (char)('1' + square_rank(from));
                }
            }
        }
        if (capture)
            s[n++] = 'x';
        square_name(to, s + n);
        n += 2;
        if (move_is_promotion(m)) {
            s[n++] = '=';
            s[n++] = piece_letters[move_promotion(m)];
        }
    }
    bool check, mate;
    check_state(b, m, &check, &mate);
    if (check)
        s[n++] = mate ? '#' : '+';
    s[n] = '\0';
    memcpy(buf, s, (size_t)n + 1);
}

void notation_to_san(const Board *b, Move m, char *buf) {
    if (m == MOVE_NONE || m == MOVE_NULL) {
        strcpy(buf, "--"); // the PGN convention for a null move
        return;
    }
    // Making an illegal move would corrupt b; coordinates are the safe answer.
    if (!movegen_is_legal(b, m)) {
        notation_to_uci(m, buf);
        return;
    }
    MoveList list;
    movegen_legal(b, &list);
    san_with_list(b, &list, m, buf);
}

int notation_line(const Board *b, const Move *moves, int n, char *out, size_t outsz) {
    Board at = *b;
    size_t len = 0;
    if (outsz)
        out[0] = '\0';
    int written = 0;
    for (; written < n; written++) {
        Move m = moves[written];
        if (!movegen_is_legal(&at, m))
            break;
        char san[MOVE_TEXT_MAX], num[16] = "";
        notation_to_san(&at, m, san);
        if (at.side == WHITE)
            snprintf(num, sizeof num, "%d. ", at.fullmove);
        else if (written == 0)
            snprintf(num, sizeof num, "%d... ", at.fullmove);
        int k = snprintf(out + len, outsz - len, "%s%s%s", written ? " " : "", num, san);
        if (k < 0 || (size_t)k >= outsz - len) {
            out[len] = '\0';
            break;
        }
        len += (size_t)k;
        board_play(&at, m);
    }
    return written;
}

// ---------------------------------------------------------------------------
// Messages

// Appends to a message buffer that may be NULL or too small; *len tracks the
// length written so far and never passes the end.
static void append(char *err, size_t errsz, size_t *len, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void append(char *err, size_t errsz, size_t *len, const char *fmt, ...) {
    if (!err || errsz == 0 || *len + 1 >= errsz)
        return;
    va_list ap;
    va_start(ap, fmt);
    int r = vsnprintf(err + *len, errsz - *len, fmt, ap);
    va_end(ap);
    if (r < 0)
        return;
    *len += (size_t)r;
    if (*len >= errsz)
        *len = errsz - 1;
}

static NotationStatus fail(NotationStatus st, char *err, size_t errsz, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static NotationStatus fail(NotationStatus st, char *err, size_t errsz, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    errmsg_vset(err, errsz, fmt, ap);
    va_end(ap);
    return st;
}

// ---------------------------------------------------------------------------
// Parsing

// What the text says about the move; -1 / NO_PIECE_TYPE where it says nothing.
typedef struct Pattern {
    int piece;     // PieceType, or -1 when any piece may move (full from-square given)
    int from_file; // 0-7 or -1
    int from_rank; // 0-7 or -1
    Square to;
    int promo; // PieceType, or NO_PIECE_TYPE when none was written
} Pattern;

static bool pattern_matches(const Board *b, const Pattern *p, Move m, bool ignore_promo) {
    Square from = move_from(m);
    if (move_to(m) != p->to)
        return false;
    if (p->from_file >= 0 && square_file(from) != p->from_file)
        return false;
    if (p->from_rank >= 0 && square_rank(from) != p->from_rank)
        return false;
    if (p->piece >= 0 && piece_type(board_piece_on(b, from)) != (PieceType)p->piece)
        return false;
    // Castling has its own notation; as a king move it is accepted only with
    // the full from-square (coordinates, "Ke1g1"), never as "Kg1".
    if (move_kind(m) == MOVE_CASTLING && (p->from_file < 0 || p->from_rank < 0))
        return false;
    if (ignore_promo)
        return true;
    if (move_is_promotion(m))
        return p->promo == NO_PIECE_TYPE || move_promotion(m) == (PieceType)p->promo;
    return p->promo == NO_PIECE_TYPE;
}

// The squares a piece that p describes could move to p->to from: the full
// from-square when given, else the squares of our pieces of that type whose
// moves (pushes and captures for pawns) can end on p->to.
static Bitboard pattern_sources(const Board *b, const Pattern *p) {
    if (p->from_file >= 0 && p->from_rank >= 0)
        return bb_square(make_square(p->from_file, p->from_rank));
    Color us = b->side;
    PieceType pt = (PieceType)p->piece; // a piece is named unless the square is full
    Bitboard from;
    if (pt == PAWN) {
        // Captures onto an enemy piece or the en-passant square; pushes,
        // one or two squares, onto an empty one.
        Bitboard occ = board_occupied(b);
        int fwd = us == WHITE ? 8 : -8, one = (int)p->to - fwd;
        if (bb_has(b->colors[!us], p->to) || p->to == b->ep)
            from = attacks_pawn((Color)!us, p->to);
        else if (bb_has(occ, p->to) || one < 0 || one >= SQ_NB)
            from = 0;
        else if (bb_has(occ, (Square)one))
            from = bb_square((Square)one);
        else
            from = bb_square((Square)one) |
                   (relative_rank(us, p->to) == 3 ? bb_square((Square)(one - fwd)) : 0);
    } else {
        from = attacks_piece(pt, p->to, board_occupied(b));
    }
    from &= board_pieces(b, us, pt);
    if (p->from_file >= 0)
        from &= bb_file(p->from_file);
    if (p->from_rank >= 0)
        from &= bb_rank(p->from_rank);
    return from;
}

// The legal moves that fit p (at most max of them, into out), found by
// trying every kind of move from the squares of pattern_sources with
// movegen_is_legal: the same moves as filtering the full legal list, without
// generating it.
static int collect(const Board *b, const Pattern *p, Move *out, int max) {
    int count = 0;
    Bitboard sources = pattern_sources(b, p);
    if (p->piece > PAWN && (p->from_file < 0 || p->from_rank < 0)) {
        // A piece named with at most a file or a rank ("Nf3", "Rae1"): our
        // pieces of that type, one plain move each (no promotion, castling
        // only with the full square).
        while (sources && count < max && p->promo == NO_PIECE_TYPE) {
            Move m = move_make(bb_pop(&sources), p->to);
            if (movegen_is_legal(b, m))
                out[count++] = m;
        }
        return count;
    }
    while (sources) {
        Square from = bb_pop(&sources);
        Piece pc = board_piece_on(b, from);
        if (pc == NO_PIECE || piece_color(pc) != b->side ||
            (p->piece >= 0 && piece_type(pc) != (PieceType)p->piece))
            continue;
        // The kinds of move a piece there can make to p->to that p allows
        // (so pattern_matches holds for each).
        Move tries[4];
        int n = 0;
        PieceType pt = piece_type(pc);
        if (pt == PAWN && relative_rank(b->side, p->to) == 7) {
            for (PieceType promo = KNIGHT; promo <= QUEEN; promo++)
                if (p->promo == NO_PIECE_TYPE || p->promo == (int)promo)
                    tries[n++] = move_make_promotion(from, p->to, promo);
        } else if (p->promo == NO_PIECE_TYPE) {
            tries[n++] = move_make(from, p->to);
            if (pt == PAWN && p->to == b->ep)
                tries[n++] = move_make_kind(from, p->to, MOVE_EN_PASSANT);
            // A Chess960 king may both step and castle to g1: the step wins.
            if (pt == KING && p->from_file >= 0 && p->from_rank >= 0 &&
                !movegen_is_legal(b, tries[0]))
                tries[n++] = move_make_kind(from, p->to, MOVE_CASTLING);
        }
        for (int i = 0; i < n && count < max; i++)
            if (movegen_is_legal(b, tries[i]))
                out[count++] = tries[i];
    }
    return count;
}

// True when a piece of type pt on from could move to to if king safety were
// ignored: the geometry, blockers and the piece on the target square.
static bool pseudo_reaches(const Board *b, PieceType pt, Square from, Square to) {
    Color us = b->side;
    Bitboard occ = board_occupied(b);
    if (bb_has(b->colors[us], to))
        return false;
    if (pt != PAWN)
        return bb_has(attacks_piece(pt, from, occ), to);
    int fwd = us == WHITE ? 8 : -8;
    if (square_file(from) == square_file(to)) {
        if (bb_has(occ, to))
            return false;
        if (to == from + fwd)
            return true;
        return to == from + 2 * fwd && relative_rank(us, from) == 1 && !bb_has(occ, from + fwd);
    }
    return bb_has(attacks_pawn(us, from), to) && (bb_has(b->colors[!us], to) || to == b->ep);
}

static NotationStatus explain_castling(const Board *b, bool kingside, const char *text, char *err,
                                       size_t errsz) {
    Color us = b->side;
    const char *side_name = kingside ? "kingside" : "queenside";
    int i = castle_index(us, kingside);
    if (!(b->castling & (1 << i)))
        return fail(NOTATION_ILLEGAL, err, errsz, "illegal move '%s': %s may not castle %s", text,
                    us == WHITE ? "White" : "Black", side_name);
    if (board_in_check(b))
        return fail(NOTATION_ILLEGAL, err, errsz, "illegal move '%s': cannot castle out of check",
                    text);
    if (b->castle_path[i] & board_occupied(b))
        return fail(NOTATION_ILLEGAL, err, errsz,
                    "illegal move '%s': the squares between king and rook are not empty", text);
    Color them = (Color)!us;
    Bitboard crossed = b->castle_kpath[i];
    while (crossed)
        if (board_square_attacked(b, bb_pop(&crossed), them))
            return fail(NOTATION_ILLEGAL, err, errsz,
                        "illegal move '%s': the king would pass through or land on an attacked "
                        "square",
                        text);
    return fail(NOTATION_ILLEGAL, err, errsz, "illegal move '%s': cannot castle %s here", text,
                side_name);
}

// The castling right whose rook stands on `to` when `from` is our king:
// castling written as king takes rook (UCI in Chess960, xboard, clicks).
// -1 when the move is not that.
static int king_takes_rook(const Board *b, Square from, Square to) {
    Color us = b->side;
    if (from != board_king(b, us) || board_piece_on(b, to) != make_piece(us, ROOK))
        return -1;
    for (int i = castle_index(us, true); i <= castle_index(us, false); i++)
        if ((b->castling & (1 << i)) && b->castle_rook[i] == to)
            return i;
    return -1;
}

// The castling right of the side to move whose king lands on `to`, or whose
// rook stands there (-1: none). A king move written with K to such a square
// (Kg1, or Kxh1 in Chess960) is how many write castling; the refusal then
// says how patzer reads it.
static int castling_target(const Board *b, Square to) {
    for (int i = castle_index(b->side, true); i <= castle_index(b->side, false); i++)
        if ((b->castling & (1 << i)) && (castle_king_to(i) == to || b->castle_rook[i] == to))
            return i;
    return -1;
}

// Says why no legal move matches p.
static NotationStatus explain_illegal(const Board *b, const MoveList *legal, const Pattern *p,
                                      const char *text, char *err, size_t errsz) {
    char to_name[3];
    square_name(p->to, to_name);
    // A promotion letter on a move that does not promote.
    for (int i = 0; i < legal->count; i++)
        if (pattern_matches(b, p, legal->moves[i], true))
            return fail(NOTATION_ILLEGAL, err, errsz, "illegal move '%s': no promotion on %s", text,
                        to_name);

    Color us = b->side;
    Bitboard sources;
    int pt = p->piece;
    if (pt < 0) {
        // Full from-square without a piece letter: judge the piece standing there.
        Square from = make_square(p->from_file, p->from_rank);
        Piece pc = board_piece_on(b, from);
        if (pc == NO_PIECE || piece_color(pc) != us) {
            char from_name[3];
            square_name(from, from_name);
            return fail(NOTATION_ILLEGAL, err, errsz,
                        "illegal move '%s': there is no %s piece on %s", text,
                        us == WHITE ? "white" : "black", from_name);
        }
        pt = piece_type(pc);
        sources = bb_square(from);
        // A king moving two squares along its first rank means castling.
        if (pt == KING && square_rank(from) == square_rank(p->to) &&
            (p->to == from + 2 || p->to == from - 2) && relative_rank(us, from) == 0 &&
            (square_file(p->to) == 6 || square_file(p->to) == 2))
            return explain_castling(b, square_file(p->to) == 6, text, err, errsz);
    } else {
        sources = board_pieces(b, us, (PieceType)pt);
        if (p->from_file >= 0)
            sources &= bb_file(p->from_file);
        if (p->from_rank >= 0)
            sources &= bb_rank(p->from_rank);
    }

    bool reaches = false;
    while (sources && !reaches) {
        Square from = bb_pop(&sources);
        reaches = pseudo_reaches(b, (PieceType)pt, from, p->to);
    }
    int castle = !reaches && pt == KING ? castling_target(b, p->to) : -1;
    if (castle >= 0)
        return fail(NOTATION_ILLEGAL, err, errsz,
                    "illegal move '%s': no king can reach %s (castling is written %s)", text,
                    to_name, castle & 1 ? "O-O-O" : "O-O");
    if (!reaches)
        return fail(NOTATION_ILLEGAL, err, errsz, "illegal move '%s': no %s can reach %s", text,
                    piece_names[pt], to_name);
    // It can get there but every such move leaves its own king attacked.
    if (pt == KING)
        return fail(NOTATION_ILLEGAL, err, errsz,
                    "illegal move '%s': the king would be in check on %s", text, to_name);
    return fail(NOTATION_ILLEGAL, err, errsz, "illegal move '%s': it would leave the king in check",
                text);
}

static int piece_from_letter(char c) {
    switch (c) {
    case 'P':
    case 'p': return PAWN;
    case 'N':
    case 'n': return KNIGHT;
    case 'B':
    case 'b': return BISHOP;
    case 'R':
    case 'r': return ROOK;
    case 'Q':
    case 'q': return QUEEN;
    case 'K':
    case 'k': return KING;
    default: return -1;
    }
}

static bool is_file(char c) {
    return c >= 'a' && c <= 'h';
}

static bool is_rank(char c) {
    return c >= '1' && c <= '8';
}

// Reads "[a-h]?[1-8]?" as the whole of s (length n) into the pattern.
static bool parse_disambiguation(const char *s, int n, Pattern *p) {
    int i = 0;
    p->from_file = p->from_rank = -1;
    if (i < n && is_file(s[i]))
        p->from_file = s[i++] - 'a';
    if (i < n && is_rank(s[i]))
        p->from_rank = s[i++] - '1';
    return i == n;
}

// Space, or \t \n \v \f \r (9 to 13).
static bool is_blank(char c) {
    return c == ' ' || (unsigned char)(c - '\t') <= '\r' - '\t';
}

// The length of s[0..n) without trailing check marks, annotation glyphs,
// "e.p." and blanks.
static size_t strip_suffixes(const char *s, size_t n) {
    for (;;) {
        size_t before = n;
        while (n > 0 && (s[n - 1] == '+' || s[n - 1] == '#' || s[n - 1] == '!' || s[n - 1] == '?' ||
                         is_blank(s[n - 1])))
            n--;
        static const char *const ep_marks[] = { "e.p.", "e.p", "ep" };
        bool ep_end = n > 2 && (s[n - 1] == 'p' || s[n - 1] == '.');
        for (size_t k = 0; ep_end && k < sizeof ep_marks / sizeof ep_marks[0]; k++) {
            size_t len = strlen(ep_marks[k]);
            if (n <= len || strncmp(s + n - len, ep_marks[k], len) != 0)
                continue;
            // Only after a square ("exd6ep", "exd6 e.p."), so nothing else
            // loses its tail.
            size_t j = n - len;
            while (j > 0 && is_blank(s[j - 1]))
                j--;
            if (j > 0 && is_rank(s[j - 1])) {
                n = j;
                break;
            }
        }
        if (n == before)
            return n;
    }
}

// s[0..n) as "O-O", "0-0-0", "o-o", "OO": returns 1 for kingside, 2 for queenside, 0 otherwise.
static int castling_kind(const char *s, size_t n) {
    int os = 0;
    bool dash_ok = false;
    for (const char *end = s + n; s < end; s++) {
        if (*s == 'O' || *s == 'o' || *s == '0') {
            os++;
            dash_ok = true;
        } else if (*s == '-' && dash_ok) {
            dash_ok = false;
        } else {
            return 0;
        }
    }
    if (!dash_ok)
        return 0; // a trailing dash
    return os == 2 ? 1 : os == 3 ? 2 : 0;
}

// Ambiguity message listing every candidate in SAN.
static NotationStatus report_ambiguous(const Board *b, const MoveList *legal, const MoveList *cands,
                                       const char *text, char *err, size_t errsz) {
    size_t len = 0;
    if (err && errsz)
        err[0] = '\0';
    append(err, errsz, &len, "ambiguous move '%s': ", text);
    for (int i = 0; i < cands->count; i++) {
        char san[MOVE_TEXT_MAX];
        san_with_list(b, legal, cands->moves[i], san);
        append(err, errsz, &len, "%s%s", i ? ", " : "", san);
    }
    return NOTATION_AMBIGUOUS;
}

// The export-format shapes ("e4", "exd5", "Nf3", "Nbd7", "R1e2", "Qh4xe1",
// "e8=Q+") read in one pass into a pattern: the text the PGN reader sees for
// almost every move. False for anything else, which the lenient reading of
// notation_parse_move then takes.
static bool parse_standard(const char *s, size_t n, Pattern *p) {
    while (n > 0 && (s[n - 1] == '+' || s[n - 1] == '#'))
        n--;
    p->promo = NO_PIECE_TYPE;
    p->from_file = p->from_rank = -1;
    if (n >= 4 && s[n - 2] == '=') {
        p->promo = piece_from_letter(s[n - 1]);
        if (p->promo < KNIGHT || p->promo > QUEEN || s[n - 1] > 'Z')
            return false;
        n -= 2;
    }
    if (n < 2 || !is_file(s[n - 2]) || !is_rank(s[n - 1]))
        return false;
    p->to = make_square(s[n - 2] - 'a', s[n - 1] - '1');
    n -= 2;
    if (n > 0 && s[n - 1] == 'x')
        n--;
    size_t i = 0;
    p->piece = PAWN;
    if (n > 0 && s[0] >= 'A' && s[0] <= 'Z') {
        p->piece = piece_from_letter(s[0]);
        if (p->piece <= PAWN || p->promo != NO_PIECE_TYPE)
            return false;
        i = 1;
    }
    if (i < n && is_file(s[i]))
        p->from_file = s[i++] - 'a';
    if (i < n && is_rank(s[i]))
        p->from_rank = s[i++] - '1';
    // A pawn is named by its file only; "e2e4" is for the lenient reading.
    return i == n && (p->piece != PAWN || p->from_rank < 0);
}

// text[0..n) as a string in buf (at least INPUT_MAX bytes, n < INPUT_MAX).
static const char *shown_text(char *buf, const char *text, size_t n) {
    memcpy(buf, text, n);
    buf[n] = '\0';
    return buf;
}

// The lenient reading of the trimmed text[0..tlen), with the explanations;
// kept out of line so that the common case sets up none of its lists.
static __attribute__((noinline)) NotationStatus
parse_lenient(const Board *b, const char *text, size_t tlen, Move *out, char *err, size_t errsz) {
    if (tlen == 0)
        return fail(NOTATION_UNPARSEABLE, err, errsz, "no move given");
    if (tlen >= INPUT_MAX)
        return fail(NOTATION_UNPARSEABLE, err, errsz, "'%.24s...' is not a move", text);
    MoveList cands;
    Pattern pat;
    // The text as typed (trimmed) for messages, copied only when one is needed.
    char shown[INPUT_MAX];
    const char *s = text;
    size_t slen = strip_suffixes(s, tlen);

    int castle = castling_kind(s, slen);
    if (castle) {
        Square king = board_king(b, b->side);
        Move m =
            move_make_kind(king, castle_king_to(castle_index(b->side, castle == 1)), MOVE_CASTLING);
        if (movegen_is_legal(b, m)) {
            *out = m;
            return NOTATION_OK;
        }
        return explain_castling(b, castle == 1, shown_text(shown, text, tlen), err, errsz);
    }

    // From the end: promotion piece, destination, capture mark or dash, then
    // whatever names the moving piece.
    pat = (Pattern){ .promo = NO_PIECE_TYPE };
    int n = (int)slen;
    if (n >= 4 && s[n - 1] == ')' && s[n - 3] == '(') {
        pat.promo = piece_from_letter(s[n - 2]);
        n -= 3;
    } else if (n >= 3 && piece_from_letter(s[n - 1]) >= 0 &&
               (is_rank(s[n - 2]) || s[n - 2] == '=' || s[n - 2] == '/')) {
        pat.promo = piece_from_letter(s[n - 1]);
        n -= s[n - 2] == '=' || s[n - 2] == '/' ? 2 : 1;
    }
    if (pat.promo == PAWN || pat.promo == KING || pat.promo < 0 || n < 2 || !is_file(s[n - 2]) ||
        !is_rank(s[n - 1]))
        return fail(NOTATION_UNPARSEABLE, err, errsz, "'%s' is not a move",
                    shown_text(shown, text, tlen));
    pat.to = make_square(s[n - 2] - 'a', s[n - 1] - '1');
    n -= 2;
    if (n > 0 && (s[n - 1] == 'x' || s[n - 1] == ':' || s[n - 1] == '-'))
        n--;

    // Two readings of the prefix: squares only (pawn or coordinates), or a
    // piece letter and squares. Only a lower-case 'b' allows both, and then
    // the pawn reading wins when it names a legal move (bxc3).
    Pattern plain = pat, lettered = pat;
    bool plain_ok = parse_disambiguation(s, n, &plain);
    if (plain_ok) {
        bool full = plain.from_file >= 0 && plain.from_rank >= 0;
        plain.piece = full ? -1 : PAWN;
        plain_ok = full || plain.from_rank < 0; // "1e4" names no piece
        int right = full && pat.promo == NO_PIECE_TYPE
                        ? king_takes_rook(b, make_square(plain.from_file, plain.from_rank), pat.to)
                        : -1;
        if (right >= 0) {
            Move m = move_make_kind(board_king(b, b->side), castle_king_to(right), MOVE_CASTLING);
            if (movegen_is_legal(b, m)) {
                *out = m;
                return NOTATION_OK;
            }
            return explain_castling(b, !(right & 1), shown_text(shown, text, tlen), err, errsz);
        }
    }
    bool lettered_ok =
        n > 0 && piece_from_letter(s[0]) >= 0 && parse_disambiguation(s + 1, n - 1, &lettered);
    if (lettered_ok)
        lettered.piece = piece_from_letter(s[0]);
    if (!plain_ok && !lettered_ok)
        return fail(NOTATION_UNPARSEABLE, err, errsz, "'%s' is not a move",
                    shown_text(shown, text, tlen));

    const Pattern *used = plain_ok ? &plain : &lettered;
    int found = cands.count = collect(b, used, cands.moves, MAX_MOVES);
    if (found == 0 && plain_ok && lettered_ok) {
        used = &lettered;
        found = cands.count = collect(b, used, cands.moves, MAX_MOVES);
        // For the message, prefer the reading under which a piece gets there.
        if (found == 0) {
            Bitboard pawns = board_pieces(b, b->side, PAWN) & bb_file(plain.from_file);
            while (pawns) {
                if (pseudo_reaches(b, PAWN, bb_pop(&pawns), plain.to)) {
                    used = &plain;
                    break;
                }
            }
        }
    }
    if (found == 1) {
        *out = cands.moves[0];
        return NOTATION_OK;
    }
    // Only the messages need the full list.
    MoveList legal;
    movegen_legal(b, &legal);
    if (found > 1)
        return report_ambiguous(b, &legal, &cands, shown_text(shown, text, tlen), err, errsz);
    return explain_illegal(b, &legal, used, shown_text(shown, text, tlen), err, errsz);
}

NotationStatus notation_parse_move_n(const Board *b, const char *text, size_t tlen, Move *out,
                                     char *err, size_t errsz) {
    while (tlen > 0 && is_blank(*text)) {
        text++;
        tlen--;
    }
    while (tlen > 0 && is_blank(text[tlen - 1]))
        tlen--;
    // Export-format SAN naming exactly one legal move: most of what is read.
    Pattern pat;
    Move found[2];
    if (tlen < INPUT_MAX && parse_standard(text, tlen, &pat) && collect(b, &pat, found, 2) == 1) {
        *out = found[0];
        return NOTATION_OK;
    }
    return parse_lenient(b, text, tlen, out, err, errsz);
}

NotationStatus notation_parse_move(const Board *b, const char *text, Move *out, char *err,
                                   size_t errsz) {
    if (!text)
        return fail(NOTATION_UNPARSEABLE, err, errsz, "no move given");
    return notation_parse_move_n(b, text, strlen(text), out, err, errsz);
}

NotationStatus notation_parse_uci(const Board *b, const char *text, Move *out) {
    if (!text)
        return NOTATION_UNPARSEABLE;
    size_t n = strlen(text);
    if ((n != 4 && n != 5) || !is_file(text[0]) || !is_rank(text[1]) || !is_file(text[2]) ||
        !is_rank(text[3]))
        return NOTATION_UNPARSEABLE;
    int promo = NO_PIECE_TYPE;
    if (n == 5) {
        promo = piece_from_letter(text[4]);
        if (promo < KNIGHT || promo > QUEEN)
            return NOTATION_UNPARSEABLE;
    }
    Square from = make_square(text[0] - 'a', text[1] - '1');
    Square to = make_square(text[2] - 'a', text[3] - '1');
    MoveList legal;
    movegen_legal(b, &legal);
    for (int i = 0; i < legal.count; i++) {
        Move m = legal.moves[i];
        if (move_from(m) != from || move_to(m) != to)
            continue;
        bool promotes = move_is_promotion(m);
        if (promotes ? move_promotion(m) == (PieceType)promo : promo == NO_PIECE_TYPE) {
            *out = m;
            return NOTATION_OK;
        }
    }
    int right = promo == NO_PIECE_TYPE ? king_takes_rook(b, from, to) : -1;
    if (right >= 0) {
        Move m = move_make_kind(from, castle_king_to(right), MOVE_CASTLING);
        if (movelist_contains(&legal, m)) {
            *out = m;
            return NOTATION_OK;
        }
    }
    return NOTATION_ILLEGAL;
}
