// SPDX-License-Identifier: GPL-3.0-or-later
// Tests for engine/notation.c: SAN and coordinate round trips over the perft
// suite, exact SAN output, lenient input, and the three kinds of error.
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "engine/movegen.h"
#include "engine/notation.h"
#include "tests/helpers.h"

// The position each test works on.
static Board board;

static void setup(void) {
    board_init_tables();
}

TestSuite(notation, .init = setup);

static Board *load(const char *fen) {
    test_board_from_fen(&board, fen);
    return &board;
}

// Parses text in b, requires success, and returns the move.
static Move parse_ok(const Board *b, const char *text) {
    char err[160] = "";
    Move m = MOVE_NONE;
    NotationStatus st = notation_parse_move(b, text, &m, err, sizeof err);
    cr_assert_eq(st, NOTATION_OK, "'%s' rejected (%d): %s", text, (int)st, err);
    cr_assert(movegen_is_legal(b, m));
    return m;
}

// Parses text, which must fail with st; returns the message.
static const char *parse_fails(const Board *b, const char *text, NotationStatus st) {
    static char err[160];
    Move m = MOVE_NONE;
    strcpy(err, "(untouched)");
    NotationStatus got = notation_parse_move(b, text, &m, err, sizeof err);
    cr_assert_eq(got, st, "'%s': expected status %d, got %d (%s)", text, (int)st, (int)got, err);
    return err;
}

static Move coord(const char *uci) {
    Square from = square_from_name(uci), to = square_from_name(uci + 2);
    cr_assert(from != SQ_NONE && to != SQ_NONE);
    return move_make(from, to);
}

static void expect_san(const Board *b, const char *uci, const char *san) {
    char buf[MOVE_TEXT_MAX];
    notation_to_san(b, test_uci_move(b, uci), buf);
    cr_assert_str_eq(buf, san, "%s written as %s, expected %s", uci, buf, san);
}

// ---------------------------------------------------------------------------
// Round trips

typedef struct Tally {
    long moves, checks, mates, promotions, castles, captures;
} Tally;

// Every legal move of b: SAN and coordinates printed and parsed back, SANs
// distinct within the position, suffix consistent with the position reached.
static void round_trip_position(Board *b, Tally *t) {
    MoveList list;
    movegen_legal(b, &list);
    char sans[MAX_MOVES][MOVE_TEXT_MAX];
    Key key = b->key;
    for (int i = 0; i < list.count; i++) {
        Move m = list.moves[i], back = MOVE_NONE;
        char *san = sans[i], uci[MOVE_TEXT_MAX], err[160] = "";
        notation_to_san(b, m, san);
        cr_assert(strlen(san) >= 2 && strlen(san) < MOVE_TEXT_MAX);
        NotationStatus st = notation_parse_move(b, san, &back, err, sizeof err);
        cr_assert_eq(st, NOTATION_OK, "SAN '%s' not parsed back: %s", san, err);
        cr_assert_eq(back, m, "SAN '%s' parsed as a different move", san);
        for (int j = 0; j < i; j++)
            cr_assert_str_neq(sans[j], san, "two moves written as %s", san);

        notation_to_uci(m, uci);
        back = MOVE_NONE;
        cr_assert_eq(notation_parse_uci(b, uci, &back), NOTATION_OK, "uci %s", uci);
        cr_assert_eq(back, m);
        back = MOVE_NONE;
        cr_assert_eq(notation_parse_move(b, uci, &back, err, sizeof err), NOTATION_OK, "%s", err);
        cr_assert_eq(back, m, "coordinates %s parsed as a different move", uci);

        // Over-specified ("Ng1f3", "Qd1xd8") and capture-mark-free ("Nd5"
        // for "Nxd5") forms name the same move, and the text need not end
        // where the move does.
        Piece pc = board_piece_on(b, move_from(m));
        if (piece_type(pc) != PAWN && move_kind(m) != MOVE_CASTLING) {
            char full[16], from[3], to[3];
            square_name(move_from(m), from);
            square_name(move_to(m), to);
            snprintf(full, sizeof full, "%c%s%s%s", "PNBRQK"[piece_type(pc)], from,
                     board_is_capture(b, m) ? "x" : "", to);
            cr_assert_eq(notation_parse_move(b, full, &back, err, sizeof err), NOTATION_OK,
                         "'%s': %s", full, err);
            cr_assert_eq(back, m, "'%s' parsed as a different move", full);
            char bare[MOVE_TEXT_MAX + 8];
            size_t k = 0;
            for (const char *c = san; *c; c++)
                if (*c != 'x')
                    bare[k++] = *c;
            memcpy(bare + k, " and more", 10);
            cr_assert_eq(notation_parse_move_n(b, bare, k, &back, err, sizeof err), NOTATION_OK,
                         "'%.*s': %s", (int)k, bare, err);
            cr_assert_eq(back, m, "'%.*s' parsed as a different move", (int)k, bare);
        }

        char last = san[strlen(san) - 1];
        Undo u;
        board_make_move(b, m, &u);
        cr_assert_eq(last == '#', movegen_is_checkmate(b), "%s", san);
        cr_assert_eq(last == '+', board_in_check(b) && !movegen_is_checkmate(b), "%s", san);
        board_unmake_move(b, &u);
        cr_assert_eq(b->key, key);

        t->moves++;
        t->checks += last == '+';
        t->mates += last == '#';
        t->promotions += strchr(san, '=') != NULL;
        t->castles += san[0] == 'O';
        t->captures += strchr(san, 'x') != NULL;
    }
}

Test(notation, round_trip_perft_suite) {
    char path[1024];
    test_data_path("perftsuite.epd", path, sizeof path);
    FILE *f = fopen(path, "r");
    cr_assert_not_null(f, "cannot open %s", path);
    char line[512];
    int positions = 0;
    Tally t = { 0 };
    while (fgets(line, sizeof line, f)) {
        char *cut = strstr(line, " ;");
        if (!cut)
            continue;
        *cut = '\0';
        Board *b = load(line);
        positions++;
        round_trip_position(b, &t);
        // One ply deeper for variety: promotions with check, mates, pins.
        MoveList list;
        movegen_legal(b, &list);
        for (int i = 0; i < list.count; i++) {
            Undo u;
            board_make_move(b, list.moves[i], &u);
            round_trip_position(b, &t);
            board_unmake_move(b, &u);
        }
    }
    fclose(f);
    cr_assert_geq(positions, 100, "only %d positions read", positions);
    cr_assert_gt(t.moves, 20000, "only %ld moves", t.moves);
    cr_assert_gt(t.checks, 0);
    cr_assert_gt(t.mates, 0);
    cr_assert_gt(t.promotions, 0);
    cr_assert_gt(t.castles, 0);
    cr_assert_gt(t.captures, 0);
}

Test(notation, text_functions_leave_the_board_untouched) {
    // SAN output and parsing take a const Board; check the bytes anyway, in a
    // position with checks, mates and every move kind nearby.
    Board *b = load("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    Board before = *b;
    MoveList list;
    movegen_legal(b, &list);
    for (int i = 0; i < list.count; i++) {
        char san[MOVE_TEXT_MAX], err[160];
        Move back = MOVE_NONE;
        notation_to_san(b, list.moves[i], san);
        cr_assert_eq(notation_parse_move(b, san, &back, err, sizeof err), NOTATION_OK);
        cr_assert_eq(back, list.moves[i]);
    }
    cr_assert(memcmp(&before, b, sizeof before) == 0);
}

// ---------------------------------------------------------------------------
// SAN output

Test(notation, san_disambiguation) {
    Board *b = load("1n2k3/8/5n2/8/8/8/8/4K3 b - - 0 1");
    expect_san(b, "b8d7", "Nbd7");
    expect_san(b, "f6d7", "Nfd7");
    expect_san(b, "f6d5", "Nd5");

    b = load("4k3/8/8/R7/8/8/8/R3K3 w - - 0 1");
    expect_san(b, "a1a3", "R1a3");
    expect_san(b, "a5a3", "R5a3");
    expect_san(b, "a5b5", "Rb5");

    b = load("2k5/8/8/8/4Q2Q/K7/8/7Q w - - 0 1");
    expect_san(b, "h4e1", "Qh4e1");
    expect_san(b, "e4e1", "Qee1");
    expect_san(b, "h1e1", "Q1e1");
}

Test(notation, san_no_disambiguation_when_other_is_pinned) {
    Board *b = load("4k3/8/8/b7/8/2N5/8/4K1N1 w - - 0 1");
    expect_san(b, "g1e2", "Ne2");
    cr_assert_eq(parse_ok(b, "Ne2"), coord("g1e2"));
}

Test(notation, san_pawns) {
    Board *b = load("rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
    expect_san(b, "e4d5", "exd5");
    expect_san(b, "e4e5", "e5");
    expect_san(b, "a2a4", "a4");

    b = load("rnbqkbnr/ppp2ppp/4p3/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3");
    cr_assert_eq(b->ep, square_from_name("d6"));
    expect_san(b, "e5d6", "exd6");
    cr_assert_eq(move_kind(test_uci_move(b, "e5d6")), MOVE_EN_PASSANT);
}

Test(notation, san_promotions) {
    Board *b = load("k7/4P3/8/8/8/8/8/4K3 w - - 0 1");
    expect_san(b, "e7e8q", "e8=Q+");
    expect_san(b, "e7e8r", "e8=R+");
    expect_san(b, "e7e8b", "e8=B");
    expect_san(b, "e7e8n", "e8=N");

    b = load("3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1");
    expect_san(b, "e7d8n", "exd8=N");
    expect_san(b, "e7d8q", "exd8=Q+");
    expect_san(b, "e7e8q", "e8=Q+");
}

Test(notation, san_castling) {
    Board *b = load("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    expect_san(b, "e1g1", "O-O");
    expect_san(b, "e1c1", "O-O-O");
    b = load("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1");
    expect_san(b, "e8g8", "O-O");
    expect_san(b, "e8c8", "O-O-O");
    b = load("5k2/8/8/8/8/8/8/4K2R w K - 0 1");
    expect_san(b, "e1g1", "O-O+");
}

Test(notation, san_check_mate_stalemate) {
    Board *b = load("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1");
    expect_san(b, "a1a8", "Ra8+");
    expect_san(b, "a1a7", "Ra7");

    b = load(BOARD_START_FEN);
    board_play(b, parse_ok(b, "f3"));
    board_play(b, parse_ok(b, "e5"));
    board_play(b, parse_ok(b, "g4"));
    expect_san(b, "d8h4", "Qh4#");

    b = load("7k/5K2/8/6Q1/8/8/8/8 w - - 0 1");
    expect_san(b, "g5g6", "Qg6");
    board_play(b, test_uci_move(b, "g5g6"));
    cr_assert(movegen_is_stalemate(b));
}

Test(notation, uci_output) {
    char buf[MOVE_TEXT_MAX];
    notation_to_uci(MOVE_NONE, buf);
    cr_assert_str_eq(buf, "0000");
    notation_to_uci(MOVE_NULL, buf);
    cr_assert_str_eq(buf, "0000");
    notation_to_uci(coord("e2e4"), buf);
    cr_assert_str_eq(buf, "e2e4");
    notation_to_uci(move_make_promotion(square_from_name("e7"), square_from_name("e8"), QUEEN),
                    buf);
    cr_assert_str_eq(buf, "e7e8q");
    notation_to_uci(move_make_promotion(square_from_name("b2"), square_from_name("a1"), KNIGHT),
                    buf);
    cr_assert_str_eq(buf, "b2a1n");
    notation_to_uci(move_make_kind(SQ_E1, SQ_G1, MOVE_CASTLING), buf);
    cr_assert_str_eq(buf, "e1g1");
}

// ---------------------------------------------------------------------------
// Lenient input

Test(notation, lenient_marks_and_case) {
    Board *b = load(BOARD_START_FEN);
    Move nf3 = coord("g1f3"), e4 = coord("e2e4");
    const char *as_nf3[] = { "Nf3",   "nf3",    "Nf3+!?", "Nf3#",  "Nf3!",
                             "Nf3??", "Nf3 !?", "Nxf3",   "Ng1f3", "Ng1-f3",
                             "g1f3",  "  Nf3 ", "Ngf3",   "N1f3",  "Ng1xf3" };
    for (size_t i = 0; i < sizeof as_nf3 / sizeof as_nf3[0]; i++)
        cr_assert_eq(parse_ok(b, as_nf3[i]), nf3, "'%s'", as_nf3[i]);
    const char *as_e4[] = { "e4", "e2e4", "e2-e4", "\te4\n", "e4!!", "e4?!", "Pe4", "e4+" };
    for (size_t i = 0; i < sizeof as_e4 / sizeof as_e4[0]; i++)
        cr_assert_eq(parse_ok(b, as_e4[i]), e4, "'%s'", as_e4[i]);
}

Test(notation, lenient_castling) {
    Board *b = load("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    Move short_castle = test_uci_move(b, "e1g1"), long_castle = test_uci_move(b, "e1c1");
    cr_assert_eq(move_kind(short_castle), MOVE_CASTLING);
    const char *shorts[] = { "O-O", "0-0", "o-o", "O-O+", "0-0!", "e1g1", "Ke1g1" };
    for (size_t i = 0; i < sizeof shorts / sizeof shorts[0]; i++)
        cr_assert_eq(parse_ok(b, shorts[i]), short_castle, "'%s'", shorts[i]);
    const char *longs[] = { "O-O-O", "0-0-0", "o-o-o", "O-O-O#", "e1c1" };
    for (size_t i = 0; i < sizeof longs / sizeof longs[0]; i++)
        cr_assert_eq(parse_ok(b, longs[i]), long_castle, "'%s'", longs[i]);
    // "Kg1" is not how castling is written.
    parse_fails(b, "Kg1", NOTATION_ILLEGAL);
}

Test(notation, lenient_promotion) {
    Board *b = load("4k3/P7/8/8/8/8/8/4K3 w - - 0 1");
    Move queen = test_uci_move(b, "a7a8q"), knight = test_uci_move(b, "a7a8n");
    const char *as_queen[] = { "a8=Q", "a8Q", "a8q", "a8=q", "a8(Q)", "a7a8q", "a7a8Q", "a8=Q+" };
    for (size_t i = 0; i < sizeof as_queen / sizeof as_queen[0]; i++)
        cr_assert_eq(parse_ok(b, as_queen[i]), queen, "'%s'", as_queen[i]);
    cr_assert_eq(parse_ok(b, "a8=N"), knight);
    cr_assert_eq(parse_ok(b, "a8n"), knight);
    // No piece named: the four promotions are the candidates.
    const char *msg = parse_fails(b, "a8", NOTATION_AMBIGUOUS);
    cr_assert(strstr(msg, "a8=Q") && strstr(msg, "a8=N"), "%s", msg);
    parse_fails(b, "a8=K", NOTATION_UNPARSEABLE);
    b = load(BOARD_START_FEN);
    msg = parse_fails(b, "e4=Q", NOTATION_ILLEGAL);
    cr_assert(strstr(msg, "promotion"), "%s", msg);
}

Test(notation, lenient_en_passant_and_capture_marks) {
    Board *b = load("rnbqkbnr/ppp2ppp/4p3/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3");
    Move ep = test_uci_move(b, "e5d6");
    const char *forms[] = { "exd6", "exd6 e.p.", "exd6e.p.", "exd6ep", "exd6 ep",
                            "ed6",  "e5d6",      "e5xd6",    "exd6+" };
    for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++)
        cr_assert_eq(parse_ok(b, forms[i]), ep, "'%s'", forms[i]);

    b = load("rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
    cr_assert_eq(parse_ok(b, "ed5"), coord("e4d5"));
    cr_assert_eq(parse_ok(b, "exd5"), coord("e4d5"));
    cr_assert_eq(parse_ok(b, "e:d5"), coord("e4d5"));
}

Test(notation, lenient_lower_case_b) {
    // A b-pawn can take on c3: lower-case b is the pawn, upper-case the bishop.
    Board *b = load("4k3/8/8/8/8/2n5/1P6/4B1K1 w - - 0 1");
    cr_assert_eq(parse_ok(b, "bxc3"), coord("b2c3"));
    cr_assert_eq(parse_ok(b, "bc3"), coord("b2c3"));
    cr_assert_eq(parse_ok(b, "Bxc3"), coord("e1c3"));
    cr_assert_eq(parse_ok(b, "Bc3"), coord("e1c3"));
    // No pawn capture available: lower-case b falls back to the bishop.
    b = load("4k3/8/8/8/8/2n5/8/4B1K1 w - - 0 1");
    cr_assert_eq(parse_ok(b, "bxc3"), coord("e1c3"));
    cr_assert_eq(parse_ok(b, "bc3"), coord("e1c3"));
    b = load("4k3/8/8/8/8/8/1P6/4B1K1 w - - 0 1");
    cr_assert_eq(parse_ok(b, "bc3"), coord("e1c3"));
    cr_assert_eq(parse_ok(b, "b3"), coord("b2b3"));
}

Test(notation, lenient_mate_and_from_square) {
    Board *b = load("r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4");
    Move mate = coord("h5f7");
    cr_assert_eq(parse_ok(b, "Qxf7#"), mate);
    cr_assert_eq(parse_ok(b, "Qxf7"), mate);
    cr_assert_eq(parse_ok(b, "qxf7+"), mate);
    expect_san(b, "h5f7", "Qxf7#");

    b = load("1n2k3/8/5n2/8/8/8/8/4K3 b - - 0 1");
    cr_assert_eq(parse_ok(b, "Nbd7"), coord("b8d7"));
    cr_assert_eq(parse_ok(b, "Nb8d7"), coord("b8d7"));
    cr_assert_eq(parse_ok(b, "N8d7"), coord("b8d7"));
    cr_assert_eq(parse_ok(b, "nfd7"), coord("f6d7"));
}

// ---------------------------------------------------------------------------
// Errors

Test(notation, unparseable) {
    Board *b = load(BOARD_START_FEN);
    const char *bad[] = { "hello",   "z9",  "",    "   ", "Nf", "e9",  "Ke",
                          "O-O-O-O", "Xe4", "e4e", "1e4", "O-", "Nf3x" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        parse_fails(b, bad[i], NOTATION_UNPARSEABLE);
    const char *msg = parse_fails(b, "hello", NOTATION_UNPARSEABLE);
    cr_assert_str_eq(msg, "'hello' is not a move");
    msg = parse_fails(b, "z9", NOTATION_UNPARSEABLE);
    cr_assert(strstr(msg, "'z9'"), "%s", msg);
    // A long text is cut short in the message, not copied whole.
    char longtext[300];
    memset(longtext, 'x', sizeof longtext - 1);
    longtext[sizeof longtext - 1] = '\0';
    msg = parse_fails(b, longtext, NOTATION_UNPARSEABLE);
    cr_assert_lt(strlen(msg), 80);
}

Test(notation, error_buffer_null_or_small) {
    Board *b = load(BOARD_START_FEN);
    Move m = MOVE_NONE;
    cr_assert_eq(notation_parse_move(b, "hello", &m, NULL, 0), NOTATION_UNPARSEABLE);
    cr_assert_eq(notation_parse_move(b, "Ke3", &m, NULL, 0), NOTATION_ILLEGAL);
    cr_assert_eq(m, MOVE_NONE);
    char small[8];
    memset(small, '#', sizeof small);
    cr_assert_eq(notation_parse_move(b, "Ke3", &m, small, sizeof small), NOTATION_ILLEGAL);
    cr_assert_eq(strlen(small), sizeof small - 1);
    b = load("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1");
    memset(small, '#', sizeof small);
    cr_assert_eq(notation_parse_move(b, "Nd2", &m, small, sizeof small), NOTATION_AMBIGUOUS);
    cr_assert_eq(strlen(small), sizeof small - 1);
    cr_assert_eq(notation_parse_move(b, "Nd2", &m, small, 1), NOTATION_AMBIGUOUS);
    cr_assert_eq(small[0], '\0');
    cr_assert_eq(notation_parse_move(b, NULL, &m, small, sizeof small), NOTATION_UNPARSEABLE);
}

Test(notation, illegal) {
    Board *b = load(BOARD_START_FEN);
    const char *msg = parse_fails(b, "Ke3", NOTATION_ILLEGAL);
    cr_assert_str_eq(msg, "illegal move 'Ke3': no king can reach e3");
    msg = parse_fails(b, "e5", NOTATION_ILLEGAL);
    cr_assert_str_eq(msg, "illegal move 'e5': no pawn can reach e5");
    msg = parse_fails(b, "Nf5", NOTATION_ILLEGAL);
    cr_assert_str_eq(msg, "illegal move 'Nf5': no knight can reach f5");
    msg = parse_fails(b, "e3e4", NOTATION_ILLEGAL);
    cr_assert(strstr(msg, "no white piece on e3"), "%s", msg);
    msg = parse_fails(b, "O-O", NOTATION_ILLEGAL);
    cr_assert(strstr(msg, "not empty"), "%s", msg);
    parse_fails(b, "e7e5", NOTATION_ILLEGAL);
    parse_fails(b, "Bb5", NOTATION_ILLEGAL);

    // Through an attacked square, both as SAN and as coordinates.
    b = load("4kr2/8/8/8/8/8/8/4K2R w K - 0 1");
    msg = parse_fails(b, "O-O", NOTATION_ILLEGAL);
    cr_assert(strstr(msg, "attacked"), "%s", msg);
    msg = parse_fails(b, "e1g1", NOTATION_ILLEGAL);
    cr_assert(strstr(msg, "attacked"), "%s", msg);
    msg = parse_fails(b, "O-O-O", NOTATION_ILLEGAL);
    cr_assert(strstr(msg, "may not castle queenside"), "%s", msg);
    msg = parse_fails(b, "Kf1", NOTATION_ILLEGAL);
    cr_assert(strstr(msg, "king would be in check"), "%s", msg);

    // Castling written as a king's move: said how it is written.
    b = load(BOARD_START_FEN);
    msg = parse_fails(b, "Kg1", NOTATION_ILLEGAL);
    cr_assert_str_eq(msg, "illegal move 'Kg1': no king can reach g1 (castling is written O-O)");
    b = load("1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1"); // Chess960
    msg = parse_fails(b, "Kc1", NOTATION_ILLEGAL);
    cr_assert_str_eq(msg,
                     "illegal move 'Kc1': no king can reach c1 (castling is written O-O-O)");
    msg = parse_fails(b, "Kxg1", NOTATION_ILLEGAL);
    cr_assert(strstr(msg, "(castling is written O-O)"), "%s", msg);
    msg = parse_fails(b, "Kxb1", NOTATION_ILLEGAL);
    cr_assert(strstr(msg, "(castling is written O-O-O)"), "%s", msg);
    b = load("4k3/8/8/8/8/8/8/4K3 w - - 0 1"); // no right: nothing to say of castling
    msg = parse_fails(b, "Kc1", NOTATION_ILLEGAL);
    cr_assert_str_eq(msg, "illegal move 'Kc1': no king can reach c1");

    // In check: castling is out, and so is a move that does not answer it.
    b = load("4k3/8/8/8/8/8/4r3/R3K2R w KQ - 0 1");
    msg = parse_fails(b, "O-O", NOTATION_ILLEGAL);
    cr_assert(strstr(msg, "out of check"), "%s", msg);
    msg = parse_fails(b, "Ra5", NOTATION_ILLEGAL);
    cr_assert(strstr(msg, "leave the king in check"), "%s", msg);

    // A pinned knight.
    b = load("4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1");
    msg = parse_fails(b, "Nf4", NOTATION_ILLEGAL);
    cr_assert_str_eq(msg, "illegal move 'Nf4': it would leave the king in check");
}

Test(notation, ambiguous) {
    Board *b = load("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1");
    const char *msg = parse_fails(b, "Nd2", NOTATION_AMBIGUOUS);
    cr_assert_str_eq(msg, "ambiguous move 'Nd2': Nbd2, Nfd2");
    cr_assert_eq(parse_ok(b, "Nbd2"), coord("b1d2"));
    cr_assert_eq(parse_ok(b, "Nfd2"), coord("f3d2"));

    b = load("1n2k3/8/5n2/8/8/8/8/4K3 b - - 0 1");
    msg = parse_fails(b, "Nd7+", NOTATION_AMBIGUOUS);
    cr_assert(strstr(msg, "Nbd7") && strstr(msg, "Nfd7"), "%s", msg);
    cr_assert(strstr(msg, "'Nd7+'"), "%s", msg);
}

Test(notation, parse_uci_strict) {
    Board *b = load(BOARD_START_FEN);
    Move m = MOVE_NONE;
    cr_assert_eq(notation_parse_uci(b, "e2e4", &m), NOTATION_OK);
    cr_assert_eq(m, coord("e2e4"));
    cr_assert_eq(notation_parse_uci(b, "g1f3", &m), NOTATION_OK);
    cr_assert_eq(m, coord("g1f3"));
    cr_assert_eq(notation_parse_uci(b, "e2e5", &m), NOTATION_ILLEGAL);
    cr_assert_eq(notation_parse_uci(b, "e2e4q", &m), NOTATION_ILLEGAL);
    const char *bad[] = { "Nf3", "e4", "e2e4 ", " e2e4", "e2-e4", "e2e4k", "0000", "", "e2e9" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        cr_assert_eq(notation_parse_uci(b, bad[i], &m), NOTATION_UNPARSEABLE, "'%s'", bad[i]);

    b = load("4k3/4P3/8/8/8/8/8/R3K2R w KQ - 0 1");
    cr_assert_eq(notation_parse_uci(b, "e7e8q", &m), NOTATION_ILLEGAL); // blocked by the king
    cr_assert_eq(notation_parse_uci(b, "e1g1", &m), NOTATION_OK);
    cr_assert_eq(move_kind(m), MOVE_CASTLING);
    // King takes rook, as UCI writes castling in Chess960 and xboard sends it.
    Move king_takes_rook = MOVE_NONE;
    cr_assert_eq(notation_parse_uci(b, "e1h1", &king_takes_rook), NOTATION_OK);
    cr_assert_eq(king_takes_rook, m);
    cr_assert_eq(notation_parse_uci(b, "e1a1", &m), NOTATION_OK);
    cr_assert_eq(m, move_make_kind(SQ_E1, SQ_C1, MOVE_CASTLING));
    b = load("4k3/4P3/8/8/8/8/8/R3K2R w Q - 0 1");
    cr_assert_eq(notation_parse_uci(b, "e1h1", &m), NOTATION_ILLEGAL); // no right
}

Test(notation, parse_uci_promotion) {
    Board *b = load("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1");
    Move m = MOVE_NONE;
    cr_assert_eq(notation_parse_uci(b, "b7b8q", &m), NOTATION_OK);
    cr_assert(move_is_promotion(m) && move_promotion(m) == QUEEN);
    cr_assert_eq(notation_parse_uci(b, "b7b8Q", &m), NOTATION_OK);
    cr_assert(move_is_promotion(m) && move_promotion(m) == QUEEN);
    cr_assert_eq(notation_parse_uci(b, "b7b8n", &m), NOTATION_OK);
    cr_assert(move_is_promotion(m) && move_promotion(m) == KNIGHT);
    cr_assert_eq(notation_parse_uci(b, "b7b8", &m), NOTATION_ILLEGAL);
}
