// SPDX-License-Identifier: GPL-3.0-or-later
// The NNUE network built into the program: the bytes of data/patzer.nnue, which the build
// turns into src/util/netbuiltin.c (tools/bin2c), so that `patzer uci`, an installed copy
// and a GUI need no path. src/util/netfile.h loads it when EvalFile is empty.
#ifndef SRC_UTIL_NETBUILTIN_H
#define SRC_UTIL_NETBUILTIN_H

#include <stddef.h>

extern const unsigned char netbuiltin[];
extern const size_t netbuiltin_size;

#endif
