// SPDX-License-Identifier: GPL-3.0-or-later
// FNV-1a, 64 bits: the digests that tell whether something changed (a game
// since it was saved, the screen's state, an index file's header, the games a
// puzzle book has scanned). Quick and stable across runs and machines, since
// some are stored in files; not for anything an adversary chooses.
#ifndef SRC_DIGEST_H
#define SRC_DIGEST_H

#include <stddef.h>
#include <stdint.h>

// The digest of nothing: the value to start from.
#define DIGEST_BASIS 0xcbf29ce484222325ULL

// h carried on over n bytes.
uint64_t digest_bytes(uint64_t h, const void *data, size_t n);
// h carried on over v's 8 bytes, least significant first (the same on every
// machine, whatever its byte order).
uint64_t digest_u64(uint64_t h, uint64_t v);
// h carried on over the string and a separator byte after it, so that the
// strings "ab", "c" and "a", "bc" give different digests.
uint64_t digest_string(uint64_t h, const char *s);

#endif
