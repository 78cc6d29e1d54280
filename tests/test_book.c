// SPDX-License-Identifier: GPL-3.0-or-later
// Tests for engine/book.c: Polyglot keys of the published test positions, probing and picking
// from the fixture tests/data/small.bin, castling and promotion decoding, rejected files,
// book_encode (written as patzer writes every file), and (when present) Debian's gnuchess book and patzer's own book.
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/book.h"
#include "engine/movegen.h"
#include "engine/polyglot_keys.h"
#include "src/util/paths.h"
#include "tests/helpers.h"

#ifndef TEST_BOOK
#define TEST_BOOK "data/patzer.bin"
#endif

#define GNUCHESS_BOOK "/usr/share/games/gnuchess/book.bin"
#define START_FEN     "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

// The position the tests work on.
static Board board;
static char tmp_path[256];

static void setup(void) {
    board_init_tables();
    tmp_path[0] = '\0';
}

static void teardown(void) {
    if (tmp_path[0])
        unlink(tmp_path);
}

TestSuite(book, .init = setup, .fini = teardown);

static Board *load(const char *fen) {
    test_board_from_fen(&board, fen);
    return &board;
}

// Plays a space-separated list of coordinate moves.
static void play(Board *b, const char *moves) {
    char buf[512];
    snprintf(buf, sizeof buf, "%s", moves);
    for (char *tok = strtok(buf, " "); tok; tok = strtok(NULL, " "))
        board_play(b, test_uci_move(b, tok));
}

// A Polyglot move from text, written independently of book_encode_move.
static uint16_t pg_move(const char *uci) {
    int promo = 0;
    if (uci[4])
        promo = (int)(strchr("nbrq", uci[4]) - "nbrq") + 1;
    return (uint16_t)(test_square(uci + 2) | (test_square(uci) << 6) | (promo << 12));
}

// ------------------------------------------------------------------ keys

typedef struct KeyCase {
    const char *moves;
    Key key;
} KeyCase;

// The test positions of the Polyglot book format description.
static const KeyCase key_cases[] = {
    { "", 0x463b96181691fc9cULL },
    { "e2e4", 0x823c9b50fd114196ULL },
    { "e2e4 d7d5", 0x0756b94461c50fb0ULL },
    { "e2e4 d7d5 e4e5", 0x662fafb965db29d4ULL },
    { "e2e4 d7d5 e4e5 f7f5", 0x22a48b5a8e47ff78ULL },
    { "e2e4 d7d5 e4e5 f7f5 e1e2", 0x652a607ca3f242c1ULL },
    { "e2e4 d7d5 e4e5 f7f5 e1e2 e8f7", 0x00fdd303c946bdd9ULL },
    { "a2a4 b7b5 h2h4 b5b4 c2c4", 0x3c8123ea7b067637ULL },
    { "a2a4 b7b5 h2h4 b5b4 c2c4 b4c3 a1a3", 0x5c3f9b829b279560ULL },
};

Test(book, spec_keys) {
    for (size_t i = 0; i < sizeof key_cases / sizeof key_cases[0]; i++) {
        Board *b = load(START_FEN);
        play(b, key_cases[i].moves);
        cr_expect_eq(book_key(b), key_cases[i].key, "key after '%s': %016llx, expected %016llx",
                     key_cases[i].moves, (unsigned long long)book_key(b),
                     (unsigned long long)key_cases[i].key);
    }
}

Test(book, spec_keys_from_fen) {
    // The same positions set up from FEN, where patzer has no move history.
    Board *b = load("rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2");
    cr_expect_eq(book_key(b), 0x662fafb965db29d4ULL);
    b = load("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3");
    cr_expect_eq(book_key(b), 0x22a48b5a8e47ff78ULL);
    b = load("rnbqkbnr/p1pppppp/8/8/PpP4P/8/1P1PPPP1/RNBQKBNR b KQkq c3 0 3");
    cr_expect_eq(book_key(b), 0x3c8123ea7b067637ULL);
}

Test(book, ep_key_for_pinned_capturer) {
    // After e2e4 the f4 pawn could take en passant but for the rook on a4: Polyglot counts
    // the file anyway (its rule is pseudo-legal), patzer's board does not.
    Board *b = load("8/8/8/8/R4p1k/8/4P3/4K3 w - - 0 1");
    play(b, "e2e4");
    cr_assert_eq(b->ep, SQ_NONE);
    Board *plain = load("8/8/8/8/R3Pp1k/8/8/4K3 b - - 0 1");
    Key without_ep = book_key(plain);
    b = load("8/8/8/8/R4p1k/8/4P3/4K3 w - - 0 1");
    play(b, "e2e4");
    cr_expect_eq(book_key(b), without_ep ^ polyglot_random64[POLYGLOT_EP + 4]);
}

Test(book, key_table_spot_checks) {
    cr_expect_eq(polyglot_random64[0], 0x9D39247E33776D41ULL);
    cr_expect_eq(polyglot_random64[POLYGLOT_CASTLE], 0x31D71DCE64B2C310ULL);
    cr_expect_eq(polyglot_random64[POLYGLOT_EP], 0x70CC73D90BC26E24ULL);
    cr_expect_eq(polyglot_random64[POLYGLOT_TURN], 0xF8D626AAAF278509ULL);
}

// ------------------------------------------------------------------ the fixture

typedef struct FixtureEntry {
    const char *fen;
    const char *moves;     // played from fen before taking the key
    const char *book_move; // Polyglot coordinates: castling as king takes rook
    uint32_t weight;
} FixtureEntry;

#define CASTLE_FEN "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1"

// The contents of tests/data/small.bin.
static const FixtureEntry fixture[] = {
    // Start: four moves weighted 50/30/15/5 and one illegal entry that must be skipped.
    { START_FEN, "", "e2e4", 50 },
    { START_FEN, "", "d2d4", 30 },
    { START_FEN, "", "c2c4", 15 },
    { START_FEN, "", "g1f3", 5 },
    { START_FEN, "", "e2e5", 100 },
    // After 1.e4: a zero weight next to a positive one.
    { START_FEN, "e2e4", "e7e5", 0 },
    { START_FEN, "e2e4", "c7c5", 7 },
    // After 1.d4: only zero weights.
    { START_FEN, "d2d4", "d7d5", 0 },
    { START_FEN, "d2d4", "g8f6", 0 },
    // Castling both ways, for each side, written king-takes-rook.
    { CASTLE_FEN, "", "e1h1", 10 },
    { CASTLE_FEN, "", "e1a1", 5 },
    { CASTLE_FEN, "a2a3", "e8h8", 3 },
    { CASTLE_FEN, "a2a3", "e8a8", 2 },
    // King takes rook without the castling right: not a legal move, skipped.
    { "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w Qkq - 0 1", "", "e1h1", 9 },
    // Promotions.
    { "8/4P3/8/8/8/8/k7/7K w - - 0 1", "", "e7e8q", 20 },
    { "8/4P3/8/8/8/8/k7/7K w - - 0 1", "", "e7e8n", 4 },
};
enum { FIXTURE_N = sizeof fixture / sizeof fixture[0] };

static void fixture_entries(BookWriterEntry *out) {
    for (int i = 0; i < FIXTURE_N; i++) {
        Board *b = load(fixture[i].fen);
        play(b, fixture[i].moves);
        out[i].key = book_key(b);
        out[i].move = pg_move(fixture[i].book_move);
        out[i].weight = fixture[i].weight;
    }
}

static void fixture_path(char *buf, size_t n) {
    test_data_path("small.bin", buf, n);
}

static Book *open_ok(const char *path) {
    char err[256] = "";
    Book *book = book_open(path, err, sizeof err);
    cr_assert_not_null(book, "cannot open %s: %s", path, err);
    return book;
}

static Book *open_fixture(void) {
    char path[512];
    fixture_path(path, sizeof path);
    return open_ok(path);
}

static void make_tmp_path(void) {
    int fd = test_temp_file(tmp_path, sizeof tmp_path, "patzer-book");
    close(fd);
}

// What patzer does to write a book: the engine encodes, src/ writes atomically.
static bool write_book(const char *path, BookWriterEntry *e, size_t n, char *err, size_t errsz) {
    size_t len;
    unsigned char *bytes = book_encode(e, n, &len);
    if (!bytes) {
        snprintf(err, errsz, "nothing to write");
        return false;
    }
    bool ok = paths_write_atomic(path, (const char *)bytes, len, err, errsz);
    free(bytes);
    return ok;
}

static size_t read_all(const char *path, unsigned char *buf, size_t cap) {
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f, "cannot read %s", path);
    size_t n = fread(buf, 1, cap, f);
    fclose(f);
    return n;
}

Test(book, writer_reproduces_fixture) {
    // Regenerate the fixture with PATZER_WRITE_FIXTURE=1 after changing the table above.
    BookWriterEntry entries[FIXTURE_N];
    fixture_entries(entries);
    char path[512], err[256] = "";
    fixture_path(path, sizeof path);
    if (getenv("PATZER_WRITE_FIXTURE")) {
        cr_assert(write_book(path, entries, FIXTURE_N, err, sizeof err), "%s", err);
        fixture_entries(entries);
    }
    make_tmp_path();
    cr_assert(write_book(tmp_path, entries, FIXTURE_N, err, sizeof err), "%s", err);
    static unsigned char want[4096], got[4096];
    size_t nwant = read_all(path, want, sizeof want);
    size_t ngot = read_all(tmp_path, got, sizeof got);
    cr_assert_eq(ngot, FIXTURE_N * 16);
    cr_assert(nwant == ngot && memcmp(want, got, ngot) == 0,
              "%s differs from what book_encode makes of the fixture table", path);
}

Test(book, fixture_size) {
    Book *book = open_fixture();
    cr_expect_eq(book_size(book), FIXTURE_N);
    book_close(book);
}

Test(book, probe_start_position) {
    Book *book = open_fixture();
    Board *b = load(START_FEN);
    BookMove moves[8];
    int n = book_moves(book, b, moves, 8);
    cr_assert_eq(n, 4, "the illegal e2e5 must be skipped");
    const char *want[4] = { "e2e4", "d2d4", "c2c4", "g1f3" };
    const unsigned weights[4] = { 50, 30, 15, 5 };
    for (int i = 0; i < 4; i++) {
        cr_expect_eq(moves[i].move, test_uci_move(b, want[i]), "move %d", i);
        cr_expect_eq(moves[i].weight, weights[i], "weight %d", i);
    }
    // max caps the answer, keeping the best.
    cr_expect_eq(book_moves(book, b, moves, 2), 2);
    cr_expect_eq(moves[0].move, test_uci_move(b, "e2e4"));
    cr_expect_eq(book_moves(book, b, moves, 0), 0);
    book_close(book);
}

Test(book, out_of_book) {
    Book *book = open_fixture();
    Board *b = load(START_FEN);
    play(b, "g1f3");
    BookMove moves[8];
    cr_expect_eq(book_moves(book, b, moves, 8), 0);
    uint64_t rng = 1;
    cr_expect_eq(book_pick(book, b, &rng), MOVE_NONE);
    book_close(book);
}

Test(book, pick_frequencies) {
    Book *book = open_fixture();
    Board *b = load(START_FEN);
    const char *names[4] = { "e2e4", "d2d4", "c2c4", "g1f3" };
    const int expected[4] = { 5000, 3000, 1500, 500 };
    int counts[4] = { 0 };
    uint64_t rng = 0x1234567ULL;
    for (int i = 0; i < 10000; i++) {
        Move m = book_pick(book, b, &rng);
        int j = 0;
        while (j < 4 && m != test_uci_move(b, names[j]))
            j++;
        cr_assert_lt(j, 4, "picked a move that is not in the book");
        counts[j]++;
    }
    // About five standard deviations: a fixed seed makes this deterministic anyway.
    for (int j = 0; j < 4; j++)
        cr_expect(abs(counts[j] - expected[j]) < 250, "%s picked %d times, expected about %d",
                  names[j], counts[j], expected[j]);
    book_close(book);
}

Test(book, pick_is_reproducible) {
    Book *book = open_fixture();
    Board *b = load(START_FEN);
    uint64_t r1 = 42, r2 = 42;
    for (int i = 0; i < 50; i++)
        cr_expect_eq(book_pick(book, b, &r1), book_pick(book, b, &r2));
    cr_expect_neq(r1, 42, "the generator state must advance");
    book_close(book);
}

Test(book, zero_weights) {
    Book *book = open_fixture();
    Board *b = load(START_FEN);
    play(b, "e2e4");
    BookMove moves[8];
    cr_assert_eq(book_moves(book, b, moves, 8), 2);
    cr_expect_eq(moves[0].move, test_uci_move(b, "c7c5"));
    cr_expect_eq(moves[1].weight, 0);
    uint64_t rng = 7;
    for (int i = 0; i < 200; i++)
        cr_expect_eq(book_pick(book, b, &rng), test_uci_move(b, "c7c5"));

    // All zero: every entry is a candidate.
    b = load(START_FEN);
    play(b, "d2d4");
    Move d5 = test_uci_move(b, "d7d5"), nf6 = test_uci_move(b, "g8f6");
    int seen_d5 = 0, seen_nf6 = 0;
    for (int i = 0; i < 200; i++) {
        Move m = book_pick(book, b, &rng);
        cr_assert(m == d5 || m == nf6);
        seen_d5 += m == d5;
        seen_nf6 += m == nf6;
    }
    cr_expect(seen_d5 > 0 && seen_nf6 > 0);
    book_close(book);
}

Test(book, castling_decoded) {
    Book *book = open_fixture();
    Board *b = load(CASTLE_FEN);
    BookMove moves[8];
    cr_assert_eq(book_moves(book, b, moves, 8), 2);
    cr_expect_eq(moves[0].move, move_make_kind(SQ_E1, SQ_G1, MOVE_CASTLING));
    cr_expect_eq(moves[1].move, move_make_kind(SQ_E1, SQ_C1, MOVE_CASTLING));
    cr_expect(movegen_is_legal(b, moves[0].move) && movegen_is_legal(b, moves[1].move));

    play(b, "a2a3");
    cr_assert_eq(book_moves(book, b, moves, 8), 2);
    cr_expect_eq(moves[0].move, move_make_kind(SQ_E8, SQ_G8, MOVE_CASTLING));
    cr_expect_eq(moves[1].move, move_make_kind(SQ_E8, SQ_C8, MOVE_CASTLING));

    // Without the right, king-takes-rook is not a move at all.
    b = load("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w Qkq - 0 1");
    cr_expect_eq(book_moves(book, b, moves, 8), 0);
    book_close(book);
}

Test(book, promotion_decoded) {
    Book *book = open_fixture();
    Board *b = load("8/4P3/8/8/8/8/k7/7K w - - 0 1");
    BookMove moves[8];
    cr_assert_eq(book_moves(book, b, moves, 8), 2);
    cr_expect_eq(moves[0].move, move_make_promotion(SQ_E8 - 8, SQ_E8, QUEEN));
    cr_expect_eq(moves[1].move, move_make_promotion(SQ_E8 - 8, SQ_E8, KNIGHT));
    book_close(book);
}

Test(book, encode_move) {
    Board *b = load(CASTLE_FEN);
    cr_expect_eq(book_encode_move(b, test_uci_move(b, "e1g1")), pg_move("e1h1"));
    cr_expect_eq(book_encode_move(b, test_uci_move(b, "e1c1")), pg_move("e1a1"));
    cr_expect_eq(book_encode_move(b, test_uci_move(b, "a2a4")), pg_move("a2a4"));
    play(b, "a2a3");
    cr_expect_eq(book_encode_move(b, test_uci_move(b, "e8g8")), pg_move("e8h8"));
    cr_expect_eq(book_encode_move(b, test_uci_move(b, "e8c8")), pg_move("e8a8"));
    b = load("8/4P3/8/8/8/8/k7/7K w - - 0 1");
    const char *promos[4] = { "e7e8n", "e7e8b", "e7e8r", "e7e8q" };
    for (int i = 0; i < 4; i++)
        cr_expect_eq(book_encode_move(b, test_uci_move(b, promos[i])), pg_move(promos[i]));
    // En passant is an ordinary pawn move in Polyglot.
    b = load("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1");
    cr_expect_eq(book_encode_move(b, test_uci_move(b, "e5d6")), pg_move("e5d6"));
}

// ------------------------------------------------------------------ raw files

static void write_raw(const unsigned char *bytes, size_t n) {
    make_tmp_path();
    FILE *f = fopen(tmp_path, "wb");
    cr_assert_not_null(f);
    cr_assert_eq(fwrite(bytes, 1, n, f), n);
    cr_assert_eq(fclose(f), 0);
}

static void raw_entry(unsigned char *e, Key key, uint16_t move, uint16_t weight) {
    for (int i = 0; i < 8; i++)
        e[i] = (unsigned char)(key >> (56 - 8 * i));
    e[8] = (unsigned char)(move >> 8);
    e[9] = (unsigned char)move;
    e[10] = (unsigned char)(weight >> 8);
    e[11] = (unsigned char)weight;
    memset(e + 12, 0, 4);
}

static void expect_rejected(const char *path, const char *fragment) {
    char err[256] = "";
    Book *book = book_open(path, err, sizeof err);
    cr_expect_null(book, "%s must be rejected", path);
    book_close(book);
    cr_expect(strstr(err, fragment) != NULL, "message '%s' lacks '%s'", err, fragment);
}

Test(book, rejects_missing_file) {
    expect_rejected("/nonexistent/patzer/book.bin", "cannot open");
}

Test(book, rejects_bad_size) {
    unsigned char bytes[17] = { 0 };
    write_raw(bytes, sizeof bytes);
    expect_rejected(tmp_path, "not a multiple of 16");
}

Test(book, rejects_empty_file) {
    unsigned char none[1] = { 0 };
    write_raw(none, 0);
    expect_rejected(tmp_path, "empty");
}

Test(book, rejects_unsorted) {
    unsigned char bytes[48];
    raw_entry(bytes, 1, 0, 1);
    raw_entry(bytes + 16, 3, 0, 1);
    raw_entry(bytes + 32, 2, 0, 1);
    write_raw(bytes, sizeof bytes);
    expect_rejected(tmp_path, "entry 2");
}

Test(book, rejects_directory) {
    expect_rejected("/", "not a regular file");
}

Test(book, check_file_refuses_what_open_refuses) {
    char err[256] = "";
    cr_expect_not(book_check_file("/nonexistent/patzer/book.bin", err, sizeof err));
    cr_expect(strstr(err, "cannot open") != NULL, "%s", err);
    cr_expect_not(book_check_file("/", err, sizeof err));
    unsigned char bytes[17] = { 0 };
    write_raw(bytes, sizeof bytes);
    cr_expect_not(book_check_file(tmp_path, err, sizeof err));
    cr_expect(strstr(err, "not a multiple of 16") != NULL, "%s", err);
    char path[512];
    fixture_path(path, sizeof path);
    cr_expect(book_check_file(path, err, sizeof err), "%s", err);
}

Test(book, duplicate_entries_merged) {
    // Two entries of one move (a book merged by another tool) count as one, weights added.
    Board *b = load(START_FEN);
    Key key = book_key(b);
    unsigned char bytes[64];
    raw_entry(bytes, key - 1, pg_move("e2e4"), 1000);
    raw_entry(bytes + 16, key, pg_move("d2d4"), 30);
    raw_entry(bytes + 32, key, pg_move("e2e4"), 20);
    raw_entry(bytes + 48, key, pg_move("d2d4"), 30);
    write_raw(bytes, sizeof bytes);
    Book *book = open_ok(tmp_path);
    BookMove moves[8];
    cr_assert_eq(book_moves(book, b, moves, 8), 2);
    cr_expect_eq(moves[0].move, test_uci_move(b, "d2d4"));
    cr_expect_eq(moves[0].weight, 60);
    cr_expect_eq(moves[1].weight, 20);
    book_close(book);
}

Test(book, write_merges_and_sorts) {
    BookWriterEntry e[] = {
        { 5, 0x0123, 10 }, { 2, 0x0456, 1 }, { 5, 0x0789, 40000 },
        { 5, 0x0123, 7 },  { 2, 0x0456, 2 }, { 5, 0x0789, 40000 },
    };
    make_tmp_path();
    char err[256] = "";
    cr_assert(write_book(tmp_path, e, 6, err, sizeof err), "%s", err);
    unsigned char got[128];
    cr_assert_eq(read_all(tmp_path, got, sizeof got), 48);
    unsigned char want[48];
    raw_entry(want, 2, 0x0456, 3);
    raw_entry(want + 16, 5, 0x0789, 65535); // capped
    raw_entry(want + 32, 5, 0x0123, 17);
    cr_expect(memcmp(got, want, sizeof want) == 0);
    Book *book = open_ok(tmp_path);
    cr_expect_eq(book_size(book), 3);
    book_close(book);
}

// The number of entries in dir other than "." and "..".
static int entries_in(const char *dir) {
    DIR *d = opendir(dir);
    cr_assert_not_null(d, "cannot list %s", dir);
    int n = 0;
    for (struct dirent *de; (de = readdir(d));)
        n += strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0;
    closedir(d);
    return n;
}

Test(book, write_failure_leaves_nothing) {
    BookWriterEntry e[] = { { 1, 0x0123, 1 } };
    char err[256] = "";
    cr_expect_not(write_book("/nonexistent/patzer/book.bin", e, 1, err, sizeof err));
    cr_expect(strstr(err, "/nonexistent/patzer/book.bin") != NULL, "message: %s", err);

    // A directory in the way of the rename: the temporary file must be removed.
    make_tmp_path();
    unlink(tmp_path);
    cr_assert_eq(mkdir(tmp_path, 0700), 0);
    char sub[300];
    snprintf(sub, sizeof sub, "%s/x", tmp_path);
    cr_assert_eq(mkdir(sub, 0700), 0);
    cr_expect_not(write_book(sub, e, 1, err, sizeof err));
    cr_expect_eq(entries_in(tmp_path), 1, "a temporary file was left beside %s", sub);
    rmdir(sub);
    rmdir(tmp_path);
    tmp_path[0] = '\0';

    size_t len = 99;
    cr_expect_null(book_encode(e, 0, &len), "no entries, no book");
    cr_expect_eq(len, 0);
}

// ------------------------------------------------------------------ real books

static bool any_of(const Board *b, const BookMove *moves, int n, const char *const *uci, int nuci) {
    for (int i = 0; i < n; i++)
        for (int j = 0; j < nuci; j++)
            if (moves[i].move == test_uci_move(b, uci[j]))
                return true;
    return false;
}

Test(book, gnuchess_book) {
    if (access(GNUCHESS_BOOK, R_OK) != 0)
        cr_skip_test("%s is not installed (apt-get install gnuchess-book)", GNUCHESS_BOOK);
    Book *book = open_ok(GNUCHESS_BOOK);
    cr_expect_gt(book_size(book), 1000);
    Board *b = load(START_FEN);
    BookMove moves[MAX_MOVES];
    int n = book_moves(book, b, moves, MAX_MOVES);
    cr_assert_gt(n, 0, "no book moves for the start position");
    const char *main_moves[] = { "e2e4", "d2d4", "c2c4", "g1f3" };
    cr_expect(any_of(b, moves, n, main_moves, 4));
    // Follow the heaviest line for a few moves: every position on it is in the book.
    for (int ply = 0; ply < 6 && n > 0; ply++) {
        board_play(b, moves[0].move);
        n = book_moves(book, b, moves, MAX_MOVES);
    }
    cr_expect_gt(n, 0, "the main line leaves the book within 6 plies");
    book_close(book);
}

Test(book, shipped_book) {
    const char *path = getenv("PATZER_BOOK");
    if (!path || !*path)
        path = TEST_BOOK;
    if (access(path, R_OK) != 0)
        cr_skip_test("%s has not been built", path);
    Book *book = open_ok(path);
    Board *b = load(START_FEN);
    BookMove moves[MAX_MOVES];
    int n = book_moves(book, b, moves, MAX_MOVES);
    cr_assert_geq(n, 4);
    const char *main_moves[] = { "e2e4", "d2d4", "c2c4", "g1f3" };
    for (int i = 0; i < 4; i++)
        cr_expect(any_of(b, moves, 4, &main_moves[i], 1), "%s not among the 4 best", main_moves[i]);
    // Black answers 1.e4 and 1.d4 from the book too.
    play(b, "e2e4");
    cr_expect_gt(book_moves(book, b, moves, MAX_MOVES), 0);
    b = load(START_FEN);
    play(b, "d2d4");
    cr_expect_gt(book_moves(book, b, moves, MAX_MOVES), 0);
    book_close(book);
}
