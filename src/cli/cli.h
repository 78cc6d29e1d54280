// SPDX-License-Identifier: GPL-3.0-or-later
// Command-line subcommands of patzer. Each takes the arguments after its own
// name and returns the process exit status: 0 on success, 2 for bad usage or
// bad input (with the reason on stderr).
#ifndef SRC_CLI_H
#define SRC_CLI_H

#include <stdbool.h>
#include <stddef.h>

// `patzer perft [--960] DEPTH [FEN]` and `patzer divide [--960] DEPTH [FEN]`.
int cli_perft(int argc, char **argv, bool divide);

// `patzer bench [DEPTH]`.
int cli_bench(int argc, char **argv);

// `patzer pgn FILE...`: validates PGN files, one line per valid game.
int cli_pgn(int argc, char **argv);

// `patzer annotate FILE [--movetime MS] [--depth N]`: reviews the games of a
// PGN file and writes them annotated to stdout (exit 1 when a game had errors).
int cli_annotate(int argc, char **argv);

// `patzer datagen [OPTIONS]`: self-play training data (see cli_datagen.c),
// and its --stats and --to-epd readers.
int cli_datagen(int argc, char **argv);

// `patzer puzzles mine|check ...`: mines a puzzle set from PGN files on every
// core (resumable), or checks one (see cli_puzzles.c).
int cli_puzzles(int argc, char **argv);

// Joins argv[0..argc) with single spaces into buf; false when it does not fit.
bool cli_join_args(int argc, char **argv, char *buf, size_t bufsz);

#endif
