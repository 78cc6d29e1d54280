// SPDX-License-Identifier: GPL-3.0-or-later
// The opening explorer's index: the counts for the start position and after
// 1. e4 in tests/data/pgn/canonical.pgn (counted by hand from the file: its
// ten games are a Ruy Lopez 1-0, 1. f3 0-1, a game without moves, a set-up
// position, two 1. e4 e5 games (1-0 and *), 1. d4 1/2-1/2, and 1. g3, 1. Nc3,
// 1. d3, all *), ratings, the rebuild when the file changes, and a
// truncated or corrupted index found and rebuilt.
#include <criterion/criterion.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "src/explore/explorer.h"
#include "tests/helpers.h"

static char dir[64];

static void setup(void) {
    board_init_tables();
    test_temp_dir(dir, sizeof dir, "test_explore");
}

static void teardown(void) {
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_expect(system(cmd) == 0);
}

TestSuite(explore, .init = setup, .fini = teardown);

static void copy_file(const char *from, const char *to) {
    FILE *in = fopen(from, "rb"), *out = fopen(to, "wb");
    cr_assert(in && out, "copy %s to %s", from, to);
    char buf[8192];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, in)) > 0)
        cr_assert(fwrite(buf, 1, n, out) == n);
    fclose(in);
    cr_assert(fclose(out) == 0);
}

static void write_text(const char *path, const char *text, const char *mode) {
    FILE *f = fopen(path, mode);
    cr_assert(f, "open %s", path);
    fputs(text, f);
    cr_assert(fclose(f) == 0);
}

// A copy of a data file in the temporary folder, and its index path.
static void fixture(const char *name, char *pgn, size_t pgnsz, char *ix, size_t ixsz) {
    char src[512];
    test_data_path(name, src, sizeof src);
    snprintf(pgn, pgnsz, "%s/games.pgn", dir);
    copy_file(src, pgn);
    cr_assert(index_path_for(pgn, ix, ixsz, false));
}

static ExploreIndex *build_open(const char *pgn, const char *ix) {
    char err[512] = "";
    IndexProgress done;
    cr_assert(index_build(pgn, ix, 0, NULL, NULL, &done, err, sizeof err), "build: %s", err);
    ExploreIndex *x = index_open(pgn, ix, err, sizeof err);
    cr_assert(x, "open: %s", err);
    return x;
}

// The index of a PGN file written from text in the temporary folder.
static ExploreIndex *index_text(const char *name, const char *text) {
    char pgn[256], ix[512];
    snprintf(pgn, sizeof pgn, "%s/%s", dir, name);
    write_text(pgn, text, "w");
    cr_assert(index_path_for(pgn, ix, sizeof ix, false));
    return build_open(pgn, ix);
}

// What the index says of the start position.
static void collect_start(Explorer *e, ExploreIndex *x) {
    Board b;
    board_set_start(&b);
    explorer_collect(e, &b, &x, 1, NULL);
}

static const ExplorerRow *row(const Explorer *e, const char *san) {
    for (int i = 0; i < e->count; i++)
        if (!strcmp(e->rows[i].san, san))
            return &e->rows[i];
    return NULL;
}

static void expect_row(const Explorer *e, const char *san, long long games, long long w,
                       long long d, long long b) {
    const ExplorerRow *r = row(e, san);
    cr_assert(r, "no row for %s", san);
    cr_expect_eq(r->games, games, "%s: %lld games, not %lld", san, r->games, games);
    cr_expect_eq(r->white, w, "%s: white %lld", san, r->white);
    cr_expect_eq(r->draws, d, "%s: draws %lld", san, r->draws);
    cr_expect_eq(r->black, b, "%s: black %lld", san, r->black);
}

Test(explore, start_position_and_after_e4) {
    char pgn[256], ix[512];
    fixture("pgn/canonical.pgn", pgn, sizeof pgn, ix, sizeof ix);
    cr_expect(strstr(ix, ".pgn.pzx") != NULL, "index beside the file: %s", ix);
    ExploreIndex *x = build_open(pgn, ix);
    cr_expect_eq(index_games(x), 10);
    Board b;
    board_set_start(&b);
    Explorer e;
    explorer_collect(&e, &b, &x, 1, NULL);
    cr_expect_eq(e.games, 8, "8 games start with a move from the start position: %lld", e.games);
    cr_expect_eq(e.count, 6, "6 first moves: %d", e.count);
    expect_row(&e, "e4", 3, 2, 0, 0);
    expect_row(&e, "d4", 1, 0, 1, 0);
    expect_row(&e, "f3", 1, 0, 0, 1);
    expect_row(&e, "g3", 1, 0, 0, 0);
    expect_row(&e, "Nc3", 1, 0, 0, 0);
    expect_row(&e, "d3", 1, 0, 0, 0);
    cr_expect_str_eq(e.rows[0].san, "e4", "most played first");

    board_play(&b, test_uci_move(&b, "e2e4"));
    explorer_collect(&e, &b, &x, 1, NULL);
    cr_expect_eq(e.count, 1);
    expect_row(&e, "e5", 3, 2, 0, 0);
    board_play(&b, test_uci_move(&b, "e7e5"));
    explorer_collect(&e, &b, &x, 1, NULL);
    expect_row(&e, "Nf3", 1, 1, 0, 0);
    expect_row(&e, "Bc4", 1, 1, 0, 0);
    expect_row(&e, "Ke2", 1, 0, 0, 0);
    index_close(x);
}

Test(explore, two_files_add_up) {
    char pgn[256], ix[512], pgn2[256], ix2[512], src[512];
    fixture("pgn/canonical.pgn", pgn, sizeof pgn, ix, sizeof ix);
    test_data_path("pgn/cli_games.pgn", src, sizeof src);
    snprintf(pgn2, sizeof pgn2, "%s/more.pgn", dir);
    copy_file(src, pgn2);
    cr_assert(index_path_for(pgn2, ix2, sizeof ix2, false));
    ExploreIndex *x[2] = { build_open(pgn, ix), build_open(pgn2, ix2) };
    Board b;
    board_set_start(&b);
    Explorer e;
    explorer_collect(&e, &b, x, 2, NULL);
    // cli_games.pgn adds 1. e4 e5 (1-0) and 1. e4 d5 (0-1).
    expect_row(&e, "e4", 5, 3, 0, 1);
    cr_expect_eq(e.games, 10);
    index_close(x[0]);
    index_close(x[1]);
}

Test(explore, ratings_and_table) {
    ExploreIndex *x = index_text(
        "rated.pgn",
               "[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n[WhiteElo \"2000\"]\n"
               "[BlackElo \"1800\"]\n\n1. e4 e5 1-0\n\n"
               "[White \"C\"]\n[Black \"D\"]\n[Result \"0-1\"]\n[WhiteElo \"2100\"]\n"
               "[BlackElo \"?\"]\n\n1. e4 c5 0-1\n\n"
               "[White \"E\"]\n[Black \"F\"]\n[Result \"1/2-1/2\"]\n\n1. d4 d5 1/2-1/2\n");
    Explorer e;
    collect_start(&e, x);
    const ExplorerRow *r = row(&e, "e4");
    cr_assert(r);
    cr_expect_eq(r->rated, 2);
    cr_expect_eq(r->rating_sum, 1900 + 2100);
    cr_expect_eq(row(&e, "d4")->rated, 0);
    char text[4096];
    explorer_format(&e, "Title", "3 games", text, sizeof text);
    cr_expect(strncmp(text, "Title\n3 games\n", 14) == 0, "%s", text);
    cr_expect(strstr(text, "\ne4              2    50%     0%    50%    2000      -\n"), "%s", text);
    cr_expect(strstr(text, "\nd4              1     0%   100%     0%       -      -\n"), "%s", text);
    cr_expect_eq(explorer_row_at(&e, "d4              1     0%   100%"), 1);
    cr_expect_eq(explorer_row_at(&e, "move        games"), -1);
    index_close(x);
}

static IndexState check(const char *pgn, const char *ix, char *why, size_t whysz) {
    return index_check(pgn, ix, why, whysz);
}

Test(explore, rebuilt_when_the_file_changes) {
    char pgn[256], ix[512], why[256];
    fixture("pgn/canonical.pgn", pgn, sizeof pgn, ix, sizeof ix);
    cr_expect_eq(check(pgn, ix, why, sizeof why), INDEX_MISSING);
    ExploreIndex *x = build_open(pgn, ix);
    cr_expect(index_current(x));
    index_close(x);
    cr_expect_eq(check(pgn, ix, why, sizeof why), INDEX_FRESH, "%s", why);

    // Appended to: size and tail change.
    write_text(pgn, "\n[Result \"1-0\"]\n\n1. e4 c5 1-0\n", "a");
    cr_expect_eq(check(pgn, ix, why, sizeof why), INDEX_STALE, "%s", why);
    char err[512];
    cr_expect_null(index_open(pgn, ix, err, sizeof err), "a stale index does not open");
    x = build_open(pgn, ix);
    Board b;
    board_set_start(&b);
    Explorer e;
    explorer_collect(&e, &b, &x, 1, NULL);
    expect_row(&e, "e4", 4, 3, 0, 0);
    index_close(x);

    // Rewritten in place with the same size and mtime: the head's hash tells.
    struct stat st;
    cr_assert(stat(pgn, &st) == 0);
    int fd = open(pgn, O_WRONLY);
    cr_assert(fd >= 0);
    cr_assert(pwrite(fd, "[Event \"Tricky \\\"quotes\\\" event\"]", 34, 0) == 34);
    struct timespec times[2] = { st.st_atim, st.st_mtim };
    cr_assert(futimens(fd, times) == 0);
    close(fd);
    cr_expect_eq(check(pgn, ix, why, sizeof why), INDEX_STALE, "%s", why);
}

static void damage(const char *path, long offset, bool truncate_there) {
    int fd = open(path, O_RDWR);
    cr_assert(fd >= 0);
    if (truncate_there) {
        cr_assert(ftruncate(fd, offset) == 0);
    } else {
        unsigned char c;
        cr_assert(pread(fd, &c, 1, offset) == 1);
        c ^= 0x5A;
        cr_assert(pwrite(fd, &c, 1, offset) == 1);
    }
    close(fd);
}

Test(explore, corrupted_or_truncated_index_is_found_and_rebuilt) {
    char pgn[256], ix[512], why[256], err[512];
    fixture("pgn/canonical.pgn", pgn, sizeof pgn, ix, sizeof ix);
    index_close(build_open(pgn, ix));
    struct stat st;
    cr_assert(stat(ix, &st) == 0);
    cr_expect_eq(st.st_size, 96 + 16 * 170, "96-byte header, 16 bytes per position: %lld",
                 (long long)st.st_size);

    damage(ix, st.st_size - 20, false); // a record
    cr_expect_eq(check(pgn, ix, why, sizeof why), INDEX_FRESH, "the header still holds");
    cr_expect_null(index_open(pgn, ix, err, sizeof err));
    cr_expect(strstr(err, "corrupted"), "%s", err);
    index_close(build_open(pgn, ix));

    damage(ix, 40, false); // the header
    cr_expect_eq(check(pgn, ix, why, sizeof why), INDEX_BAD);
    cr_expect(strstr(why, "corrupted"), "%s", why);
    index_close(build_open(pgn, ix));

    damage(ix, st.st_size - 16, true);
    cr_expect_eq(check(pgn, ix, why, sizeof why), INDEX_BAD);
    cr_expect(strstr(why, "truncated"), "%s", why);
    damage(ix, 50, true);
    cr_expect_eq(check(pgn, ix, why, sizeof why), INDEX_BAD);
    cr_expect(strstr(why, "truncated"), "%s", why);

    write_text(ix, "not an index at all, but long enough to have a header of 96 bytes, "
                   "which it does not have..............",
               "w");
    cr_expect_eq(check(pgn, ix, why, sizeof why), INDEX_BAD);
    cr_expect(strstr(why, "not a patzer index"), "%s", why);

    ExploreIndex *x = build_open(pgn, ix);
    cr_expect_eq(index_games(x), 10);
    index_close(x);
}

Test(explore, cache_folder_when_the_file_is_read_only) {
    if (geteuid() == 0)
        cr_skip_test("root writes anywhere");
    char sub[128], pgn[256], ix[512], cache[128];
    snprintf(sub, sizeof sub, "%s/ro", dir);
    snprintf(cache, sizeof cache, "%s/cache", dir);
    cr_assert(mkdir(sub, 0755) == 0);
    snprintf(pgn, sizeof pgn, "%s/games.pgn", sub);
    char src[512];
    test_data_path("pgn/canonical.pgn", src, sizeof src);
    copy_file(src, pgn);
    cr_assert(chmod(sub, 0555) == 0);
    setenv("XDG_CACHE_HOME", cache, 1);
    cr_assert(index_path_for(pgn, ix, sizeof ix, true));
    cr_expect(strncmp(ix, cache, strlen(cache)) == 0, "in the cache: %s", ix);
    cr_expect(strstr(ix, "/patzer/games.pgn-") != NULL, "%s", ix);
    index_close(build_open(pgn, ix));
    chmod(sub, 0755);
}

static bool count_calls(const IndexProgress *p, void *ctx) {
    IndexProgress *last = ctx;
    *last = *p;
    return true;
}

static bool cancel(const IndexProgress *p, void *ctx) {
    (void)p;
    (void)ctx;
    return false;
}

Test(explore, progress_and_cancel) {
    char pgn[256], ix[512], err[512];
    fixture("pgn/canonical.pgn", pgn, sizeof pgn, ix, sizeof ix);
    IndexProgress seen = { 0 }, done = { 0 };
    cr_assert(index_build(pgn, ix, 0, count_calls, &seen, &done, err, sizeof err), "%s", err);
    cr_expect_eq(done.games, 10);
    cr_expect_eq(done.positions, 170, "40 plies at most per game: %lld", done.positions);
    cr_expect_eq(seen.games, 10, "the last report is the end");
    cr_expect_eq(seen.bytes, seen.total_bytes);
    cr_expect_gt(seen.total_bytes, 0);
    unlink(ix);
    cr_expect_not(index_build(pgn, ix, 0, cancel, NULL, &done, err, sizeof err));
    cr_expect(strstr(err, "cancelled"), "%s", err);
    cr_expect(access(ix, F_OK) != 0, "no index is left behind");
}

Test(explore, a_position_reached_twice_counts_the_game_once) {
    ExploreIndex *x = index_text("back.pgn",
                                 "[Result \"1-0\"]\n\n1. Nf3 Nf6 2. Ng1 Ng8 3. e4 e5 1-0\n\n"
                                 "[Result \"0-1\"]\n\n1. e4 e5 0-1\n");
    Explorer e;
    collect_start(&e, x);
    cr_expect_eq(e.games, 2, "two games pass through the start: %lld", e.games);
    expect_row(&e, "Nf3", 1, 1, 0, 0); // the move the game played there first
    expect_row(&e, "e4", 1, 0, 0, 1);
    index_close(x);
}
