// SPDX-License-Identifier: GPL-3.0-or-later
// bench/review_judge: scores the marks of an annotated PGN file against a
// strong UCI engine (the judge), for bench/review_judge.sh.
//
//   bench/review_judge [--judge CMD] [--depth N] [--cache FILE] [--openings FILE]
//                      [--book FILE] [--verbose] [--peer-depth N [--peer-cache FILE]]
//                      GAMES.pgn RUN.pgn [RUN2.pgn]
//
// GAMES.pgn holds the games, RUN.pgn the same games as `patzer annotate`
// wrote them (RUN2.pgn: a second run, for stability). The judge (default
// /usr/games/stockfish, depth 16, one thread) scores every position of every
// game; each move is classified by the mover's loss of winning chances,
// lichess's way: win% = 50 + 50 * (2 / (1 + e^(-0.00368208 * cp)) - 1), cp
// capped at +-1000 (a mate counts as the cap), a loss of 5/10/15 points is an
// inaccuracy/mistake/blunder. The judge's evaluations are cached in FILE (one
// line per position: FEN, score, mate, best move), so that runs share them.
// Before each position the judge gets `ucinewgame` (a cleared hash and
// history), so a score depends on the position and the game's moves before
// it (repetitions), never on what was searched before: a cache built in any
// order holds the same scores. The cache's first line names its version and
// depth (CACHE_HEADER); a cache without it (built before round 10, when the
// hash was kept) or of another depth is refused, never mixed in.
//
// Prints one line of `key=value` figures: marks, precision and recall of
// "mistake or worse" (? and ??) and of "blunder" (??), marks in the first 8
// moves and how many of them the judge does not support, marks on theory
// (the opening book's and the named lines' moves, src/game/theory.h), the
// share of better moves shown that are the judge's best, better moves the
// judge scores worse than the move played (by 1 point of win% or more),
// marks on the judge's own best move, and with RUN2 the Jaccard index of the
// ?/?? marks of the two runs. --verbose prints, on standard error, a line
// "game N White - Black" before each game's lines. With --peer-depth, also
// the precision and recall of the judge's own "mistake or worse" at that
// depth (its evaluations cached in the peer cache): how far the judge
// agrees with itself.
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/fen.h"
#include "engine/line.h"
#include "engine/movegen.h"
#include "engine/notation.h"
#include "src/game/openings.h"
#include "src/game/theory.h"
#include "src/pgn/pgn.h"
#include "src/protocol/uci_client.h"

enum { CACHE_MAX = 1 << 16, FIRST_MOVES_PLIES = 16, UCI_START_MS = 10000, NEW_GAME_MS = 30000 };

// Version 2: ucinewgame before each position (version 1 had no header line).
#define CACHE_HEADER "# review_judge cache v2 ucinewgame depth %d\n"

typedef struct Eval {
    char fen[FEN_MAX];
    int cp;    // side to move's view
    int mate;  // 0, or mate in N (negative: mated)
    Move best; // MOVE_NONE: none
} Eval;

typedef struct Judge {
    bool verbose; // a line per mark and per mistake of the judge, on stderr
    UciClient *uci;
    int depth;
    Eval *cache;
    int count;
    FILE *out; // the cache file, appended to
    Eval drawn; // a repetition's draw: of the game, not of the position, so never cached
} Judge;

// Winning chances of the side to move, 0..100.
static double win_percent(const Eval *e) {
    int cp = e->mate > 0 ? 1000 : e->mate < 0 ? -1000 : e->cp;
    cp = cp > 1000 ? 1000 : cp < -1000 ? -1000 : cp;
    return 50.0 + 50.0 * (2.0 / (1.0 + exp(-0.00368208 * cp)) - 1.0);
}

// False when the file is a cache of another version or depth.
static bool load_cache(Judge *j, const char *path) {
    FILE *f = fopen(path, "r");
    char line[512], header[64];
    snprintf(header, sizeof header, CACHE_HEADER, j->depth);
    if (f && fgets(line, sizeof line, f) && strcmp(line, header) != 0) {
        line[strcspn(line, "\n")] = '\0';
        fprintf(stderr,
                "review_judge: %s is not a version 2 cache of depth %d (its first line: %s)\n",
                path, j->depth, line);
        fclose(f);
        return false;
    }
    while (f && fgets(line, sizeof line, f) && j->count < CACHE_MAX) {
        Eval *e = &j->cache[j->count];
        char *tab = strchr(line, '\t');
        if (!tab)
            continue;
        *tab = '\0';
        char best[16] = "";
        if (sscanf(tab + 1, "%d %d %15s", &e->cp, &e->mate, best) < 2)
            continue;
        if (strlen(line) >= sizeof e->fen)
            continue;
        memcpy(e->fen, line, strlen(line) + 1);
        Board b;
        e->best = MOVE_NONE;
        if (board_set_fen(&b, e->fen, NULL, 0) && strcmp(best, "none") != 0)
            (void)notation_parse_uci(&b, best, &e->best);
        j->count++;
    }
    bool empty = j->count == 0 && (!f || ftell(f) == 0);
    if (f)
        fclose(f);
    j->out = fopen(path, "a");
    if (j->out && empty)
        fputs(header, j->out);
    return true;
}

// Whether b (reached by moves[0..n) from start) stands for the third time,
// which ends the game drawn. A search from it does not know that: it scores
// the position as if play went on.
static bool third_repetition(const Board *start, const Move *moves, int n) {
    Line line;
    line_init(&line, start);
    for (int i = 0; i < n; i++)
        line_play(&line, moves[i]);
    return line_repetitions(&line) >= 2; // twice before, and now
}

// The judge's evaluation of b (reached by moves[0..n) from start).
static const Eval *judge(Judge *j, const Board *start, const Move *moves, int n, const Board *b) {
    char fen[FEN_MAX];
    board_to_fen(b, fen, sizeof fen);
    if (third_repetition(start, moves, n)) {
        memset(&j->drawn, 0, sizeof j->drawn);
        snprintf(j->drawn.fen, sizeof j->drawn.fen, "%s", fen);
        j->drawn.best = MOVE_NONE;
        return &j->drawn;
    }
    for (int i = 0; i < j->count; i++)
        if (strcmp(j->cache[i].fen, fen) == 0)
            return &j->cache[i];
    if (j->count >= CACHE_MAX)
        return NULL;
    Eval *e = &j->cache[j->count];
    memset(e, 0, sizeof *e);
    snprintf(e->fen, sizeof e->fen, "%s", fen);
    MoveList legal;
    movegen_legal(b, &legal);
    if (legal.count == 0) {
        e->mate = board_in_check(b) ? -1 : 0; // mated: the worst; stalemate: level
    } else {
        SearchLimits limits;
        search_limits_init(&limits);
        limits.depth = j->depth;
        EngineResult *res = malloc(sizeof *res);
        // A cleared hash: the score must not depend on the positions searched before.
        if (!res || !uci_client_new_game(j->uci, NEW_GAME_MS) ||
            !uci_client_search(j->uci, start, moves, n, &limits, 1, 600000, 5000, res) ||
            res->line_count < 1) {
            fprintf(stderr, "review_judge: the judge failed on %s\n", fen);
            free(res);
            return NULL;
        }
        e->cp = res->score;
        e->mate = res->mate;
        e->best = res->best;
        free(res);
    }
    char best[MOVE_TEXT_MAX] = "none";
    if (e->best != MOVE_NONE)
        notation_to_uci(e->best, best);
    if (j->out) {
        fprintf(j->out, "%s\t%d %d %s\n", e->fen, e->cp, e->mate, best);
        fflush(j->out);
    }
    j->count++;
    return e;
}

typedef struct Tally {
    int plies, marks, mistakes_marked, judge_mistakes, hit_mistakes;
    int blunders_marked, judge_blunders, hit_blunders;
    int early_marks, early_false, theory_marks;
    int suggestions, suggestions_best, suggestions_worse, marks_on_best;
    int stable_both, stable_either;
    int peer_marked, peer_hits; // the peer judge's "mistake or worse" (--peer-depth)
} Tally;

static bool is_mistake_nag(int nag) {
    return nag == 2 || nag == 4;
}

static int mark_of(const PgnNode *n) {
    for (int i = 0; i < n->nag_count; i++)
        if (n->nags[i] == 2 || n->nags[i] == 4 || n->nags[i] == 6)
            return n->nags[i];
    return 0;
}

// Scores one game: g the original, a and a2 (may be NULL) its annotations.
static bool score_game(Judge *j, Judge *peer, const PgnGame *g, const PgnGame *a, const PgnGame *a2,
                       const Openings *o, const Book *book, Tally *t) {
    int n = pgn_mainline_length(g);
    if (pgn_mainline_length(a) != n || (a2 && pgn_mainline_length(a2) != n)) {
        fprintf(stderr, "review_judge: the annotated game differs from the original\n");
        return false;
    }
    int theory = theory_plies(g, o, book);
    Board start, b, after;
    if (!pgn_position_at(g, 0, &start))
        return false;
    Move *moves = malloc((size_t)(n + 1) * sizeof *moves);
    if (!moves)
        return false;
    for (int k = 0; k < n; k++)
        moves[k] = pgn_mainline_move(g, k);
    bool ok = true;
    for (int k = 0; ok && k < n; k++) {
        if (!pgn_position_at(g, k, &b) || !pgn_position_at(g, k + 1, &after)) {
            ok = false;
            break;
        }
        const Eval *before = judge(j, &start, moves, k, &b);
        const Eval *then = judge(j, &start, moves, k + 1, &after);
        if (!before || !then) {
            ok = false;
            break;
        }
        // The mover's chances before (best play) and after the move.
        double wb = win_percent(before), wa = 100.0 - win_percent(then);
        double loss = wb - wa;
        bool judge_mistake = loss >= 10.0, judge_blunder = loss >= 15.0;
        int mark = mark_of(pgn_mainline_node(a, k));
        t->plies++;
        t->judge_mistakes += judge_mistake;
        t->judge_blunders += judge_blunder;
        if (mark) {
            t->marks++;
            if (k < FIRST_MOVES_PLIES) {
                t->early_marks++;
                double need = mark == 4 ? 15.0 : mark == 2 ? 10.0 : 5.0;
                t->early_false += loss < need;
            }
            t->theory_marks += k < theory;
            t->marks_on_best += before->best == moves[k];
        }
        const char *comment = pgn_mainline_node(a, k)->comment;
        if (j->verbose && comment && then->mate == 0) {
            // The judge's and the annotation's evaluation after the move, White's view.
            char *end;
            double mine = strtod(comment, &end);
            int white = after.side == WHITE ? then->cp : -then->cp;
            if (end != comment && *end == '\0')
                fprintf(stderr, "evalpair %d %.0f\n", white, mine * 100.0);
        }
        if (j->verbose && (mark || loss >= 5.0)) {
            char san[MOVE_TEXT_MAX], best[MOVE_TEXT_MAX] = "-";
            notation_to_san(&b, moves[k], san);
            if (before->best != MOVE_NONE)
                notation_to_san(&b, before->best, best);
            const PgnNode *v = pgn_mainline_node(a, k)->variation;
            char shown[MOVE_TEXT_MAX] = "-";
            if (v && movegen_is_legal(&b, v->move))
                notation_to_san(&b, v->move, shown);
            // The judge's view before and after (the mover's; m: mate in N), and the
            // pieces on the board, for sorting the disagreements by kind.
            fprintf(stderr,
                    "ply %3d %-7s judge %5.2f best %-7s mark %d shown %-7s before %d m%d after %d "
                    "m%d pieces %d%s\n",
                    k, san, loss, best, mark, shown, before->cp, before->mate, -then->cp,
                    -then->mate, __builtin_popcountll(board_occupied(&b)),
                    k < theory ? " theory" : "");
        }
        if (is_mistake_nag(mark)) {
            t->mistakes_marked++;
            t->hit_mistakes += judge_mistake;
        }
        if (mark == 4) {
            t->blunders_marked++;
            t->hit_blunders += judge_blunder;
        }
        const PgnNode *var = pgn_mainline_node(a, k)->variation;
        if (mark && var && movegen_is_legal(&b, var->move)) {
            t->suggestions++;
            t->suggestions_best += var->move == before->best;
            moves[k] = var->move;
            Board alt = b;
            board_play(&alt, var->move);
            const Eval *s = judge(j, &start, moves, k + 1, &alt);
            moves[k] = pgn_mainline_move(g, k);
            if (!s)
                ok = false;
            else if (100.0 - win_percent(s) <= wa - 1.0) {
                t->suggestions_worse++;
                if (j->verbose)
                    fprintf(stderr, "worse ply %3d: the move played %.1f%%, the one shown %.1f%%\n",
                            k, wa, 100.0 - win_percent(s));
            }
        }
        if (peer) {
            // The same engine at another depth, judged like the annotation: how far
            // a strong engine agrees with itself, a ceiling for any annotator.
            const Eval *pb = judge(peer, &start, moves, k, &b);
            const Eval *pa = judge(peer, &start, moves, k + 1, &after);
            if (!pb || !pa) {
                ok = false;
                break;
            }
            bool peer_mistake = win_percent(pb) - (100.0 - win_percent(pa)) >= 10.0;
            t->peer_marked += peer_mistake;
            t->peer_hits += peer_mistake && judge_mistake;
        }
        if (a2) {
            bool m1 = is_mistake_nag(mark), m2 = is_mistake_nag(mark_of(pgn_mainline_node(a2, k)));
            t->stable_both += m1 && m2;
            t->stable_either += m1 || m2;
        }
    }
    free(moves);
    return ok;
}

static double ratio(int a, int b) {
    return b ? (double)a / b : 0.0;
}

int main(int argc, char **argv) {
    const char *cmd = "/usr/games/stockfish", *cache = "review_judge.cache";
    const char *openings_path = NULL, *book_path = NULL;
    const char *files[3] = { NULL, NULL, NULL };
    int nfiles = 0, depth = 16, peer_depth = 0;
    const char *peer_cache = "review_judge.peer.cache";
    bool verbose = false;
    for (int i = 1; i < argc; i++) {
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(argv[i], "--judge") && v)
            cmd = argv[++i];
        else if (!strcmp(argv[i], "--peer-depth") && v)
            peer_depth = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--peer-cache") && v)
            peer_cache = argv[++i];
        else if (!strcmp(argv[i], "--depth") && v)
            depth = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--cache") && v)
            cache = argv[++i];
        else if (!strcmp(argv[i], "--openings") && v)
            openings_path = argv[++i];
        else if (!strcmp(argv[i], "--verbose"))
            verbose = true;
        else if (!strcmp(argv[i], "--book") && v)
            book_path = argv[++i];
        else if (nfiles < 3 && argv[i][0] != '-')
            files[nfiles++] = argv[i];
        else {
            fprintf(stderr, "review_judge: bad argument '%s'\n", argv[i]);
            return 2;
        }
    }
    if (nfiles < 2 || depth < 1) {
        fprintf(stderr, "usage: review_judge [--judge CMD] [--depth N] [--cache FILE] "
                        "[--openings FILE] [--book FILE] [--verbose] [--peer-depth N "
                        "[--peer-cache FILE]] GAMES.pgn RUN.pgn [RUN2.pgn]\n");
        return 2;
    }
    char err[256];
    char *judge_argv[] = { (char *)cmd, NULL };
    Judge j = { .verbose = verbose, .depth = depth, .cache = calloc(CACHE_MAX, sizeof(Eval)) };
    j.uci = uci_client_start(judge_argv, UCI_START_MS, err, sizeof err);
    if (!j.cache || !j.uci) {
        fprintf(stderr, "review_judge: %s: %s\n", cmd, j.cache ? err : "out of memory");
        return 1;
    }
    (void)uci_client_set_option(j.uci, "Threads", "1", false, err, sizeof err);
    (void)uci_client_set_option(j.uci, "Hash", "64", false, err, sizeof err);
    if (!load_cache(&j, cache))
        return 1;
    Judge peer = { .depth = peer_depth };
    if (peer_depth > 0) {
        peer.cache = calloc(CACHE_MAX, sizeof(Eval));
        peer.uci = uci_client_start(judge_argv, UCI_START_MS, err, sizeof err);
        if (!peer.cache || !peer.uci) {
            fprintf(stderr, "review_judge: %s: %s\n", cmd, peer.cache ? err : "out of memory");
            return 1;
        }
        (void)uci_client_set_option(peer.uci, "Threads", "1", false, err, sizeof err);
        (void)uci_client_set_option(peer.uci, "Hash", "64", false, err, sizeof err);
        if (!load_cache(&peer, peer_cache))
            return 1;
    }
    if (openings_path && access(openings_path, R_OK) != 0) { // read lazily: check it now
        fprintf(stderr, "review_judge: %s: %s\n", openings_path, strerror(errno));
        return 1;
    }
    Openings *o = openings_path ? openings_open(openings_path) : NULL;
    Book *book = book_path ? book_open(book_path, err, sizeof err) : NULL;
    if (book_path && !book) { // a review without its book marks theory: refuse, do not guess
        fprintf(stderr, "review_judge: %s\n", err);
        return 1;
    }

    PgnReader *r[3] = { NULL, NULL, NULL };
    PgnGame *g[3] = { NULL, NULL, NULL };
    for (int i = 0; i < nfiles; i++) {
        r[i] = pgn_reader_open(files[i], err, sizeof err);
        g[i] = pgn_game_new();
        if (!r[i] || !g[i]) {
            fprintf(stderr, "review_judge: %s\n", r[i] ? "out of memory" : err);
            return 1;
        }
    }
    Tally t = { 0 };
    PgnError *perr = malloc(sizeof *perr);
    int games = 0;
    for (bool more = perr != NULL; more;) {
        for (int i = 0; i < nfiles && more; i++)
            if (pgn_reader_next(r[i], g[i], perr) <= 0)
                more = false;
        if (!more)
            break;
        games++;
        if (verbose) { // so that a line can be traced to its game
            const char *white = pgn_tag(g[0], "White"), *black = pgn_tag(g[0], "Black");
            fprintf(stderr, "game %d %s - %s\n", games, white ? white : "?", black ? black : "?");
        }
        if (!score_game(&j, peer_depth > 0 ? &peer : NULL, g[0], g[1], nfiles > 2 ? g[2] : NULL, o,
                        book, &t)) {
            fprintf(stderr, "review_judge: game %d failed\n", games);
            return 1;
        }
    }
    printf("games=%d plies=%d marks=%d judge_mistakes=%d marked_mistakes=%d right_mistakes=%d "
           "precision_mistake=%.2f recall_mistake=%.2f judge_blunders=%d marked_blunders=%d "
           "right_blunders=%d precision_blunder=%.2f recall_blunder=%.2f early_marks=%d "
           "early_false=%d theory_marks=%d suggestions=%d suggestions_best=%.2f "
           "suggestions_worse=%d marks_on_judge_best=%d",
           games, t.plies, t.marks, t.judge_mistakes, t.mistakes_marked, t.hit_mistakes,
           ratio(t.hit_mistakes, t.mistakes_marked), ratio(t.hit_mistakes, t.judge_mistakes),
           t.judge_blunders, t.blunders_marked, t.hit_blunders,
           ratio(t.hit_blunders, t.blunders_marked), ratio(t.hit_blunders, t.judge_blunders),
           t.early_marks, t.early_false, t.theory_marks, t.suggestions,
           ratio(t.suggestions_best, t.suggestions), t.suggestions_worse, t.marks_on_best);
    if (nfiles > 2)
        printf(" jaccard=%.2f", t.stable_either ? ratio(t.stable_both, t.stable_either) : 1.0);
    if (peer_depth > 0)
        printf(" peer_depth=%d peer_marked=%d peer_right=%d peer_precision_mistake=%.2f "
               "peer_recall_mistake=%.2f",
               peer_depth, t.peer_marked, t.peer_hits, ratio(t.peer_hits, t.peer_marked),
               ratio(t.peer_hits, t.judge_mistakes));
    printf("\n");
    for (int i = 0; i < nfiles; i++) {
        pgn_reader_close(r[i]);
        pgn_game_free(g[i]);
    }
    free(perr);
    openings_free(o);
    book_close(book);
    uci_client_free(j.uci);
    if (peer.uci)
        uci_client_free(peer.uci);
    if (peer.out)
        fclose(peer.out);
    free(peer.cache);
    if (j.out)
        fclose(j.out);
    free(j.cache);
    return 0;
}
