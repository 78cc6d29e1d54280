// SPDX-License-Identifier: GPL-3.0-or-later
// What the two front ends share at their end: a signal that ends the game
// with nobody to ask (the terminal closed, a kill) keeps the changes to
// games of files apart, and says where on standard error.
#include "src/term/frontend.h"

#include <stdio.h>

#include "src/util/paths.h"

int frontend_recover_unsaved(Session *s) {
    char path[PATH_MAX_LEN], err[512];
    int n = session_recover_unsaved(s, frontend_now_ms(), path, sizeof path, err, sizeof err);
    if (n > 0)
        fprintf(stderr,
                "patzer: changes not saved to %d game%s of files are kept in %s (load that file "
                "in patzer to see them)\n",
                n, n == 1 ? "" : "s", path);
    else if (n < 0)
        fprintf(stderr, "patzer: changes not saved to games of files could not be kept: %s\n", err);
    return n < 0 ? FRONTEND_NOT_SAVED : 0;
}
