// SPDX-License-Identifier: GPL-3.0-or-later
// The growable string of src/util/strbuf: appends of every kind, growth far
// past the first allocation, taking the text, and an empty buffer.
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/util/strbuf.h"

Test(strbuf, appends_bytes_strings_and_formats) {
    StrBuf b = { 0 };
    strbuf_add(&b, "abcdef", 3);
    strbuf_puts(&b, "-");
    strbuf_printf(&b, "%d/%s", 42, "x");
    cr_expect_eq(b.len, 8);
    cr_expect_str_eq(b.s, "abc-42/x");
    size_t len = 0;
    char *s = strbuf_take(&b, &len);
    cr_assert_not_null(s);
    cr_expect_str_eq(s, "abc-42/x");
    cr_expect_eq(len, 8);
    cr_expect_null(b.s, "taking the text leaves the buffer empty");
    cr_expect_eq(b.len, 0);
    free(s);
}

Test(strbuf, grows_past_its_first_allocation) {
    StrBuf b = { 0 };
    char want[20001];
    size_t n = 0;
    for (int i = 0; i < 2000; i++) {
        strbuf_printf(&b, "%04d,", i % 10000);
        n += (size_t)snprintf(want + n, sizeof want - n, "%04d,", i % 10000);
    }
    // One formatted piece longer than all the room there is.
    char big[5000];
    memset(big, 'z', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    strbuf_printf(&b, "%s", big);
    cr_assert_not(b.failed);
    cr_expect_eq(b.len, n + sizeof big - 1);
    cr_expect_eq(memcmp(b.s, want, n), 0);
    cr_expect_str_eq(b.s + n, big);
    strbuf_free(&b);
    cr_expect_null(b.s);
}

Test(strbuf, an_empty_buffer_gives_an_empty_string) {
    StrBuf b = { 0 };
    size_t len = 99;
    char *s = strbuf_take(&b, &len);
    cr_assert_not_null(s);
    cr_expect_str_eq(s, "");
    cr_expect_eq(len, 0);
    free(s);
    strbuf_puts(&b, "");
    s = strbuf_take(&b, NULL);
    cr_assert_not_null(s);
    cr_expect_str_eq(s, "");
    free(s);
}

Test(strbuf, a_failed_buffer_ignores_appends_and_gives_null) {
    StrBuf b = { 0 };
    strbuf_puts(&b, "kept");
    b.failed = true; // as after an allocation that failed
    strbuf_puts(&b, " lost");
    strbuf_printf(&b, "%s", " lost");
    cr_expect_str_eq(b.s, "kept");
    cr_expect_null(strbuf_take(&b, NULL));
    cr_expect_null(b.s, "the text is freed");
}

// src/util/text's control-byte check, shared by the line mode, UCI and xboard.
#include "src/util/text.h"

Test(text, finds_the_first_control_byte_but_not_blanks) {
    cr_expect_eq(text_first_control("e4 e5\t\r\n", 8), -1);
    cr_expect_eq(text_first_control("e4\0junk", 7), 0);
    cr_expect_eq(text_first_control("a\x01" "b\x7f", 4), 1);
    cr_expect_eq(text_first_control("ab\x7f", 3), 0x7f);
    cr_expect_eq(text_first_control("\x1b[2J", 0), -1, "only the n bytes given");
}
