// SPDX-License-Identifier: GPL-3.0-or-later
// The text of the (headless) curses screen, for the Criterion suites that draw
// (test_ui, test_pager). Header-only, static inline.
#ifndef TESTS_SCREEN_DUMP_H
#define TESTS_SCREEN_DUMP_H

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "tests/helpers.h"
#include "ui/screen.h"

// Updates the screen, dumps it into buf (size bytes) and returns buf.
static inline const char *test_screen_dump(char *buf, size_t size) {
    char path[256];
    int fd = test_temp_file(path, sizeof path, "patzer-screen");
    close(fd);
    ui_screen_update();
    cr_assert(ui_screen_dump(path));
    FILE *f = fopen(path, "r");
    cr_assert_not_null(f);
    size_t n = fread(buf, 1, size - 1, f);
    buf[n] = '\0';
    fclose(f);
    remove(path);
    return buf;
}

#endif
