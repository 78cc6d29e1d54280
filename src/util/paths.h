// SPDX-License-Identifier: GPL-3.0-or-later
// Where patzer keeps its files: the XDG config and state directories, the
// shipped opening book, and atomic file writes (temp file + rename) so that a
// crash or a full disk never leaves a half-written file behind.
#ifndef SRC_PATHS_H
#define SRC_PATHS_H

#include <stdbool.h>
#include <stddef.h>

enum { PATH_MAX_LEN = 4096 };

// The home directory: $HOME, else (unset or empty) the user's entry in the
// password database; NULL when neither gives one.
const char *paths_home(void);
// $XDG_CONFIG_HOME/patzer or ~/.config/patzer (created when create is set).
bool paths_config_dir(char *buf, size_t bufsz, bool create);
// $XDG_STATE_HOME/patzer or ~/.local/state/patzer (created when create is set).
bool paths_state_dir(char *buf, size_t bufsz, bool create);
// $XDG_DATA_HOME/patzer or ~/.local/share/patzer (created when create is set).
bool paths_user_data_dir(char *buf, size_t bufsz, bool create);
// $XDG_CACHE_HOME/patzer or ~/.cache/patzer (created when create is set).
bool paths_cache_dir(char *buf, size_t bufsz, bool create);
// A file in one of those directories.
bool paths_config_file(const char *name, char *buf, size_t bufsz, bool create_dir);
bool paths_state_file(const char *name, char *buf, size_t bufsz, bool create_dir);
bool paths_user_data_file(const char *name, char *buf, size_t bufsz, bool create_dir);

// The one place a shipped data file is looked for: $env_var when set (taken as
// it is, so that a wrong path shows up as an error where the file is read),
// then data/NAME next to the program (a build tree: argv0's directory/../data),
// then the installed $(pkgdatadir)/NAME. False, buf empty, when none is found.
bool paths_data_file(const char *name, const char *env_var, const char *argv0, char *buf,
                     size_t bufsz);
// The opening book: $PATZER_BOOK, then data/patzer.bin next to the program
// (a build tree: argv0's directory/../data), then the installed
// $(pkgdatadir)/patzer.bin. Empty string when none exists.
void paths_find_book(const char *argv0, char *buf, size_t bufsz);
// Points the engine's BookFile option at the shipped book when one is found
// (OwnBook stays as it is: off for the protocols until a GUI turns it on).
struct Engine;
void paths_set_default_book(struct Engine *engine);
// The program's argv[0], remembered by main for paths_find_book.
void paths_set_argv0(const char *argv0);
const char *paths_argv0(void);

// Writes len bytes to path atomically: a temporary file in the same
// directory, fsync, rename; a file replaced keeps its permissions (a new one
// is 0644), and a symbolic link stays one: the file it names is written; a
// read-only file (no write bit, or none for this user) is refused. On failure the old file is
// untouched, the temporary removed, and err says what failed (errno text).
bool paths_write_atomic(const char *path, const char *data, size_t len, char *err, size_t errsz);
// How many hard links the file at path (after symbolic links) has; 0 when
// there is none. Above 1, paths_write_atomic leaves the other names on the
// old file: the callers that write the user's files say so.
unsigned paths_hard_links(const char *path);
// Whether a file can be written in the directory of `file` (written into
// dir), which is created when missing: the check patzer makes at start for
// its state and data directories. False with errno saying why.
bool paths_dir_writable(const char *file, char *dir, size_t dirsz);
// For the tests only: after `after` more writes, paths_write_atomic fails
// with errno errnum (ENOSPC: a full disk) part-way through writing, until
// called again with errnum 0. Off unless a test sets it.
void paths_fail_writes(int after, int errnum);
// Reads a whole file of at most max_bytes into a new NUL-terminated buffer
// (the caller frees it). Rejects larger files and files with NUL bytes
// (binary), with a message.
char *paths_read_file(const char *path, size_t max_bytes, size_t *len, char *err, size_t errsz);
// Whether the file looks binary: a NUL byte in its first 4 KiB. False when it
// cannot be read (the reader then says why).
bool paths_looks_binary(const char *path);

#endif
