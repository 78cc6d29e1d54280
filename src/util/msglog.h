// SPDX-License-Identifier: GPL-3.0-or-later
// The message log: the last MSGLOG_MAX status messages (information and
// errors) in a ring, oldest dropped first, each numbered in the order it
// came, so the `messages` command and the pager can show what the status
// line had to cut or has replaced since.
#ifndef SRC_MSGLOG_H
#define SRC_MSGLOG_H

#include <stdbool.h>
#include <stddef.h>

enum { MSGLOG_MAX = 100 };

typedef struct MsgLogEntry {
    char *text;            // owned; NULL when it could not be kept (out of memory)
    bool error;
    unsigned long number;  // 1 for the first message ever logged
} MsgLogEntry;

// Zero-initialised it is empty.
typedef struct MsgLog {
    MsgLogEntry entries[MSGLOG_MAX];
    int first, count;      // the oldest entry's slot, and how many are kept
    unsigned long total;   // messages ever logged
} MsgLog;

// Keeps a copy of text (the oldest entry goes when the log is full).
void msglog_add(MsgLog *log, bool error, const char *text);
int msglog_count(const MsgLog *log);
// Entry i, 0 the oldest kept; NULL out of range.
const MsgLogEntry *msglog_get(const MsgLog *log, int i);
// The log as text, oldest first, a line per message ("  12  Error: ..."; the
// lines of a message of several are indented under its first), no newline at
// the end; "No messages yet." when empty. Allocated: the caller frees
// it. NULL when out of memory.
char *msglog_format(const MsgLog *log);
// Frees every entry; the log is empty after.
void msglog_free(MsgLog *log);

#endif
