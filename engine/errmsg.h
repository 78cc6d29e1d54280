// SPDX-License-Identifier: GPL-3.0-or-later
// The one way every layer fills a caller's error buffer: functions that can
// fail take (char *err, size_t errsz), either of which may be NULL or 0 when
// the caller does not want the reason.
#ifndef ENGINE_ERRMSG_H
#define ENGINE_ERRMSG_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

// Formats the message into err (cut to errsz) unless err is NULL or errsz 0.
// Always returns false, so that a failing function can end with
// `return errmsg_set(err, errsz, "...", ...);`.
__attribute__((format(printf, 3, 4))) bool errmsg_set(char *err, size_t errsz, const char *fmt,
                                                      ...);
// The same with the arguments as a va_list, for helpers that return
// something else than false (a status code) around it.
__attribute__((format(printf, 3, 0))) bool errmsg_vset(char *err, size_t errsz, const char *fmt,
                                                       va_list ap);

#endif
