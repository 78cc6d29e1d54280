// SPDX-License-Identifier: GPL-3.0-or-later
// src/util/digest: FNV-1a 64 against the published test vectors, and the
// properties its users rely on (strings kept apart, integers byte-order free).
#include <criterion/criterion.h>
#include <string.h>

#include "src/util/digest.h"

Test(digest, gives_the_published_fnv1a_64_values) {
    cr_expect_eq(digest_bytes(DIGEST_BASIS, "", 0), 0xcbf29ce484222325ULL);
    cr_expect_eq(digest_bytes(DIGEST_BASIS, "a", 1), 0xaf63dc4c8601ec8cULL);
    cr_expect_eq(digest_bytes(DIGEST_BASIS, "foobar", 6), 0x85944171f73967e8ULL);
}

Test(digest, carries_on_from_a_partial_digest) {
    uint64_t whole = digest_bytes(DIGEST_BASIS, "foobar", 6);
    uint64_t parts = digest_bytes(digest_bytes(DIGEST_BASIS, "foo", 3), "bar", 3);
    cr_expect_eq(whole, parts);
}

Test(digest, keeps_strings_apart) {
    uint64_t ab_c = digest_string(digest_string(DIGEST_BASIS, "ab"), "c");
    uint64_t a_bc = digest_string(digest_string(DIGEST_BASIS, "a"), "bc");
    cr_expect_neq(ab_c, a_bc);
    cr_expect_neq(digest_string(DIGEST_BASIS, ""), DIGEST_BASIS, "an empty string still counts");
}

Test(digest, reads_integers_least_significant_byte_first) {
    const unsigned char bytes[8] = { 0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01 };
    cr_expect_eq(digest_u64(DIGEST_BASIS, 0x0102030405060708ULL),
                 digest_bytes(DIGEST_BASIS, bytes, sizeof bytes));
}
