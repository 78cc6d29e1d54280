// SPDX-License-Identifier: GPL-3.0-or-later
// Chess960: the Scharnagl numbering, X-FEN and Shredder-FEN reading and
// writing, castling edge cases (counts checked against Stockfish 15.1 with
// UCI_Chess960), keys that include the castling rook files, move text, and
// perft over tests/data/fischer.epd (a sample here, all 960 positions at
// depth 4 with PATZER_PERFT_FULL=1, as make perft-full runs it).
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/book.h"
#include "engine/chess960.h"
#include "engine/fen.h"
#include "engine/movegen.h"
#include "engine/notation.h"
#include "engine/perft.h"
#include "tests/helpers.h"

static Board board;

static void setup(void) {
    board_init_tables();
}

static bool full_run(void) {
    const char *env = getenv("PATZER_PERFT_FULL");
    return env && strcmp(env, "1") == 0;
}

// ------------------------------------------------------------------ numbering

Test(chess960, scharnagl_numbers, .init = setup) {
    char rank[9];
    static const struct {
        int n;
        const char *rank;
    } known[] = {
        { 0, "BBQNNRKR" },
        { 1, "BQNBNRKR" },
        { 518, "RNBQKBNR" },
        { 959, "RKRNNQBB" },
    };
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
        chess960_back_rank(known[i].n, rank);
        cr_expect_str_eq(rank, known[i].rank, "#%d", known[i].n);
    }
    // Every number a different legal start: bishops on both colours, the king
    // between the rooks; and chess960_number finds each again.
    for (int n = 0; n < CHESS960_COUNT; n++) {
        chess960_back_rank(n, rank);
        const char *b1 = strchr(rank, 'B'), *b2 = strrchr(rank, 'B');
        const char *r1 = strchr(rank, 'R'), *r2 = strrchr(rank, 'R'), *k = strchr(rank, 'K');
        cr_assert((b1 - rank) % 2 != (b2 - rank) % 2, "#%d %s: bishops on one colour", n, rank);
        cr_assert(r1 < k && k < r2, "#%d %s: king not between the rooks", n, rank);
        chess960_setup(&board, n);
        cr_assert(board.chess960);
        cr_assert_eq(board.castling, CASTLE_ALL);
        cr_assert_eq(chess960_number(&board), n, "#%d %s", n, rank);
    }
    board_set_start(&board);
    cr_expect_eq(chess960_number(&board), CHESS960_CLASSICAL);
    cr_expect_not(board.chess960);
    board_play(&board, test_uci_move(&board, "e2e4"));
    cr_expect_eq(chess960_number(&board), -1);
}

// ------------------------------------------------------------------ FEN

static void round_trip(const char *in, const char *xfen, const char *shredder, bool is960) {
    char out[FEN_MAX];
    test_board_from_fen(&board, in);
    cr_expect_eq(board.chess960, is960, "%s: chess960 flag", in);
    board_to_fen(&board, out, sizeof out);
    cr_expect_str_eq(out, xfen, "X-FEN of %s", in);
    board_to_shredder_fen(&board, out, sizeof out);
    cr_expect_str_eq(out, shredder, "Shredder-FEN of %s", in);
    // Both read back to the same position and key.
    Board again;
    test_board_from_fen(&again, xfen);
    cr_expect_eq(again.key, board.key, "%s", xfen);
    cr_expect_eq(again.castling, board.castling);
    cr_expect(memcmp(again.castle_rook, board.castle_rook, sizeof again.castle_rook) == 0);
    test_board_from_fen(&again, shredder);
    cr_expect_eq(again.key, board.key, "%s", shredder);
}

Test(chess960, fen_round_trips, .init = setup) {
    // Standard chess keeps KQkq; its Shredder-FEN marks the game as Chess960.
    round_trip(BOARD_START_FEN, BOARD_START_FEN,
               "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1", false);
    round_trip("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1", BOARD_START_FEN,
               "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1", true);
    // The first position of the published suite: the outermost rooks, KQkq.
    round_trip("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
               "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9",
               "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", true);
    // Two rooks on one side of the king: the inner one is named by its file.
    round_trip("1r2k1rr/8/8/8/8/8/8/R3K1RR w AGbg - 0 1", "1r2k1rr/8/8/8/8/8/8/R3K1RR w GQgq - 0 1",
               "1r2k1rr/8/8/8/8/8/8/R3K1RR w GAgb - 0 1", true);
    round_trip("4k3/8/8/8/8/8/8/RR2K3 w B - 0 1", "4k3/8/8/8/8/8/8/RR2K3 w B - 0 1",
               "4k3/8/8/8/8/8/8/RR2K3 w B - 0 1", true);
    // A king off e1 makes KQkq a Chess960 position.
    round_trip("1r4kr/8/8/8/8/8/8/1R4KR w KQkq - 0 1", "1r4kr/8/8/8/8/8/8/1R4KR w KQkq - 0 1",
               "1r4kr/8/8/8/8/8/8/1R4KR w HBhb - 0 1", true);
    // Every start position round-trips in both forms.
    for (int n = 0; n < CHESS960_COUNT; n++) {
        char fen[FEN_MAX], out[FEN_MAX];
        chess960_fen(n, fen, sizeof fen);
        test_board_from_fen(&board, fen);
        board_to_fen(&board, out, sizeof out);
        cr_assert_str_eq(out, fen, "#%d", n);
        board_to_shredder_fen(&board, out, sizeof out);
        Board again;
        test_board_from_fen(&again, out);
        cr_assert_eq(again.key, board.key, "#%d %s", n, out);
    }
}

// ------------------------------------------------------------------ castling

// Counts from Stockfish 15.1 ("setoption name UCI_Chess960 value true", "go perft").
typedef struct Case {
    const char *name, *fen;
    const char *castle; // the castling moves in king-takes-rook form, "" when none is legal
    uint64_t counts[4];
} Case;

static const Case cases[] = {
    { "king and rook swap squares",
      "k7/8/8/8/8/8/8/5KR1 w G - 0 1",
      "f1g1",
      { 13, 36, 639, 3339 } },
    { "rook on the king's destination",
      "k7/8/8/8/8/8/8/1K4R1 w G - 0 1",
      "b1g1",
      { 18, 51, 927, 4906 } },
    { "king already on g1", "k7/8/8/8/8/8/8/6KR w H - 0 1", "g1h1", { 12, 33, 588, 3051 } },
    { "king already on c1", "7k/8/8/8/8/8/8/R1K5 w A - 0 1", "c1a1", { 14, 39, 693, 3627 } },
    { "two rooks on one side", "k7/8/8/8/8/8/8/4K1RR w G - 0 1", "e1g1", { 21, 57, 1518, 7681 } },
    { "both sides, both colours",
      "rk2r3/8/8/8/8/8/8/RK2R3 w AEae - 0 1",
      "b1a1",
      { 23, 442, 9899, 211156 } },
    { "both sides", "rk6/8/8/8/8/8/8/RK2R3 w AEa - 0 1", "b1e1 b1a1", { 24, 221, 4925, 71795 } },
    { "black to move",
      "1rk1r3/8/8/8/8/8/8/1RK1R3 b BEbe - 0 1",
      "c8b8",
      { 23, 442, 9697, 203452 } },
    { "out of check", "7k/8/8/8/8/8/8/R2K3r w A - 0 1", "", { 3, 48, 771, 11431 } },
    { "through an attacked square",
      "k7/8/8/8/8/8/3r4/1R2K2R w BH - 0 1",
      "e1h1",
      { 22, 280, 5932, 77393 } },
    { "onto an attacked square", "7k/8/8/8/8/1n6/8/RK6 w A - 0 1", "", { 10, 81, 1205, 10157 } },
    { "the rook attacked", "7k/8/8/8/8/8/2n5/RK6 w A - 0 1", "b1a1", { 12, 93, 1366, 11338 } },
    { "the rook shielded c1 from a rook",
      "k7/8/8/8/8/8/8/rR1K4 w B - 0 1",
      "",
      { 7, 53, 719, 8928 } },
    { "the rook shielded c1 from a queen",
      "7k/8/8/8/8/8/8/qRK5 w B - 0 1",
      "",
      { 4, 54, 702, 14656 } },
    { "an enemy queen behind the king's path",
      "k7/8/8/8/8/8/8/1KR4q w C - 0 1",
      "",
      { 9, 161, 1987, 43404 } },
    { "a rook between king and queen",
      "k7/8/8/8/8/8/8/1R2KR1q w F - 0 1",
      "",
      { 16, 216, 4074, 80107 } },
    { "rook on the king's path",
      "7k/8/8/8/8/8/8/RK3R2 w AF - 0 1",
      "b1f1 b1a1",
      { 25, 66, 1788, 7364 } },
    { "another piece on the way", "7k/8/8/8/8/8/8/RKN2R2 w AF - 0 1", "", { 25, 66, 1893, 7701 } },
};

Test(chess960, castling_cases, .init = setup) {
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const Case *c = &cases[i];
        test_board_from_fen(&board, c->fen);
        cr_expect(board.chess960, "%s", c->name);
        MoveList list;
        movegen_legal(&board, &list);
        int castles = 0;
        char seen[32] = "";
        for (int j = 0; j < list.count; j++) {
            Move m = list.moves[j];
            cr_expect(movegen_is_legal(&board, m), "%s: generated move not legal", c->name);
            if (move_kind(m) != MOVE_CASTLING)
                continue;
            castles++;
            char text[MOVE_TEXT_MAX];
            notation_to_uci_in(&board, m, text);
            snprintf(seen + strlen(seen), sizeof seen - strlen(seen), "%s%s",
                     castles > 1 ? " " : "", text);
            cr_expect_eq(test_find_move(&board, text), m, "%s: %s read back", c->name, text);
            // Made and unmade, the board is as it was.
            Board before = board;
            Undo u;
            board_make_move(&board, m, &u);
            char err[128] = "";
            cr_expect(board_check(&board, err, sizeof err), "%s: %s", c->name, err);
            cr_expect_eq(board.castling & (board.side == WHITE ? 12 : 3), 0,
                         "%s: the castled side keeps a right", c->name);
            board_unmake_move(&board, &u);
            cr_expect(memcmp(&board, &before, sizeof board) == 0, "%s: not undone", c->name);
        }
        cr_expect_str_eq(seen, c->castle, "%s: castling moves", c->name);
        for (int d = 1; d <= 4; d++)
            cr_expect_eq(perft(&board, d), c->counts[d - 1], "%s, depth %d", c->name, d);
    }
}

Test(chess960, castling_moves_the_right_pieces, .init = setup) {
    // The king and the rook swap squares.
    test_board_from_fen(&board, "k7/8/8/8/8/8/8/5KR1 w G - 0 1");
    board_play(&board, test_uci_move(&board, "f1g1"));
    cr_expect_eq(board_piece_on(&board, SQ_G1), W_KING);
    cr_expect_eq(board_piece_on(&board, SQ_F1), W_ROOK);
    cr_expect_eq(board.castling, 0);
    // The king stays on g1, the rook jumps to f1.
    test_board_from_fen(&board, "k7/8/8/8/8/8/8/6KR w H - 0 1");
    Move m = test_uci_move(&board, "g1h1");
    cr_expect_eq(move_from(m), SQ_G1);
    cr_expect_eq(move_to(m), SQ_G1);
    char san[MOVE_TEXT_MAX];
    notation_to_san(&board, m, san);
    cr_expect_str_eq(san, "O-O");
    board_play(&board, m);
    cr_expect_eq(board_piece_on(&board, SQ_G1), W_KING);
    cr_expect_eq(board_piece_on(&board, SQ_F1), W_ROOK);
    cr_expect_eq(board_piece_on(&board, SQ_H1), NO_PIECE);
    // O-O-O and the king's destination are read too; a step of the king to
    // a square it could also castle to is the step.
    test_board_from_fen(&board, "rk6/8/8/8/8/8/8/RK2R3 w AEa - 0 1");
    Move long_castle = test_san_move(&board, "O-O-O");
    cr_expect_eq(long_castle, move_make_kind(SQ_B1, SQ_C1, MOVE_CASTLING));
    cr_expect_eq(test_san_move(&board, "b1a1"), long_castle);
    cr_expect_eq(test_san_move(&board, "b1c1"), move_make(SQ_B1, SQ_C1));
    cr_expect_eq(test_san_move(&board, "O-O"), move_make_kind(SQ_B1, SQ_G1, MOVE_CASTLING));
    cr_expect_eq(test_san_move(&board, "b1g1"), move_make_kind(SQ_B1, SQ_G1, MOVE_CASTLING));
    notation_to_san(&board, long_castle, san);
    cr_expect_str_eq(san, "O-O-O");
    char err[160] = "";
    test_board_from_fen(&board, "7k/8/8/8/8/8/8/R2K3r w A - 0 1");
    cr_expect_eq(notation_parse_move(&board, "O-O-O", &m, err, sizeof err), NOTATION_ILLEGAL);
    cr_expect(strstr(err, "out of check"), "%s", err);
    test_board_from_fen(&board, "k7/8/8/8/8/8/8/rR1K4 w B - 0 1");
    cr_expect_eq(notation_parse_move(&board, "d1b1", &m, err, sizeof err), NOTATION_ILLEGAL);
    cr_expect(strstr(err, "cannot castle queenside"), "%s", err);
    // In standard chess UCI keeps e1g1; a Chess960 game writes e1h1.
    board_set_start(&board);
    test_board_from_fen(&board, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    char text[MOVE_TEXT_MAX];
    m = test_uci_move(&board, "e1g1");
    notation_to_uci_in(&board, m, text);
    cr_expect_str_eq(text, "e1g1");
    board.chess960 = true;
    notation_to_uci_in(&board, m, text);
    cr_expect_str_eq(text, "e1h1");
}

// ------------------------------------------------------------------ keys

Test(chess960, keys_name_the_rook_files, .init = setup) {
    // The same pieces and the same rights with other rooks: other keys.
    Board inner, outer;
    test_board_from_fen(&inner, "4k3/8/8/8/8/8/8/4K1RR w G - 0 1");
    test_board_from_fen(&outer, "4k3/8/8/8/8/8/8/4K1RR w H - 0 1");
    cr_expect_eq(inner.castling, outer.castling);
    cr_expect_neq(inner.key, outer.key);
    // Standard chess keeps its keys: the rights are the corner rooks'.
    Board a, b;
    test_board_from_fen(&a, BOARD_START_FEN);
    test_board_from_fen(&b, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1");
    cr_expect_eq(a.key, b.key);
}

// The explorer and the book key positions the Polyglot way, which knows only
// corner rooks: a Chess960 rook elsewhere must still make another key, and
// castling is encoded as the king taking that rook.
Test(chess960, polyglot_keys_and_moves, .init = setup) {
    Board inner, outer, standard;
    test_board_from_fen(&inner, "4k3/8/8/8/8/8/8/4K1RR w G - 0 1");
    test_board_from_fen(&outer, "4k3/8/8/8/8/8/8/4K1RR w H - 0 1");
    cr_expect_neq(book_key(&inner), book_key(&outer));
    test_board_from_fen(&standard, "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    Board shredder;
    test_board_from_fen(&shredder, "4k3/8/8/8/8/8/8/R3K2R w HA - 0 1");
    cr_expect_eq(book_key(&standard), book_key(&shredder));
    // e1 takes g1: Polyglot's to-square is the rook's, 6 (g1).
    Move castle = test_uci_move(&inner, "e1g1");
    cr_expect_eq(move_kind(castle), MOVE_CASTLING);
    cr_expect_eq(book_encode_move(&inner, castle), (uint16_t)(SQ_G1 | SQ_E1 << 6));
    Move std_castle = test_uci_move(&standard, "e1g1");
    cr_expect_eq(book_encode_move(&standard, std_castle), (uint16_t)(SQ_H1 | SQ_E1 << 6));
}

// Random games from random start positions: every move made keeps the board
// consistent (keys computed from scratch included) and unmakes exactly.
Test(chess960, random_games_stay_consistent, .init = setup) {
    uint64_t rng = 960;
    int castled = 0;
    for (int game = 0; game < 200; game++) {
        chess960_setup(&board, (int)(test_rng_next(&rng) % CHESS960_COUNT));
        for (int ply = 0; ply < 120; ply++) {
            MoveList list;
            movegen_legal(&board, &list);
            if (list.count == 0)
                break;
            // Castling whenever it can, else any move.
            Move m = list.moves[test_rng_next(&rng) % (uint64_t)list.count];
            for (int i = 0; i < list.count; i++)
                if (move_kind(list.moves[i]) == MOVE_CASTLING)
                    m = list.moves[i];
            castled += move_kind(m) == MOVE_CASTLING;
            Board before = board;
            Undo u;
            board_make_move(&board, m, &u);
            char err[128] = "";
            cr_assert(board_check(&board, err, sizeof err), "game %d ply %d: %s", game, ply, err);
            cr_assert(board.chess960);
            board_unmake_move(&board, &u);
            cr_assert(memcmp(&board, &before, sizeof board) == 0, "game %d ply %d", game, ply);
            board_play(&board, m);
        }
    }
    cr_expect_gt(castled, 200, "castled %d times", castled);
}

// ------------------------------------------------------------------ the suite

Test(chess960, published_suite, .init = setup, .timeout = 1800) {
    char path[1024], line[512];
    test_data_path("fischer.epd", path, sizeof path);
    FILE *f = fopen(path, "r");
    cr_assert_not_null(f, "cannot open %s", path);
    // make check: every 16th position at depth 4 and all at depth 2;
    // PATZER_PERFT_FULL=1: all at depth 4, every 32nd at depth 5 and 6.
    bool full = full_run();
    int n = 0, checked = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#' || line[0] == '\n')
            continue;
        char *semi = strstr(line, " ;");
        cr_assert_not_null(semi, "%s: malformed line %s", path, line);
        *semi = '\0';
        test_board_from_fen(&board, line);
        int base = full || n % 16 == 0 ? 4 : 2;
        bool deep = full && n % 32 == 0; // depths 5 and 6 as well
        for (char *p = semi + 1; (p = strchr(p, ';')) != NULL; p++) {
            int depth;
            unsigned long long count;
            cr_assert_eq(sscanf(p, ";D%d %llu", &depth, &count), 2, "%s", line);
            if (depth != 1 && depth != base && !(deep && depth > base))
                continue;
            uint64_t got = perft(&board, depth);
            cr_expect_eq(got, count, "#%d \"%s\" depth %d: got %llu, expected %llu", n, line, depth,
                         (unsigned long long)got, count);
            checked++;
        }
        n++;
    }
    fclose(f);
    cr_expect_eq(n, CHESS960_COUNT, "%d positions", n);
    cr_expect_geq(checked, 2 * n);
}
