// SPDX-License-Identifier: GPL-3.0-or-later
// The message log (see msglog.h).
#include "src/util/msglog.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char lost[] = "(not kept: out of memory)";

void msglog_add(MsgLog *log, bool error, const char *text) {
    MsgLogEntry *e;
    if (log->count < MSGLOG_MAX) {
        e = &log->entries[(log->first + log->count) % MSGLOG_MAX];
        log->count++;
    } else {
        e = &log->entries[log->first]; // the oldest makes room
        free(e->text);
        log->first = (log->first + 1) % MSGLOG_MAX;
    }
    size_t n = strlen(text ? text : "");
    e->text = malloc(n + 1);
    if (e->text)
        memcpy(e->text, text ? text : "", n + 1);
    e->error = error;
    e->number = ++log->total;
}

int msglog_count(const MsgLog *log) {
    return log->count;
}

const MsgLogEntry *msglog_get(const MsgLog *log, int i) {
    if (i < 0 || i >= log->count)
        return NULL;
    return &log->entries[(log->first + i) % MSGLOG_MAX];
}

// The bytes one entry takes in the formatted log (see msglog_format).
static size_t entry_size(const MsgLogEntry *e) {
    const char *t = e->text ? e->text : lost;
    size_t n = 32 + strlen(t); // number, "Error: ", newline
    for (const char *p = strchr(t, '\n'); p; p = strchr(p + 1, '\n'))
        n += 8; // the indent of each continuation line
    return n;
}

char *msglog_format(const MsgLog *log) {
    size_t size = 64;
    for (int i = 0; i < log->count; i++)
        size += entry_size(msglog_get(log, i));
    char *buf = malloc(size);
    if (!buf)
        return NULL;
    size_t used = 0;
    if (log->count == 0)
        used += (size_t)snprintf(buf, size, "No messages yet.");
    for (int i = 0; i < log->count; i++) {
        const MsgLogEntry *e = msglog_get(log, i);
        if (i > 0)
            buf[used++] = '\n';
        used += (size_t)snprintf(buf + used, size - used, "%4lu  %s", e->number,
                                 e->error ? "Error: " : "");
        // Every line of a message starts under its first one.
        for (const char *t = e->text ? e->text : lost; *t;) {
            const char *nl = strchr(t, '\n');
            size_t len = nl ? (size_t)(nl - t) : strlen(t);
            memcpy(buf + used, t, len);
            used += len;
            t += len;
            if (nl) {
                t++;
                used += (size_t)snprintf(buf + used, size - used, "\n      ");
            }
        }
    }
    buf[used] = '\0';
    return buf;
}

void msglog_free(MsgLog *log) {
    for (int i = 0; i < log->count; i++)
        free(log->entries[(log->first + i) % MSGLOG_MAX].text);
    memset(log, 0, sizeof *log);
}
