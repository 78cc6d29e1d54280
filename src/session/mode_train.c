// SPDX-License-Identifier: GPL-3.0-or-later
// Mode train: puzzles from mistakes. Entering it searches a PGN file (the
// player's archive, or train FILE) for puzzles on a thread of its own, as
// review does, skipping the games searched before; then it serves the
// puzzles due, one at a time, from the puzzle book in the user data folder.
// A right move is answered by the solution's reply until the line ends; a
// wrong one by the engine's refutation, and the puzzle fails. Every result
// goes to the book at once (schedule and rating).
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "src/pgn/read.h"
#include "src/session/session_int.h"
#include "src/util/paths.h"
#include "src/util/text.h"

enum {
    GAME_PUZZLES_MAX = 32, // per game
    REFUTE_DEPTH = 10,     // the search that answers a wrong move
    REFUTE_SHOWN = 6,      // plies of the refutation in the message
};

static const Transition stay = { .kind = TR_STAY };

// The time the book's schedule counts in (wall clock, unlike the session's).
static int64_t wall_now(void) {
    return (int64_t)time(NULL);
}

// ------------------------------------------------------------ the search thread

// The sides whose moves count in an archived game: patzer's tags say who was
// human; else a side named as the player is (or "Human", "You").
static void player_sides(const TrainState *t, const PgnGame *g, bool sides[COLOR_NB]) {
    static const char *const kind_tags[] = { "PatzerWhite", "PatzerBlack" };
    static const char *const name_tags[] = { "White", "Black" };
    for (Color c = WHITE; c <= BLACK; c++) {
        const char *kind = pgn_tag(g, kind_tags[c]), *name = pgn_tag(g, name_tags[c]);
        if (kind)
            sides[c] = strcmp(kind, "human") == 0;
        else
            sides[c] = name && ((t->names[c][0] && !strcmp(name, t->names[c])) ||
                                !strcmp(name, "Human") || !strcmp(name, "You"));
    }
}

// Room for `need` elements in a growing array.
static bool reserve(void **items, int *cap, int need, size_t size) {
    if (need <= *cap)
        return true;
    int n = *cap ? *cap : 16;
    while (n < need)
        n *= 2;
    void *p = realloc(*items, (size_t)n * size);
    if (!p)
        return false;
    *items = p;
    *cap = n;
    return true;
}

static void progress(TrainState *t, EventKind kind) {
    Event ev = { .kind = kind,
                 .request = t->id,
                 .done = atomic_load(&t->games_done),
                 .total = atomic_load(&t->puzzles_found) };
    eventq_push(t->events, &ev);
}

// Searches every game of t->path not searched before (the book is only read
// while the thread runs).
static void *search_thread(void *arg) {
    TrainState *t = arg;
    PgnReader *r = pgn_reader_open(t->path, t->scan_error, sizeof t->scan_error);
    PgnGame *g = pgn_game_new();
    Puzzle *found = malloc(GAME_PUZZLES_MAX * sizeof *found);
    PgnError error;
    PuzzleOptions opt;
    puzzle_options_default(&opt);
    opt.cancel = &t->cancel;
    const char *base = strrchr(t->path, '/');
    base = base ? base + 1 : t->path;
    int number = 0, status;
    while (r && g && found && !atomic_load(&t->cancel) &&
           (status = pgn_reader_next(r, g, &error)) != 0) {
        number++;
        if (status < 0)
            continue; // a broken game: the others still count
        uint64_t key = puzzlebook_game_key(g);
        if (puzzlebook_is_scanned(t->book, key))
            continue;
        if (t->archive)
            player_sides(t, g, opt.sides);
        char source[PUZZLE_SOURCE_MAX];
        snprintf(source, sizeof source, "%.400s#%d", t->archive ? base : t->path, number);
        int n = opt.sides[WHITE] || opt.sides[BLACK]
                    ? puzzle_find(t->engine, g, source, &opt, found, GAME_PUZZLES_MAX)
                    : 0;
        if (atomic_load(&t->cancel))
            break; // this game is not finished: searched again next time
        if (n < 0 ||
            !reserve((void **)&t->found, &t->found_cap, t->found_count + n, sizeof *t->found) ||
            !reserve((void **)&t->keys, &t->key_cap, t->key_count + 1, sizeof *t->keys)) {
            snprintf(t->scan_error, sizeof t->scan_error, "out of memory finding puzzles");
            break;
        }
        memcpy(t->found + t->found_count, found, (size_t)n * sizeof *found);
        t->found_count += n;
        t->keys[t->key_count++] = key;
        atomic_fetch_add(&t->puzzles_found, n);
        atomic_fetch_add(&t->games_done, 1);
        progress(t, EV_TRAIN_PROGRESS);
    }
    if (r == NULL && !t->scan_error[0])
        snprintf(t->scan_error, sizeof t->scan_error, "cannot read %.400s", t->path);
    pgn_reader_close(r);
    pgn_game_free(g);
    free(found);
    progress(t, EV_TRAIN_DONE);
    return NULL;
}

static void join(TrainState *t) {
    if (!t->running)
        return;
    atomic_store(&t->cancel, true);
    engine_stop(t->engine);
    pthread_join(t->thread, NULL);
    t->running = false;
}

static void release(TrainState *t) {
    join(t);
    engine_free(t->engine);
    puzzlebook_free(t->book);
    game_free(t->game);
    free(t->found);
    free(t->keys);
    free(t->queue);
    unsigned id = t->id; // keeps counting, so that old events stay old
    memset(t, 0, sizeof *t);
    t->id = id;
    t->index = -1;
}

// ------------------------------------------------------------ the book

static void save_book(Session *s) {
    TrainState *t = &s->train;
    char err[512];
    if (t->book_path[0] && !puzzlebook_save(t->book, t->book_path, err, sizeof err))
        session_say(s, MSG_ERROR, "Cannot save the puzzles: %s", err);
}

static bool queue_push(TrainState *t, int index, int at) {
    if (!reserve((void **)&t->queue, &t->queue_cap, t->queue_len + 1, sizeof *t->queue))
        return false;
    if (at > t->queue_len)
        at = t->queue_len;
    memmove(t->queue + at + 1, t->queue + at, (size_t)(t->queue_len - at) * sizeof *t->queue);
    t->queue[at] = index;
    t->queue_len++;
    return true;
}

// A game of the position shown, both sides human, no clock.
static Game *position_game(const Session *s, const char *fen) {
    GameSettings settings = s->opts.settings;
    snprintf(settings.start_fen, sizeof settings.start_fen, "%s", fen ? fen : "");
    memset(&settings.tc, 0, sizeof settings.tc);
    memset(settings.names, 0, sizeof settings.names);
    char err[256];
    return session_game_from_line(s, &settings, NULL, 0, 0, err, sizeof err);
}

static const Puzzle *shown(const Session *s) {
    const TrainState *t = &s->train;
    return t->book && t->index >= 0 ? &t->book->items[t->index].puzzle : NULL;
}

static const char *side_name(Color c) {
    return c == WHITE ? "White" : "Black";
}

// Shows puzzle number pos of the queue. False when the queue is done.
static bool show_puzzle(Session *s, int64_t now) {
    TrainState *t = &s->train;
    (void)now;
    t->index = -1;
    t->over = t->failed = t->hinted = false;
    t->step = 0;
    pointing_reset(s);
    if (t->pos >= t->queue_len)
        return false;
    const Puzzle *p = &t->book->items[t->queue[t->pos]].puzzle;
    Game *g = position_game(s, p->fen);
    if (!g) {
        session_say(s, MSG_ERROR, "out of memory showing a puzzle");
        return false;
    }
    game_free(t->game);
    t->game = g;
    t->index = t->queue[t->pos];
    s->flipped = game_turn(g) == BLACK;
    session_changed(s);
    return true;
}

static void summary(Session *s) {
    TrainState *t = &s->train;
    session_say(s, MSG_INFO,
                "No more puzzles due: %d solved, %d failed this time. Your puzzle rating: %d. "
                "back returns to your game.",
                t->solved_count, t->failed_count, t->book->rating);
}

// The next puzzle of the queue (or the end of it).
static void next_puzzle(Session *s, int64_t now) {
    TrainState *t = &s->train;
    if (t->index >= 0)
        t->pos++;
    if (!show_puzzle(s, now)) {
        summary(s);
        session_changed(s);
        return;
    }
    // The status line says what to find (a message would hide it on a screen).
}

// The search is over: its puzzles go to the book, the games into its list,
// and the puzzles due are queued.
static Transition start_solving(Session *s, int64_t now) {
    TrainState *t = &s->train;
    join(t);
    int64_t when = wall_now();
    int added = 0;
    for (int i = 0; i < t->found_count; i++) {
        int before = t->book->count;
        if (puzzlebook_add(t->book, &t->found[i], when) < 0)
            break;
        added += t->book->count > before;
    }
    for (int i = 0; i < t->key_count; i++)
        puzzlebook_mark_scanned(t->book, t->keys[i]);
    if (t->scan_error[0])
        session_say(s, MSG_ERROR, "%s", t->scan_error);
    save_book(s);
    int count = t->book->count;
    int *due = malloc((size_t)(count ? count : 1) * sizeof *due);
    int n = due ? puzzlebook_due(t->book, when, t->prefix[0] ? t->prefix : NULL, due, count) : 0;
    for (int i = 0; i < n; i++)
        queue_push(t, due[i], t->queue_len);
    free(due);
    char found[160];
    snprintf(found, sizeof found, "%d new puzzle%s in %d game%s searched; %d due now.", added,
             added == 1 ? "" : "s", atomic_load(&t->games_done),
             atomic_load(&t->games_done) == 1 ? "" : "s", t->queue_len);
    if (t->queue_len == 0) {
        session_say(s, MSG_INFO, "%s", found);
        session_say(s, MSG_INFO, "No puzzles due%s. Your puzzle rating: %d.",
                    count ? " (the others come back later)" : "", t->book->rating);
        return (Transition){ .kind = TR_BACK };
    }
    t->index = -1;
    t->pos = 0;
    next_puzzle(s, now);
    if (t->index >= 0)
        session_say(s, MSG_INFO, "%s %s to move: find the best move.", found,
                    side_name(game_turn(t->game)));
    return stay;
}

// ------------------------------------------------------------ enter, leave

static bool train_enter(Session *s, const ModeArgs *args, int64_t now) {
    (void)now;
    TrainState *t = &s->train;
    const char *path = args->path ? args->path : s->opts.archive_path;
    if (!path[0] || (!args->path && access(path, F_OK) != 0)) {
        session_say(s, MSG_ERROR,
                    "No games of yours in the archive yet: play some, or train FILE "
                    "finds puzzles in the games of FILE.");
        return false;
    }
    if (args->path && access(path, R_OK) != 0) {
        session_say(s, MSG_ERROR, "Cannot read %s: %s", path, strerror(errno));
        return false;
    }
    release(t); // train again while training: start over
    t->archive = !args->path;
    snprintf(t->path, sizeof t->path, "%s", path);
    for (Color c = WHITE; c <= BLACK; c++)
        memcpy(t->names[c], s->opts.settings.names[c], sizeof t->names[c]);
    if (!t->archive)
        snprintf(t->prefix, sizeof t->prefix, "%s#", path);
    t->book = puzzlebook_new();
    t->engine = engine_new();
    t->game = position_game(s, NULL);
    t->events = s->think.events;
    char warn[PUZZLEBOOK_WARN_MAX], err[512];
    if (!paths_user_data_file("puzzles", t->book_path, sizeof t->book_path, true))
        t->book_path[0] = '\0';
    if (!t->book || !t->engine || !t->game) {
        release(t);
        session_say(s, MSG_ERROR, "out of memory starting the training");
        return false;
    }
    if (t->book_path[0] &&
        !puzzlebook_load(t->book, t->book_path, warn, sizeof warn, err, sizeof err)) {
        session_say(s, MSG_ERROR, "%s", err);
        release(t);
        return false;
    }
    if (t->book_path[0] && warn[0])
        session_say(s, MSG_ERROR, "%s", warn);
    t->id++;
    atomic_init(&t->cancel, false);
    atomic_init(&t->games_done, 0);
    atomic_init(&t->puzzles_found, 0);
    if (pthread_create(&t->thread, NULL, search_thread, t) != 0) {
        release(t);
        session_say(s, MSG_ERROR, "Cannot start the search for puzzles.");
        return false;
    }
    t->running = true;
    think_cancel(&s->think);
    memset(&s->think.thinking, 0, sizeof s->think.thinking);
    session_say(s, MSG_INFO, "Looking for puzzles in %s%s... (stop starts with those found)",
                t->archive ? "your games, " : "", path);
    return true;
}

static void train_leave(Session *s, int64_t now) {
    (void)now;
    release(&s->train);
    pointing_reset(s);
}

// ------------------------------------------------------------ solving

// "12... Qxe4+": move m of board b with its number.
static void numbered(const Board *b, Move m, char *buf, size_t bufsz) {
    notation_line(b, &m, 1, buf, bufsz);
}

// Records the result of the puzzle shown; note gets the rating's change when
// it counted (the first attempt) and where the puzzle came from.
static void grade(Session *s, PuzzleGrade g, char *note, size_t notesz) {
    TrainState *t = &s->train;
    int before = t->book->rating;
    bool rated = t->book->items[t->index].attempts == 0;
    puzzlebook_grade(t->book, t->index, g, wall_now());
    save_book(s);
    t->over = true;
    if (g == GRADE_FAILED) {
        t->failed = true;
        t->failed_count++;
        // Back after a few others in this session (and first in the next).
        queue_push(t, t->index, t->pos + 1 + PUZZLEBOOK_RETRY_AFTER);
    } else {
        t->solved_count++;
    }
    session_changed(s);
    char rating[64] = "";
    if (rated)
        snprintf(rating, sizeof rating, " Rating %d -> %d.", before, t->book->rating);
    snprintf(note, notesz, "%s (The game: %s.)", rating, shown(s)->source);
}

static void show_solution(Session *s, int64_t now) {
    TrainState *t = &s->train;
    const Puzzle *p = shown(s);
    char text[256] = "";
    puzzle_solution_text(p, text, sizeof text);
    Game *g = position_game(s, p->fen);
    if (g) {
        for (int i = 0; i < p->length; i++)
            if (game_play_move(g, p->solution[i], VALUE_NONE, 0, now) != GAME_OK)
                break;
        game_free(t->game);
        t->game = g;
    }
    t->step = p->length;
    char note[PUZZLE_SOURCE_MAX + 64] = "";
    if (!t->over)
        grade(s, GRADE_FAILED, note, sizeof note); // redraws
    else
        session_changed(s);
    session_say(s, MSG_INFO, "Solution: %s.%s next: the next puzzle.", text, note);
}

// A wrong move m: the engine's refutation, on the board and in words.
static void wrong(Session *s, Move m, int64_t now) {
    TrainState *t = &s->train;
    Board before = *game_board(t->game);
    char played[32];
    numbered(&before, m, played, sizeof played);
    game_play_move(t->game, m, VALUE_NONE, 0, now);
    Move line[REFUTE_SHOWN];
    int score;
    int n =
        puzzle_refutation(t->engine, game_board(t->game), REFUTE_DEPTH, line, REFUTE_SHOWN, &score);
    if (n > 0)
        game_play_move(t->game, line[0], VALUE_NONE, 0, now);
    char refutation[160] = "", eval[16] = "";
    if (n > 0) {
        Board after = before;
        board_play(&after, m);
        notation_line(&after, line, n, refutation, sizeof refutation);
        // The score is the refuter's; shown from White's view like the analysis.
        review_format_score(after.side == WHITE ? score : -score, eval, sizeof eval);
    }
    char solution[256] = "";
    puzzle_solution_text(shown(s), solution, sizeof solution);
    char note[PUZZLE_SOURCE_MAX + 64];
    grade(s, GRADE_FAILED, note, sizeof note);
    if (n > 0)
        session_say(s, MSG_INFO,
                    "Wrong: %s is met by %s (%s). The solution: %s.%s solution shows it; next: "
                    "the next puzzle.",
                    played, refutation, eval, solution, note);
    else
        session_say(s, MSG_INFO, "Wrong: %s. The solution: %s.%s next: the next puzzle.", played,
                    solution, note);
}

static void try_move(Session *s, const char *text, int64_t now) {
    TrainState *t = &s->train;
    if (t->running) {
        session_say(s, MSG_ERROR, "Still looking for puzzles (stop starts with those found).");
        return;
    }
    const Puzzle *p = shown(s);
    if (!p || t->over) {
        session_say(s, MSG_ERROR,
                    p ? "This puzzle is over: next for the next one."
                      : "No puzzle to solve: back returns to your game.");
        return;
    }
    if (pointing_text(s, text, now))
        return;
    const Board *b = game_board(t->game);
    Move m;
    char err[512] = "";
    NotationStatus st = notation_parse_move(b, text, &m, err, sizeof err);
    if (st != NOTATION_OK) {
        GameStatus why = st == NOTATION_AMBIGUOUS ? GAME_ERR_AMBIGUOUS
                         : st == NOTATION_ILLEGAL ? GAME_ERR_ILLEGAL
                                                  : GAME_ERR_PARSE;
        session_move_error(s, text, why, err);
        return;
    }
    pointing_reset(s);
    if (!puzzle_move_is_right(p, t->step, b, m)) {
        wrong(s, m, now);
        return;
    }
    char mine[32];
    numbered(b, m, mine, sizeof mine);
    game_play_move(t->game, m, VALUE_NONE, 0, now);
    t->step++;
    if (t->step >= p->length || game_is_over(t->game)) {
        char note[PUZZLE_SOURCE_MAX + 64];
        grade(s, t->hinted ? GRADE_HINTED : GRADE_SOLVED, note, sizeof note);
        session_say(s, MSG_INFO, "%s: right. Solved%s!%s next: the next puzzle.", mine,
                    t->hinted ? " with a hint" : "", note);
        return;
    }
    Move reply = p->solution[t->step];
    char theirs[32];
    numbered(game_board(t->game), reply, theirs, sizeof theirs);
    game_play_move(t->game, reply, VALUE_NONE, 0, now);
    t->step++;
    session_changed(s);
    session_say(s, MSG_INFO, "%s: right. %s replies %s; find the next move.", mine,
                side_name(!game_turn(t->game)), theirs);
}

static void hint(Session *s) {
    TrainState *t = &s->train;
    const Puzzle *p = shown(s);
    if (!p || t->over) {
        session_say(s, MSG_ERROR, "No puzzle to give a hint for.");
        return;
    }
    Move m = p->solution[t->step];
    Piece piece = board_piece_on(game_board(t->game), move_from(m));
    char from[3];
    square_name(move_from(m), from);
    t->hinted = true;
    session_say(s, MSG_INFO, "Hint: move your %s on %s.", pointing_piece_name(piece_type(piece)),
                from);
}

static Transition train_handle(Session *s, const Command *cmd, int64_t now) {
    TrainState *t = &s->train;
    if (t->running && cmd->kind != CMD_STOP && cmd->kind != CMD_MOVE) {
        session_say(s, MSG_ERROR, "Still looking for puzzles (stop starts with those found).");
        return stay;
    }
    switch (cmd->kind) {
    case CMD_MOVE: try_move(s, cmd->text, now); break;
    case CMD_HINT: hint(s); break;
    case CMD_SOLUTION:
        if (shown(s))
            show_solution(s, now);
        else
            session_say(s, MSG_ERROR, "No puzzle shown.");
        break;
    case CMD_NEXT: next_puzzle(s, now); break;
    case CMD_STOP:
        if (t->running)
            return start_solving(s, now);
        session_say(s, MSG_ERROR, "Nothing to stop; back returns to your game.");
        break;
    default: session_say(s, MSG_ERROR, "'%s' does nothing here.", command_name(cmd->kind));
    }
    return stay;
}

static Transition train_poll(Session *s, const Event *ev, int64_t now) {
    TrainState *t = &s->train;
    if (!ev || ev->request != t->id || !t->running)
        return stay;
    if (ev->kind == EV_TRAIN_DONE)
        return start_solving(s, now);
    return stay;
}

// The puzzle's game; the live game when none could be made (a new train
// failed while training).
static const Game *train_game(const Session *s) {
    return s->train.game ? s->train.game : s->live;
}
static const Board *train_board(const Session *s) {
    return game_board(train_game(s));
}

static void train_status(const Session *s, char *buf, size_t bufsz) {
    const TrainState *t = &s->train;
    const Puzzle *p = shown(s);
    if (t->running) {
        int games = atomic_load(&t->games_done), found = atomic_load(&t->puzzles_found);
        snprintf(buf, bufsz, "Looking for puzzles: %d %s searched, %d %s found...  [train]", games,
                 text_plural(games, "game", "games"), found,
                 text_plural(found, "puzzle", "puzzles"));
    } else if (!p) {
        snprintf(buf, bufsz, "No puzzle: back returns to your game  [train]");
    } else if (t->over) {
        snprintf(buf, bufsz, "%s (puzzle %d of %d; your rating %d): next for the next one  [train]",
                 t->failed ? "Failed" : "Solved", t->pos + 1, t->queue_len, t->book->rating);
    } else {
        snprintf(buf, bufsz,
                 "%s to move: find the %s move (puzzle %d of %d, rating %d; yours %d)"
                 "  [train]",
                 side_name(game_turn(t->game)), t->step ? "next" : "best", t->pos + 1, t->queue_len,
                 p->rating, t->book->rating);
    }
}

static PgnGame *train_to_pgn(Session *s, int64_t now) {
    return session_to_pgn(s->train.game, s->openings, now);
}

// Searching the games for puzzles.
static bool train_busy(const Session *s) {
    return s->train.running;
}

const ModeOps mode_train_ops = {
    .enter = train_enter,
    .leave = train_leave,
    .handle = train_handle,
    .poll = train_poll,
    .game = train_game,
    .board = train_board,
    .status = train_status,
    .to_pgn = train_to_pgn,
    .refusal_hint = " (back returns to your game)",
    .points = true,
    .hides_opening = true,
    .busy = train_busy,
    .play_move = try_move,
};
