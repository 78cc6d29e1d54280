// SPDX-License-Identifier: GPL-3.0-or-later
// Error messages into caller buffers (see errmsg.h).
#include "engine/errmsg.h"

#include <stdio.h>

bool errmsg_vset(char *err, size_t errsz, const char *fmt, va_list ap) {
    if (err && errsz > 0)
        vsnprintf(err, errsz, fmt, ap);
    return false;
}

bool errmsg_set(char *err, size_t errsz, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    errmsg_vset(err, errsz, fmt, ap);
    va_end(ap);
    return false;
}
