// SPDX-License-Identifier: GPL-3.0-or-later
// The text protocols GUIs speak to patzer (UCI and xboard/CECP), and the EPD
// test-suite solver. Each returns the process exit status.
#ifndef SRC_PROTOCOL_H
#define SRC_PROTOCOL_H

#include <stdio.h>

// Runs a UCI session on in/out until `quit` or end of input. first_line is a
// line main has already read from in (without its newline), or NULL.
int uci_run(FILE *in, FILE *out, const char *first_line);

// Runs an xboard (CECP) session; first_line as for uci_run.
int xboard_run(FILE *in, FILE *out, const char *first_line);

// `patzer epd FILE [--movetime MS]`: solves the positions of an EPD file.
int cli_epd(int argc, char **argv);

#endif
