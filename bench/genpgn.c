// SPDX-License-Identifier: GPL-3.0-or-later
// bench/genpgn: writes a large, reproducible PGN file for bench/pgn.sh.
//
//   bench/genpgn OUTFILE [GAMES [SEED]]      (defaults: 20000 games, seed 1)
//
// Each game is a sequence of legal moves picked at random with weights that
// favour captures, checks, castling and queen promotions, so the games look
// varied: 40 to 160 plies, or fewer when one ends in mate, stalemate, a
// threefold repetition, the fifty-move rule or dead material. Games carry the
// seven tag roster plus Elo and TimeControl tags, a [%clk] comment after every
// move and now and then a text comment. The same GAMES and SEED always give
// the same file. Built only by "make bench-pgn"; never installed.
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/fen.h"
#include "engine/line.h"
#include "engine/movegen.h"
#include "src/pgn/pgn.h"

enum {
    DEFAULT_GAMES = 20000,
    MIN_PLIES = 40,
    MAX_PLIES = 160,
    START_CLOCK_MS = 300000, // 5 minutes
    INCREMENT_MS = 3000,     // + 3 seconds a move
    MAX_THINK_MS = 12000,
};

static uint64_t rng_state;

// splitmix64: small, fast and the same on every platform.
static uint64_t rng_next(void) {
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15u);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    return z ^ (z >> 31);
}

// A number in [0, n); n > 0. The small bias of the modulo does not matter here.
static unsigned rng_below(unsigned n) {
    return (unsigned)(rng_next() % n);
}

static const char *const NAMES[] = {
    "Adler, Anna",    "Brandt, Boris", "Castro, Clara", "Dietz, Daniel",
    "Eriksen, Eva",   "Fischer, Finn", "Garcia, Greta", "Horvath, Hugo",
    "Ivanova, Irina", "Jansen, Jonas", "Kowalski, Kai", "Larsen, Lena",
    "Moreau, Marc",   "Novak, Nina",   "Olsen, Otto",   "Petrov, Paul",
};
enum { NAME_COUNT = sizeof NAMES / sizeof NAMES[0] };

static const char *const REMARKS[] = {
    "A sharp try.",          "The only move.",
    "Better was to castle.", "Time trouble.",
    "White is pressing.",    "Black equalises.",
    "An inaccuracy.",        "Now the knight is strong.",
    "Risky, but it works.",
};
enum { REMARK_COUNT = sizeof REMARKS / sizeof REMARKS[0] };

// How much more likely than a plain move this one is to be picked.
static unsigned move_weight(Board *b, Move m) {
    unsigned w = 2;
    if (move_is_promotion(m))
        w = move_promotion(m) == QUEEN ? 24 : 1;
    else if (move_kind(m) == MOVE_CASTLING)
        w = 12;
    else if (board_is_capture(b, m))
        w = 8;
    if (board_gives_check(b, m))
        w += 4;
    return w;
}

static Move pick_move(Board *b) {
    static MoveList list;
    unsigned weights[MAX_MOVES];
    unsigned total = 0;
    movegen_legal(b, &list);
    for (int i = 0; i < list.count; i++) {
        weights[i] = move_weight(b, list.moves[i]);
        total += weights[i];
    }
    if (total == 0)
        return MOVE_NONE;
    unsigned x = rng_below(total);
    for (int i = 0; i < list.count; i++) {
        if (x < weights[i])
            return list.moves[i];
        x -= weights[i];
    }
    return list.moves[list.count - 1];
}

// Plays one game into g; false when out of memory.
static bool make_game(PgnGame *g, int number) {
    static Line line; // the game so far, for repetitions
    char text[64];
    pgn_game_clear(g);
    Board start;
    board_set_start(&start);
    line_init(&line, &start);

    unsigned w = rng_below(NAME_COUNT), bl = (w + 1 + rng_below(NAME_COUNT - 1)) % NAME_COUNT;
    snprintf(text, sizeof text, "%04u.%02u.%02u", 2000 + rng_below(25), 1 + rng_below(12),
             1 + rng_below(28));
    char round[16], welo[8], belo[8];
    snprintf(round, sizeof round, "%d", number);
    snprintf(welo, sizeof welo, "%u", 1200 + rng_below(1600));
    snprintf(belo, sizeof belo, "%u", 1200 + rng_below(1600));
    if (!pgn_set_tag(g, "Event", "patzer PGN benchmark") || !pgn_set_tag(g, "Site", "?") ||
        !pgn_set_tag(g, "Date", text) || !pgn_set_tag(g, "Round", round) ||
        !pgn_set_tag(g, "White", NAMES[w]) || !pgn_set_tag(g, "Black", NAMES[bl]) ||
        !pgn_set_tag(g, "WhiteElo", welo) || !pgn_set_tag(g, "BlackElo", belo) ||
        !pgn_set_tag(g, "TimeControl", "300+3"))
        return false;

    long long clock_ms[2] = { START_CLOCK_MS, START_CLOCK_MS };
    int target = MIN_PLIES + (int)rng_below(MAX_PLIES - MIN_PLIES + 1);
    const char *result = NULL;
    for (int ply = 0; ply < target && !result; ply++) {
        Move m = pick_move(&line.board);
        if (m == MOVE_NONE)
            break; // not reached: the end of the game is noticed below
        Color side = line.board.side;
        long long think = rng_below(MAX_THINK_MS);
        clock_ms[side] =
            clock_ms[side] > think ? clock_ms[side] - think + INCREMENT_MS : INCREMENT_MS;
        const char *remark = rng_below(24) == 0 ? REMARKS[rng_below(REMARK_COUNT)] : NULL;
        if (!pgn_append_move(g, m, NULL, clock_ms[side] / 1000 * 1000, remark))
            return false;
        line_play(&line, m);
        if (movegen_is_checkmate(&line.board))
            result = line.board.side == WHITE ? "0-1" : "1-0";
        else if (movegen_is_stalemate(&line.board) || board_insufficient_material(&line.board) ||
                 line.board.halfmove >= 100 || line_repetitions(&line) >= 2)
            result = "1/2-1/2";
    }
    if (!result) {
        static const char *const UNFINISHED[] = { "1-0", "0-1", "1/2-1/2", "*" };
        result = UNFINISHED[rng_below(4)];
    }
    pgn_set_result(g, result);
    return true;
}

static bool parse_count(const char *text, uint64_t max, uint64_t *out) {
    char *end;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    if (errno || end == text || *end || text[0] == '-' || v > max)
        return false;
    *out = v;
    return true;
}

int main(int argc, char **argv) {
    // An option-looking or all-digit first word is a mistaken call (genpgn
    // --help, genpgn 10000), not a file to fill with a million lines.
    bool digits = argc >= 2 && argv[1][0] && strspn(argv[1], "0123456789") == strlen(argv[1]);
    if (argc < 2 || argc > 4 || argv[1][0] == '-' || digits) {
        fputs("usage: genpgn OUTFILE [GAMES [SEED]]\n", stderr);
        return 2;
    }
    uint64_t games = DEFAULT_GAMES, seed = 1;
    if (argc > 2 && (!parse_count(argv[2], 10000000, &games) || games == 0)) {
        fprintf(stderr, "genpgn: GAMES '%s' is not a number from 1 to 10000000\n", argv[2]);
        return 2;
    }
    if (argc > 3 && !parse_count(argv[3], UINT64_MAX, &seed)) {
        fprintf(stderr, "genpgn: SEED '%s' is not a non-negative number\n", argv[3]);
        return 2;
    }
    board_init_tables();
    rng_state = seed;

    FILE *out = fopen(argv[1], "wb");
    if (!out) {
        fprintf(stderr, "genpgn: cannot create %s: %s\n", argv[1], strerror(errno));
        return 1;
    }
    PgnGame *g = pgn_game_new();
    if (!g) {
        fputs("genpgn: out of memory\n", stderr);
        fclose(out); // the failure is reported already
        return 1;
    }
    bool ok = true;
    for (uint64_t i = 1; ok && i <= games; i++) {
        size_t len;
        char *text = make_game(g, (int)i) ? pgn_write_string(g, &len) : NULL;
        if (!text) {
            fputs("genpgn: out of memory\n", stderr);
            ok = false;
            break;
        }
        if (fwrite(text, 1, len, out) != len) {
            fprintf(stderr, "genpgn: writing %s: %s\n", argv[1], strerror(errno));
            ok = false;
        }
        free(text);
    }
    pgn_game_free(g);
    if (fclose(out) != 0 && ok) {
        fprintf(stderr, "genpgn: writing %s: %s\n", argv[1], strerror(errno));
        ok = false;
    }
    if (!ok) {
        remove(argv[1]); // a partial file would only mislead; nothing more to do if this fails
        return 1;
    }
    return 0;
}
