// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzz target: an xboard (CECP) session (xboard_run) reading the input as the
// GUI's commands, output to /dev/null; see fuzz_protocol.h for the rewrite.
#include "tests/fuzz/fuzz_protocol.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    return fuzz_protocol(data, size, xboard_run);
}
