// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzz target: a UCI session (uci_run) reading the input as the GUI's
// commands, output to /dev/null; see fuzz_protocol.h for the input rewrite.
#include "tests/fuzz/fuzz_protocol.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    return fuzz_protocol(data, size, uci_run);
}
