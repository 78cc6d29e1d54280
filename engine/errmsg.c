// SPDX-License-Identifier: GPL-3.0-or-later
// Error messages into caller buffers (see errmsg.h).
#include "engine/errmsg.h"

#include <stdarg.h>
#include <stdio.h>

bool errmsg_set(char *err, size_t errsz, const char *fmt, ...) {
    if (err && errsz > 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errsz, fmt, ap);
        va_end(ap);
    }
    return false;
}
