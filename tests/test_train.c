// SPDX-License-Identifier: GPL-3.0-or-later
// Training data: the 32-byte record round trip over many positions (castling
// rights, en passant, all fields), rejection of malformed records, the
// writer's recovery of a torn file, the reader, reproducible self-play, and the
// scoring of games played elsewhere.
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/helpers.h"
#include "engine/chess960.h"
#include "engine/movegen.h"
#include "engine/notation.h"
#include "src/train/datagen.h"

static Board *board;

static void setup(void) {
    board_init_tables();
    board = malloc(sizeof *board);
    cr_assert_not_null(board);
}
static void teardown(void) {
    free(board);
}

static uint64_t rng = 0x2545F4914F6CDD1DULL;
static uint64_t next(void) {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

// Encodes the position of *board with arbitrary extra fields and checks that
// decoding gives back exactly the same, and that the board is rebuilt.
static void round_trip(int ply) {
    TrainPosition p, q;
    train_position_from_board(&p, board);
    p.ply = (uint16_t)ply;
    p.score = (int16_t)((int)(next() % 64001) - 32000);
    p.move = (Move)next();
    p.result = (TrainResult)(next() % 3);
    p.flags = (uint8_t)(next() % 16);
    uint8_t rec[TRAIN_RECORD_SIZE];
    train_encode(&p, rec);
    char err[256];
    cr_assert(train_decode(rec, &q, err, sizeof err), "%s", err);
    cr_assert_eq(memcmp(p.squares, q.squares, SQ_NB), 0);
    cr_assert_eq(p.side, q.side);
    cr_assert_eq(p.castling, q.castling);
    cr_assert_eq(p.ep, q.ep);
    cr_assert_eq(p.halfmove, q.halfmove);
    cr_assert_eq(p.ply, q.ply);
    cr_assert_eq(p.score, q.score);
    cr_assert_eq(p.move, q.move);
    cr_assert_eq(p.result, q.result);
    cr_assert_eq(p.flags, q.flags);

    char want[FEN_MAX], got[FEN_MAX];
    board_to_fen(board, want, sizeof want);
    static Board rebuilt;
    cr_assert(train_position_to_board(&q, &rebuilt, err, sizeof err), "%s", err);
    board_to_fen(&rebuilt, got, sizeof got);
    // The full-move number comes from the ply, so compare the first five fields.
    *strrchr(want, ' ') = '\0';
    *strrchr(got, ' ') = '\0';
    cr_assert_str_eq(got, want);
    cr_assert_eq(rebuilt.key, board->key);
}

TestSuite(train, .init = setup, .fini = teardown);

Test(train, record_round_trip_over_random_games) {
    int ep_seen = 0, castling_seen = 0;
    for (int game = 0; game < 200; game++) {
        // Every other game from a Chess960 start: castling rooks anywhere on the rank.
        if (game % 2)
            chess960_setup(board, (int)(next() % CHESS960_COUNT));
        else
            board_set_start(board);
        for (int ply = 0; ply < 200; ply++) {
            round_trip(ply);
            ep_seen += board->ep != SQ_NONE;
            castling_seen += board->castling != 0 && board->castling != CASTLE_ALL;
            MoveList list;
            movegen_legal(board, &list);
            if (list.count == 0)
                break;
            board_play(board, list.moves[next() % (uint64_t)list.count]);
        }
    }
    cr_assert_gt(ep_seen, 10, "the games should contain en-passant positions");
    cr_assert_gt(castling_seen, 10, "and partial castling rights");
}

Test(train, record_layout_is_fixed) {
    char err[160];
    cr_assert(board_set_fen(board, "4k2r/8/8/3pP3/8/8/8/R3K3 w Qk d6 7 30", err, sizeof err));
    TrainPosition p;
    train_position_from_board(&p, board);
    p.ply = 0x0102;
    p.score = -2;
    p.move = 0xABCD;
    p.result = TRAIN_WHITE_WINS;
    p.flags = TRAIN_FLAG_GAME_END;
    uint8_t rec[TRAIN_RECORD_SIZE];
    train_encode(&p, rec);
    // a1 e1 d5 e5 e8 h8: occupancy, then codes castling rook, W_KING, B_PAWN,
    // W_PAWN, B_KING, castling rook. The d5 pawn just moved: it is code 13.
    static const uint8_t want[TRAIN_RECORD_SIZE] = {
        0x11, 0x00, 0x00, 0x00, 0x18, 0x00, 0x00, 0x90, // occupancy
        0xAC, 0x0D, 0xCB, 0,    0,    0,    0,    0,
        0,    0,    0,    0,    0,    0,    0,    0,                   // pieces
        0xFE, 0xFF, 0xCD, 0xAB, 0x02, 0x01, 7,    (2 << 1) | (8 << 3), // fields
    };
    for (int i = 0; i < TRAIN_RECORD_SIZE; i++)
        cr_assert_eq(rec[i], want[i], "byte %d: %02x, expected %02x", i, rec[i], want[i]);
}

Test(train, malformed_records_are_rejected) {
    board_set_start(board);
    TrainPosition p, q;
    train_position_from_board(&p, board);
    p.ply = 0;
    p.score = 0;
    p.move = MOVE_NONE;
    p.result = TRAIN_DRAW;
    p.flags = 0;
    uint8_t rec[TRAIN_RECORD_SIZE], bad[TRAIN_RECORD_SIZE];
    char err[160];
    train_encode(&p, rec);

    memcpy(bad, rec, sizeof bad);
    bad[8] = 0xEE; // piece codes 14
    cr_assert_not(train_decode(bad, &q, err, sizeof err));
    cr_assert(strstr(err, "piece code"), "%s", err);

    memcpy(bad, rec, sizeof bad);
    bad[31] = 3 << 1; // result 3
    cr_assert_not(train_decode(bad, &q, err, sizeof err));
    cr_assert(strstr(err, "result"), "%s", err);

    memcpy(bad, rec, sizeof bad);
    bad[8] = (uint8_t)((bad[8] & 0xF0) | 12); // the first piece, the a1 rook, keeps castling: fine
    cr_assert(train_decode(bad, &q, err, sizeof err), "%s", err);
    bad[9] = (uint8_t)((bad[9] & 0xF0) | 12); // a knight on c1 as a second queenside rook
    cr_assert_not(train_decode(bad, &q, err, sizeof err));
    cr_assert(strstr(err, "two castling rooks"), "%s", err);
    memcpy(bad, rec, sizeof bad);
    bad[12] = (uint8_t)((bad[12] & 0xF0) | 12); // a pawn on a2 as a castling rook
    cr_assert_not(train_decode(bad, &q, err, sizeof err));
    cr_assert(strstr(err, "first and last ranks"), "%s", err);
}

// A game of n positions with distinct scores, for the file tests.
static void make_game(TrainPosition *game, int n, int base) {
    board_set_start(board);
    for (int i = 0; i < n; i++) {
        train_position_from_board(&game[i], board);
        game[i].ply = (uint16_t)i;
        game[i].score = (int16_t)(base + i);
        game[i].move = MOVE_NONE;
        game[i].result = TRAIN_DRAW;
        game[i].flags = 0;
    }
}

Test(train, writer_cuts_a_torn_game_and_resumes) {
    char dir[256];
    test_temp_dir(dir, sizeof dir, "patzer-train");
    char path[300], err[256];
    snprintf(path, sizeof path, "%s/worker-000.bin", dir);
    TrainPosition game[10];
    TrainWriter w;
    cr_assert(train_writer_open(&w, path, err, sizeof err), "%s", err);
    cr_assert_eq(w.games, 0);
    make_game(game, 10, 0);
    cr_assert(train_writer_add_game(&w, game, 10, err, sizeof err), "%s", err);
    make_game(game, 5, 100);
    cr_assert(train_writer_add_game(&w, game, 5, err, sizeof err), "%s", err);
    cr_assert(train_writer_close(&w));

    // A killed run: three records of a game without its end, and half a record.
    FILE *f = fopen(path, "ab");
    uint8_t rec[TRAIN_RECORD_SIZE];
    for (int i = 0; i < 3; i++) {
        train_encode(&game[i], rec);
        fwrite(rec, sizeof rec, 1, f);
    }
    fwrite(rec, 16, 1, f);
    fclose(f);

    cr_assert(train_writer_open(&w, path, err, sizeof err), "%s", err);
    cr_assert_eq(w.games, 2);
    cr_assert_eq(w.records, 15);
    make_game(game, 4, 200);
    cr_assert(train_writer_add_game(&w, game, 4, err, sizeof err), "%s", err);
    cr_assert(train_writer_close(&w));

    // The directory reader sees the three whole games in order.
    static const int scores[] = { 0,   1,   2,   3,   4,   5,   6,   7,   8,  9,
                                  100, 101, 102, 103, 104, 200, 201, 202, 203 };
    TrainReader r;
    cr_assert(train_reader_open(&r, dir, err, sizeof err), "%s", err);
    TrainPosition p;
    int n = 0, ends = 0, st;
    while ((st = train_reader_next(&r, &p, err, sizeof err)) == 1) {
        cr_assert_lt(n, 19);
        cr_assert_eq(p.score, scores[n]);
        ends += (p.flags & TRAIN_FLAG_GAME_END) != 0;
        n++;
    }
    cr_assert_eq(st, 0, "%s", err);
    cr_assert_eq(n, 19);
    cr_assert_eq(ends, 3);
    train_reader_close(&r);

    // A torn record is an error for the reader, naming the file.
    f = fopen(path, "ab");
    fwrite(rec, 10, 1, f);
    fclose(f);
    cr_assert(train_reader_open(&r, path, err, sizeof err), "%s", err);
    while ((st = train_reader_next(&r, &p, err, sizeof err)) == 1)
        ;
    cr_assert_eq(st, -1);
    cr_assert(strstr(err, "worker-000.bin") && strstr(err, "truncated"), "%s", err);
    train_reader_close(&r);
    unlink(path);
    rmdir(dir);
}

// An engine for datagen's tests: a small table, nodes per move (0: the default). The
// options must outlive it, so they are the test's own.
static Datagen *small_datagen(DatagenOptions *o, uint64_t nodes) {
    datagen_options_init(o);
    if (nodes)
        o->nodes = nodes;
    o->hash_mb = 1;
    Datagen *d = datagen_new(o);
    cr_assert_not_null(d);
    return d;
}

Test(train, self_play_is_reproducible_and_marked) {
    DatagenOptions o;
    Datagen *d = small_datagen(&o, 400);
    static TrainPosition a[DATAGEN_PLIES_MAX], b[DATAGEN_PLIES_MAX];
    int na = datagen_play(d, 0, 3, a);
    int nb = datagen_play(d, 1, 0, b); // another game in between
    cr_assert_gt(na, 0);
    cr_assert_gt(nb, 0);
    nb = datagen_play(d, 0, 3, b);
    cr_assert_eq(na, nb);
    for (int i = 0; i < na; i++) {
        uint8_t ra[TRAIN_RECORD_SIZE], rb[TRAIN_RECORD_SIZE];
        train_encode(&a[i], ra);
        train_encode(&b[i], rb);
        cr_assert_eq(memcmp(ra, rb, sizeof ra), 0, "position %d differs", i);
        // Every stored best move is legal, and the marks agree with the position.
        char err[256];
        cr_assert(train_position_to_board(&a[i], board, err, sizeof err), "%s", err);
        cr_assert(movegen_is_legal(board, a[i].move));
        cr_assert_eq((a[i].flags & TRAIN_FLAG_IN_CHECK) != 0, board_in_check(board));
        bool noisy = board_is_capture(board, a[i].move) || move_is_promotion(a[i].move);
        cr_assert_eq((a[i].flags & TRAIN_FLAG_NOISY_BEST) != 0, noisy);
        cr_assert_eq(a[i].result, a[0].result);
        if (i > 0)
            cr_assert_eq(a[i].ply, a[i - 1].ply + 1);
    }
    datagen_free(d);
}

// A game played elsewhere: each position before a move is stored with the game's result
// and its own ply (from the move number), the game's moves are played on, and an illegal
// move ends it.
Test(train, a_game_played_elsewhere_is_scored_position_by_position) {
    DatagenOptions o;
    Datagen *d = small_datagen(&o, 300);
    char err[160];
    Board start;
    cr_assert(board_set_fen(&start,
                            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
                            err, sizeof err));
    const char *san[] = { "Bb5", "a6", "Ba4", "Nf6", "O-O" };
    Move moves[6];
    *board = start;
    for (int i = 0; i < 5; i++) {
        cr_assert_eq(notation_parse_move(board, san[i], &moves[i], err, sizeof err), NOTATION_OK,
                     "%s: %s", san[i], err);
        Undo u;
        board_make_move(board, moves[i], &u);
    }
    moves[5] = moves[0]; // Bb5 again: no bishop on f1 any more
    static TrainPosition out[DATAGEN_PLIES_MAX];
    int n = datagen_score_game(d, &start, moves, 6, TRAIN_BLACK_WINS, out);
    cr_assert_eq(n, 5);
    *board = start;
    for (int i = 0; i < n; i++) {
        TrainPosition here;
        train_position_from_board(&here, board);
        cr_assert_eq(memcmp(here.squares, out[i].squares, sizeof here.squares), 0, "ply %d", i);
        cr_assert_eq(out[i].side, board->side);
        cr_assert_eq(out[i].ply, 4 + i);
        cr_assert_eq(out[i].result, TRAIN_BLACK_WINS);
        cr_assert(movegen_is_legal(board, out[i].move));
        Undo u;
        board_make_move(board, moves[i], &u);
    }
    datagen_free(d);
}

Test(train, tactical_positions_are_told_from_quiet_ones) {
    DatagenOptions o;
    Datagen *d = small_datagen(&o, 0);
    char err[160];
    // A queen hangs to a pawn.
    cr_assert(board_set_fen(board, "4k3/8/8/3q4/4P3/8/8/4K3 w - - 0 1", err, sizeof err));
    cr_assert(datagen_is_tactical(d, board));
    board_set_start(board);
    cr_assert_not(datagen_is_tactical(d, board));
    datagen_free(d);
}
