// SPDX-License-Identifier: GPL-3.0-or-later
// The command language: one table of commands (name, aliases, argument kind,
// usage and help) drives the parser, the help texts and completion.
#include "src/session/command.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "engine/errmsg.h"

typedef enum {
    ARG_NONE,     // no arguments
    ARG_NEW,      // new's options, in any order
    ARG_PLAY,     // white|black|both|none
    ARG_NUMBER,   // one whole number in [min, max]
    ARG_TIME,     // a time control: the rest of the line
    ARG_OPT_MOVE, // at most one word
    ARG_REST,     // the rest of the line, required
    ARG_HELP,     // an optional command name
    ARG_OPT_REST, // the rest of the line, may be empty
    ARG_NAG,      // an optional NAG (!, ?, !!, ??, !?, ?!, $N)
} ArgKind;

enum {
    MAX_ALIASES = 3,
    ECHO_MAX = 40,     // how much of a bad word we quote back
    USAGE_COLUMN = 28, // where the summaries start in the list
};

typedef struct CommandSpec {
    CommandKind kind;
    const char *name;
    const char *aliases[MAX_ALIASES]; // unused slots are NULL
    ArgKind arg;
    int min, max;     // ARG_NUMBER
    const char *what; // ARG_REST: what the argument is, for errors
    const char *usage;
    const char *summary; // one line in the list
    const char *help;    // a sentence or two
    unsigned modes;      // CMODE_* bits of the modes that accept it; 0: all
} CommandSpec;

// No alias may ever read as a move: aliases are letters only, never a lone
// pair of file letters (a lenient pawn capture such as "ed"), and single
// letters only where the letter alone cannot be a move.
static const CommandSpec specs[] = {
    { .kind = CMD_NEW,
      .name = "new",
      .arg = ARG_NEW,
      .usage = "new [white|black] [level N] [elo N] [time TC]",
      .summary = "start a new game",
      .help = "Starts a new game. You play White unless you say black (or b); the options, in "
              "any order, set the engine's level or Elo and the time control, e.g. new black "
              "level 5 time 10+5." },
    { .kind = CMD_PLAY,
      .modes = CMODE_PLAY,
      .name = "play",
      .arg = ARG_PLAY,
      .usage = "play white|black|both|none",
      .summary = "choose the sides you play",
      .help = "Chooses the sides you move yourself; the engine plays the others. With both you "
              "move for both sides, with none the engine plays itself." },
    { .kind = CMD_UNDO,
      .modes = CMODE_PLAY | CMODE_BROWSE | CMODE_ANALYSE,
      .name = "undo",
      .aliases = { "u", "takeback" },
      .arg = ARG_NONE,
      .usage = "undo",
      .summary = "take back the last move",
      .help = "Takes back the last move. redo plays it again." },
    { .kind = CMD_REDO,
      .modes = CMODE_PLAY | CMODE_BROWSE | CMODE_ANALYSE,
      .name = "redo",
      .aliases = { "r" },
      .arg = ARG_NONE,
      .usage = "redo",
      .summary = "replay a move taken back",
      .help = "Plays again a move that undo took back." },
    { .kind = CMD_FLIP,
      .name = "flip",
      .aliases = { "f" },
      .arg = ARG_NONE,
      .usage = "flip",
      .summary = "turn the board around",
      .help = "Turns the board around, so the other side is at the bottom." },
    { .kind = CMD_HINT,
      .modes = CMODE_PLAY | CMODE_TRAIN,
      .name = "hint",
      .arg = ARG_NONE,
      .usage = "hint",
      .summary = "suggest a move",
      .help = "Asks the engine for a good move in the current position: the first hint names "
              "the piece to move, a second hint the move itself. In a puzzle it names the "
              "piece to move." },
    { .kind = CMD_LEVEL,
      .modes = CMODE_PLAY,
      .name = "level",
      .aliases = { "lv", "lvl" },
      .arg = ARG_NUMBER,
      .min = 1,
      .max = 20,
      .usage = "level N",
      .summary = "set the engine's strength (1-20)",
      .help = "Sets the engine's strength from 1 (weakest) to 20 (full strength)." },
    { .kind = CMD_ELO,
      .modes = CMODE_PLAY,
      .name = "elo",
      .arg = ARG_NUMBER,
      .min = 600,
      .max = 3000,
      .usage = "elo N",
      .summary = "set the engine's strength as an Elo rating",
      .help = "Makes the engine play at about the given Elo rating, from 600 to 3000." },
    { .kind = CMD_TIME,
      .modes = CMODE_PLAY,
      .name = "time",
      .aliases = { "tc" },
      .arg = ARG_TIME,
      .usage = "time TC",
      .summary = "set the time control",
      .help = "Sets the time control: minutes + increment in seconds (5+3), moves/minutes "
              "(40/90+30), periods separated by commas (40/90+30, 30+30), a simple or "
              "Bronstein delay (5d3, 5b3), or none for no clock. Units h, m and s may be "
              "given: 1m, 90s, 1h+30s, 1h30m." },
    { .kind = CMD_RESIGN,
      .modes = CMODE_PLAY,
      .name = "resign",
      .arg = ARG_NONE,
      .usage = "resign",
      .summary = "resign the game",
      .help = "Resigns the game; the other side wins." },
    { .kind = CMD_DRAW,
      .modes = CMODE_PLAY,
      .name = "draw",
      .arg = ARG_NONE,
      .usage = "draw",
      .summary = "offer a draw",
      .help = "Offers a draw to the engine, which accepts or declines." },
    { .kind = CMD_CLAIM,
      .modes = CMODE_PLAY,
      .name = "claim",
      .arg = ARG_OPT_MOVE,
      .usage = "claim [MOVE]",
      .summary = "claim a draw",
      .help = "Claims a draw by threefold repetition or the fifty-move rule, in the current "
              "position or after MOVE, which is then played." },
    { .kind = CMD_FEN,
      .name = "fen",
      .arg = ARG_NONE,
      .usage = "fen",
      .summary = "show the position as FEN",
      .help = "Shows the current position in Forsyth-Edwards Notation." },
    { .kind = CMD_SETBOARD,
      .name = "setboard",
      .aliases = { "setfen" },
      .arg = ARG_REST,
      .what = "a FEN",
      .usage = "setboard FEN",
      .summary = "set up a position",
      .help = "Sets up the position given in Forsyth-Edwards Notation." },
    { .kind = CMD_SAVE,
      .modes = CMODE_PLAY | CMODE_BROWSE | CMODE_ANALYSE | CMODE_REVIEW,
      .name = "save",
      .arg = ARG_REST,
      .what = "a file name",
      .usage = "save FILE",
      .summary = "save the game to a file",
      .help = "Saves the game so far to FILE." },
    { .kind = CMD_LOAD,
      .name = "load",
      .aliases = { "open" },
      .arg = ARG_REST,
      .what = "a file name",
      .usage = "load FILE",
      .summary = "load a game from a file",
      .help = "Loads the game saved in FILE." },
    { .kind = CMD_GO,
      .modes = CMODE_PLAY,
      .name = "go",
      .arg = ARG_NONE,
      .usage = "go",
      .summary = "let the engine play the side to move",
      .help = "The engine takes over the side to move and plays now." },
    { .kind = CMD_STOP,
      .modes = CMODE_PLAY | CMODE_BROWSE | CMODE_ANALYSE | CMODE_REVIEW | CMODE_TRAIN,
      .name = "stop",
      .arg = ARG_NONE,
      .usage = "stop",
      .summary = "make the engine move now",
      .help = "Stops the engine's thinking; it plays the best move found so far." },
    { .kind = CMD_QUIT,
      .name = "quit",
      .aliases = { "q", "exit" },
      .arg = ARG_NONE,
      .usage = "quit",
      .summary = "leave patzer",
      .help = "Leaves patzer." },
    { .kind = CMD_ANALYZE,
      .modes = CMODE_PLAY | CMODE_BROWSE | CMODE_ANALYSE,
      .name = "analyze",
      .aliases = { "analyse", "an" },
      .arg = ARG_OPT_REST,
      .usage = "analyze [Ns|depth N]",
      .summary = "analyse the position (until stop, N seconds or depth N)",
      .help = "Analyses the position shown (no contempt), without end or for N seconds "
              "(analyze 5s) or to depth N (analyze depth 20). Moves, undo/redo and next/prev "
              "move about and the analysis follows; stop ends it and returns to where you "
              "were. Line mode prints one line per completed depth." },
    { .kind = CMD_LINES,
      .name = "lines",
      .arg = ARG_NUMBER,
      .min = 1,
      .max = 5,
      .usage = "lines N",
      .summary = "analyse N lines at once (1-5)",
      .help = "Sets how many best lines the analysis shows, from 1 to 5." },
    { .kind = CMD_NEXT,
      .modes = CMODE_BROWSE | CMODE_ANALYSE | CMODE_TRAIN,
      .name = "next",
      .aliases = { "n", "skip" },
      .arg = ARG_NONE,
      .usage = "next",
      .summary = "one move forward in the game",
      .help = "Steps one move forward in the game or line being shown (also the right arrow "
              "on an empty command line). In training, goes to the next puzzle." },
    { .kind = CMD_PREV,
      .modes = CMODE_BROWSE | CMODE_ANALYSE,
      .name = "prev",
      .aliases = { "p" },
      .arg = ARG_NONE,
      .usage = "prev",
      .summary = "one move back",
      .help = "Steps one move back (also the left arrow on an empty command line)." },
    { .kind = CMD_FIRST,
      .modes = CMODE_BROWSE | CMODE_ANALYSE,
      .name = "first",
      .aliases = { "start" },
      .arg = ARG_NONE,
      .usage = "first",
      .summary = "to the start of the game",
      .help = "Goes to the start position of the game (also Home on an empty command line)." },
    { .kind = CMD_LAST,
      .modes = CMODE_BROWSE | CMODE_ANALYSE,
      .name = "last",
      .aliases = { "end" },
      .arg = ARG_NONE,
      .usage = "last",
      .summary = "to the end of the line",
      .help = "Goes to the last move of the line being shown (also End on an empty command "
              "line)." },
    { .kind = CMD_GOTO,
      .modes = CMODE_BROWSE,
      .name = "goto",
      .aliases = { "jump" },
      .arg = ARG_NUMBER,
      .min = 0,
      .max = 9999,
      .usage = "goto N",
      .summary = "to move N",
      .help = "Goes to the position after White's move N (goto 0 is the start)." },
    { .kind = CMD_VAR,
      .modes = CMODE_BROWSE,
      .name = "var",
      .aliases = { "variation" },
      .arg = ARG_NUMBER,
      .min = 1,
      .max = 99,
      .usage = "var N",
      .summary = "into the Nth variation of the next move",
      .help = "Enters the Nth alternative to the next move of the line shown (also Page Down "
              "for the first one on an empty command line); up leaves it." },
    { .kind = CMD_UP,
      .modes = CMODE_BROWSE,
      .name = "up",
      .aliases = { "mainline" },
      .arg = ARG_NONE,
      .usage = "up",
      .summary = "out of the variation",
      .help = "Leaves the variation, back to the line it branches from (also Page Up on an "
              "empty command line)." },
    { .kind = CMD_REVIEW,
      .modes = CMODE_PLAY | CMODE_BROWSE,
      .name = "review",
      .arg = ARG_NONE,
      .usage = "review",
      .summary = "analyse every move of the game and report on it",
      .help = "Analyses every move of the game, marks inaccuracies (?!), mistakes (?) and "
              "blunders (?\?), adds the better lines as variations and draws the evaluation "
              "graph, then shows the game report: accuracy per side, the marks per side, a "
              "graph of the winning chances and the three moments that decided the game with "
              "the better move and its line. A finished game of yours is replaced in the "
              "archive by its annotated copy; save writes it anywhere." },
    { .kind = CMD_THEME,
      .name = "theme",
      .aliases = { "colors", "colours" },
      .arg = ARG_OPT_REST,
      .modes = CMODE_ALL,
      .usage = "theme [NAME]",
      .summary = "choose the board's colours",
      .help = "Without a name, lists the board themes (classic, green, blue, contrast, paper "
              "and your own from patzer.conf); with one, shows the board in it at once and "
              "keeps it in patzer.conf." },
    { .kind = CMD_PIECES,
      .name = "pieces",
      .arg = ARG_OPT_REST,
      .modes = CMODE_ALL,
      .usage = "pieces [filled|outline|letters]",
      .summary = "choose how pieces are drawn",
      .help = "Without a name, lists the piece sets; with one, draws the pieces as filled or "
              "outline figurines or as letters, and keeps the choice in patzer.conf." },
    { .kind = CMD_BELL,
      .name = "bell",
      .arg = ARG_OPT_REST,
      .modes = CMODE_ALL,
      .usage = "bell [on|off]",
      .summary = "ring on the engine's move and low time",
      .help = "With on, the terminal bell rings when the engine moves and when your clock "
              "runs low; off silences it. Kept in patzer.conf." },
    { .kind = CMD_EVAL,
      .name = "eval",
      .arg = ARG_OPT_REST,
      .modes = CMODE_PLAY,
      .usage = "eval [on|off]",
      .summary = "show or hide the engine's evaluation in your game",
      .help = "During a game against the engine its evaluation, depth and principal variation "
              "are hidden; eval on shows them, eval off hides them again, eval alone toggles "
              "(also Ctrl-V on an empty command line). Analysis always shows them." },
    { .kind = CMD_COMMENT,
      .modes = CMODE_PLAY | CMODE_BROWSE,
      .name = "comment",
      .arg = ARG_OPT_REST,
      .usage = "comment [TEXT]",
      .summary = "comment the current move (alone: remove it)",
      .help = "Puts TEXT after the current move as its comment, replacing the one it had; "
              "comment alone removes it. At the start of a game you browse it is the game's "
              "opening comment. save writes comments; your game keeps them when resumed." },
    { .kind = CMD_NAG,
      .modes = CMODE_PLAY | CMODE_BROWSE,
      .name = "nag",
      .arg = ARG_NAG,
      .usage = "nag [!|?|!!|??|!?|?!|$N]",
      .summary = "mark the current move good or bad (alone: clear)",
      .help = "Marks the current move: ! good, ? mistake, !! brilliant, ?? blunder, !? "
              "interesting, ?! dubious, or any PGN NAG as $N; nag alone clears the marks. "
              "Typing the mark right after a move (e4!?, Nf3 !) does the same." },
    { .kind = CMD_TRAIN,
      .modes = CMODE_PLAY | CMODE_BROWSE | CMODE_ANALYSE | CMODE_TRAIN,
      .name = "train",
      .aliases = { "puzzles" },
      .arg = ARG_OPT_REST,
      .usage = "train [FILE]",
      .summary = "solve puzzles made from your mistakes",
      .help = "Finds the positions of your archived games (or of the games of FILE) where a "
              "mistake was made and one move was clearly best, then asks you for that move "
              "and the forcing line after it. A failed puzzle comes back soon, a solved one "
              "later and later; your puzzle rating follows your results. hint names the "
              "piece, solution shows the answer, next goes on, back leaves." },
    { .kind = CMD_SOLUTION,
      .modes = CMODE_TRAIN,
      .name = "solution",
      .arg = ARG_NONE,
      .usage = "solution",
      .summary = "training: show the puzzle's answer",
      .help = "Shows the solution of the puzzle on the board; the puzzle counts as failed "
              "unless it was solved." },
    { .kind = CMD_GAMES,
      .name = "games",
      .aliases = { "list" },
      .arg = ARG_OPT_REST,
      .usage = "games [TEXT]",
      .summary = "list the games of the loaded file",
      .help = "Lists the games of the last loaded file (White, Black, result, event, date, "
              "ECO), or those whose players or event contain TEXT. game N shows one." },
    { .kind = CMD_GAME,
      .name = "game",
      .arg = ARG_NUMBER,
      .min = 0,
      .max = 1000000,
      .usage = "game N",
      .summary = "show game N of the loaded file (0: your game)",
      .help = "Shows game N of the last loaded file; game 0 returns to the game you are "
              "playing, with its clocks (paused while it is not shown)." },
    { .kind = CMD_BACK,
      .name = "back",
      .arg = ARG_NONE,
      .usage = "back",
      .summary = "back to the game you are playing",
      .help = "Leaves the file, editor, analysis or review and returns to the game you are "
              "playing (the same as game 0)." },
    { .kind = CMD_PACE,
      .name = "pace",
      .arg = ARG_NUMBER,
      .min = 0,
      .max = 60000,
      .usage = "pace MS",
      .summary = "time between the engine's moves when it plays itself",
      .help = "When the engine plays both sides (play none), it waits MS milliseconds between "
              "moves so you can watch (default 1000; pace 0 for none)." },
    { .kind = CMD_EDIT,
      .modes = CMODE_PLAY | CMODE_BROWSE | CMODE_ANALYSE,
      .name = "edit",
      .arg = ARG_NONE,
      .usage = "edit",
      .summary = "edit the position",
      .help = "Starts the position editor on the current position: put, remove, clear, side, "
              "castling and ep change it, done uses it (if it is legal), cancel leaves it." },
    { .kind = CMD_PUT,
      .modes = CMODE_EDIT,
      .name = "put",
      .arg = ARG_REST,
      .what = "a piece and a square",
      .usage = "put PIECE SQUARE",
      .summary = "editor: put a piece on a square",
      .help = "In the editor, puts a piece on a square: Qd4 for a white queen, qd4 for a "
              "black one (letters KQRBNP)." },
    { .kind = CMD_REMOVE,
      .modes = CMODE_EDIT,
      .name = "remove",
      .aliases = { "rm" },
      .arg = ARG_REST,
      .what = "a square",
      .usage = "remove SQUARE",
      .summary = "editor: empty a square",
      .help = "In the editor, takes the piece off a square." },
    { .kind = CMD_SIDE,
      .modes = CMODE_EDIT,
      .name = "side",
      .arg = ARG_REST,
      .what = "white or black",
      .usage = "side white|black",
      .summary = "editor: the side to move",
      .help = "In the editor, sets the side to move." },
    { .kind = CMD_CASTLING,
      .modes = CMODE_EDIT,
      .name = "castling",
      .arg = ARG_REST,
      .what = "castling rights",
      .usage = "castling KQkq|-",
      .summary = "editor: castling rights",
      .help = "In the editor, sets the castling rights as in FEN (KQkq, Kq, -)." },
    { .kind = CMD_EP,
      .modes = CMODE_EDIT,
      .name = "ep",
      .arg = ARG_REST,
      .what = "a square or -",
      .usage = "ep SQUARE|-",
      .summary = "editor: en-passant square",
      .help = "In the editor, sets the en-passant target square (e3, d6) or none (-)." },
    { .kind = CMD_CLEAR,
      .modes = CMODE_EDIT,
      .name = "clear",
      .arg = ARG_NONE,
      .usage = "clear",
      .summary = "editor: empty the board",
      .help = "In the editor, takes every piece off the board." },
    { .kind = CMD_DONE,
      .modes = CMODE_EDIT,
      .name = "done",
      .arg = ARG_NONE,
      .usage = "done",
      .summary = "editor: use the position",
      .help = "Leaves the editor and sets up the edited position, or says why it is illegal "
              "and stays in the editor." },
    { .kind = CMD_CANCEL,
      .modes = CMODE_EDIT,
      .name = "cancel",
      .arg = ARG_NONE,
      .usage = "cancel",
      .summary = "editor: leave without changes",
      .help = "Leaves the editor; the position stays as it was." },
    { .kind = CMD_WHY,
      .modes = CMODE_PLAY | CMODE_BROWSE | CMODE_ANALYSE,
      .name = "why",
      .arg = ARG_NONE,
      .usage = "why",
      .summary = "explain the last move: its threats, or what a mistake allowed",
      .help = "Explains the last move of the position shown (the engine's reply in your game, "
              "the current move when browsing or after a review) from facts the engine can "
              "prove, each with its line: the mate or the material a mistake allows and the "
              "better move, a missed mate, what the move threatens, a fork, a new pin, a piece "
              "left en prise. The first line's move is shown on the board." },
    { .kind = CMD_MESSAGES,
      .name = "messages",
      .aliases = { "msgs", "log" },
      .arg = ARG_NONE,
      .usage = "messages",
      .summary = "show the last 100 status messages",
      .help = "Shows the last 100 messages of the status line, oldest first, each whole "
              "(also F2). The terminal game opens them in the pager at the newest." },
    { .kind = CMD_HELP,
      .name = "help",
      .aliases = { "h", "?" },
      .arg = ARG_HELP,
      .usage = "help [COMMAND]",
      .summary = "list the commands, or explain one",
      .help = "Lists the commands, or explains COMMAND. Anything that is not a command is "
              "taken as a move, e.g. e4, Nf3, O-O or e7e8q. The terminal game shows help in "
              "a pager (F1 opens it too): the arrows, Page Up/Down, Home and End scroll, q or "
              "Esc closes it." },
};

#define N_SPECS (sizeof specs / sizeof specs[0])

// A word of the line: not NUL-terminated.
typedef struct Word {
    const char *s;
    size_t len;
} Word;

static bool is_space(char c) {
    return isspace((unsigned char)c) != 0;
}

// Reads the next whitespace-separated word at *p; false at the end of line.
static bool next_word(const char **p, Word *w) {
    const char *s = *p;
    while (is_space(*s))
        s++;
    if (*s == '\0') {
        *p = s;
        return false;
    }
    w->s = s;
    while (*s != '\0' && !is_space(*s))
        s++;
    w->len = (size_t)(s - w->s);
    *p = s;
    return true;
}

// The rest of the line from p, without surrounding whitespace (may be empty).
static Word rest_of(const char *p) {
    while (is_space(*p))
        p++;
    size_t len = strlen(p);
    while (len > 0 && is_space(p[len - 1]))
        len--;
    return (Word){ p, len };
}

static bool word_is(Word w, const char *lit) {
    size_t n = strlen(lit);
    if (w.len != n)
        return false;
    for (size_t i = 0; i < n; i++)
        if (tolower((unsigned char)w.s[i]) != tolower((unsigned char)lit[i]))
            return false;
    return true;
}

static int echo_len(Word w) {
    return (int)(w.len < ECHO_MAX ? w.len : ECHO_MAX);
}

static const CommandSpec *find_spec(Word w) {
    for (size_t i = 0; i < N_SPECS; i++) {
        if (word_is(w, specs[i].name))
            return &specs[i];
        for (int a = 0; a < MAX_ALIASES && specs[i].aliases[a]; a++)
            if (word_is(w, specs[i].aliases[a]))
                return &specs[i];
    }
    return NULL;
}

static bool copy_text(char *dst, Word w, const char *what, char *err, size_t errsz) {
    if (w.len >= COMMAND_TEXT_MAX)
        return errmsg_set(err, errsz, "%s is too long (at most %d characters)", what,
                    COMMAND_TEXT_MAX - 1);
    memcpy(dst, w.s, w.len);
    dst[w.len] = '\0';
    return true;
}

// A whole number in the spec's range; the messages name the command and range.
static bool parse_number(const CommandSpec *spec, Word w, int *out, char *err, size_t errsz) {
    size_t i = (w.len > 0 && w.s[0] == '-') ? 1 : 0;
    bool digits = i < w.len && w.len - i <= 9; // longer would not fit, and is out of range
    for (size_t k = i; digits && k < w.len; k++)
        digits = isdigit((unsigned char)w.s[k]) != 0;
    long v = 0;
    for (size_t k = i; digits && k < w.len; k++)
        v = v * 10 + (w.s[k] - '0');
    if (i)
        v = -v;
    if (!digits || v < spec->min || v > spec->max)
        return errmsg_set(err, errsz, "%s must be a whole number from %d to %d, not '%.*s'", spec->name,
                    spec->min, spec->max, echo_len(w), w.s);
    *out = (int)v;
    return true;
}

// Reads the number after a level or elo word (a command or a new option).
static bool number_after(const CommandSpec *spec, const char **p, int *out, char *err,
                         size_t errsz) {
    Word w;
    if (!next_word(p, &w))
        return errmsg_set(err, errsz, "%s needs a number from %d to %d", spec->name, spec->min,
                    spec->max);
    return parse_number(spec, w, out, err, errsz);
}

static bool time_text(Word w, Command *cmd, char *err, size_t errsz) {
    if (w.len == 0)
        return errmsg_set(err, errsz, "time needs a time control, such as 5+3, 40/90+30 or none");
    if (!copy_text(cmd->text, w, "the time control", err, errsz))
        return false;
    // timecontrol_parse's messages already name the part at fault.
    if (!timecontrol_parse(cmd->text, &cmd->tc, err, errsz))
        return false;
    cmd->has_time = true;
    return true;
}

static bool side_word(Word w, Color *c) {
    if (word_is(w, "white") || word_is(w, "w")) {
        *c = WHITE;
        return true;
    }
    if (word_is(w, "black") || word_is(w, "b")) {
        *c = BLACK;
        return true;
    }
    return false;
}

// The option words of new: a side, or the level, elo and time commands.
static const CommandSpec *new_option(Word w) {
    const CommandSpec *spec = find_spec(w);
    if (spec && (spec->kind == CMD_LEVEL || spec->kind == CMD_ELO || spec->kind == CMD_TIME))
        return spec;
    return NULL;
}

static bool parse_new(const char *p, Command *cmd, char *err, size_t errsz) {
    cmd->side = WHITE;
    Word w;
    while (next_word(&p, &w)) {
        Color c;
        if (side_word(w, &c)) {
            if (cmd->has_side)
                return errmsg_set(err, errsz, "new: the side is given twice");
            cmd->has_side = true;
            cmd->side = c;
            continue;
        }
        const CommandSpec *opt = new_option(w);
        if (!opt)
            return errmsg_set(err, errsz,
                        "new: unknown option '%.*s' (expected white, black, level N, elo N "
                        "or time TC)",
                        echo_len(w), w.s);
        bool *has = opt->kind == CMD_LEVEL ? &cmd->has_level
                    : opt->kind == CMD_ELO ? &cmd->has_elo
                                           : &cmd->has_time;
        if (*has)
            return errmsg_set(err, errsz, "new: %s is given twice", opt->name);
        if (opt->kind == CMD_LEVEL || opt->kind == CMD_ELO) {
            int *dst = opt->kind == CMD_LEVEL ? &cmd->level : &cmd->elo;
            if (!number_after(opt, &p, dst, err, errsz))
                return false;
            *has = true;
            continue;
        }
        // A time control may hold spaces ("40/90+30, 30+30"), so it runs up
        // to the next option word or the end of the line.
        Word tc = { p, 0 }, t;
        const char *q = p;
        while (next_word(&q, &t) && !side_word(t, &c) && !new_option(t)) {
            if (tc.len == 0)
                tc.s = t.s;
            tc.len = (size_t)(t.s + t.len - tc.s);
            p = q;
        }
        if (!time_text(tc, cmd, err, errsz))
            return false;
    }
    return true;
}

static bool parse_play(const char *p, Command *cmd, char *err, size_t errsz) {
    Word w, extra;
    if (!next_word(&p, &w))
        return errmsg_set(err, errsz, "play needs white, black, both or none");
    Color c;
    if (side_word(w, &c)) {
        cmd->human[c] = true;
    } else if (word_is(w, "both")) {
        cmd->human[WHITE] = cmd->human[BLACK] = true;
    } else if (!word_is(w, "none")) {
        return errmsg_set(err, errsz, "play needs white, black, both or none, not '%.*s'", echo_len(w),
                    w.s);
    }
    if (next_word(&p, &extra))
        return errmsg_set(err, errsz, "'play' takes just one of white, black, both or none");
    return true;
}

int command_nag_value(const char *s, size_t len) {
    static const char *const symbols[] = {"!", "?", "!!", "??", "!?", "?!"};
    for (int i = 0; i < 6; i++)
        if (strlen(symbols[i]) == len && !strncmp(s, symbols[i], len))
            return i + 1;
    if (len < 2 || len > 4 || s[0] != '$')
        return 0;
    int v = 0;
    for (size_t i = 1; i < len; i++) {
        if (!isdigit((unsigned char)s[i]))
            return 0;
        v = v * 10 + (s[i] - '0');
    }
    return v >= 1 && v <= 255 ? v : 0;
}

// A move line may end in a NAG: a last word ("Nf3 !", "e4 $14") or marks
// glued to the move ("e4!?"). Takes it off w into *nag.
static void split_move_nag(Word *w, int *nag) {
    size_t end = w->len, start = end;
    while (start > 0 && !is_space(w->s[start - 1]))
        start--;
    int v = command_nag_value(w->s + start, end - start);
    if (v) {
        *nag = v;
        w->len = start;
    } else {
        size_t marks = end;
        while (marks > start && end - marks < 2 && (w->s[marks - 1] == '!' || w->s[marks - 1] == '?'))
            marks--;
        if (marks == end || !(v = command_nag_value(w->s + marks, end - marks)))
            return;
        *nag = v;
        w->len = marks;
    }
    while (w->len > 0 && is_space(w->s[w->len - 1]))
        w->len--;
}

bool command_parse(const char *line, Command *cmd, char *err, size_t errsz) {
    memset(cmd, 0, sizeof *cmd);
    if (err && errsz > 0)
        err[0] = '\0';
    const char *p = line ? line : "";
    Word first, w, extra;
    if (!next_word(&p, &first)) {
        cmd->kind = CMD_EMPTY;
        return true;
    }
    const CommandSpec *spec = find_spec(first);
    if (!spec) {
        // Not a command word: the game decides whether it is a move.
        cmd->kind = CMD_MOVE;
        Word move = rest_of(line);
        split_move_nag(&move, &cmd->nag);
        if (move.len == 0 && cmd->nag) { // "!?" alone marks the current move
            cmd->kind = CMD_NAG;
            return true;
        }
        return copy_text(cmd->text, move, "the line", err, errsz);
    }
    cmd->kind = spec->kind;
    switch (spec->arg) {
    case ARG_NONE:
        if (next_word(&p, &extra))
            return errmsg_set(err, errsz, "'%s' takes no arguments", spec->name);
        return true;
    case ARG_NEW: return parse_new(p, cmd, err, errsz);
    case ARG_PLAY: return parse_play(p, cmd, err, errsz);
    case ARG_NUMBER:
        if (!number_after(spec, &p, &cmd->number, err, errsz))
            return false;
        if (next_word(&p, &extra))
            return errmsg_set(err, errsz, "'%s' takes just one number", spec->name);
        return true;
    case ARG_TIME: return time_text(rest_of(p), cmd, err, errsz);
    case ARG_OPT_MOVE:
        if (!next_word(&p, &w))
            return true;
        if (next_word(&p, &extra))
            return errmsg_set(err, errsz, "'%s' takes at most one move", spec->name);
        return copy_text(cmd->text, w, "the move", err, errsz);
    case ARG_REST:
        w = rest_of(p);
        if (w.len == 0)
            return errmsg_set(err, errsz, "%s needs %s", spec->name, spec->what);
        return copy_text(cmd->text, w, spec->what, err, errsz);
    case ARG_OPT_REST:
        w = rest_of(p);
        return w.len == 0 || copy_text(cmd->text, w, "the text", err, errsz);
    case ARG_NAG:
        if (!next_word(&p, &w))
            return true; // no NAG: clear them
        if (next_word(&p, &extra) || !(cmd->nag = command_nag_value(w.s, w.len)))
            return errmsg_set(err, errsz,
                              "nag takes one of !, ?, !!, ??, !?, ?! or $N (N from 1 to 255), "
                              "not '%.*s'",
                              echo_len(rest_of(w.s)), w.s);
        return true;
    case ARG_HELP: {
        if (!next_word(&p, &w))
            return true;
        const CommandSpec *about = find_spec(w);
        if (!about)
            return errmsg_set(err, errsz, "help: there is no command '%.*s'", echo_len(w), w.s);
        if (next_word(&p, &extra))
            return errmsg_set(err, errsz, "'%s' takes at most one command name", spec->name);
        // The full name, so command_help finds it whatever alias was typed.
        snprintf(cmd->text, sizeof cmd->text, "%s", about->name);
        return true;
    }
    }
    return errmsg_set(err, errsz, "internal error: bad argument kind");
}

int command_names(const char **out, int max, unsigned mode_mask) {
    // With no array, the count (so a caller can size one).
    if (!out)
        return (int)N_SPECS;
    int n = 0;
    for (size_t i = 0; i < N_SPECS && n < max; i++)
        if (command_modes(specs[i].kind) & mode_mask)
            out[n++] = specs[i].name;
    return n;
}

// ------------------------------------------------------------ suggestions

enum { SUGGEST_WORD_MAX = 24 };

// The optimal string alignment distance (insertions, deletions, changes and
// swaps of neighbours, each 1), ignoring case.
static int edit_distance(Word a, const char *b) {
    size_t m = a.len, n = strlen(b);
    int d[SUGGEST_WORD_MAX + 1][SUGGEST_WORD_MAX + 1];
    for (size_t i = 0; i <= m; i++)
        d[i][0] = (int)i;
    for (size_t j = 0; j <= n; j++)
        d[0][j] = (int)j;
    for (size_t i = 1; i <= m; i++) {
        for (size_t j = 1; j <= n; j++) {
            char x = (char)tolower((unsigned char)a.s[i - 1]);
            char y = (char)tolower((unsigned char)b[j - 1]);
            int best = d[i - 1][j - 1] + (x != y);
            if (d[i - 1][j] + 1 < best)
                best = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < best)
                best = d[i][j - 1] + 1;
            if (i > 1 && j > 1 && x == tolower((unsigned char)b[j - 2]) &&
                y == tolower((unsigned char)a.s[i - 2]) && d[i - 2][j - 2] + 1 < best)
                best = d[i - 2][j - 2] + 1;
            d[i][j] = best;
        }
    }
    return d[m][n];
}

const char *command_suggest(const char *word, unsigned mode_mask) {
    Word w;
    const char *p = word ? word : "";
    if (!next_word(&p, &w) || w.len > SUGGEST_WORD_MAX)
        return NULL;
    for (size_t i = 0; i < w.len; i++)
        if (!isalpha((unsigned char)w.s[i]))
            return NULL; // "e4" is a move, not a typo of ep
    int limit = w.len >= 5 ? 2 : 1;
    const char *best = NULL;
    int best_distance = limit + 1;
    for (size_t i = 0; i < N_SPECS; i++) {
        if (!(command_modes(specs[i].kind) & mode_mask))
            continue;
        // The name first, so that a tie goes to it; one-letter aliases are
        // too short to be told from a typo.
        const char *names[1 + MAX_ALIASES] = { specs[i].name };
        memcpy(names + 1, specs[i].aliases, sizeof specs[i].aliases);
        for (int k = 0; k < 1 + MAX_ALIASES && names[k]; k++) {
            if (strlen(names[k]) < 2 || strlen(names[k]) > SUGGEST_WORD_MAX)
                continue;
            int distance = edit_distance(w, names[k]);
            if (distance < best_distance) {
                best_distance = distance;
                best = specs[i].name;
            }
        }
    }
    return best;
}

unsigned command_modes(CommandKind kind) {
    if (kind == CMD_MOVE)
        return CMODE_PLAY | CMODE_BROWSE | CMODE_ANALYSE | CMODE_TRAIN;
    for (size_t i = 0; i < N_SPECS; i++)
        if (specs[i].kind == kind)
            return specs[i].modes ? specs[i].modes : (unsigned)CMODE_ALL;
    return CMODE_ALL; // CMD_EMPTY
}

const char *command_name(CommandKind kind) {
    for (size_t i = 0; i < N_SPECS; i++)
        if (specs[i].kind == kind)
            return specs[i].name;
    return kind == CMD_MOVE ? "move" : "";
}

// ------------------------------------------------------------------ help

enum { HELP_LIST_MAX = 6144, HELP_ENTRY_MAX = 640 };

// Built once from the table on first use; the strings stay valid for good.
// (The first call must not race another: the UI calls it from one thread.)
static char help_list[HELP_LIST_MAX];
static char help_entry[N_SPECS][HELP_ENTRY_MAX];
static bool help_built;

__attribute__((format(printf, 4, 5))) static size_t append(char *buf, size_t size, size_t used,
                                                           const char *fmt, ...) {
    if (used >= size)
        return used;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf + used, size - used, fmt, ap);
    va_end(ap);
    return n < 0 ? used : used + (size_t)n;
}

static size_t append_aliases(char *buf, size_t size, size_t used, const CommandSpec *spec) {
    for (int a = 0; a < MAX_ALIASES && spec->aliases[a]; a++)
        used = append(buf, size, used, "%s%s", a ? ", " : " (also: ", spec->aliases[a]);
    if (spec->aliases[0])
        used = append(buf, size, used, ")");
    return used;
}

// "Modes: play, browse." for a command that not every mode takes.
static size_t append_modes(char *buf, size_t size, size_t used, unsigned modes) {
    static const char *const names[] = {"play", "browse", "edit", "analyse", "review", "train"};
    if (!modes || modes == CMODE_ALL)
        return used;
    used = append(buf, size, used, "\nModes:");
    const char *sep = " ";
    for (int m = 0; m < 6; m++) {
        if (modes & (1u << m)) {
            used = append(buf, size, used, "%s%s", sep, names[m]);
            sep = ", ";
        }
    }
    return append(buf, size, used, ".");
}

static void build_help(void) {
    size_t used = 0;
    for (size_t i = 0; i < N_SPECS; i++) {
        const CommandSpec *s = &specs[i];
        int pad = USAGE_COLUMN - (int)strlen(s->usage);
        used = append(help_list, sizeof help_list, used, "%s%*s%s", s->usage, pad > 2 ? pad : 2, "",
                      s->summary);
        used = append_aliases(help_list, sizeof help_list, used, s);
        used = append(help_list, sizeof help_list, used, "\n");

        size_t n = append(help_entry[i], HELP_ENTRY_MAX, 0, "%s", s->usage);
        n = append_aliases(help_entry[i], HELP_ENTRY_MAX, n, s);
        n = append(help_entry[i], HELP_ENTRY_MAX, n, "\n%s", s->help);
        append_modes(help_entry[i], HELP_ENTRY_MAX, n, s->modes);
    }
    append(help_list, sizeof help_list, used,
           "Anything else is taken as a move, e.g. e4, Nf3, O-O or e7e8q.");
    help_built = true;
}

const char *command_help(const char *name) {
    if (!help_built)
        build_help();
    Word w = rest_of(name ? name : "");
    if (w.len == 0)
        return help_list;
    const CommandSpec *spec = find_spec(w);
    return spec ? help_entry[spec - specs] : NULL;
}
