// SPDX-License-Identifier: GPL-3.0-or-later
// The game controller: the record with undo/redo, the clocks, the players, and
// every way a game ends, as a state machine over the engine's board. The
// record's moves, comments and tags live in its document.
#include "src/game/game.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "engine/chess960.h"
#include "engine/errmsg.h"
#include "engine/movegen.h"

enum {
    DEFAULT_LEVEL = 10,
    DEFAULT_BASE_MS = 5 * 60 * 1000,
    DEFAULT_INC_MS = 3 * 1000,
    // Untimed games: a fixed time per engine move that grows with the level.
    UNTIMED_MOVETIME_BASE_MS = 1000,
    UNTIMED_MOVETIME_PER_LEVEL_MS = 100,
    END_TEXT_MAX = OUTCOME_TEXT_MAX,
    MESSAGE_MAX = 256,
};

// The clocks as they stood after a ply (or at the start of the record).
typedef struct ClockSnapshot {
    int64_t ms[COLOR_NB];
    int period[COLOR_NB];
    int moves_in_period[COLOR_NB];
} ClockSnapshot;

struct Game {
    GameSettings settings;
    PgnGame *doc;                    // the record: main line = record[0..top), tags
    Board start;                     // the start position, to replay from
    Board board;                     // the current position
    GameMove record[GAME_MAX_PLIES]; // played plies, then the redo tail
    Key keys[GAME_MAX_PLIES];        // keys[i]: the position before record[i]
    int ply;                         // plies played
    int top;                         // plies recorded, redo tail included
    ClockSnapshot start_clock;       // the clocks at ply 0
    Clock clock;
    bool clock_started; // the game has begun (the clocks ran)
    bool paused;
    GameResult result;
    GameEnd end;
    Color end_side; // who mated, resigned or lost on time
    char end_text[END_TEXT_MAX];
    char variant[24]; // "Chess960 #518", empty for standard chess
    unsigned generation;
};

static const char *const color_names[COLOR_NB] = { "White", "Black" };

static Color opponent(Color c) {
    return (Color)!c;
}

static int clamp_level(int level) {
    return level < LEVEL_MIN ? LEVEL_MIN : level > LEVEL_MAX ? LEVEL_MAX : level;
}

void game_settings_default(GameSettings *s) {
    memset(s, 0, sizeof *s);
    s->players[WHITE] = PLAYER_HUMAN;
    s->players[BLACK] = PLAYER_ENGINE;
    s->level = DEFAULT_LEVEL;
    s->chess960_number = -1;
    s->tc.untimed = false;
    s->tc.count = 1;
    s->tc.periods[0] = (TimePeriod){
        .moves = 0, .base_ms = DEFAULT_BASE_MS, .inc_ms = DEFAULT_INC_MS, .delay = DELAY_NONE
    };
}

// ------------------------------------------------------------------ tags

// Tags of patzer's own that let a saved game be resumed as it was.
#define TAG_WHITE_PLAYER "PatzerWhite"
#define TAG_BLACK_PLAYER "PatzerBlack"
#define TAG_LEVEL        "PatzerLevel"
#define TAG_TIME         "PatzerTime"
// How the game ended, exactly ("resignation white": the ending and the side
// that mated, resigned, claimed or lost on time), which the standard
// Termination tag ("normal", "time forfeit") cannot say.
#define TAG_END "PatzerEnd"

// The words of TAG_END, indexed by GameEnd.
static const char *const end_words[] = {
    [END_NONE] = "none",
    [END_CHECKMATE] = "checkmate",
    [END_STALEMATE] = "stalemate",
    [END_INSUFFICIENT_MATERIAL] = "insufficient-material",
    [END_FIVEFOLD_REPETITION] = "fivefold-repetition",
    [END_SEVENTY_FIVE_MOVES] = "seventy-five-moves",
    [END_THREEFOLD_REPETITION] = "threefold-repetition",
    [END_FIFTY_MOVES] = "fifty-moves",
    [END_RESIGNATION] = "resignation",
    [END_AGREEMENT] = "agreement",
    [END_TIME_FORFEIT] = "time-forfeit",
    [END_TIME_DRAW] = "time-draw",
};
_Static_assert(sizeof end_words / sizeof end_words[0] == END_TIME_DRAW + 1, "one word per ending");

const char *game_end_word(GameEnd end) {
    return end >= END_NONE && end <= END_TIME_DRAW ? end_words[end] : end_words[END_NONE];
}

GameEnd game_end_from_word(const char *word) {
    for (int e = END_NONE + 1; e <= END_TIME_DRAW; e++)
        if (strcmp(word, end_words[e]) == 0)
            return (GameEnd)e;
    return END_NONE;
}

static const char *termination(const Game *g) {
    switch (g->end) {
    case END_NONE: return "unterminated";
    case END_TIME_FORFEIT:
    case END_TIME_DRAW: return "time forfeit";
    default: return "normal";
    }
}

static void player_name(const Game *g, Color c, char *buf, size_t bufsz) {
    const GameSettings *s = &g->settings;
    if (s->names[c][0])
        snprintf(buf, bufsz, "%s", s->names[c]);
    else if (s->players[c] == PLAYER_ENGINE)
        snprintf(buf, bufsz, "patzer level %d", s->level);
    else
        snprintf(buf, bufsz, "Human");
}

// The tags that follow from the game's settings and outcome, written into
// doc (the game's own, or a copy to save). False when out of memory.
static bool write_tags(const Game *g, PgnGame *doc) {
    char buf[160];
    bool ok = true;
    if (!pgn_tag(doc, "Event"))
        ok = pgn_set_tag(doc, "Event", "patzer game") && pgn_set_tag(doc, "Site", "patzer") &&
             pgn_set_tag(doc, "Date", "????.??.??") && pgn_set_tag(doc, "Round", "-");
    for (Color c = WHITE; ok && c <= BLACK; c++) {
        player_name(g, c, buf, sizeof buf);
        ok = pgn_set_tag(doc, c == WHITE ? "White" : "Black", buf) &&
             pgn_set_tag(doc, c == WHITE ? TAG_WHITE_PLAYER : TAG_BLACK_PLAYER,
                         g->settings.players[c] == PLAYER_ENGINE ? "engine" : "human");
    }
    pgn_set_result(doc, outcome_result_text(g->result));
    timecontrol_format_pgn(&g->settings.tc, buf, sizeof buf);
    ok = ok && pgn_set_tag(doc, "TimeControl", buf) &&
         pgn_set_tag(doc, "Termination", termination(g));
    snprintf(buf, sizeof buf, "%d", g->settings.level);
    ok = ok && pgn_set_tag(doc, TAG_LEVEL, buf);
    timecontrol_format(&g->settings.tc, buf, sizeof buf);
    ok = ok && pgn_set_tag(doc, TAG_TIME, buf);
    if (g->settings.chess960)
        ok = ok && pgn_set_tag(doc, "Variant", "Chess960");
    else
        pgn_remove_tag(doc, "Variant");
    if (g->result != RESULT_NONE) {
        snprintf(buf, sizeof buf, "%s %s", end_words[g->end],
                 g->end_side == WHITE ? "white" : "black");
        ok = ok && pgn_set_tag(doc, TAG_END, buf);
    } else {
        pgn_remove_tag(doc, TAG_END);
    }
    return ok;
}

// The game's own document follows a change of settings or outcome. When
// memory runs out its tags stay behind; game_document writes them again.
static void sync_tags(Game *g) {
    (void)write_tags(g, g->doc);
}

// ------------------------------------------------------------------ clocks

static void snapshot_take(const Clock *c, ClockSnapshot *s) {
    for (int side = WHITE; side < COLOR_NB; side++) {
        s->ms[side] = c->remaining_ms[side];
        s->period[side] = c->period[side];
        s->moves_in_period[side] = c->moves_in_period[side];
    }
}

static void snapshot_to_move(const ClockSnapshot *s, GameMove *gm) {
    memcpy(gm->clock_ms, s->ms, sizeof gm->clock_ms);
    memcpy(gm->period, s->period, sizeof gm->period);
    memcpy(gm->moves_in_period, s->moves_in_period, sizeof gm->moves_in_period);
}

// The clocks after `ply` plies: the record's or the start's.
static ClockSnapshot snapshot_at(const Game *g, int ply) {
    ClockSnapshot s = g->start_clock;
    if (ply > 0) {
        const GameMove *gm = &g->record[ply - 1];
        memcpy(s.ms, gm->clock_ms, sizeof s.ms);
        memcpy(s.period, gm->period, sizeof s.period);
        memcpy(s.moves_in_period, gm->moves_in_period, sizeof s.moves_in_period);
    }
    return s;
}

// The clock of the document's node of `ply`: the mover's time after it
// (none in an untimed game).
static void node_clock(Game *g, int ply) {
    const PgnNode *n = pgn_mainline_node(g->doc, ply);
    if (!n)
        return;
    Color mover = (ply & 1) ? (Color)!g->start.side : g->start.side;
    pgn_node_set_clock(g->doc, n, g->settings.tc.untimed ? -1 : g->record[ply].clock_ms[mover]);
}

// Whether the side to move's clock should be running now.
static bool clock_should_run(const Game *g) {
    return g->clock_started && !g->paused && g->result == RESULT_NONE;
}

// Puts the clocks back to the values after `ply` plies, the side to move's
// clock running from now if the game is under way.
static void restore_clock(Game *g, int ply, int64_t now) {
    ClockSnapshot s = snapshot_at(g, ply);
    g->clock.running = false;
    clock_set(&g->clock, s.ms, s.period, s.moves_in_period);
    g->clock.turn = g->board.side;
    if (clock_should_run(g))
        clock_start(&g->clock, g->board.side, now);
}

// ------------------------------------------------------------------ endings

static void finish(Game *g, GameResult result, GameEnd end, Color side, int64_t now) {
    g->result = result;
    g->end = end;
    g->end_side = side;
    Outcome o = { .end = end, .result = result, .side = side };
    outcome_describe(&o, g->end_text, sizeof g->end_text);
    clock_stop(&g->clock, now);
    sync_tags(g); // the outcome is the document's
}

static void clear_result(Game *g) {
    g->result = RESULT_NONE;
    g->end = END_NONE;
    g->end_text[0] = '\0';
    sync_tags(g);
}

// The endings that follow from the position alone (see outcome_forced).
static void check_position_end(Game *g, int64_t now) {
    Outcome o = outcome_forced(&g->board, g->keys, g->ply);
    if (o.end != END_NONE)
        finish(g, o.result, o.end, o.side, now);
}

// Approximates "cannot mate by any legal sequence": a lone king, or king and
// one knight or bishop.
static bool cannot_mate(const Board *b, Color c) {
    Bitboard others = b->colors[c] & ~b->pieces[KING];
    if (!others)
        return true;
    Bitboard minors = b->pieces[KNIGHT] | b->pieces[BISHOP];
    return !bb_several(others) && (others & minors);
}

static void flag_fell(Game *g, Color fallen, int64_t now) {
    Color other = opponent(fallen);
    if (cannot_mate(&g->board, other))
        finish(g, RESULT_DRAW, END_TIME_DRAW, fallen, now);
    else
        finish(g, other == WHITE ? RESULT_WHITE_WINS : RESULT_BLACK_WINS, END_TIME_FORFEIT, fallen,
               now);
}

// ------------------------------------------------------------------ lifecycle

// A new document for a record that starts at fen (empty: the standard
// position). NULL with the reason in err.
static PgnGame *new_document(const char *fen, char *err, size_t errsz) {
    PgnGame *doc = pgn_game_new();
    if (!doc) {
        errmsg_set(err, errsz, "out of memory");
        return NULL;
    }
    if (fen[0] && !pgn_set_start_fen(doc, fen, err, errsz)) {
        pgn_game_free(doc);
        return NULL;
    }
    return doc;
}

// A start position number drawn from the clock (a game's start needs no
// better randomness, and the engine keeps no global generator).
static int draw_chess960(void) {
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    uint64_t z = (uint64_t)ts.tv_sec * 1000000007u + (uint64_t)ts.tv_nsec;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return (int)((z ^ (z >> 31)) % CHESS960_COUNT);
}

// Whether a PGN Variant tag names Chess960 (lichess writes "Chess960",
// older tools "Fischerandom" or "Chess 960").
static bool variant_is_chess960(const char *v) {
    static const char *const names[] = { "chess960", "chess 960", "fischerandom", "fischer random",
                                         "960" };
    for (size_t i = 0; v && i < sizeof names / sizeof names[0]; i++)
        if (strcasecmp(v, names[i]) == 0)
            return true;
    return false;
}

static void name_variant(Game *g) {
    const GameSettings *s = &g->settings;
    if (s->chess960 && s->chess960_number >= 0)
        snprintf(g->variant, sizeof g->variant, "Chess960 #%d", s->chess960_number);
    else
        snprintf(g->variant, sizeof g->variant, "%s", s->chess960 ? "Chess960" : "");
}

// A value for GAME_TAG_ID: the time, the process and a count, so that two
// sessions, or two games of one, never share one.
static void new_id(char *buf, size_t bufsz) {
    static _Atomic unsigned count;
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    snprintf(buf, bufsz, "%llx-%x-%x",
             (unsigned long long)ts.tv_sec * 1000000000ULL + (unsigned long long)ts.tv_nsec,
             (unsigned)getpid(), count++);
}

// Sets up g from s with doc as its record (taken; NULL: a new one); on a bad
// FEN or no memory leaves g untouched (and the caller keeps doc).
static bool setup(Game *g, const GameSettings *given, PgnGame *doc, char *err, size_t errsz) {
    GameSettings settings = *given;
    const GameSettings *s = &settings;
    if (settings.chess960 && !settings.start_fen[0] && !doc) {
        if (settings.chess960_number < 0 || settings.chess960_number >= CHESS960_COUNT)
            settings.chess960_number = draw_chess960();
        chess960_fen(settings.chess960_number, settings.start_fen, sizeof settings.start_fen);
    }
    // The start board is built aside so that a bad FEN changes nothing.
    Board start;
    if (s->start_fen[0]) {
        if (!board_set_fen(&start, s->start_fen, err, errsz))
            return false;
    } else {
        board_set_start(&start);
    }
    if (start.chess960 || settings.chess960) {
        start.chess960 = settings.chess960 = true;
        settings.chess960_number = chess960_number(&start);
    }
    PgnGame *record = doc ? doc : new_document(s->start_fen, err, errsz);
    if (!record)
        return false;
    char id[64];
    new_id(id, sizeof id);
    if (!doc && !pgn_set_tag(record, GAME_TAG_ID, id)) {
        pgn_game_free(record);
        errmsg_set(err, errsz, "out of memory");
        return false;
    }
    unsigned generation = g->generation;
    pgn_game_free(g->doc == doc ? NULL : g->doc);
    memset(g, 0, sizeof *g);
    g->doc = record;
    g->settings = *s;
    g->settings.level = clamp_level(s->level);
    name_variant(g);
    g->start = start;
    g->board = start;
    clock_init(&g->clock, &g->settings.tc);
    g->clock.turn = g->board.side;
    snapshot_take(&g->clock, &g->start_clock);
    g->generation = generation + 1;
    sync_tags(g);
    check_position_end(g, 0);
    return true;
}

Game *game_new(const GameSettings *s, char *err, size_t errsz) {
    Game *g = calloc(1, sizeof *g);
    if (!g) {
        errmsg_set(err, errsz, "out of memory");
        return NULL;
    }
    if (!setup(g, s, NULL, err, errsz)) {
        free(g);
        return NULL;
    }
    return g;
}

Game *game_clone(const Game *g) {
    // The document is the only thing pointed to: a copy of the struct and of it.
    Game *copy = malloc(sizeof *copy);
    PgnGame *doc = copy ? pgn_game_clone(g->doc) : NULL;
    if (!doc) {
        free(copy);
        return NULL;
    }
    memcpy(copy, g, sizeof *copy);
    copy->doc = doc;
    return copy;
}

void game_free(Game *g) {
    if (!g)
        return;
    pgn_game_free(g->doc);
    free(g);
}

bool game_reset(Game *g, const GameSettings *s, char *err, size_t errsz) {
    return setup(g, s, NULL, err, errsz); // on a bad FEN the game and its comments stay
}

bool game_set_comment(Game *g, int ply, const char *text) {
    if (ply < 0 || ply >= g->ply)
        return false;
    return pgn_node_set_comment(g->doc, pgn_mainline_node(g->doc, ply), text);
}

bool game_set_nag(Game *g, int ply, int nag) {
    if (ply < 0 || ply >= g->ply || nag < 0 || nag > 255)
        return false;
    return pgn_node_set_nag(g->doc, pgn_mainline_node(g->doc, ply), nag);
}

void game_set_eval(Game *g, int ply, int score, int depth) {
    if (ply >= 0 && ply < g->ply) {
        g->record[ply].score = score;
        g->record[ply].depth = depth;
    }
}

const PgnNode *game_node(const Game *g, int ply) {
    return ply >= 0 && ply < g->ply ? pgn_mainline_node(g->doc, ply) : NULL;
}

PgnGame *game_document(const Game *g) {
    PgnGame *copy = pgn_game_clone(g->doc);
    if (copy && (!pgn_mainline_truncate(copy, g->ply) || !write_tags(g, copy))) {
        pgn_game_free(copy);
        return NULL;
    }
    return copy;
}

const GameSettings *game_settings(const Game *g) {
    return &g->settings;
}

const char *game_variant(const Game *g) {
    return g->variant[0] ? g->variant : NULL;
}

// ------------------------------------------------------------------ state

const Board *game_board(const Game *g) {
    return &g->board;
}

const Key *game_keys(const Game *g) {
    return g->keys;
}

int game_ply_count(const Game *g) {
    return g->ply;
}

const GameMove *game_move(const Game *g, int ply) {
    return ply >= 0 && ply < g->ply ? &g->record[ply] : NULL;
}

const Board *game_start_board(const Game *g) {
    return &g->start;
}

int game_start_fullmove(const Game *g) {
    return g->start.fullmove;
}

Color game_start_side(const Game *g) {
    return g->start.side;
}

Color game_turn(const Game *g) {
    return g->board.side;
}

PlayerKind game_player(const Game *g, Color c) {
    return g->settings.players[c];
}

GameResult game_result(const Game *g) {
    return g->result;
}

GameEnd game_end(const Game *g) {
    return g->end;
}

Color game_end_side(const Game *g) {
    return g->end_side;
}

bool game_is_over(const Game *g) {
    return g->result != RESULT_NONE;
}

const char *game_end_text(const Game *g) {
    return g->end_text;
}

const char *game_result_text(const Game *g) {
    return outcome_result_text(g->result);
}

const Clock *game_clock(const Game *g) {
    return &g->clock;
}

int game_redo_available(const Game *g) {
    return g->top - g->ply;
}

// ------------------------------------------------------------------ moves

// Plays record[ply] on the board, keeping the key of the position before it.
static void play_ply(Game *g) {
    g->keys[g->ply] = g->board.key;
    board_play(&g->board, g->record[g->ply].move);
    g->ply++;
}

// Plays a legal move: clock, record, board, endings. The move is not played
// when the mover's flag fell before it was completed.
static GameStatus apply_move(Game *g, Move m, int score, int depth, int64_t now, char *err,
                             size_t errsz) {
    if (g->ply >= GAME_MAX_PLIES) {
        errmsg_set(err, errsz, "the game record is full (%d plies)", GAME_MAX_PLIES);
        return GAME_ERR_GAME_OVER;
    }
    Color mover = g->board.side;
    if (!g->clock.running) {
        g->clock_started = true;
        g->paused = false;
        clock_start(&g->clock, mover, now);
    }
    if (!clock_press(&g->clock, now)) {
        if (!g->settings.gui_referees_time) {
            flag_fell(g, mover, now);
            errmsg_set(err, errsz, "%s's flag fell before the move was completed",
                       color_names[mover]);
            return GAME_ERR_GAME_OVER;
        }
        clock_start(&g->clock, opponent(mover), now); // the GUI judges the flag
    }
    GameMove *gm = &g->record[g->ply];
    memset(gm, 0, sizeof *gm);
    gm->move = m;
    notation_to_san(&g->board, m, gm->san);
    // The document's main line: a new move drops the redo tail there too.
    if (!pgn_mainline_truncate(g->doc, g->ply) || !pgn_append_move(g->doc, m, gm->san, -1, NULL)) {
        errmsg_set(err, errsz, "out of memory recording the move");
        return GAME_ERR_GAME_OVER;
    }
    ClockSnapshot s;
    snapshot_take(&g->clock, &s);
    snapshot_to_move(&s, gm);
    gm->score = score;
    gm->depth = depth;
    node_clock(g, g->ply);
    play_ply(g);
    g->top = g->ply; // a new move drops the redo tail
    g->generation++;
    check_position_end(g, now);
    return GAME_OK;
}

bool game_take_document(Game *g, PgnGame *doc, int64_t now, char *err, size_t errsz) {
    GameSettings s = g->settings;
    const char *fen = pgn_start_fen(doc);
    snprintf(s.start_fen, sizeof s.start_fen, "%s", strcmp(fen, BOARD_START_FEN) ? fen : "");
    // Chess960 by its Variant tag, or by its start position (setup sees that).
    s.chess960 = variant_is_chess960(pgn_tag(doc, "Variant"));
    // The main line is checked first, so that a failure changes nothing.
    int n = pgn_mainline_length(doc);
    if (n > GAME_MAX_PLIES) {
        errmsg_set(err, errsz, "the game is longer than %d plies", GAME_MAX_PLIES);
        return false;
    }
    Board b;
    if (!board_set_fen(&b, fen, err, errsz))
        return false;
    for (int i = 0; i < n; i++) {
        const PgnNode *node = pgn_mainline_node(doc, i);
        if (node->move == MOVE_NULL || !movegen_is_legal(&b, node->move)) {
            errmsg_set(err, errsz, "move %d (%s) cannot be played in a game", i + 1, node->san);
            return false;
        }
        board_play(&b, node->move);
    }
    if (!setup(g, &s, doc, err, errsz))
        return false;
    // The record from the moves; the clocks from the nodes that have one.
    ClockSnapshot clk = g->start_clock;
    for (int i = 0; i < n; i++) {
        const PgnNode *node = pgn_mainline_node(doc, i);
        GameMove *gm = &g->record[i];
        memset(gm, 0, sizeof *gm);
        gm->move = node->move;
        memcpy(gm->san, node->san, sizeof gm->san);
        if (node->clock_ms >= 0)
            clk.ms[g->board.side] = node->clock_ms;
        snapshot_to_move(&clk, gm);
        gm->score = VALUE_NONE;
        play_ply(g);
    }
    g->top = g->ply;
    restore_clock(g, g->ply, now);
    check_position_end(g, now);
    return true;
}

GameStatus game_play_text(Game *g, const char *text, int64_t now, char *err, size_t errsz) {
    if (game_is_over(g)) {
        errmsg_set(err, errsz, "the game is over (%s)", game_end_text(g));
        return GAME_ERR_GAME_OVER;
    }
    if (g->settings.players[g->board.side] != PLAYER_HUMAN) {
        errmsg_set(err, errsz, "it is not your turn: the engine plays %s",
                   color_names[g->board.side]);
        return GAME_ERR_NOT_YOUR_TURN;
    }
    char why[MESSAGE_MAX] = "";
    Move m = MOVE_NONE;
    switch (notation_parse_move(&g->board, text, &m, why, sizeof why)) {
    case NOTATION_OK: return apply_move(g, m, VALUE_NONE, 0, now, err, errsz);
    case NOTATION_UNPARSEABLE: errmsg_set(err, errsz, "%s", why); return GAME_ERR_PARSE;
    case NOTATION_ILLEGAL: errmsg_set(err, errsz, "%s", why); return GAME_ERR_ILLEGAL;
    case NOTATION_AMBIGUOUS: errmsg_set(err, errsz, "%s", why); return GAME_ERR_AMBIGUOUS;
    }
    errmsg_set(err, errsz, "%s", why);
    return GAME_ERR_PARSE;
}

GameStatus game_play_move(Game *g, Move m, int score, int depth, int64_t now) {
    if (game_is_over(g))
        return GAME_ERR_GAME_OVER;
    if (!movegen_is_legal(&g->board, m))
        return GAME_ERR_ILLEGAL;
    return apply_move(g, m, score, depth, now, NULL, 0);
}

// The colour of the single human player, or COLOR_NB when there are zero or two.
static Color lone_human(const Game *g) {
    const PlayerKind *p = g->settings.players;
    if (p[WHITE] == PLAYER_HUMAN && p[BLACK] == PLAYER_ENGINE)
        return WHITE;
    if (p[BLACK] == PLAYER_HUMAN && p[WHITE] == PLAYER_ENGINE)
        return BLACK;
    return COLOR_NB;
}

static Color mover_of(const Game *g, int ply) {
    return (ply & 1) ? opponent(g->start.side) : g->start.side;
}

// Rebuilds the board from the start position; replaying keeps its history
// right for repetitions.
static void replay(Game *g) {
    int plies = g->ply;
    g->board = g->start;
    for (g->ply = 0; g->ply < plies;)
        play_ply(g);
}

GameStatus game_undo(Game *g, int64_t now) {
    if (g->ply == 0)
        return GAME_ERR_NOTHING;
    int target = g->ply - 1;
    Color human = lone_human(g);
    if (human != COLOR_NB) {
        // Back to the human's turn, with at least one of their moves undone.
        while (target > 0 && mover_of(g, target) != human)
            target--;
        if (mover_of(g, target) != human)
            return GAME_ERR_NOTHING;
    }
    g->ply = target;
    replay(g);
    clear_result(g);
    g->generation++;
    restore_clock(g, g->ply, now);
    return GAME_OK;
}

GameStatus game_redo(Game *g, int64_t now) {
    if (g->ply == g->top)
        return GAME_ERR_NOTHING;
    if (game_is_over(g))
        return GAME_ERR_GAME_OVER;
    Color human = lone_human(g);
    bool human_moved = false;
    do {
        if (mover_of(g, g->ply) == human)
            human_moved = true;
        play_ply(g);
    } while (human != COLOR_NB && g->ply < g->top && !(human_moved && g->board.side == human));
    g->generation++;
    restore_clock(g, g->ply, now);
    check_position_end(g, now);
    return GAME_OK;
}

// ------------------------------------------------------------------ endings on request

GameStatus game_resign(Game *g, Color who, int64_t now) {
    if (game_is_over(g))
        return GAME_ERR_GAME_OVER;
    finish(g, who == WHITE ? RESULT_BLACK_WINS : RESULT_WHITE_WINS, END_RESIGNATION, who, now);
    return GAME_OK;
}

// keys are the n positions before b.
static void explain_no_claim(const Board *b, const Key *keys, int n, const char *after_san,
                             char *err, size_t errsz) {
    int times = board_repetitions(b, keys, n) + 1;
    int moves = b->halfmove / 2;
    errmsg_set(err, errsz,
               "no draw to claim: %s%s%sthe position %s occurred %d time%s and %d move%s passed "
               "without a capture or pawn move",
               after_san ? "after " : "", after_san ? after_san : "", after_san ? " " : "",
               after_san ? "will have" : "has", times, times == 1 ? "" : "s", moves,
               moves == 1 ? " has" : "s have");
}

GameStatus game_claim_draw(Game *g, Move move, int64_t now, char *err, size_t errsz) {
    if (game_is_over(g)) {
        errmsg_set(err, errsz, "the game is over (%s)", game_end_text(g));
        return GAME_ERR_GAME_OVER;
    }
    GameEnd now_end = outcome_claimable(&g->board, g->keys, g->ply);
    if (now_end != END_NONE) {
        finish(g, RESULT_DRAW, now_end, g->board.side, now);
        return GAME_OK;
    }
    if (move == MOVE_NONE) {
        explain_no_claim(&g->board, g->keys, g->ply, NULL, err, errsz);
        return GAME_ERR_NOTHING;
    }
    if (!movegen_is_legal(&g->board, move)) {
        errmsg_set(err, errsz, "no draw to claim: the move is illegal");
        return GAME_ERR_ILLEGAL;
    }
    if (g->ply >= GAME_MAX_PLIES) {
        errmsg_set(err, errsz, "the game record is full (%d plies)", GAME_MAX_PLIES);
        return GAME_ERR_GAME_OVER;
    }
    // The claim is checked on a scratch board; the move is then played for real.
    Board scratch = g->board;
    char san[MOVE_TEXT_MAX];
    notation_to_san(&scratch, move, san);
    board_play(&scratch, move);
    g->keys[g->ply] = g->board.key; // rewritten when the move is played
    GameEnd after = outcome_claimable(&scratch, g->keys, g->ply + 1);
    if (after == END_NONE)
        explain_no_claim(&scratch, g->keys, g->ply + 1, san, err, errsz);
    if (after == END_NONE)
        return GAME_ERR_NOTHING;
    Color claimant = g->board.side;
    GameStatus st = apply_move(g, move, VALUE_NONE, 0, now, err, errsz);
    if (st != GAME_OK)
        return st;
    // An ending the move brings by itself (mate, fivefold) stands.
    if (!game_is_over(g))
        finish(g, RESULT_DRAW, after, claimant, now);
    return GAME_OK;
}

bool game_offer_draw(Game *g, int engine_score, int contempt_cp, int64_t now) {
    if (game_is_over(g))
        return false;
    if (g->settings.players[WHITE] != PLAYER_ENGINE && g->settings.players[BLACK] != PLAYER_ENGINE)
        return false;
    if (engine_score >= -contempt_cp)
        return false;
    finish(g, RESULT_DRAW, END_AGREEMENT, g->board.side, now);
    return true;
}

void game_agree_draw(Game *g, int64_t now) {
    if (!game_is_over(g))
        finish(g, RESULT_DRAW, END_AGREEMENT, g->board.side, now);
}

bool game_restore_end(Game *g, GameEnd end, Color side, int64_t now) {
    if (game_is_over(g) || side >= COLOR_NB)
        return false;
    GameResult won = opponent(side) == WHITE ? RESULT_WHITE_WINS : RESULT_BLACK_WINS;
    switch (end) {
    case END_RESIGNATION:
    case END_TIME_FORFEIT: finish(g, won, end, side, now); return true;
    case END_AGREEMENT:
    case END_THREEFOLD_REPETITION:
    case END_FIFTY_MOVES:
    case END_TIME_DRAW: finish(g, RESULT_DRAW, end, side, now); return true;
    default: return false; // END_NONE, or an ending the position shows
    }
}

bool game_tick(Game *g, int64_t now) {
    if (game_is_over(g) || g->settings.gui_referees_time || !clock_check_flag(&g->clock, now))
        return false;
    flag_fell(g, g->clock.turn, now);
    return true;
}

// ------------------------------------------------------------------ settings

void game_set_players(Game *g, PlayerKind white, PlayerKind black) {
    g->settings.players[WHITE] = white;
    g->settings.players[BLACK] = black;
    sync_tags(g);
}

void game_set_name(Game *g, Color c, const char *name) {
    snprintf(g->settings.names[c], sizeof g->settings.names[c], "%s", name);
    sync_tags(g);
}

void game_set_level(Game *g, int level) {
    g->settings.level = clamp_level(level);
    sync_tags(g);
}

void game_set_time_control(Game *g, const TimeControl *tc, int64_t now) {
    g->settings.tc = *tc;
    clock_init(&g->clock, tc);
    g->clock.turn = g->board.side;
    // Fresh clocks everywhere: undo under the new control must not bring
    // back times (or periods) of the old one.
    snapshot_take(&g->clock, &g->start_clock);
    for (int i = 0; i < g->top; i++) {
        snapshot_to_move(&g->start_clock, &g->record[i]);
        node_clock(g, i);
    }
    if (clock_should_run(g))
        clock_start(&g->clock, g->board.side, now);
    sync_tags(g);
}

void game_set_clocks(Game *g, const int64_t remaining[COLOR_NB], int64_t now) {
    bool running = g->clock.running;
    if (running)
        clock_stop(&g->clock, now);
    clock_set(&g->clock, remaining, g->clock.period, g->clock.moves_in_period);
    // The restored values are those after the current ply, for undo too.
    ClockSnapshot snap;
    snapshot_take(&g->clock, &snap);
    if (g->ply > 0) {
        snapshot_to_move(&snap, &g->record[g->ply - 1]);
        node_clock(g, g->ply - 1);
    } else {
        g->start_clock = snap;
    }
    if (running)
        clock_start(&g->clock, g->board.side, now);
}

void game_start_clock(Game *g, int64_t now) {
    if (game_is_over(g) || g->clock.running)
        return;
    g->clock_started = true;
    g->paused = false;
    clock_start(&g->clock, g->board.side, now);
}

void game_pause(Game *g, int64_t now) {
    if (!g->clock.running)
        return;
    clock_stop(&g->clock, now);
    g->paused = true;
}

// ------------------------------------------------------------------ engine

bool game_engine_to_move(const Game *g) {
    return !game_is_over(g) && g->settings.players[g->board.side] == PLAYER_ENGINE;
}

void game_search_limits(const Game *g, int64_t now, SearchLimits *limits) {
    search_limits_init(limits);
    if (g->clock.tc.untimed) {
        limits->movetime =
            UNTIMED_MOVETIME_BASE_MS + UNTIMED_MOVETIME_PER_LEVEL_MS * g->settings.level;
        return;
    }
    for (int side = WHITE; side < COLOR_NB; side++) {
        int64_t left = clock_remaining(&g->clock, (Color)side, now);
        limits->time[side] = left > 0 ? left : 1; // -1 would mean "no clock"
        limits->inc[side] = clock_increment(&g->clock, (Color)side);
    }
    limits->movestogo = clock_moves_to_go(&g->clock, g->board.side);
}

GameEnd game_claimable(const Game *g) {
    return game_is_over(g) ? END_NONE : outcome_claimable(&g->board, g->keys, g->ply);
}

bool game_engine_should_claim(const Game *g, int score, int contempt_cp) {
    return game_engine_to_move(g) && outcome_claimable(&g->board, g->keys, g->ply) != END_NONE &&
           score < -contempt_cp;
}

unsigned game_generation(const Game *g) {
    return g->generation;
}

// ------------------------------------------------------------------ FEN

void game_fen(const Game *g, char *buf, size_t bufsz) {
    board_to_fen(&g->board, buf, bufsz);
}

bool game_set_fen(Game *g, const char *fen, int64_t now, char *err, size_t errsz) {
    Board b;
    if (!board_set_fen(&b, fen, err, errsz))
        return false;
    char start_fen[FEN_MAX];
    board_to_fen(&b, start_fen, sizeof start_fen);
    PgnGame *doc = new_document(start_fen, err, errsz);
    if (!doc)
        return false;
    pgn_game_free(g->doc);
    g->doc = doc;
    g->start = b;
    g->board = b;
    memcpy(g->settings.start_fen, start_fen, sizeof g->settings.start_fen);
    g->settings.chess960 = b.chess960;
    g->settings.chess960_number = b.chess960 ? chess960_number(&b) : -1;
    name_variant(g);
    sync_tags(g);
    g->ply = g->top = 0;
    clear_result(g);
    g->generation++;
    // The clocks keep their times; the side to move's runs if the game is on.
    bool running = g->clock.running;
    clock_stop(&g->clock, now);
    snapshot_take(&g->clock, &g->start_clock);
    g->clock.turn = g->board.side;
    if (running)
        clock_start(&g->clock, g->board.side, now);
    check_position_end(g, now);
    return true;
}
