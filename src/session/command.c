// SPDX-License-Identifier: GPL-3.0-or-later
// The command language: one table of commands (name, aliases, argument kind,
// usage and help; command_table.c) drives the parser, the help texts and
// completion.
#include "src/session/command.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "engine/errmsg.h"
#include "src/session/command_spec.h"

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
    for (size_t i = 0; i < command_spec_count; i++) {
        if (word_is(w, command_specs[i].name))
            return &command_specs[i];
        for (int a = 0; a < MAX_ALIASES && command_specs[i].aliases[a]; a++)
            if (word_is(w, command_specs[i].aliases[a]))
                return &command_specs[i];
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
        return errmsg_set(err, errsz, "%s must be a whole number from %d to %d, not '%.*s'",
                          spec->name, spec->min, spec->max, echo_len(w), w.s);
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

// "960 [N]" of new: a Chess960 game, from start position N (0-959, 518 the
// classical one) or one drawn at random.
static bool parse_960(const char **p, Command *cmd, char *err, size_t errsz) {
    if (cmd->chess960)
        return errmsg_set(err, errsz, "new: 960 is given twice");
    cmd->chess960 = true;
    cmd->chess960_number = -1;
    const char *q = *p;
    Word w;
    if (!next_word(&q, &w))
        return true; // no number: a random start position
    // A negative number is a start position out of range, not an option of
    // new ("unknown option '-1'" said nothing of the range).
    size_t sign = w.s[0] == '-' && w.len > 1;
    if (strspn(w.s + sign, "0123456789") < w.len - sign)
        return true;
    *p = q;
    if (sign)
        return errmsg_set(err, errsz,
                          "new 960: the start position is a number from 0 to 959 (518 is the "
                          "classical one), not '%.*s'",
                          echo_len(w), w.s);
    int n = 0;
    for (size_t i = 0; i < w.len && n < 1000; i++)
        n = n * 10 + (w.s[i] - '0');
    if (w.len > 3 || n > 959)
        return errmsg_set(err, errsz,
                          "new 960: the start position is a number from 0 to 959 (518 is the "
                          "classical one), not '%.*s'",
                          echo_len(w), w.s);
    cmd->chess960_number = n;
    return true;
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
        if (word_is(w, "here")) {
            cmd->here = true;
            continue;
        }
        if (word_is(w, "960")) {
            if (!parse_960(&p, cmd, err, errsz))
                return false;
            continue;
        }
        const CommandSpec *opt = new_option(w);
        if (!opt)
            return errmsg_set(err, errsz,
                              "new: unknown option '%.*s' (expected white, black, level N, elo N, "
                              "time TC, 960 [N] or here)",
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
        while (next_word(&q, &t) && !side_word(t, &c) && !new_option(t) && !word_is(t, "960")) {
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
        return errmsg_set(err, errsz, "play needs white, black, both or none, not '%.*s'",
                          echo_len(w), w.s);
    }
    if (next_word(&p, &extra))
        return errmsg_set(err, errsz, "'play' takes just one of white, black, both or none");
    return true;
}

int command_nag_value(const char *s, size_t len) {
    static const char *const symbols[] = { "!", "?", "!!", "??", "!?", "?!" };
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
        while (marks > start && end - marks < 2 &&
               (w->s[marks - 1] == '!' || w->s[marks - 1] == '?'))
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
        return w.len == 0 ||
               copy_text(cmd->text, w, spec->kind == CMD_SAVE ? spec->what : "the text", err,
                         errsz);
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
        return (int)command_spec_count;
    int n = 0;
    for (size_t i = 0; i < command_spec_count && n < max; i++)
        if (command_modes(command_specs[i].kind) & mode_mask)
            out[n++] = command_specs[i].name;
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
    for (size_t i = 0; i < command_spec_count; i++) {
        if (!(command_modes(command_specs[i].kind) & mode_mask))
            continue;
        // The name first, so that a tie goes to it; one-letter aliases are
        // too short to be told from a typo.
        const char *names[1 + MAX_ALIASES] = { command_specs[i].name };
        memcpy(names + 1, command_specs[i].aliases, sizeof command_specs[i].aliases);
        for (int k = 0; k < 1 + MAX_ALIASES && names[k]; k++) {
            if (strlen(names[k]) < 2 || strlen(names[k]) > SUGGEST_WORD_MAX)
                continue;
            int distance = edit_distance(w, names[k]);
            if (distance < best_distance) {
                best_distance = distance;
                best = command_specs[i].name;
            }
        }
    }
    return best;
}

// The table's entry for kind; NULL for CMD_EMPTY and CMD_MOVE.
static const CommandSpec *spec_of(CommandKind kind) {
    if ((int)kind < COMMAND_SPEC_FIRST || kind >= CMD_COUNT)
        return NULL;
    return &command_specs[kind - COMMAND_SPEC_FIRST];
}

unsigned command_modes(CommandKind kind) {
    if (kind == CMD_MOVE)
        return CMODE_PLAY | CMODE_BROWSE | CMODE_ANALYSE | CMODE_TRAIN;
    const CommandSpec *spec = spec_of(kind);
    if (spec && spec->modes)
        return spec->modes;
    return CMODE_ALL; // CMD_EMPTY, or a command every mode takes
}

const char *command_name(CommandKind kind) {
    const CommandSpec *spec = spec_of(kind);
    if (spec)
        return spec->name;
    return kind == CMD_MOVE ? "move" : "";
}

// ------------------------------------------------------------------ help

enum { HELP_LIST_MAX = 6144, HELP_ENTRY_MAX = 640 };

// Built once from the table on first use; the strings stay valid for good.
// (The first call must not race another: the UI calls it from one thread.)
static char help_list[HELP_LIST_MAX];
static char help_entry[COMMAND_SPEC_COUNT][HELP_ENTRY_MAX];
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
#define MODE_NAME(NAME, name) name,
    static const char *const names[SESSION_MODE_COUNT] = { SESSION_MODES(MODE_NAME) };
#undef MODE_NAME
    if (!modes || modes == CMODE_ALL)
        return used;
    used = append(buf, size, used, "\nModes:");
    const char *sep = " ";
    for (int m = 0; m < SESSION_MODE_COUNT; m++) {
        if (modes & (1u << m)) {
            used = append(buf, size, used, "%s%s", sep, names[m]);
            sep = ", ";
        }
    }
    return append(buf, size, used, ".");
}

static void build_help(void) {
    size_t used = 0;
    for (size_t i = 0; i < command_spec_count; i++) {
        const CommandSpec *s = &command_specs[i];
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
    return spec ? help_entry[spec - command_specs] : NULL;
}
