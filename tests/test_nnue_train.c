// SPDX-License-Identifier: GPL-3.0-or-later
// The NNUE trainer (tools/nnue_train*.c): feature indices checked by hand and against the
// decoded positions, the training target, the loss falling on a small generated data set,
// the quantised net file read back by a reader written here to data/NNUE.md (sizes, magic,
// header, checksum, and the engine's integer evaluation close to the float model's), a
// resumed checkpoint giving exactly the weights of a run never stopped, a net read back for
// fine-tuning (--init: exact quantisation round trip, the engine's evaluations unchanged by
// an epoch that cannot move the weights, other sizes refused), and clear errors for bad
// options and bad data.
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/nnue.h"
#include "tests/helpers.h"
#include "tests/nnue_file.h"
#include "tools/nnue_train.h"

enum { H = NT_HIDDEN };

static Board *board;
static char dir[64];

static void setup(void) {
    board_init_tables();
    board = malloc(sizeof *board);
    cr_assert_not_null(board);
    test_temp_dir(dir, sizeof dir, "patzer-nnue");
}

static void teardown(void) {
    free(board);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_assert_eq(system(cmd), 0);
}

TestSuite(nnue_train, .init = setup, .fini = teardown);

static void path_in(char *buf, size_t bufsz, const char *name) {
    int n = snprintf(buf, bufsz, "%s/%s", dir, name);
    cr_assert(n > 0 && (size_t)n < bufsz);
}

static void record_of_fen(const char *fen, uint8_t rec[TRAIN_RECORD_SIZE]) {
    test_board_from_fen(board, fen);
    test_record_of_board(board, rec);
}

static bool has_feature(const uint16_t *f, int n, int want) {
    for (int i = 0; i < n; i++)
        if (f[i] == want)
            return true;
    return false;
}

// ------------------------------------------------------------------------------ features

Test(nnue_train, feature_indices_checked_by_hand) {
    cr_assert_eq(ntrain_feature(WHITE, W_KING, SQ_E1), 324); // 0 + 5 * 64 + 4
    cr_assert_eq(ntrain_feature(BLACK, W_KING, SQ_E1), 764); // 384 + 5 * 64 + (4 ^ 56)
    cr_assert_eq(ntrain_feature(BLACK, B_KING, SQ_E8), 324); // the mirror image
    cr_assert_eq(ntrain_feature(WHITE, B_KING, SQ_E8), 764);
    cr_assert_eq(ntrain_feature(WHITE, W_PAWN, SQ_A1 + 8), 8);
    cr_assert_eq(ntrain_feature(BLACK, B_PAWN, SQ_H8 - 8), 15); // h7 -> h2
    cr_assert_eq(ntrain_feature(WHITE, B_QUEEN, SQ_D8), 384 + 256 + 59);
    cr_assert_eq(ntrain_feature(BLACK, W_QUEEN, SQ_D1), 384 + 256 + 59);

    uint8_t rec[TRAIN_RECORD_SIZE];
    uint16_t us[NT_MAX_FEATURES], them[NT_MAX_FEATURES];
    Color stm;
    record_of_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", rec);
    int n = ntrain_features(rec, false, NT_PLAIN, us, them, &stm);
    cr_assert_eq(n, 32);
    cr_assert_eq(stm, BLACK);
    // Black to move: "us" is Black's view. The white king e1, the black king e8, the e4 pawn
    // (a code-13 pawn in the record) and the a1 rook (a code-12 castling rook).
    cr_assert(has_feature(them, n, 324) && has_feature(us, n, 764));
    cr_assert(has_feature(us, n, 324) && has_feature(them, n, 764));
    cr_assert(has_feature(them, n, 0 * 64 + 28) && has_feature(us, n, 384 + (28 ^ 56)));
    cr_assert(has_feature(them, n, 3 * 64 + 0) && has_feature(us, n, 384 + 3 * 64 + 56));
    cr_assert_not(has_feature(them, n, 0 * 64 + 12)); // e2 is empty
}

// The features the fast reader finds are those of the decoded position, in square order,
// over random games (castling rooks and en-passant pawns included).
Test(nnue_train, features_match_the_decoded_positions) {
    uint64_t rng = 7;
    int ep = 0, castling = 0, black = 0;
    for (int game = 0; game < 40; game++) {
        board_set_start(board);
        for (int ply = 0; ply < 120; ply++) {
            TrainPosition p, q;
            train_position_from_board(&p, board);
            p.ply = (uint16_t)ply, p.score = 0, p.move = MOVE_NONE, p.result = TRAIN_DRAW;
            p.flags = 0;
            uint8_t rec[TRAIN_RECORD_SIZE];
            train_encode(&p, rec);
            char err[160];
            cr_assert(train_decode(rec, &q, err, sizeof err), "%s", err);
            uint16_t us[NT_MAX_FEATURES], them[NT_MAX_FEATURES];
            Color stm;
            int n = ntrain_features(rec, false, NT_PLAIN, us, them, &stm), k = 0;
            cr_assert_eq(stm, q.side);
            for (Square s = 0; s < SQ_NB; s++) {
                Piece pc = (Piece)q.squares[s];
                if (pc == NO_PIECE)
                    continue;
                for (int view = 0; view < 2; view++) {
                    Color persp = view == 0 ? q.side : (Color)!q.side;
                    int want = (piece_color(pc) == persp ? 0 : 384) + piece_type(pc) * 64 +
                               (persp == WHITE ? s : s ^ 56);
                    cr_assert_eq((view == 0 ? us : them)[k], want, "square %d, view %d", s, view);
                }
                k++;
            }
            cr_assert_eq(n, k);
            ep += q.ep != SQ_NONE;
            castling += q.castling != 0;
            black += q.side == BLACK;
            MoveList list;
            movegen_legal(board, &list);
            if (list.count == 0)
                break;
            board_play(board, list.moves[test_rng_next(&rng) % (uint64_t)list.count]);
        }
    }
    cr_assert(ep > 5 && castling > 100 && black > 100, "ep %d castling %d black %d", ep, castling,
              black);
}

static void sorted(uint16_t *f, int n) {
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && f[j - 1] > f[j]; j--) {
            uint16_t x = f[j];
            f[j] = f[j - 1];
            f[j - 1] = x;
        }
}

// --mirror: a position without castling rights, mirrored, has exactly the features of its
// mirror image (en-passant pawn included); a position with a castling right is refused.
Test(nnue_train, mirrored_features_are_those_of_the_mirror_image) {
    static const char *const pairs[][2] = {
        { "r3k2r/1pp2ppp/8/3pP3/8/8/PPP2PPP/R3K2R w - d6 0 1",
          "r2k3r/ppp2pp1/8/3Pp3/8/8/PPP2PPP/R2K3R w - e6 0 1" },
        { "8/5k2/3n4/8/1P6/6Q1/K7/8 b - - 0 40", "8/2k5/4n3/8/6P1/1Q6/7K/8 b - - 0 40" },
    };
    for (int i = 0; i < 2; i++) {
        uint8_t rec[TRAIN_RECORD_SIZE], image[TRAIN_RECORD_SIZE];
        record_of_fen(pairs[i][0], rec);
        record_of_fen(pairs[i][1], image);
        cr_assert(ntrain_mirrorable(rec) && ntrain_mirrorable(image));
        uint16_t us[2][NT_MAX_FEATURES], them[2][NT_MAX_FEATURES];
        Color stm[2];
        int n = ntrain_features(rec, true, NT_PLAIN, us[0], them[0], &stm[0]);
        int m = ntrain_features(image, false, NT_PLAIN, us[1], them[1], &stm[1]);
        cr_assert_eq(n, m);
        cr_assert_eq(stm[0], stm[1]);
        for (int k = 0; k < 2; k++) {
            sorted(us[k], n);
            sorted(them[k], n);
        }
        cr_assert_arr_eq(us[0], us[1], (size_t)n * sizeof us[0][0], "%s", pairs[i][0]);
        cr_assert_arr_eq(them[0], them[1], (size_t)n * sizeof them[0][0], "%s", pairs[i][0]);
    }
    uint8_t rec[TRAIN_RECORD_SIZE];
    record_of_fen("r3k2r/8/8/8/8/8/8/R3K2R b k - 0 1", rec);
    cr_assert_not(ntrain_mirrorable(rec));
    record_of_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", rec);
    cr_assert_not(ntrain_mirrorable(rec));
}

Test(nnue_train, target_blends_result_and_score_for_the_side_to_move) {
    uint8_t rec[TRAIN_RECORD_SIZE];
    record_of_fen("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", rec);
    rec[24] = 400 & 255, rec[25] = 400 >> 8;                     // +400 cp for White
    rec[31] = (uint8_t)((rec[31] & ~6) | TRAIN_WHITE_WINS << 1); // White won
    double s = 1 / (1 + exp(-1.0));
    NtObjective half = { 0.5, 400, { 1, false, 1 } }, result = { 1.0, 400, { 1, false, 1 } },
                score = { 0.0, 400, { 1, false, 1 } };
    cr_assert_float_eq(ntrain_target(rec, half), 0.5 + 0.5 * s, 1e-6);
    cr_assert_float_eq(ntrain_target(rec, result), 1.0, 1e-6);
    cr_assert_float_eq(ntrain_target(rec, score), s, 1e-6);
    // The scale is the score's centipawns per unit of the sigmoid.
    cr_assert_float_eq(ntrain_target(rec, (NtObjective){ 0.0, 200, { 1, false, 1 } }),
                       1 / (1 + exp(-2.0)), 1e-6);
    rec[31] |= 1; // Black to move: both turn round
    cr_assert_float_eq(ntrain_target(rec, half), 0.5 * (1 - s), 1e-6);
}

Test(nnue_train, the_fitted_scale_is_the_one_the_results_follow) {
    // For each score, as many wins (the rest losses) as sigmoid(score / 250) says: least
    // squares puts the scale at 250.
    uint8_t rec[TRAIN_RECORD_SIZE];
    record_of_fen("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", rec);
    NtRecords r = { 0 };
    for (int score = -1000; score <= 1000; score += 20) {
        int wins = (int)lround(200 / (1 + exp(-score / 250.0)));
        for (int i = 0; i < 200; i++) {
            rec[24] = (uint8_t)(score & 255), rec[25] = (uint8_t)((score >> 8) & 255);
            int res = i < wins ? TRAIN_WHITE_WINS : TRAIN_BLACK_WINS;
            rec[31] = (uint8_t)((rec[31] & ~6) | res << 1);
            cr_assert(ntrain_records_add(&r, rec));
        }
    }
    double k = ntrain_fit_scale(&r);
    cr_assert(fabs(k - 250) < 3, "fitted %f", k);
    ntrain_records_free(&r);
}

// ------------------------------------------------------------------------------ data

static int material(const Board *b) {
    static const int value[PIECE_TYPE_NB] = { 100, 300, 300, 500, 900, 0 };
    int sum = 0;
    for (Square s = 0; s < SQ_NB; s++) {
        Piece pc = board_piece_on(b, s);
        if (pc != NO_PIECE)
            sum += (piece_color(pc) == WHITE ? 1 : -1) * value[piece_type(pc)];
    }
    return sum;
}

// Random games scored by a material count; every 5th position marked not quiet. Returns
// the positions written.
static int write_games(const char *path, int games, uint64_t seed) {
    TrainWriter w;
    char err[256];
    cr_assert(train_writer_open(&w, path, err, sizeof err), "%s", err);
    TrainPosition game[80];
    int total = 0;
    for (int g = 0; g < games; g++) {
        board_set_start(board);
        int n = 0;
        for (; n < 80; n++) {
            MoveList list;
            movegen_legal(board, &list);
            if (list.count == 0)
                break;
            TrainPosition *p = &game[n];
            train_position_from_board(p, board);
            p->ply = (uint16_t)n;
            p->score = (int16_t)material(board);
            p->move = MOVE_NONE;
            p->flags = n % 5 == 4 ? TRAIN_FLAG_NOT_QUIET : 0;
            board_play(board, list.moves[test_rng_next(&seed) % (uint64_t)list.count]);
        }
        int m = material(board);
        for (int i = 0; i < n; i++)
            game[i].result = m > 100 ? TRAIN_WHITE_WINS : m < -100 ? TRAIN_BLACK_WINS : TRAIN_DRAW;
        cr_assert(train_writer_add_game(&w, game, n, err, sizeof err), "%s", err);
        total += n;
    }
    cr_assert(train_writer_close(&w));
    return total;
}

static void options_for(NtOptions *o, const char *data) {
    ntrain_options_default(o);
    o->data = data;
    o->min_ply = 0;
    o->batch = 128;
    o->epochs = 4;
    o->lr = 0.005;
    o->threads = 2;
    o->held_out = 5;
    o->eval_scale = 400; // the program fits it on the data when it is 0
}

static void load_games(NtOptions *o, NtData *d, int games) {
    char path[128];
    path_in(path, sizeof path, "worker-000.bin");
    write_games(path, games, 11);
    options_for(o, dir);
    char err[512];
    cr_assert(ntrain_load(o, d, err, sizeof err), "%s", err);
}

Test(nnue_train, loading_filters_and_holds_out_games) {
    char path[128];
    path_in(path, sizeof path, "worker-000.bin");
    int total = write_games(path, 20, 3);
    NtOptions o;
    options_for(&o, dir);
    NtData d;
    char err[512];
    cr_assert(ntrain_load(&o, &d, err, sizeof err), "%s", err);
    cr_assert_eq(d.records, total);
    cr_assert_eq(d.games, 20);
    cr_assert_eq(d.held_games, 4); // games 4, 9, 14, 19
    cr_assert_eq(d.train.count + d.held.count, total - total / 5, "%lld + %lld of %d",
                 d.train.count, d.held.count, total);
    cr_assert_gt(d.held.count, 0);
    ntrain_data_free(&d);

    o.all = true, o.held_out = 0, o.per_file = 100;
    cr_assert(ntrain_load(&o, &d, err, sizeof err), "%s", err);
    cr_assert_eq(d.records, 100);
    cr_assert_eq(d.train.count, 100);
    cr_assert_eq(d.held.count, 0);
    ntrain_data_free(&d);

    o.per_file = INT64_MAX, o.limit = 37;
    cr_assert(ntrain_load(&o, &d, err, sizeof err), "%s", err);
    cr_assert_eq(d.train.count, 37);
    ntrain_data_free(&d);
}

Test(nnue_train, held_out_games_are_counted_within_each_file) {
    // 7 games in the first file (not a multiple of 5): counted over both files, the second
    // file's held-out games would depend on how much of the first was read.
    char a[128], b[128];
    path_in(a, sizeof a, "worker-000.bin");
    path_in(b, sizeof b, "worker-001.bin");
    write_games(a, 7, 21);
    write_games(b, 12, 22);
    NtOptions o;
    NtData all, second;
    char err[512];
    options_for(&o, dir);
    cr_assert(ntrain_load(&o, &all, err, sizeof err), "%s", err);
    options_for(&o, b);
    cr_assert(ntrain_load(&o, &second, err, sizeof err), "%s", err);
    cr_assert_eq(all.held_games, 1 + 2); // game 4 of the first file, 4 and 9 of the second
    cr_assert_eq(second.held_games, 2);
    cr_assert_gt(second.held.count, 0);
    cr_assert_lt(second.held.count, all.held.count);
    const uint8_t *tail = all.held.rec[all.held.count - second.held.count];
    cr_assert_eq(memcmp(tail, second.held.rec[0], (size_t)second.held.count * TRAIN_RECORD_SIZE), 0,
                 "the second file's held-out positions are the same read alone or after the first");
    ntrain_data_free(&all);
    ntrain_data_free(&second);
}

Test(nnue_train, a_few_epochs_lower_the_loss) {
    NtOptions o;
    NtData d;
    load_games(&o, &d, 40);
    // The search scores here are a material count, which the features can express exactly,
    // so the loss on unseen games falls too.
    o.lambda = 0;
    Trainer t;
    cr_assert(ntrain_init(&t, o.seed));
    double before = ntrain_loss(t.params, &d.train, ntrain_objective(&o), 1);
    double held_before = ntrain_loss(t.params, &d.held, ntrain_objective(&o), 1);
    char err[256];
    for (int e = 0; e < o.epochs; e++)
        cr_assert(ntrain_epoch(&t, &d, &o, NULL, err, sizeof err), "%s", err);
    double after = ntrain_loss(t.params, &d.train, ntrain_objective(&o), 1);
    cr_assert_eq(t.epoch, o.epochs);
    cr_assert_lt(after, before * 0.8, "loss %f -> %f", before, after);
    cr_assert_lt(t.held_loss, held_before, "held-out loss %f -> %f", held_before, t.held_loss);
    cr_assert_float_eq(t.held_loss, ntrain_loss(t.params, &d.held, ntrain_objective(&o), 3), 1e-9);
    for (int i = 0; i < NT_PARAMS; i++)
        cr_assert(fabsf(t.params[i]) <= NT_CLIP, "parameter %d: %f", i, t.params[i]);
    // The last epoch (a quarter of 4) fits with the output weights on the file's grid.
    cr_assert_eq(ntrain_grid_epochs(&o), 1);
    for (int i = 0; i < 2 * H; i++) {
        float w = t.params[NT_OUT_W + i] * NT_QB;
        cr_assert_eq(w, roundf(w), "output weight %d: %f / 64", i, w);
    }
    ntrain_free(&t);
    ntrain_data_free(&d);
}

// ------------------------------------------------------------------------------ the net file

Test(nnue_train, net_file_reads_back_and_evaluates_like_the_float_model) {
    NtOptions o;
    NtData d;
    load_games(&o, &d, 30);
    Trainer t;
    cr_assert(ntrain_init(&t, 5));
    char err[256], path[128];
    for (int e = 0; e < 3; e++)
        cr_assert(ntrain_epoch(&t, &d, &o, NULL, err, sizeof err), "%s", err);
    path_in(path, sizeof path, "net.nnue");
    const char *desc = "patzer NNUE v1 test, \xc2\xbd";
    static NtQuantised q;
    ntrain_quantise(t.params, ntrain_shape(&o), &q);
    cr_assert(ntrain_write_net(path, &q, desc, err, sizeof err), "%s", err);

    static TestNet net;
    char why[128] = "";
    cr_assert(test_read_net(path, &net, why, sizeof why), "%s", why);
    cr_assert_str_eq(net.desc, desc);
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f);
    fseek(f, 0, SEEK_END);
    cr_assert_eq((size_t)ftell(f), ntrain_net_size(ntrain_shape(&o), strlen(desc)));
    cr_assert_eq(ftell(f), 32 + (long)strlen(desc) + 2 * (768 * 256 + 256 + 512) + 4 + 4);
    fclose(f);
    char tmp[160];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    cr_assert_neq(access(tmp, F_OK), 0, "the temporary file is renamed away");

    for (int i = 0; i < NT_INPUTS * H; i += 97)
        cr_assert_eq(net.ft_w[i], lroundf(t.params[NT_FT_W + i] * 255));
    for (int i = 0; i < 2 * H; i++)
        cr_assert_eq(net.out_w[i], lroundf(t.params[NT_OUT_W + i] * 64));
    cr_assert_eq(net.out_b[0], lround(t.params[NT_OUT_B] * 255.0 * 64.0));

    // The engine's integers compute the float model on the dequantised weights but for
    // their two truncating divisions (within 1 + 400 / 16320 cp); rounding the weights themselves
    // costs a few centipawns more (mostly the output weights' steps of 1/64).
    static float deq[NT_PARAMS];
    for (int i = 0; i < NT_INPUTS * H; i++)
        deq[NT_FT_W + i] = net.ft_w[i] / 255.0f;
    for (int i = 0; i < H; i++)
        deq[NT_FT_B + i] = net.ft_b[i] / 255.0f;
    for (int i = 0; i < 2 * H; i++)
        deq[NT_OUT_W + i] = net.out_w[i] / 64.0f;
    deq[NT_OUT_B] = (float)(net.out_b[0] / (255.0 * 64.0));
    double worst = 0, total = 0;
    for (long long i = 0; i < d.train.count; i++) {
        int got = test_net_eval(&net, d.train.rec[i]);
        cr_assert_eq(got, ntrain_quantised_eval(&q, d.train.rec[i]));
        double exact = ntrain_forward(deq, q.shape, d.train.rec[i]) * 400.0;
        cr_assert_lt(fabs(got - exact), 1.05, "record %lld: %d, dequantised float %.3f", i, got,
                     exact);
        double diff = fabs(got - ntrain_forward(t.params, q.shape, d.train.rec[i]) * 400.0);
        total += diff;
        worst = diff > worst ? diff : worst;
    }
    cr_log_info("quantised against float: mean %.2f cp, worst %.1f cp",
                total / (double)d.train.count, worst);
    cr_assert_lt(total / (double)d.train.count, 10, "mean %.2f cp", total / (double)d.train.count);

    // A long description is cut to 4096 bytes; a damaged file fails its checksum, and a
    // longer one its length.
    static char longdesc[6000];
    memset(longdesc, 'x', sizeof longdesc - 1);
    cr_assert(ntrain_write_net(path, &q, longdesc, err, sizeof err), "%s", err);
    cr_assert(test_read_net(path, &net, why, sizeof why), "%s", why);
    cr_assert_eq(net.header[5], NT_DESC_MAX);
    f = fopen(path, "r+b");
    cr_assert_not_null(f);
    fseek(f, 5000, SEEK_SET);
    fputc(0x55, f);
    fclose(f);
    cr_assert_not(test_read_net(path, &net, why, sizeof why));
    cr_assert_str_eq(why, "checksum");
    cr_assert(ntrain_write_net(path, &q, desc, err, sizeof err), "%s", err);
    f = fopen(path, "ab");
    fputc(0, f);
    fclose(f);
    cr_assert_not(test_read_net(path, &net, why, sizeof why));
    cr_assert(strstr(why, "length"), "%s", why);

    ntrain_free(&t);
    ntrain_data_free(&d);
}

// ------------------------------------------------------------------------------ --init

// The engine's evaluation of fen with the net in the file at path (the engine's own reader).
static int engine_eval(const char *path, const char *fen) {
    static uint8_t bytes[2 << 20];
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f, "%s", path);
    size_t len = fread(bytes, 1, sizeof bytes, f);
    cr_assert_eq(fclose(f), 0);
    NnueNet *net = nnue_net_new();
    cr_assert_not_null(net);
    char err[256];
    cr_assert(nnue_net_load(net, bytes, len, err, sizeof err), "%s: %s", path, err);
    test_board_from_fen(board, fen);
    int cp = nnue_evaluate(net, board);
    nnue_net_free(net);
    return cp;
}

// Writes q to path (under the test's directory) and reads it back as tests/nnue_file.h does.
static void write_and_read(const NtQuantised *q, char *path, size_t pathsz, const char *name,
                           const char *desc, TestNet *ref) {
    char err[256], why[128] = "";
    path_in(path, pathsz, name);
    cr_assert(ntrain_write_net(path, q, desc, err, sizeof err), "%s", err);
    cr_assert(test_read_net(path, ref, why, sizeof why), "%s", why);
}

// A trainer of a v2 net (8 output buckets, the king mirror) after `epochs` epochs on 30
// games.
static void train_v2(NtOptions *o, NtData *d, Trainer *t, int epochs) {
    load_games(o, d, 30);
    o->buckets = 8;
    o->king_mirror = true;
    cr_assert(ntrain_init(t, 5));
    char err[256];
    for (int e = 0; e < epochs; e++)
        cr_assert(ntrain_epoch(t, d, o, NULL, err, sizeof err), "%s", err);
}

// A v2 net (8 output buckets, the king mirror): the file data/NNUE.md lays out, read by
// tests/nnue_file.h and by the engine, evaluates every position as the trainer's integers
// do; each side's view is that of its king on files a-d, so a position without castling
// rights and its a<->h mirror image evaluate the same; and the buckets really differ.
Test(nnue_train, v2_net_buckets_and_king_mirror_agree_with_the_engine) {
    NtOptions o;
    NtData d;
    Trainer t;
    train_v2(&o, &d, &t, 2);
    char err[256], path[128];
    static NtQuantised q;
    ntrain_quantise(t.params, ntrain_shape(&o), &q);
    static TestNet ref;
    write_and_read(&q, path, sizeof path, "v2.nnue", "v2 test", &ref);
    cr_assert_eq(ref.buckets, 8);
    cr_assert_eq(ref.flags, 1);
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f);
    fseek(f, 0, SEEK_END);
    cr_assert_eq((size_t)ftell(f), ntrain_net_size(q.shape, strlen("v2 test")));
    cr_assert_eq(ftell(f), 40 + 7 + 2 * (768 * 256 + 256) + 8 * (2 * 512 + 4) + 4);
    fclose(f);

    int used[NT_MAX_BUCKETS] = { 0 }, mirrored = 0;
    for (long long i = 0; i < d.train.count; i += 3) {
        const uint8_t *rec = d.train.rec[i];
        int cp = ntrain_quantised_eval(&q, rec);
        cr_assert_eq(test_net_eval(&ref, rec), cp, "record %lld", i);
        TrainPosition p;
        cr_assert(train_decode(rec, &p, err, sizeof err), "%s", err);
        char fen[128];
        train_position_fen(&p, fen, sizeof fen);
        cr_assert_eq(engine_eval(path, fen), cp, "%s", fen);
        uint16_t us[NT_MAX_FEATURES], them[NT_MAX_FEATURES];
        Color stm;
        used[ntrain_bucket(q.shape, ntrain_features(rec, false, q.shape, us, them, &stm))]++;
        if (!ntrain_mirrorable(rec) || mirrored > 40)
            continue;
        // The a<->h image, through a FEN the engine reads: files reversed rank by rank.
        char image[128];
        size_t n = strcspn(fen, " ");
        for (size_t a = 0, b; a < n; a = b + 1) {
            b = a + strcspn(fen + a, "/ ");
            for (size_t k = 0; k < b - a; k++)
                image[a + k] = fen[b - 1 - k];
            image[b] = fen[b];
        }
        snprintf(image + n, sizeof image - n, "%s", fen + n);
        char side[4], castling[8], ep[4];
        cr_assert_eq(sscanf(fen + n, " %3s %7s %3s", side, castling, ep), 3);
        if (strcmp(ep, "-") != 0)
            continue; // an en-passant square would need mirroring too
        cr_assert_eq(engine_eval(path, image), cp, "%s against %s", image, fen);
        mirrored++;
    }
    cr_assert_gt(mirrored, 10);
    int buckets_used = 0;
    for (int k = 0; k < NT_MAX_BUCKETS; k++)
        buckets_used += used[k] > 0;
    cr_assert_geq(buckets_used, 3, "the games reach only %d buckets", buckets_used);
    cr_assert_neq(memcmp(q.out_w, q.out_w + 7 * 2 * H, 2 * H * sizeof q.out_w[0]), 0);
    ntrain_free(&t);
    ntrain_data_free(&d);
}

// Every record's evaluation by the trainer's integers, tests/nnue_file.h's reading of the
// file and the engine's, the same; returns how many were compared.
static int expect_three_agree(const NtQuantised *q, const TestNet *ref, const char *path,
                              const NtData *d) {
    char err[256];
    int n = 0;
    for (long long i = 0; i < d->train.count; i += 5, n++) {
        const uint8_t *rec = d->train.rec[i];
        int cp = ntrain_quantised_eval(q, rec);
        cr_assert_eq(test_net_eval(ref, rec), cp, "record %lld", i);
        TrainPosition p;
        cr_assert(train_decode(rec, &p, err, sizeof err), "%s", err);
        char fen[128];
        train_position_fen(&p, fen, sizeof fen);
        cr_assert_eq(engine_eval(path, fen), cp, "%s", fen);
    }
    return n;
}

// v3: four king buckets. A v2 parent fine-tuned into them starts as the parent (each bucket
// holds its weights), the file data/NNUE.md lays out evaluates alike in the trainer, the
// reference reader and the engine, and after an epoch the buckets have parted.
Test(nnue_train, v3_king_buckets_start_from_a_v2_parent_and_agree_with_the_engine) {
    NtOptions o;
    NtData d;
    Trainer t;
    train_v2(&o, &d, &t, 1);
    char err[256], parent_path[128], path[128];
    static NtQuantised q2, q3;
    ntrain_quantise(t.params, ntrain_shape(&o), &q2);
    path_in(parent_path, sizeof parent_path, "v2parent.nnue");
    cr_assert(ntrain_write_net(parent_path, &q2, "v2 parent", err, sizeof err), "%s", err);
    static NtParent parent;
    cr_assert(ntrain_read_net(parent_path, &parent, err, sizeof err), "%s", err);

    o.king_buckets = 4;
    ntrain_dequantise(&parent.q, t.params);
    ntrain_quantise(t.params, ntrain_shape(&o), &q3);
    static TestNet ref;
    write_and_read(&q3, path, sizeof path, "v3.nnue", "v3 test", &ref);
    cr_assert_eq(ref.king_buckets, 4);
    for (int sq = 0; sq < 64; sq++)
        cr_assert_eq(ref.king_map[sq], sq < 8 ? 0 : sq < 16 ? 1 : sq < 32 ? 2 : 3);
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f);
    cr_assert_eq(fseek(f, 0, SEEK_END), 0);
    cr_assert_eq(ftell(f), 108 + 7 + 2 * (4 * 768 * 256 + 256) + 8 * (2 * 512 + 4) + 4);
    cr_assert_eq((size_t)ftell(f), ntrain_net_size(q3.shape, strlen("v3 test")));
    cr_assert_eq(fclose(f), 0);
    int n = expect_three_agree(&q3, &ref, path, &d);
    for (long long i = 0; i < d.train.count; i += 5) {
        TrainPosition p;
        cr_assert(train_decode(d.train.rec[i], &p, err, sizeof err), "%s", err);
        char fen[128];
        train_position_fen(&p, fen, sizeof fen);
        cr_assert_eq(engine_eval(path, fen), engine_eval(parent_path, fen), "%s", fen);
    }

    // An epoch in four king buckets: the buckets part, and all three still agree.
    cr_assert(ntrain_epoch(&t, &d, &o, NULL, err, sizeof err), "%s", err);
    ntrain_quantise(t.params, ntrain_shape(&o), &q3);
    write_and_read(&q3, path, sizeof path, "v3.nnue", "v3 test", &ref);
    expect_three_agree(&q3, &ref, path, &d);
    size_t block = (size_t)NT_INPUTS * H;
    cr_assert_neq(memcmp(q3.ft_w, q3.ft_w + block, block * sizeof q3.ft_w[0]), 0);
    cr_assert_neq(memcmp(q3.ft_w, q3.ft_w + 2 * block, block * sizeof q3.ft_w[0]), 0);
    cr_log_info("v3: %d records compared", n);

    // The trainer reads back what it wrote.
    cr_assert(ntrain_read_net(path, &parent, err, sizeof err), "%s", err);
    cr_assert_eq(parent.q.shape.king_buckets, 4);
    cr_assert_eq(memcmp(parent.q.ft_w, q3.ft_w, 4 * block * sizeof q3.ft_w[0]), 0);
    ntrain_free(&t);
    ntrain_data_free(&d);
}

static void assert_same_net(const NtQuantised *a, const NtQuantised *b) {
    cr_assert_eq(memcmp(a->ft_w, b->ft_w, sizeof a->ft_w), 0);
    cr_assert_eq(memcmp(a->ft_b, b->ft_b, sizeof a->ft_b), 0);
    cr_assert_eq(memcmp(a->out_w, b->out_w, sizeof a->out_w), 0);
    cr_assert_eq(memcmp(a->out_b, b->out_b, sizeof a->out_b), 0);
    cr_assert_eq(a->shape.buckets, b->shape.buckets);
    cr_assert_eq(a->shape.king_mirror, b->shape.king_mirror);
}

Test(nnue_train, quantise_dequantise_quantise_is_exact) {
    // Every int16 a weight can hold, and output biases up to well past a trained one's.
    static NtQuantised q, again;
    static float params[NT_PARAMS];
    for (int i = 0; i < NT_INPUTS * H; i++)
        q.ft_w[i] = (int16_t)(INT16_MIN + i % 65536);
    for (int i = 0; i < H; i++)
        q.ft_b[i] = (int16_t)(i * 257 - 32768);
    for (int i = 0; i < 2 * H; i++)
        q.out_w[i] = (int16_t)(i * 131 - 32768);
    static const int32_t biases[] = { 0, 1, -1, 16320, -16320, 32314, -32314, 1 << 22, -(1 << 22) };
    for (size_t k = 0; k < sizeof biases / sizeof *biases; k++) {
        q.out_b[0] = biases[k];
        q.shape = NT_PLAIN;
        ntrain_dequantise(&q, params);
        ntrain_quantise(params, q.shape, &again);
        assert_same_net(&q, &again);
    }
    cr_assert_float_eq(params[NT_FT_W + 1], (INT16_MIN + 1) / 255.0f, 1e-6);
    cr_assert_float_eq(params[NT_OUT_W + 1], (131 - 32768) / 64.0f, 1e-6);
}

Test(nnue_train, init_reads_a_net_back_and_fine_tunes_from_it) {
    NtOptions o;
    NtData d;
    load_games(&o, &d, 30);
    Trainer t;
    cr_assert(ntrain_init(&t, 5));
    char err[256], parent_path[128], child_path[128];
    for (int e = 0; e < 2; e++)
        cr_assert(ntrain_epoch(&t, &d, &o, NULL, err, sizeof err), "%s", err);
    static NtQuantised q;
    ntrain_quantise(t.params, ntrain_shape(&o), &q);
    path_in(parent_path, sizeof parent_path, "parent.nnue");
    cr_assert(ntrain_write_net(parent_path, &q, "the parent", err, sizeof err), "%s", err);
    ntrain_free(&t);

    // Read back: the same weights, description and checksum (the file's last four bytes).
    static NtParent parent;
    cr_assert(ntrain_read_net(parent_path, &parent, err, sizeof err), "%s", err);
    assert_same_net(&q, &parent.q);
    cr_assert_str_eq(parent.desc, "the parent");
    static TestNet ref;
    char why[128] = "";
    cr_assert(test_read_net(parent_path, &ref, why, sizeof why), "%s", why);
    FILE *f = fopen(parent_path, "rb");
    cr_assert_not_null(f);
    uint8_t tail[4];
    cr_assert_eq(fseek(f, -4, SEEK_END), 0);
    cr_assert_eq(fread(tail, 1, 4, f), 4);
    cr_assert_eq(fclose(f), 0);
    cr_assert_eq(parent.checksum, test_le32(tail));

    // Fine-tuning with a step size of ~0 (an epoch that cannot move the weights) writes a
    // net that the engine evaluates as it does the parent.
    Trainer child;
    cr_assert(ntrain_init(&child, 9));
    ntrain_dequantise(&parent.q, child.params);
    o.lr = 1e-9;
    o.epochs = 8; // one epoch of eight: before the grid epochs, all weights move
    cr_assert(ntrain_epoch(&child, &d, &o, NULL, err, sizeof err), "%s", err);
    static NtQuantised cq;
    ntrain_quantise(child.params, ntrain_shape(&o), &cq);
    path_in(child_path, sizeof child_path, "child.nnue");
    cr_assert(ntrain_write_net(child_path, &cq, "the child", err, sizeof err), "%s", err);
    static const char *const fens[] = {
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
        "8/5pk1/6p1/8/3R4/6P1/5PK1/8 b - - 0 40",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    };
    for (size_t i = 0; i < sizeof fens / sizeof *fens; i++) {
        int a = engine_eval(parent_path, fens[i]), b = engine_eval(child_path, fens[i]);
        cr_assert_leq(abs(a - b), 1, "%s: parent %d cp, child %d cp", fens[i], a, b);
    }
    ntrain_free(&child);

    // A net of other sizes is refused, naming the file and what differs.
    static uint8_t bytes[2 << 20];
    f = fopen(parent_path, "rb");
    cr_assert_not_null(f);
    size_t len = fread(bytes, 1, sizeof bytes, f);
    cr_assert_eq(fclose(f), 0);
    bytes[12] = 0, bytes[13] = 2; // hidden 512
    path_in(child_path, sizeof child_path, "wide.nnue");
    f = fopen(child_path, "wb");
    cr_assert_not_null(f);
    cr_assert_eq(fwrite(bytes, 1, len, f), len);
    cr_assert_eq(fclose(f), 0);
    cr_assert_not(ntrain_read_net(child_path, &parent, err, sizeof err));
    cr_assert(strstr(err, child_path) && strstr(err, "hidden is 512, expected 256"), "%s", err);
    path_in(child_path, sizeof child_path, "missing.nnue");
    cr_assert_not(ntrain_read_net(child_path, &parent, err, sizeof err));
    cr_assert(strstr(err, "No such file"), "%s", err);
    ntrain_data_free(&d);
}

// ------------------------------------------------------------------------------ checkpoints

static void run_epochs(Trainer *t, const NtData *d, const NtOptions *o, int n) {
    char err[256];
    for (int e = 0; e < n; e++)
        cr_assert(ntrain_epoch(t, d, o, NULL, err, sizeof err), "%s", err);
}

static void assert_same(const Trainer *a, const Trainer *b) {
    cr_assert_eq(memcmp(a->params, b->params, NT_PARAMS * sizeof *a->params), 0, "weights");
    cr_assert_eq(memcmp(a->m, b->m, NT_PARAMS * sizeof *a->m), 0, "Adam m");
    cr_assert_eq(memcmp(a->v, b->v, NT_PARAMS * sizeof *a->v), 0, "Adam v");
    cr_assert_eq(a->epoch, b->epoch);
    cr_assert_eq(a->step, b->step);
    cr_assert_eq(a->rng, b->rng);
    cr_assert_eq(a->train_loss, b->train_loss);
    cr_assert_eq(a->held_loss, b->held_loss);
    cr_assert_eq(a->best_epoch, b->best_epoch);
    cr_assert_eq(a->best_held, b->best_held);
}

Test(nnue_train, resuming_a_checkpoint_gives_the_uninterrupted_run) {
    NtOptions o;
    NtData d;
    load_games(&o, &d, 30);
    o.epochs = 3;
    NtRunKey key;
    ntrain_run_key(&o, &d, NULL, &key);
    Trainer whole, part, resumed;
    cr_assert(ntrain_init(&whole, o.seed) && ntrain_init(&part, o.seed));
    run_epochs(&whole, &d, &o, 3);
    run_epochs(&part, &d, &o, 1);
    char err[512], path[128];
    path_in(path, sizeof path, "run.ckpt");
    part.best_epoch = whole.best_epoch = 1; // the program's choice of net to keep
    part.best_held = whole.best_held = 0.25;
    cr_assert(ntrain_save_checkpoint(path, &part, &key, err, sizeof err), "%s", err);
    ntrain_free(&part);

    cr_assert(ntrain_init(&resumed, o.seed));
    cr_assert(ntrain_load_checkpoint(path, &resumed, &key, err, sizeof err), "%s", err);
    cr_assert_eq(resumed.epoch, 1);
    cr_assert_eq(resumed.best_epoch, 1);
    cr_assert_eq(resumed.best_held, 0.25);
    run_epochs(&resumed, &d, &o, 2);
    assert_same(&whole, &resumed);

    // The same seed and thread count give the same run; a run with other options or other
    // data is refused with what differs.
    NtRunKey other = key;
    other.batch = 64;
    cr_assert_not(ntrain_load_checkpoint(path, &resumed, &other, err, sizeof err));
    cr_assert(strstr(err, "--batch is 128, this run's 64"), "%s", err);
    other = key;
    other.eval_scale = 180;
    cr_assert_not(ntrain_load_checkpoint(path, &resumed, &other, err, sizeof err));
    cr_assert(strstr(err, "eval scale is 400 cp, this run's 180 cp"), "%s", err);
    other = key;
    other.fingerprint ^= 1;
    cr_assert_not(ntrain_load_checkpoint(path, &resumed, &other, err, sizeof err));
    cr_assert(strstr(err, "data"), "%s", err);
    FILE *f = fopen(path, "r+b");
    cr_assert_not_null(f);
    fseek(f, 4000, SEEK_SET);
    fputc(0x77, f);
    fclose(f);
    cr_assert_not(ntrain_load_checkpoint(path, &resumed, &key, err, sizeof err));
    cr_assert(strstr(err, "checksum"), "%s", err);

    ntrain_free(&whole);
    ntrain_free(&resumed);
    ntrain_data_free(&d);
}

Test(nnue_train, same_seed_and_threads_same_weights) {
    NtOptions o;
    NtData d;
    load_games(&o, &d, 20);
    o.threads = 3;
    Trainer a, b;
    cr_assert(ntrain_init(&a, 9) && ntrain_init(&b, 9));
    run_epochs(&a, &d, &o, 2);
    run_epochs(&b, &d, &o, 2);
    assert_same(&a, &b);
    ntrain_free(&a);
    ntrain_free(&b);
    ntrain_data_free(&d);
}

// ------------------------------------------------------------------------------ errors

static void parse_fails(const char *want, int argc, char **argv) {
    NtOptions o;
    char err[256] = "";
    cr_assert_not(ntrain_parse_args(argc, argv, &o, err, sizeof err), "accepted: %s", want);
    cr_assert(strstr(err, want), "'%s' does not say '%s'", err, want);
}

#define FAILS(want, ...)                                               \
    do {                                                               \
        char *args_[] = { "nnue_train", __VA_ARGS__ };                 \
        parse_fails(want, (int)(sizeof args_ / sizeof *args_), args_); \
    } while (0)

Test(nnue_train, options_parse_and_bad_ones_are_named) {
    char *argv[] = { "nnue_train", "--epochs", "7",         "data",     "--resume",
                     "--lr",       "0.002",    "--threads", "1",        "--seed",
                     "42",         "--out",    "x.nnue",    "--lambda", "0.25" };
    NtOptions o;
    char err[256];
    cr_assert(ntrain_parse_args(15, argv, &o, err, sizeof err), "%s", err);
    cr_assert_str_eq(o.data, "data");
    cr_assert_str_eq(o.out, "x.nnue");
    cr_assert(o.resume && !o.all);
    cr_assert_eq(o.epochs, 7);
    cr_assert_eq(o.threads, 1);
    cr_assert_eq(o.seed, 42);
    cr_assert_eq(o.batch, 16384);
    cr_assert_float_eq(o.lr, 0.002, 1e-12);
    cr_assert_float_eq(o.lambda, 0.25, 1e-12);
    cr_assert_null(o.init);

    char *fine[] = { "nnue_train", "data", "--init", "parent.nnue" };
    cr_assert(ntrain_parse_args(4, fine, &o, err, sizeof err), "%s", err);
    cr_assert_str_eq(o.init, "parent.nnue");
    cr_assert_float_eq(o.lr, NT_LR, 1e-12);

    FAILS("no data", "--epochs", "3");
    FAILS("--batch: 'lots' is not a whole number", "d", "--batch", "lots");
    FAILS("--batch: '0' is not a whole number from 1", "d", "--batch", "0");
    FAILS("--threads: '999'", "d", "--threads", "999");
    FAILS("--lambda: '1.5' is not a number from 0 to 1", "d", "--lambda", "1.5");
    FAILS("--lr: 'fast'", "d", "--lr", "fast");
    FAILS("--epochs needs a value", "d", "--epochs");
    FAILS("unknown option '--epoch'", "d", "--epoch", "3");
    FAILS("two data paths", "d", "e");
    FAILS("--held-out 1", "d", "--held-out", "1");
    FAILS("--out: an empty file name", "d", "--out", "");
    FAILS("--init needs a value", "d", "--init");
}

static void load_fails(const char *data, const char *want) {
    NtOptions o;
    options_for(&o, data);
    NtData d;
    char err[512] = "";
    cr_assert_not(ntrain_load(&o, &d, err, sizeof err), "loaded %s", data);
    cr_assert(strstr(err, want), "'%s' does not say '%s'", err, want);
}

Test(nnue_train, empty_or_malformed_data_is_refused_clearly) {
    load_fails(dir, "no positions to train on (0 .bin files, 0 records");
    char path[128];
    path_in(path, sizeof path, "missing");
    load_fails(path, "No such file");

    // A valid record, then one with all 64 squares occupied.
    path_in(path, sizeof path, "bad.bin");
    uint8_t rec[TRAIN_RECORD_SIZE], bad[TRAIN_RECORD_SIZE];
    record_of_fen("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", rec);
    memset(bad, 0xFF, sizeof bad);
    FILE *f = fopen(path, "wb");
    cr_assert_not_null(f);
    fwrite(rec, 1, sizeof rec, f);
    fwrite(bad, 1, sizeof bad, f);
    fclose(f);
    load_fails(dir, "bad.bin: record 1: 64 pieces");

    f = fopen(path, "wb");
    fwrite(rec, 1, sizeof rec, f);
    fwrite(rec, 1, 10, f);
    fclose(f);
    load_fails(dir, "bad.bin: truncated record after record 1");

    // Positions all filtered out are no data either.
    f = fopen(path, "wb");
    fwrite(rec, 1, sizeof rec, f);
    fclose(f);
    NtOptions o;
    options_for(&o, path);
    o.min_ply = 50;
    NtData d;
    char err[512];
    cr_assert_not(ntrain_load(&o, &d, err, sizeof err));
    cr_assert(strstr(err, "no positions to train on (1 .bin file, 1 records"), "%s", err);
}
