// SPDX-License-Identifier: GPL-3.0-or-later
// The program's side of the NNUE options (EvalFile, UseNNUE): reads the net file the
// engine's options name and hands the net to the engine (engine_set_net), which does no
// I/O. A NetFile owns the loaded net; the engine only borrows it.
#ifndef SRC_UTIL_NETFILE_H
#define SRC_UTIL_NETFILE_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/engine.h"

// Reads and checks a net file. NULL with what is wrong in err (cannot open or read, too
// large, or what nnue_net_load says).
NnueNet *netfile_read(const char *path, char *err, size_t errsz);

// The net built into the program (data/patzer.nnue at build time). NULL with what is wrong
// in err (out of memory; a build from a damaged file).
NnueNet *netfile_builtin(char *err, size_t errsz);
// A command line's net: "builtin" (netfile_builtin) or a file (netfile_read).
NnueNet *netfile_open(const char *name, char *err, size_t errsz);

typedef struct NetFile {
    NnueNet *net; // the net the engine uses, NULL for none
} NetFile;

typedef enum {
    NETFILE_QUIET,  // nothing changed worth saying
    NETFILE_LOADED, // a net was loaded: msg names the file and its description
    NETFILE_OFF,    // back to the hand-crafted evaluation: msg says so
    NETFILE_ERROR,  // msg names the file and what is wrong; the engine uses the HCE
} NetFileStatus;

// Makes the engine's net follow its EvalFile and UseNNUE options: (re)loads the file when
// UseNNUE is true (the built-in net when EvalFile is empty), drops the net when it is false. Stops
// a running search first, so that no net is read or freed under it. msg: one line, without control
// characters.
NetFileStatus netfile_sync(NetFile *nf, Engine *e, char *msg, size_t msgsz);
// Gives a new engine e the evaluation of `like` (its EvalFile and UseNNUE options; NULL: e's
// own, the defaults) with a net of its own in nf, so that e never borrows a net another
// owner may free. Says nothing: a net that cannot be read leaves e with the hand-crafted
// evaluation, as it left `like` (whose owner said why).
void netfile_attach(NetFile *nf, Engine *e, const Engine *like);
// A command line's choice of evaluation (--eval-file): a net file, "builtin" (the net built
// into the program), "none" (the hand-crafted evaluation), or NULL (the engine's defaults).
// Sets e's EvalFile and UseNNUE to say so and loads the net into nf; false with what is wrong
// in msg when the file cannot be used.
bool netfile_choose(NetFile *nf, Engine *e, const char *choice, char *msg, size_t msgsz);
// Takes the net from the engine and frees it.
void netfile_release(NetFile *nf, Engine *e);

#endif
