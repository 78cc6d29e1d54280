// SPDX-License-Identifier: GPL-3.0-or-later
// patzer's entry point: picks the face of the program from the arguments and
// the terminal, reads the configuration, and hands over.
#include <errno.h>
#include <getopt.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/fen.h"
#include "src/cli/cli.h"
#include "src/protocol/protocol.h"
#include "src/term/frontend.h"
#include "src/util/paths.h"

static int run_uci(int argc, char **argv) {
    (void)argc, (void)argv;
    return uci_run(stdin, stdout, NULL);
}

static int run_xboard(int argc, char **argv) {
    (void)argc, (void)argv;
    return xboard_run(stdin, stdout, NULL);
}

static int run_perft(int argc, char **argv) {
    return cli_perft(argc, argv, false);
}

static int run_divide(int argc, char **argv) {
    return cli_perft(argc, argv, true);
}

// The faces of patzer besides the game: `patzer NAME ARGS...` runs run with
// the arguments after NAME. The order is --help's.
typedef struct Subcommand {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *args;    // the usage line after "patzer NAME"
    const char *summary; // one line for --help
} Subcommand;

static const Subcommand subcommands[] = {
    { "uci", run_uci, "", "talk UCI to a chess GUI on stdin/stdout" },
    { "xboard", run_xboard, "", "talk xboard (CECP) to a chess GUI" },
    { "perft", run_perft, "[--960] DEPTH [FEN]", "count the leaf nodes of the move tree" },
    { "divide", run_divide, "[--960] DEPTH [FEN]", "the same, per root move" },
    { "bench", cli_bench, "[DEPTH]", "search the bench positions, print nodes/speed" },
    { "epd", cli_epd, "FILE [--movetime MS]", "solve the positions of an EPD test suite" },
    { "annotate", cli_annotate, "FILE [--movetime MS] [--depth N]",
      "review PGN games: evals, ?! ? ??, better lines" },
    { "pgn", cli_pgn, "FILE...", "check PGN games, print one line per valid game" },
    { "datagen", cli_datagen, "[--positions N] [--jobs N] [--out DIR] ...",
      "self-play training data (--help for more)" },
    { "puzzles", cli_puzzles, "mine --out FILE PGN... | check FILE",
      "mine a puzzle set from PGN files (--help for more)" },
};

enum {
    USAGE_INDENT = 7,   // "usage: " and the lines under it
    USAGE_SUMMARY = 40, // the column of the summaries
};

static void usage(FILE *out) {
    fputs("usage: patzer [OPTIONS]                 play the computer (terminal game;\n"
          "                                        line mode when input is a pipe)\n",
          out);
    for (size_t i = 0; i < sizeof subcommands / sizeof subcommands[0]; i++) {
        const Subcommand *c = &subcommands[i];
        char line[128];
        snprintf(line, sizeof line, "patzer %s%s%s", c->name, c->args[0] ? " " : "", c->args);
        // Two spaces at least before the summary, or it goes under the line.
        int width = USAGE_SUMMARY - USAGE_INDENT;
        if ((int)strlen(line) + 2 <= width)
            fprintf(out, "%*s%-*s%s\n", USAGE_INDENT, "", width, line, c->summary);
        else
            fprintf(out, "%*s%s\n%*s%s\n", USAGE_INDENT, "", line, USAGE_SUMMARY, "", c->summary);
    }
    fputs("\n"
          "Options for the game:\n"
          "  -w, --white          play White (the default)\n"
          "  -b, --black          play Black\n"
          "  -l, --level N        engine level 1..20 (20 = full strength; default 10)\n"
          "  -e, --elo N          engine strength as an Elo rating, 810 to 2580 (the nearest level)\n"
          "  -t, --time TC        time control: 5+3, 40/90+30, \"40/90+30, 30+30\", 5d3, none\n"
          "  -f, --fen FEN        start from this position (a placement alone: White to move)\n"
          "  -a, --ascii          ASCII board instead of Unicode pieces\n"
          "  -r, --resume         continue the unfinished game saved automatically\n"
          "  -n, --new            start a new game (an unfinished one goes to the archive)\n"
          "  -p, --pgn FILE       open the games of a PGN file to replay and analyse\n"
          "      --no-book        the engine does not play from its opening book\n"
          "      --engine CMD     play and analyse with this UCI engine (e.g. stockfish)\n"
          "      --config-example print a commented configuration file\n"
          "  -h, --help           this help\n"
          "  -V, --version        the version\n"
          "\n"
          "The FEN of perft/divide may be one quoted argument or the remaining arguments;\n"
          "its castling field may be X-FEN or Shredder-FEN (HAha). --960 marks a Chess960\n"
          "game (divide writes castling as king takes rook; file letters imply it).\n"
          "With no arguments and input from a pipe, a first line 'uci' or 'xboard' starts\n"
          "that protocol; anything else is read as the game's line mode.\n"
          "patzer pgn prints N<TAB>RESULT<TAB>PLIES<TAB>FINAL-FEN per valid game; an invalid\n"
          "game prints only FILE:LINE:COL and the reason on stderr (patzer pgn --help).\n"
          "Defaults come from $XDG_CONFIG_HOME/patzer/patzer.conf (see patzer(6)).\n",
          out);
}

// Problems in patzer.conf are shown by the session (status line, line mode).
static void report_config(const char *text, void *ctx) {
    Config *cfg = ctx;
    char *notes = cfg->session.notes;
    size_t used = strlen(notes);
    snprintf(notes + used, sizeof cfg->session.notes - used, "%s%s", used ? "\n" : "", text);
}

// Reads the configuration file and the book location into cfg.
static void load_config(Config *cfg, const char *argv0) {
    config_defaults(cfg);
    char path[PATH_MAX_LEN];
    if (paths_config_file("patzer.conf", path, sizeof path, false))
        config_load(cfg, path, report_config, cfg);
    if (!cfg->session.book_path[0])
        paths_find_book(argv0, cfg->session.book_path, sizeof cfg->session.book_path);
    // The directories are made (or found not writable, and said so) by the
    // session; here only the names, which need a home directory.
    if (!paths_state_file("autosave.pgn", cfg->session.autosave_path,
                          sizeof cfg->session.autosave_path, false))
        cfg->session.autosave_path[0] = '\0';
    if (!paths_user_data_file("games.pgn", cfg->session.archive_path,
                              sizeof cfg->session.archive_path, false))
        cfg->session.archive_path[0] = '\0';
    if (!cfg->session.autosave_path[0] || !cfg->session.archive_path[0])
        report_config(paths_home()
                          ? "The state or data directory's name is too long: games are not saved."
                          : "No home directory (HOME is unset or empty, and the password database "
                            "has no entry for this user): games are not saved; set HOME, or "
                            "XDG_STATE_HOME and XDG_DATA_HOME.",
                      cfg);
}

// Parses the game options; returns -1 to go on, else an exit status.
static int parse_game_options(int argc, char **argv, Config *cfg) {
    static const struct option longopts[] = {
        { "white", no_argument, NULL, 'w' },        { "black", no_argument, NULL, 'b' },
        { "level", required_argument, NULL, 'l' },  { "elo", required_argument, NULL, 'e' },
        { "time", required_argument, NULL, 't' },   { "fen", required_argument, NULL, 'f' },
        { "ascii", no_argument, NULL, 'a' },        { "resume", no_argument, NULL, 'r' },
        { "new", no_argument, NULL, 'n' },          { "no-book", no_argument, NULL, 'B' },
        { "help", no_argument, NULL, 'h' },         { "pgn", required_argument, NULL, 'p' },
        { "engine", required_argument, NULL, 'E' }, { "config-example", no_argument, NULL, 'C' },
        { "version", no_argument, NULL, 'V' },      { NULL, 0, NULL, 0 }
    };
    char err[512];
    int opt;
    while ((opt = getopt_long(argc, argv, "wbl:e:t:f:arnp:hV", longopts, NULL)) != -1) {
        bool ok = true;
        switch (opt) {
        case 'w':
        case 'b':
            ok = config_set(cfg, "side", opt == 'w' ? "white" : "black", err, sizeof err);
            break;
        case 'l': ok = config_set(cfg, "level", optarg, err, sizeof err); break;
        case 'e': ok = config_set(cfg, "elo", optarg, err, sizeof err); break;
        case 't': ok = config_set(cfg, "time", optarg, err, sizeof err); break;
        case 'f': {
            Board check;
            // A placement alone (as websites give it) is completed by the session.
            bool ok_fen = fen_is_placement_only(optarg)
                              ? board_set_placement(&check, optarg, NULL, 0, err, sizeof err)
                              : board_set_fen(&check, optarg, err, sizeof err);
            if (!ok_fen) {
                fprintf(stderr, "patzer: bad FEN: %s\n", err);
                return 2;
            }
            snprintf(cfg->session.settings.start_fen, sizeof cfg->session.settings.start_fen, "%s",
                     optarg);
            break;
        }
        case 'a': cfg->ascii = true; break;
        case 'r': cfg->session.resume = true; break;
        case 'n': cfg->session.fresh = true; break;
        case 'B': cfg->session.own_book = false; break;
        case 'p':
            if (strlen(optarg) >= sizeof cfg->session.load_path) {
                fprintf(stderr, "patzer: file name too long\n");
                return 2;
            }
            snprintf(cfg->session.load_path, sizeof cfg->session.load_path, "%s", optarg);
            break;
        case 'E': ok = config_set(cfg, "engine", optarg, err, sizeof err); break;
        case 'C': fputs(config_example(), stdout); return 0;
        case 'h': usage(stdout); return 0;
        case 'V': printf("patzer %s\n", PACKAGE_VERSION); return 0;
        default: usage(stderr); return 2;
        }
        if (!ok) {
            fprintf(stderr, "patzer: %s\n", err);
            return 2;
        }
    }
    if (optind < argc) {
        fprintf(stderr, "patzer: unknown command '%s'\n", argv[optind]);
        usage(stderr);
        return 2;
    }
    if (cfg->name[0])
        for (Color c = WHITE; c <= BLACK; c++)
            if (cfg->session.settings.players[c] == PLAYER_HUMAN)
                snprintf(cfg->session.settings.names[c], GAME_NAME_MAX, "%s", cfg->name);
    return -1;
}

// Input from a pipe: a GUI that did not say which protocol on the command
// line says it with its first line; anything else is the line-mode game.
// The first line is read byte by byte, so stdin's buffer holds nothing that
// the line mode (which reads the descriptor) would miss.
static ssize_t read_first_line(char **line) {
    size_t cap = 256, n = 0;
    *line = malloc(cap);
    if (!*line)
        return -1;
    char c;
    ssize_t got;
    while ((got = read(STDIN_FILENO, &c, 1)) == 1 && c != '\n') {
        if (n + 2 > cap) {
            char *bigger = cap < (1u << 20) ? realloc(*line, cap *= 2) : NULL;
            if (!bigger)
                break;
            *line = bigger;
        }
        (*line)[n++] = c;
    }
    (*line)[n] = '\0';
    return got <= 0 && n == 0 ? -1 : (ssize_t)n;
}

static int run_pipe(const Config *cfg) {
    char *line = NULL;
    ssize_t n = read_first_line(&line);
    while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r' || line[n - 1] == ' ' ||
                     line[n - 1] == '\t'))
        line[--n] = '\0';
    const char *first = n >= 0 ? line : NULL;
    while (first && (*first == ' ' || *first == '\t'))
        first++;
    int status;
    if (first && strcmp(first, "uci") == 0)
        status = uci_run(stdin, stdout, first);
    else if (first && strcmp(first, "xboard") == 0)
        status = xboard_run(stdin, stdout, first);
    else
        status = linemode_run(cfg, stdin, stdout, first);
    free(line);
    return status;
}

// Output lost to a full disk or a closed file is said, and is a failure:
// the faces that write results (perft, --config-example > file) must not
// exit 0 with nothing written. A face that failed has said why already.
static int finish_output(const char *who, int status) {
    errno = 0;
    if (status != 0 || (fflush(stdout) == 0 && !ferror(stdout)))
        return status;
    fprintf(stderr, "%s: standard output: %s\n", who, errno ? strerror(errno) : "write error");
    return 2;
}

int main(int argc, char **argv) {
    setlocale(LC_CTYPE, "");
    board_init_tables();
    paths_set_argv0(argv[0]);
    if (argc >= 2)
        for (size_t i = 0; i < sizeof subcommands / sizeof subcommands[0]; i++)
            if (strcmp(argv[1], subcommands[i].name) == 0) {
                char who[64];
                snprintf(who, sizeof who, "patzer %s", subcommands[i].name);
                return finish_output(who, subcommands[i].run(argc - 2, argv + 2));
            }
    static Config cfg;
    load_config(&cfg, argv[0]);
    int status = parse_game_options(argc, argv, &cfg);
    if (status >= 0)
        return finish_output("patzer", status);
    if (!isatty(STDIN_FILENO))
        return run_pipe(&cfg);
    char why[256] = "";
    status = tui_run(&cfg, why, sizeof why);
    if (status != TUI_NO_SCREEN)
        return status;
    fprintf(stderr, "patzer: %s; using the line mode.\n", why);
    return linemode_run(&cfg, stdin, stdout, NULL);
}
