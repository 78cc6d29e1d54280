// SPDX-License-Identifier: GPL-3.0-or-later
// Tests for src/session/command.c: every command and alias, argument errors with their
// messages, moves passed through, new's options, time controls, and help.
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "src/session/command.h"

#define ARRAY_LEN(a) ((int)(sizeof(a) / sizeof((a)[0])))

enum { ERR_MAX = 256 };

// Parses line, requires success, and returns the command.
static Command parse_ok(const char *line) {
    Command cmd;
    char err[ERR_MAX] = "";
    cr_assert(command_parse(line, &cmd, err, sizeof err), "'%s' failed: %s", line, err);
    cr_assert_str_empty(err, "'%s' succeeded but left a message: %s", line, err);
    return cmd;
}

// Parses line, requires failure, and returns the message.
static const char *parse_err(const char *line) {
    static char err[ERR_MAX];
    Command cmd;
    err[0] = '\0';
    cr_assert_not(command_parse(line, &cmd, err, sizeof err), "'%s' parsed", line);
    cr_assert_str_not_empty(err, "'%s' failed without a message", line);
    return err;
}

static void expect_same_tc(const TimeControl *a, const TimeControl *b, const char *what) {
    cr_expect_eq(a->untimed, b->untimed, "%s: untimed", what);
    cr_expect_eq(a->count, b->count, "%s: period count", what);
    for (int i = 0; i < a->count && i < TC_MAX_PERIODS; i++) {
        const TimePeriod *x = &a->periods[i], *y = &b->periods[i];
        cr_expect_eq(x->moves, y->moves, "%s: period %d moves", what, i);
        cr_expect_eq(x->base_ms, y->base_ms, "%s: period %d base", what, i);
        cr_expect_eq(x->inc_ms, y->inc_ms, "%s: period %d increment", what, i);
        cr_expect_eq(x->delay_ms, y->delay_ms, "%s: period %d delay", what, i);
        cr_expect_eq(x->delay, y->delay, "%s: period %d delay kind", what, i);
    }
}

// ------------------------------------------------------------------ words

Test(command, every_name_and_alias) {
    static const struct {
        const char *line;
        CommandKind kind;
    } cases[] = {
        { "new", CMD_NEW },
        { "play both", CMD_PLAY },
        { "undo", CMD_UNDO },
        { "u", CMD_UNDO },
        { "takeback", CMD_UNDO },
        { "redo", CMD_REDO },
        { "r", CMD_REDO },
        { "flip", CMD_FLIP },
        { "f", CMD_FLIP },
        { "hint", CMD_HINT },
        { "level 3", CMD_LEVEL },
        { "lv 3", CMD_LEVEL },
        { "lvl 3", CMD_LEVEL },
        { "elo 1500", CMD_ELO },
        { "time 5+3", CMD_TIME },
        { "tc 5+3", CMD_TIME },
        { "resign", CMD_RESIGN },
        { "draw", CMD_DRAW },
        { "claim", CMD_CLAIM },
        { "fen", CMD_FEN },
        { "setboard 8/8 w", CMD_SETBOARD },
        { "setfen 8/8 w", CMD_SETBOARD },
        { "setup", CMD_EDIT }, // it was "did you mean stop?"
        { "save a.pgn", CMD_SAVE },
        { "load a.pgn", CMD_LOAD },
        { "open a.pgn", CMD_LOAD },
        { "go", CMD_GO },
        { "stop", CMD_STOP },
        { "quit", CMD_QUIT },
        { "q", CMD_QUIT },
        { "exit", CMD_QUIT },
        { "help", CMD_HELP },
        { "h", CMD_HELP },
        { "?", CMD_HELP },
    };
    for (int i = 0; i < ARRAY_LEN(cases); i++) {
        Command cmd = parse_ok(cases[i].line);
        cr_expect_eq(cmd.kind, cases[i].kind, "'%s': kind %d, expected %d", cases[i].line, cmd.kind,
                     cases[i].kind);
    }
}

// The enum and the table are made from one list: every kind has its entry,
// found again by its name, with help of its own.
Test(command, every_kind_has_its_entry) {
    for (int k = CMD_MOVE + 1; k < CMD_COUNT; k++) {
        const char *name = command_name((CommandKind)k);
        cr_assert(name && name[0], "kind %d has no name", k);
        Command cmd;
        char err[256];
        (void)command_parse(name, &cmd, err, sizeof err); // may lack its argument
        cr_expect_eq(cmd.kind, (CommandKind)k, "'%s': kind %d, expected %d", name, cmd.kind, k);
        const char *help = command_help(name);
        cr_assert_not_null(help, "no help for '%s'", name);
        cr_expect(strstr(help, name) == help, "help for '%s' starts with its usage: %s", name,
                  help);
    }
    cr_expect_eq(command_names(NULL, 0, CMODE_ALL), CMD_COUNT - CMD_MOVE - 1);
}

Test(command, case_insensitive_and_spacing) {
    static const struct {
        const char *line;
        CommandKind kind;
    } cases[] = {
        { "UNDO", CMD_UNDO },
        { "Undo", CMD_UNDO },
        { "U", CMD_UNDO },
        { "Q", CMD_QUIT },
        { "EXIT", CMD_QUIT },
        { "  quit  ", CMD_QUIT },
        { "\tflip\r\n", CMD_FLIP },
        { "LeVeL 7", CMD_LEVEL },
        { "SetBoard 8/8 w", CMD_SETBOARD },
        { "NEW BLACK LEVEL 5", CMD_NEW },
        { "Play WHITE", CMD_PLAY },
        { "HELP UNDO", CMD_HELP },
    };
    for (int i = 0; i < ARRAY_LEN(cases); i++) {
        Command cmd = parse_ok(cases[i].line);
        cr_expect_eq(cmd.kind, cases[i].kind, "'%s': kind %d, expected %d", cases[i].line, cmd.kind,
                     cases[i].kind);
    }
    Command cmd = parse_ok("LeVeL 7");
    cr_expect_eq(cmd.number, 7);
    cmd = parse_ok("NEW BLACK LEVEL 5");
    cr_expect(cmd.has_side && cmd.side == BLACK && cmd.has_level && cmd.level == 5);
    // Chess960: a numbered start, a random one, after a time control.
    cmd = parse_ok("new 960 518");
    cr_expect(cmd.chess960 && cmd.chess960_number == 518);
    cmd = parse_ok("new black 960");
    cr_expect(cmd.chess960 && cmd.chess960_number == -1 && cmd.side == BLACK);
    cmd = parse_ok("new time 5+3 960 0 level 3");
    cr_expect(cmd.chess960 && cmd.chess960_number == 0 && cmd.has_time && cmd.level == 3);
    cmd = parse_ok("new");
    cr_expect_not(cmd.chess960);
    cr_expect(strstr(parse_err("new 960 960"), "a number from 0 to 959"));
    cr_expect(strstr(parse_err("new 960 1 960"), "960 is given twice"));
}

Test(command, blank_lines_are_empty) {
    const char *lines[] = { "", " ", "   \t ", "\n", "\r\n", NULL };
    for (int i = 0; i < ARRAY_LEN(lines); i++) {
        Command cmd = parse_ok(lines[i]);
        cr_expect_eq(cmd.kind, CMD_EMPTY, "line %d: kind %d", i, cmd.kind);
        cr_expect_str_empty(cmd.text);
    }
}

// ------------------------------------------------------------------ moves

Test(command, moves_pass_through) {
    static const struct {
        const char *line, *text;
    } cases[] = {
        { "e4", "e4" },          { "Nf3", "Nf3" },       { "O-O", "O-O" },
        { "O-O-O", "O-O-O" },    { "0-0", "0-0" },       { "exd5", "exd5" },
        { "e8=Q", "e8=Q" },      { "e7e8q", "e7e8q" },   { "Nf3+!?", "Nf3+" },
        { "a3", "a3" },          { "b4", "b4" },         { "Bb5+", "Bb5+" },
        { "Qh4#", "Qh4#" },      { "R1a3", "R1a3" },     { "Nbd7", "Nbd7" },
        { "Kxe2", "Kxe2" },      { "ed", "ed" },         { "B", "B" },
        { "  e2e4 \n", "e2e4" }, { "e4 e5", "e4 e5" },   { "xyzzy now", "xyzzy now" },
        { "newt", "newt" },      { "undone", "undone" }, { "qu", "qu" },
    };
    for (int i = 0; i < ARRAY_LEN(cases); i++) {
        Command cmd = parse_ok(cases[i].line);
        cr_expect_eq(cmd.kind, CMD_MOVE, "'%s': kind %d", cases[i].line, cmd.kind);
        cr_expect_str_eq(cmd.text, cases[i].text, "'%s': text '%s'", cases[i].line, cmd.text);
    }
}

// A NAG typed after a move is taken off it; alone it marks the current move.
Test(command, move_nags) {
    static const struct {
        const char *line, *text;
        int nag;
    } cases[] = {
        { "e4!?", "e4", 5 },         { "Nf3 !", "Nf3", 1 }, { "e4 $14", "e4", 14 },
        { "Qh4#??", "Qh4#", 4 },     { "O-O?!", "O-O", 6 }, { "e4!!", "e4", 3 },
        { "d4 ?", "d4", 2 },         { "e4", "e4", 0 },     { "e4 $0", "e4 $0", 0 },
        { "e4 $256", "e4 $256", 0 },
    };
    for (int i = 0; i < ARRAY_LEN(cases); i++) {
        Command cmd = parse_ok(cases[i].line);
        cr_expect_eq(cmd.kind, CMD_MOVE, "'%s': kind %d", cases[i].line, cmd.kind);
        cr_expect_str_eq(cmd.text, cases[i].text, "'%s': text '%s'", cases[i].line, cmd.text);
        cr_expect_eq(cmd.nag, cases[i].nag, "'%s': nag %d", cases[i].line, cmd.nag);
    }
    Command cmd = parse_ok("!?");
    cr_expect_eq(cmd.kind, CMD_NAG);
    cr_expect_eq(cmd.nag, 5);
    cr_expect_eq(parse_ok("??").nag, 4);
    cr_expect_eq(parse_ok("?").kind, CMD_HELP, "? alone is still help");
}

Test(command, comment_and_nag) {
    Command cmd = parse_ok("comment A  fine   move ");
    cr_expect_eq(cmd.kind, CMD_COMMENT);
    cr_expect_str_eq(cmd.text, "A  fine   move");
    cmd = parse_ok("comment");
    cr_expect_eq(cmd.kind, CMD_COMMENT);
    cr_expect_str_eq(cmd.text, "");
    static const struct {
        const char *word;
        int nag;
    } nags[] = { { "!", 1 },  { "?", 2 },  { "!!", 3 },   { "??", 4 },
                 { "!?", 5 }, { "?!", 6 }, { "$14", 14 }, { "$255", 255 } };
    for (int i = 0; i < ARRAY_LEN(nags); i++) {
        char line[32];
        snprintf(line, sizeof line, "nag %s", nags[i].word);
        cmd = parse_ok(line);
        cr_expect_eq(cmd.kind, CMD_NAG, "%s", line);
        cr_expect_eq(cmd.nag, nags[i].nag, "%s: %d", line, cmd.nag);
    }
    cmd = parse_ok("nag");
    cr_expect_eq(cmd.kind, CMD_NAG);
    cr_expect_eq(cmd.nag, 0, "nag alone clears");
    char err[256];
    cr_expect_not(command_parse("nag $0", &cmd, err, sizeof err));
    cr_expect(strstr(err, "nag takes one of !, ?, !!, ??, !?, ?! or $N"), "%s", err);
    cr_expect(strstr(err, "'$0'"), "%s", err);
    cr_expect_not(command_parse("nag !? ?", &cmd, err, sizeof err));
    cr_expect_not(command_parse("nag good", &cmd, err, sizeof err));
    cr_expect_eq(command_modes(CMD_COMMENT), (unsigned)(CMODE_PLAY | CMODE_BROWSE));
    cr_expect_eq(command_modes(CMD_NAG), (unsigned)(CMODE_PLAY | CMODE_BROWSE));
    cr_expect_eq(command_nag_value("?!", 2), 6);
    cr_expect_eq(command_nag_value("$", 1), 0);
}

// ------------------------------------------------------------------ arguments

Test(command, argument_errors) {
    static const struct {
        const char *line, *msg;
    } cases[] = {
        { "undo now", "'undo' takes no arguments" },
        { "u 2", "'undo' takes no arguments" },
        { "redo x", "'redo' takes no arguments" },
        { "flip board", "'flip' takes no arguments" },
        { "hint please", "'hint' takes no arguments" },
        { "resign now", "'resign' takes no arguments" },
        { "draw ?", "'draw' takes no arguments" },
        { "fen x", "'fen' takes no arguments" },
        { "go now", "'go' takes no arguments" },
        { "stop it", "'stop' takes no arguments" },
        { "q!", NULL }, // not a command word at all: a (bad) move
        { "exit now", "'quit' takes no arguments" },
        { "level", "level needs a number from 1 to 20" },
        { "level 0", "level must be a whole number from 1 to 20, not '0'" },
        { "level 21", "level must be a whole number from 1 to 20, not '21'" },
        { "level -3", "level must be a whole number from 1 to 20, not '-3'" },
        { "level 5.5", "level must be a whole number from 1 to 20, not '5.5'" },
        { "level five", "level must be a whole number from 1 to 20, not 'five'" },
        { "level +5", "level must be a whole number from 1 to 20, not '+5'" },
        { "level 99999999999999999999",
          "level must be a whole number from 1 to 20, not '99999999999999999999'" },
        { "level 5 6", "'level' takes just one number" },
        { "elo", "elo needs a number from 810 to 2580" },
        { "elo 809", "elo must be a whole number from 810 to 2580, not '809'" },
        { "elo 2581", "elo must be a whole number from 810 to 2580, not '2581'" },
        { "elo 1500x", "elo must be a whole number from 810 to 2580, not '1500x'" },
        { "time", "time needs a time control, such as 5+3, 40/90+30 or none" },
        { "tc   ", "time needs a time control, such as 5+3, 40/90+30 or none" },
        { "play", "play needs white, black, both or none" },
        { "play red", "play needs white, black, both or none, not 'red'" },
        { "play white black", "'play' takes just one of white, black, both or none" },
        { "claim Nf3 e5", "'claim' takes at most one move" },
        { "setboard", "setboard needs a FEN" },
        { "setfen   ", "setboard needs a FEN" },
        { "load ", "load needs a file name" },
        { "open", "load needs a file name" },
        { "help nothing", "help: there is no command 'nothing'" },
        { "help undo redo", "'help' takes at most one command name" },
    };
    for (int i = 0; i < ARRAY_LEN(cases); i++) {
        if (!cases[i].msg) {
            cr_expect_eq(parse_ok(cases[i].line).kind, CMD_MOVE, "'%s'", cases[i].line);
            continue;
        }
        cr_expect_str_eq(parse_err(cases[i].line), cases[i].msg, "'%s'", cases[i].line);
    }
}

Test(command, numbers_in_range) {
    static const struct {
        const char *line;
        CommandKind kind;
        int number;
    } cases[] = {
        { "level 1", CMD_LEVEL, 1 }, { "level 20", CMD_LEVEL, 20 }, { "lv 05", CMD_LEVEL, 5 },
        { "elo 810", CMD_ELO, 810 }, { "elo 2580", CMD_ELO, 2580 }, { "ELO 1850", CMD_ELO, 1850 },
    };
    for (int i = 0; i < ARRAY_LEN(cases); i++) {
        Command cmd = parse_ok(cases[i].line);
        cr_expect_eq(cmd.kind, cases[i].kind, "'%s'", cases[i].line);
        cr_expect_eq(cmd.number, cases[i].number, "'%s': %d", cases[i].line, cmd.number);
    }
}

Test(command, play_sides) {
    static const struct {
        const char *line;
        bool white, black;
    } cases[] = {
        { "play white", true, false }, { "play w", true, false },
        { "play black", false, true }, { "play B", false, true },
        { "play both", true, true },   { "PLAY Both", true, true },
        { "play none", false, false }, { "play  none ", false, false },
    };
    for (int i = 0; i < ARRAY_LEN(cases); i++) {
        Command cmd = parse_ok(cases[i].line);
        cr_expect_eq(cmd.kind, CMD_PLAY, "'%s'", cases[i].line);
        cr_expect_eq(cmd.human[WHITE], cases[i].white, "'%s': white", cases[i].line);
        cr_expect_eq(cmd.human[BLACK], cases[i].black, "'%s': black", cases[i].line);
    }
}

Test(command, claim_and_text_arguments) {
    static const struct {
        const char *line;
        CommandKind kind;
        const char *text;
    } cases[] = {
        { "claim", CMD_CLAIM, "" },
        { "claim  Nf3 ", CMD_CLAIM, "Nf3" },
        { "setboard rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1 ", CMD_SETBOARD,
          "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1" },
        { "save  my game.pgn \n", CMD_SAVE, "my game.pgn" },
        { "load ~/games/Last One.pgn", CMD_LOAD, "~/games/Last One.pgn" },
        { "SAVE Mixed.PGN", CMD_SAVE, "Mixed.PGN" }, // file names keep their case
        { "help", CMD_HELP, "" },
        { "help undo", CMD_HELP, "undo" },
        { "help u", CMD_HELP, "undo" }, // the alias gives the full name
        { "? LEVEL", CMD_HELP, "level" },
        { "h tc", CMD_HELP, "time" },
    };
    for (int i = 0; i < ARRAY_LEN(cases); i++) {
        Command cmd = parse_ok(cases[i].line);
        cr_expect_eq(cmd.kind, cases[i].kind, "'%s'", cases[i].line);
        cr_expect_str_eq(cmd.text, cases[i].text, "'%s': text '%s'", cases[i].line, cmd.text);
    }
}

// ------------------------------------------------------------------ new

Test(command, new_options_in_any_order) {
    static const struct {
        const char *line;
        bool has_side;
        Color side;
        int level, elo; // 0: not given
        const char *tc; // NULL: not given
    } cases[] = {
        { "new", false, WHITE, 0, 0, NULL },
        { "new white", true, WHITE, 0, 0, NULL },
        { "new w", true, WHITE, 0, 0, NULL },
        { "new black", true, BLACK, 0, 0, NULL },
        { "new b", true, BLACK, 0, 0, NULL },
        { "new black level 5 time 10+5", true, BLACK, 5, 0, "10+5" },
        { "new time 10+5 black level 5", true, BLACK, 5, 0, "10+5" },
        { "new level 5 time 10+5 black", true, BLACK, 5, 0, "10+5" },
        { "new level 5 b time 10+5", true, BLACK, 5, 0, "10+5" },
        { "NEW ELO 1500 WHITE", true, WHITE, 0, 1500, NULL },
        { "new elo 2200 level 12", false, WHITE, 12, 2200, NULL },
        { "new time 40/90+30, 30+30 level 3", false, WHITE, 3, 0, "40/90+30, 30+30" },
        { "new tc 40/90+30, 30+30", false, WHITE, 0, 0, "40/90+30, 30+30" },
        { "new lv 4 time none", false, WHITE, 4, 0, "none" },
    };
    for (int i = 0; i < ARRAY_LEN(cases); i++) {
        const char *line = cases[i].line;
        Command cmd = parse_ok(line);
        cr_expect_eq(cmd.kind, CMD_NEW, "'%s'", line);
        cr_expect_eq(cmd.has_side, cases[i].has_side, "'%s': has_side", line);
        cr_expect_eq(cmd.side, cases[i].side, "'%s': side", line);
        cr_expect_eq(cmd.has_level, cases[i].level != 0, "'%s': has_level", line);
        cr_expect_eq(cmd.level, cases[i].level, "'%s': level %d", line, cmd.level);
        cr_expect_eq(cmd.has_elo, cases[i].elo != 0, "'%s': has_elo", line);
        cr_expect_eq(cmd.elo, cases[i].elo, "'%s': elo %d", line, cmd.elo);
        cr_expect_eq(cmd.has_time, cases[i].tc != NULL, "'%s': has_time", line);
        if (cases[i].tc) {
            TimeControl want;
            char err[ERR_MAX];
            cr_assert(timecontrol_parse(cases[i].tc, &want, err, sizeof err), "%s", err);
            expect_same_tc(&cmd.tc, &want, line);
            cr_expect_str_eq(cmd.text, cases[i].tc, "'%s': time text '%s'", line, cmd.text);
        }
    }
}

Test(command, new_errors) {
    static const struct {
        const char *line, *msg;
    } cases[] = {
        { "new purple",
          "new: unknown option 'purple' (expected white, black, level N, elo N, time TC, "
          "960 [N] or here)" },
        { "new white black", "new: the side is given twice" },
        { "new b w", "new: the side is given twice" },
        { "new level", "level needs a number from 1 to 20" },
        { "new level black", "level must be a whole number from 1 to 20, not 'black'" },
        { "new level 0", "level must be a whole number from 1 to 20, not '0'" },
        { "new level 3 lv 4", "new: level is given twice" },
        { "new elo 100", "elo must be a whole number from 810 to 2580, not '100'" },
        { "new elo 1500 elo 1600", "new: elo is given twice" },
        { "new time", "time needs a time control, such as 5+3, 40/90+30 or none" },
        { "new time black", "time needs a time control, such as 5+3, 40/90+30 or none" },
        { "new time 5+3 tc 3+2", "new: time is given twice" },
        { "new undo", "new: unknown option 'undo' (expected white, black, level N, elo N, "
                      "time TC, 960 [N] or here)" },
        { "new 960 1000", "new 960: the start position is a number from 0 to 959 (518 is the "
                          "classical one), not '1000'" },
        { "new 960 -1", "new 960: the start position is a number from 0 to 959 (518 is the "
                        "classical one), not '-1'" },
    };
    for (int i = 0; i < ARRAY_LEN(cases); i++)
        cr_expect_str_eq(parse_err(cases[i].line), cases[i].msg, "'%s'", cases[i].line);
}

// ------------------------------------------------------------------ time

Test(command, time_is_delegated_to_the_clock) {
    static const struct {
        const char *line, *tc;
    } cases[] = {
        { "time 5+3", "5+3" },
        { "time 40/90+30", "40/90+30" },
        { "time  40/90+30, 30+30 ", "40/90+30, 30+30" },
        { "tc none", "none" },
        { "TIME 15+10", "15+10" },
    };
    for (int i = 0; i < ARRAY_LEN(cases); i++) {
        Command cmd = parse_ok(cases[i].line);
        TimeControl want;
        char err[ERR_MAX];
        cr_assert(timecontrol_parse(cases[i].tc, &want, err, sizeof err), "%s", err);
        cr_expect_eq(cmd.kind, CMD_TIME, "'%s'", cases[i].line);
        expect_same_tc(&cmd.tc, &want, cases[i].line);
        cr_expect_str_eq(cmd.text, cases[i].tc, "'%s': text '%s'", cases[i].line, cmd.text);
    }
    // Spot checks that the clock really was asked.
    Command cmd = parse_ok("time 40/90+30, 30+30");
    cr_expect_eq(cmd.tc.count, 2);
    cr_expect_eq(cmd.tc.periods[0].moves, 40);
    cr_expect_eq(cmd.tc.periods[1].base_ms, 30 * 60 * 1000);
    cr_expect(parse_ok("time none").tc.untimed);
    cmd = parse_ok("time 5+3");
    cr_expect_not(cmd.tc.untimed);
    cr_expect_eq(cmd.tc.periods[0].base_ms, 5 * 60 * 1000);
    cr_expect_eq(cmd.tc.periods[0].inc_ms, 3000);
}

Test(command, time_errors_pass_through) {
    const char *bad[] = { "5+", "x", "40/", "abc+3" };
    for (int i = 0; i < ARRAY_LEN(bad); i++) {
        TimeControl tc;
        char want[ERR_MAX] = "", line[64], newline[64];
        cr_assert_not(timecontrol_parse(bad[i], &tc, want, sizeof want), "'%s' parsed", bad[i]);
        snprintf(line, sizeof line, "time %s", bad[i]);
        cr_expect_str_eq(parse_err(line), want, "'%s'", line);
        snprintf(newline, sizeof newline, "new time %s level 3", bad[i]);
        cr_expect_str_eq(parse_err(newline), want, "'%s'", newline);
    }
}

// ------------------------------------------------------------------ limits

Test(command, overlong_input) {
    static char line[4 * COMMAND_TEXT_MAX];
    // The longest move that fits.
    memset(line, 'a', COMMAND_TEXT_MAX - 1);
    line[COMMAND_TEXT_MAX - 1] = '\0';
    Command cmd = parse_ok(line);
    cr_expect_eq(cmd.kind, CMD_MOVE);
    cr_expect_eq(strlen(cmd.text), (size_t)COMMAND_TEXT_MAX - 1);
    // One more, and far more.
    memset(line, 'a', COMMAND_TEXT_MAX);
    line[COMMAND_TEXT_MAX] = '\0';
    cr_expect_str_eq(parse_err(line), "the line is too long (at most 511 characters)");
    memset(line, 'a', sizeof line - 1);
    line[sizeof line - 1] = '\0';
    cr_expect_str_eq(parse_err(line), "the line is too long (at most 511 characters)");
    // Surrounding whitespace does not count.
    memset(line, ' ', sizeof line - 1);
    memset(line + 100, 'b', COMMAND_TEXT_MAX - 1);
    cmd = parse_ok(line);
    cr_expect_eq(strlen(cmd.text), (size_t)COMMAND_TEXT_MAX - 1);

    static const struct {
        const char *prefix, *msg;
    } cases[] = {
        { "setboard ", "a FEN is too long (at most 511 characters)" },
        { "save ", "a file name is too long (at most 511 characters)" },
        { "load ", "a file name is too long (at most 511 characters)" },
        { "claim ", "the move is too long (at most 511 characters)" },
        { "time ", "the time control is too long (at most 511 characters)" },
        { "new time ", "the time control is too long (at most 511 characters)" },
        { "help ", "help: there is no command 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'" },
    };
    for (int i = 0; i < ARRAY_LEN(cases); i++) {
        size_t n = strlen(cases[i].prefix);
        memcpy(line, cases[i].prefix, n);
        memset(line + n, 'x', sizeof line - 1 - n);
        line[sizeof line - 1] = '\0';
        cr_expect_str_eq(parse_err(line), cases[i].msg, "'%s...'", cases[i].prefix);
    }
}

Test(command, small_or_missing_error_buffer) {
    Command cmd;
    char err[8];
    memset(err, '#', sizeof err);
    cr_expect_not(command_parse("level 99", &cmd, err, sizeof err));
    cr_expect_eq(strlen(err), sizeof err - 1, "message not cut to the buffer: '%s'", err);
    cr_expect_str_eq(err, "level m");
    cr_expect_not(command_parse("level 99", &cmd, NULL, 0));
    cr_expect(command_parse("undo", &cmd, NULL, 0));
    cr_expect_eq(cmd.kind, CMD_UNDO);
}

Test(command, fields_are_reset_between_parses) {
    Command cmd;
    char err[ERR_MAX];
    cr_assert(command_parse("new black level 5 elo 1500 time 5+3", &cmd, err, sizeof err));
    cr_assert(command_parse("undo", &cmd, err, sizeof err));
    cr_expect_eq(cmd.kind, CMD_UNDO);
    cr_expect_not(cmd.has_side || cmd.has_level || cmd.has_elo || cmd.has_time);
    cr_expect_str_empty(cmd.text);
    cr_assert(command_parse("play both", &cmd, err, sizeof err));
    cr_assert(command_parse("play none", &cmd, err, sizeof err));
    cr_expect_not(cmd.human[WHITE] || cmd.human[BLACK]);
}

// The board view's commands take an optional word, which the front end checks.
Test(command, theme_pieces_bell) {
    Command cmd;
    char err[ERR_MAX];
    cr_assert(command_parse("theme green", &cmd, err, sizeof err), "%s", err);
    cr_expect_eq(cmd.kind, CMD_THEME);
    cr_expect_str_eq(cmd.text, "green");
    cr_assert(command_parse("colours", &cmd, err, sizeof err), "%s", err);
    cr_expect_eq(cmd.kind, CMD_THEME);
    cr_expect_str_empty(cmd.text);
    cr_assert(command_parse("PIECES letters", &cmd, err, sizeof err), "%s", err);
    cr_expect_eq(cmd.kind, CMD_PIECES);
    cr_expect_str_eq(cmd.text, "letters");
    cr_assert(command_parse("bell on", &cmd, err, sizeof err), "%s", err);
    cr_expect_eq(cmd.kind, CMD_BELL);
    cr_expect_str_eq(cmd.text, "on");
    cr_expect_str_eq(command_name(CMD_BELL), "bell");
    cr_expect_not_null(strstr(command_help("theme"), "contrast"));
}

Test(command, eval_toggle) {
    Command c;
    char err[256];
    cr_assert(command_parse("eval on", &c, err, sizeof err), "%s", err);
    cr_expect_eq(c.kind, CMD_EVAL);
    cr_expect_str_eq(c.text, "on");
    cr_assert(command_parse("eval", &c, err, sizeof err), "%s", err);
    cr_expect_str_eq(c.text, "");
    cr_expect_eq(command_modes(CMD_EVAL), (unsigned)CMODE_PLAY);
}

// ------------------------------------------------------------------ help

Test(command, names_and_help) {
    const char *names[64];
    int n = command_names(names, ARRAY_LEN(names), CMODE_ALL);
    cr_assert_eq(n, 56, "%d command names", n);
    cr_expect_eq(command_names(NULL, 0, CMODE_ALL), n);
    const char *list = command_help(NULL);
    cr_assert_not_null(list);
    cr_expect_eq(command_help(""), list);
    cr_expect_eq(command_help("  "), list);

    int lines = 0;
    for (const char *s = list; *s; s++)
        lines += *s == '\n';
    cr_expect_geq(lines, n, "%d lines in the list", lines);
    cr_expect(strstr(list, "new [white|black] [level N] [elo N] [time TC] [960 [N]] [here]  start "
                           "a new game\n"),
              "%s", list);
    cr_expect(strstr(list, "(also: u, takeback)"), "undo's aliases missing: %s", list);
    cr_expect(strstr(list, "(also: q, exit)"), "quit's aliases missing: %s", list);

    for (int i = 0; i < n; i++) {
        // Each command parses as itself, never as a move.
        Command cmd;
        char err[ERR_MAX];
        bool ok = command_parse(names[i], &cmd, err, sizeof err);
        cr_expect(!ok || cmd.kind != CMD_MOVE, "'%s' parsed as a move", names[i]);

        const char *h = command_help(names[i]);
        cr_assert_not_null(h, "no help for '%s'", names[i]);
        cr_expect_eq(strncmp(h, names[i], strlen(names[i])), 0, "'%s': help '%s'", names[i], h);
        const char *nl = strchr(h, '\n');
        cr_expect(nl && strlen(nl + 1) > 10, "'%s': no description: '%s'", names[i], h);
        cr_expect(nl && nl[strlen(nl) - 1] == '.', "'%s': cut short: '%s'", names[i], h);

        // The list has a line starting with the name.
        char needle[32];
        snprintf(needle, sizeof needle, "\n%s", names[i]);
        cr_expect(strncmp(list, names[i], strlen(names[i])) == 0 || strstr(list, needle),
                  "'%s' missing from the list", names[i]);

        // Upper case finds the same entry.
        char upper[32];
        size_t k = 0;
        for (; names[i][k] && k < sizeof upper - 1; k++)
            upper[k] = (char)(names[i][k] - ('a' <= names[i][k] && names[i][k] <= 'z' ? 32 : 0));
        upper[k] = '\0';
        cr_expect_eq(command_help(upper), h, "'%s'", upper);
    }
    cr_expect_eq(command_help("u"), command_help("undo"));
    cr_expect_eq(command_help("?"), command_help("help"));
    cr_expect_null(command_help("nothing"));
    cr_expect_null(command_help("e4"));
    cr_expect(strstr(command_help("undo"), "Takes back the last move"));
    cr_expect(strstr(command_help("time"), "time TC (also: tc)\n"), "%s", command_help("time"));
}

Test(command, names_respect_max) {
    const char *names[3] = { NULL, NULL, NULL };
    cr_expect_eq(command_names(names, 2, CMODE_ALL), 2);
    cr_expect_str_eq(names[0], "new");
    cr_expect_str_eq(names[1], "play");
    cr_expect_null(names[2]);
    cr_expect_eq(command_names(names, 0, CMODE_ALL), 0);
}

// ------------------------------------------------------------------ replay

Test(command, analysis_replay_and_editor_commands) {
    static const struct {
        const char *line;
        CommandKind kind;
        int number;
        const char *text;
    } cases[] = {
        { "analyze", CMD_ANALYZE, 0, "" },
        { "analyse", CMD_ANALYZE, 0, "" },
        { "an", CMD_ANALYZE, 0, "" },
        { "lines 3", CMD_LINES, 3, "" },
        { "next", CMD_NEXT, 0, "" },
        { "n", CMD_NEXT, 0, "" },
        { "prev", CMD_PREV, 0, "" },
        { "p", CMD_PREV, 0, "" },
        { "first", CMD_FIRST, 0, "" },
        { "last", CMD_LAST, 0, "" },
        { "goto 12", CMD_GOTO, 12, "" },
        { "goto 0", CMD_GOTO, 0, "" },
        { "var 2", CMD_VAR, 2, "" },
        { "up", CMD_UP, 0, "" },
        { "review", CMD_REVIEW, 0, "" },
        { "games", CMD_GAMES, 0, "" },
        { "games Carlsen", CMD_GAMES, 0, "Carlsen" },
        { "game 7", CMD_GAME, 7, "" },
        { "edit", CMD_EDIT, 0, "" },
        { "put Qd4", CMD_PUT, 0, "Qd4" },
        { "remove e4", CMD_REMOVE, 0, "e4" },
        { "side black", CMD_SIDE, 0, "black" },
        { "castling Kq", CMD_CASTLING, 0, "Kq" },
        { "ep -", CMD_EP, 0, "-" },
        { "clear", CMD_CLEAR, 0, "" },
        { "done", CMD_DONE, 0, "" },
        { "cancel", CMD_CANCEL, 0, "" },
    };
    for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
        Command cmd;
        char err[ERR_MAX];
        cr_assert(command_parse(cases[i].line, &cmd, err, sizeof err), "%s: %s", cases[i].line,
                  err);
        cr_expect_eq(cmd.kind, cases[i].kind, "%s", cases[i].line);
        if (cases[i].number)
            cr_expect_eq(cmd.number, cases[i].number, "%s", cases[i].line);
        cr_expect_str_eq(cmd.text, cases[i].text, "%s", cases[i].line);
    }
    Command cmd;
    char err[ERR_MAX];
    cr_expect_not(command_parse("lines 6", &cmd, err, sizeof err));
    cr_expect_not(command_parse("goto", &cmd, err, sizeof err));
    cr_expect_not(command_parse("put", &cmd, err, sizeof err));
    cr_expect_not(command_parse("next 2", &cmd, err, sizeof err));
}

// One table says which modes take each command; completion follows it.
Test(command, modes_of_commands) {
    cr_expect_eq(command_modes(CMD_PUT), (unsigned)CMODE_EDIT);
    cr_expect_eq(command_modes(CMD_QUIT), (unsigned)CMODE_ALL);
    cr_expect(command_modes(CMD_MOVE) & CMODE_PLAY);
    cr_expect_not(command_modes(CMD_MOVE) & CMODE_EDIT);
    cr_expect(command_modes(CMD_STOP) & CMODE_REVIEW);
    cr_expect_str_eq(command_name(CMD_BACK), "back");
    // Training takes moves, hint, next (skip), solution and stop.
    cr_expect(command_modes(CMD_MOVE) & CMODE_TRAIN);
    cr_expect(command_modes(CMD_HINT) & CMODE_TRAIN);
    cr_expect(command_modes(CMD_NEXT) & CMODE_TRAIN);
    cr_expect_eq(command_modes(CMD_SOLUTION), (unsigned)CMODE_TRAIN);
    cr_expect(strstr(command_help("solution"), "Modes: train."), "%s", command_help("solution"));
    cr_expect(strstr(command_help("put"), "Modes: edit."), "%s", command_help("put"));
    cr_expect(strstr(command_help("undo"), "Modes: play, browse, analyse."), "%s",
              command_help("undo"));
    cr_expect_not(strstr(command_help("quit"), "Modes:"));
    const char *names[64];
    int n = command_names(names, 64, CMODE_EDIT);
    bool put = false, hint = false;
    for (int i = 0; i < n; i++) {
        put |= strcmp(names[i], "put") == 0;
        hint |= strcmp(names[i], "hint") == 0;
    }
    cr_expect(put, "the editor completes put");
    cr_expect_not(hint, "the editor does not complete hint");
    Command cmd;
    char err[128];
    cr_expect(command_parse("game 0", &cmd, err, sizeof err), "%s", err);
    cr_expect_eq(cmd.number, 0);
    cr_expect(command_parse("back", &cmd, err, sizeof err));
    cr_expect_eq(cmd.kind, CMD_BACK);
    cr_expect(command_parse("train", &cmd, err, sizeof err), "%s", err);
    cr_expect_eq(cmd.kind, CMD_TRAIN);
    cr_expect_str_eq(cmd.text, "");
    cr_expect(command_parse("train my games.pgn", &cmd, err, sizeof err), "%s", err);
    cr_expect_str_eq(cmd.text, "my games.pgn");
    cr_expect(command_parse("skip", &cmd, err, sizeof err));
    cr_expect_eq(cmd.kind, CMD_NEXT);
    cr_expect(command_parse("pace 0", &cmd, err, sizeof err));
    cr_expect_eq(cmd.kind, CMD_PACE);
    cr_expect(command_parse("analyze depth 20", &cmd, err, sizeof err));
    cr_expect_str_eq(cmd.text, "depth 20");
}

// Issue 11, item 9: the nearest command to a mistyped word.
Test(command, nearest_command_suggestion) {
    cr_assert_str_eq(command_suggest("hlep", CMODE_ALL), "help");
    cr_assert_str_eq(command_suggest("HLEP", CMODE_ALL), "help");
    cr_assert_str_eq(command_suggest("udno", CMODE_PLAY), "undo");
    cr_assert_str_eq(command_suggest("setbord", CMODE_ALL), "setboard");
    cr_assert_str_eq(command_suggest("resing", CMODE_PLAY), "resign");
    cr_assert_str_eq(command_suggest("takebak", CMODE_PLAY), "undo"); // an alias
    cr_assert_str_eq(command_suggest("analize now", CMODE_ALL), "analyze");
    // Nothing near, or not a word of letters (a move).
    cr_assert_null(command_suggest("xyzzy", CMODE_ALL));
    cr_assert_null(command_suggest("e4", CMODE_EDIT));
    cr_assert_null(command_suggest("", CMODE_ALL));
    cr_assert_null(command_suggest(NULL, CMODE_ALL));
    cr_assert_null(command_suggest("abcdefghijklmnopqrstuvwxyzabcdef", CMODE_ALL));
    // Only commands of the modes asked about.
    cr_assert_str_eq(command_suggest("pit", CMODE_EDIT), "put");
    cr_assert_null(command_suggest("resing", CMODE_EDIT));
}

Test(command, explore_and_index) {
    Command cmd;
    char err[ERR_MAX];
    cr_assert(command_parse("explore", &cmd, err, sizeof err), "%s", err);
    cr_expect_eq(cmd.kind, CMD_EXPLORE);
    cr_expect(command_modes(CMD_EXPLORE) & CMODE_BROWSE);
    cr_expect_not(command_modes(CMD_EXPLORE) & CMODE_TRAIN, "it would give puzzles away");
    cr_assert(command_parse("index a.pgn b.pgn", &cmd, err, sizeof err), "%s", err);
    cr_expect_eq(cmd.kind, CMD_INDEX);
    cr_expect_str_eq(cmd.text, "a.pgn b.pgn");
    cr_expect_not(command_parse("index", &cmd, err, sizeof err), "index needs a file");
}

Test(command, engine_takes_the_rest_of_the_line) {
    Command c = parse_ok("engine");
    cr_assert_eq(c.kind, CMD_ENGINE);
    cr_assert_str_eq(c.text, "");
    c = parse_ok("engine /usr/games/stockfish --flag x");
    cr_assert_eq(c.kind, CMD_ENGINE);
    cr_assert_str_eq(c.text, "/usr/games/stockfish --flag x");
    c = parse_ok("ENGINE option Skill Level 3");
    cr_assert_eq(c.kind, CMD_ENGINE);
    cr_assert_str_eq(c.text, "option Skill Level 3");
    cr_assert(command_modes(CMD_ENGINE) & CMODE_PLAY);
    cr_assert(command_modes(CMD_ENGINE) & CMODE_ANALYSE);
}
