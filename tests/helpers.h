// SPDX-License-Identifier: GPL-3.0-or-later
// Helpers shared by the Criterion suites.
#ifndef TESTS_HELPERS_H
#define TESTS_HELPERS_H

#include <stdlib.h>

// The test data directory: $TEST_DATADIR (set by make check), else the
// source tree's tests/data compiled in as TEST_DATADIR.
static inline const char *test_data_dir(void) {
    const char *dir = getenv("TEST_DATADIR");
    return dir && *dir ? dir : TEST_DATADIR;
}

#endif
