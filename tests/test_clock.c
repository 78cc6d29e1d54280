// SPDX-License-Identifier: GPL-3.0-or-later
// Tests for src/game/clock.c: time-control parsing and printing, and the exact
// millisecond arithmetic of increments, delays, periods and flag falls.
#include <criterion/criterion.h>
#include <string.h>

#include "engine/board.h"
#include "src/game/clock.h"

static void setup(void) {
    board_init_tables();
}

TestSuite(clock, .init = setup);

static TimeControl parse_ok(const char *text) {
    TimeControl tc;
    char err[160] = "";
    cr_assert(timecontrol_parse(text, &tc, err, sizeof err), "'%s' rejected: %s", text, err);
    return tc;
}

static void parse_fails(const char *text, const char *expected) {
    TimeControl tc;
    char err[160] = "";
    cr_assert_not(timecontrol_parse(text, &tc, err, sizeof err), "'%s' accepted", text);
    cr_assert_str_eq(err, expected, "'%s'", text);
}

static void assert_format(const char *text, const char *human, const char *pgn) {
    TimeControl tc = parse_ok(text);
    char buf[TC_TEXT_MAX];
    timecontrol_format(&tc, buf, sizeof buf);
    cr_assert_str_eq(buf, human, "'%s'", text);
    TimeControl again = parse_ok(buf);
    cr_assert_eq(memcmp(&tc, &again, sizeof tc), 0, "'%s' does not round-trip", buf);
    timecontrol_format_pgn(&tc, buf, sizeof buf);
    cr_assert_str_eq(buf, pgn, "'%s'", text);
}

Test(clock, parse_fischer) {
    TimeControl tc = parse_ok("5+3");
    cr_assert_not(tc.untimed);
    cr_assert_eq(tc.count, 1);
    cr_assert_eq(tc.periods[0].moves, 0);
    cr_assert_eq(tc.periods[0].base_ms, 300000);
    cr_assert_eq(tc.periods[0].inc_ms, 3000);
    cr_assert_eq(tc.periods[0].delay, DELAY_NONE);
}

// Units, as players write time controls on websites: h, m, s, largest first.
Test(clock, parse_units) {
    TimeControl tc = parse_ok("1m");
    cr_assert_eq(tc.periods[0].base_ms, 60000);
    cr_assert_eq(tc.periods[0].inc_ms, 0);
    tc = parse_ok("90s");
    cr_assert_eq(tc.periods[0].base_ms, 90000);
    tc = parse_ok("1h+30s");
    cr_assert_eq(tc.periods[0].base_ms, 3600000);
    cr_assert_eq(tc.periods[0].inc_ms, 30000);
    tc = parse_ok("1h30m");
    cr_assert_eq(tc.periods[0].base_ms, 90 * 60000);
    tc = parse_ok("1M30S + 2s");
    cr_assert_eq(tc.periods[0].base_ms, 90000);
    cr_assert_eq(tc.periods[0].inc_ms, 2000);
    tc = parse_ok("3m+1m");
    cr_assert_eq(tc.periods[0].inc_ms, 60000);
    tc = parse_ok("40/2h+30s, 30m+30s");
    cr_assert_eq(tc.count, 2);
    cr_assert_eq(tc.periods[0].moves, 40);
    cr_assert_eq(tc.periods[0].base_ms, 120 * 60000);
    cr_assert_eq(tc.periods[1].base_ms, 30 * 60000);
    tc = parse_ok("5m d3s");
    cr_assert_eq(tc.periods[0].delay, DELAY_SIMPLE);
    cr_assert_eq(tc.periods[0].delay_ms, 3000);
    tc = parse_ok("2.5m");
    cr_assert_eq(tc.periods[0].base_ms, 150000);
    // The same control with and without units.
    TimeControl plain = parse_ok("1:30+30");
    tc = parse_ok("90s+30s");
    cr_assert_eq(memcmp(&tc, &plain, sizeof tc), 0);
}

Test(clock, parse_unit_errors) {
    parse_fails("1x", "time control '1x': base time '1x': unknown unit 'x' (h, m or s)");
    parse_fails("1h30", "time control '1h30': base time '1h30': 30 has no unit (h, m or s)");
    parse_fails("30s1m", "time control '30s1m': base time '30s1m': m comes after a smaller or "
                         "equal unit");
    parse_fails("5+3sec", "time control '5+3sec': increment '3sec': unknown unit 'sec' (h, m or s)");
    parse_fails("1h+", "time control '1h+': increment is missing");
    parse_fails("0s", "time control '0s': the base time is zero and there is no increment");
    parse_fails("1..5m", "time control '1..5m': base time '1..5m': '1..5' is not a number");
}

Test(clock, parse_forms) {
    TimeControl tc = parse_ok("  40 / 90 + 30 ,  30+30 ");
    cr_assert_eq(tc.count, 2);
    cr_assert_eq(tc.periods[0].moves, 40);
    cr_assert_eq(tc.periods[0].base_ms, 90 * 60000);
    cr_assert_eq(tc.periods[0].inc_ms, 30000);
    cr_assert_eq(tc.periods[1].moves, 0);
    cr_assert_eq(tc.periods[1].base_ms, 30 * 60000);
    cr_assert_eq(tc.periods[1].inc_ms, 30000);

    tc = parse_ok("5d3");
    cr_assert_eq(tc.periods[0].delay, DELAY_SIMPLE);
    cr_assert_eq(tc.periods[0].delay_ms, 3000);
    cr_assert_eq(tc.periods[0].inc_ms, 0);
    tc = parse_ok("5B3");
    cr_assert_eq(tc.periods[0].delay, DELAY_BRONSTEIN);
    cr_assert_eq(tc.periods[0].delay_ms, 3000);

    tc = parse_ok("0:30+1");
    cr_assert_eq(tc.periods[0].base_ms, 30000);
    cr_assert_eq(tc.periods[0].inc_ms, 1000);
    tc = parse_ok("2.5+0.5");
    cr_assert_eq(tc.periods[0].base_ms, 150000);
    cr_assert_eq(tc.periods[0].inc_ms, 500);
    tc = parse_ok("0+2");
    cr_assert_eq(tc.periods[0].base_ms, 0);
    cr_assert_eq(tc.periods[0].inc_ms, 2000);

    tc = parse_ok("none");
    cr_assert(tc.untimed);
    cr_assert(parse_ok(" None ").untimed);
}

Test(clock, parse_errors) {
    parse_fails("5+x", "time control '5+x': increment 'x' is not a number");
    // A word with no number in it is no time control at all: said so, not
    // cut at a 'b' or 'd' read as a delay.
    parse_fails("abc", "'abc' is not a time control (such as 5+3, 40/90+30, 90s+5 or none)");
    parse_fails("blitz", "'blitz' is not a time control (such as 5+3, 40/90+30, 90s+5 or none)");
    parse_fails("bullet+1", "time control 'bullet+1': base time 'bullet' is not a number");
    parse_fails("40/dd", "time control '40/dd': base time 'dd' is not a number");
    parse_fails("-5+3", "time control '-5+3': base time '-5' is negative");
    parse_fails("5+-3", "time control '5+-3': increment '-3' is negative");
    parse_fails("5d-1", "time control '5d-1': delay '-1' is negative");
    parse_fails("0", "time control '0': the base time is zero and there is no increment");
    parse_fails("0+0", "time control '0+0': the base time is zero and there is no increment");
    parse_fails("0/5", "time control '0/5': moves '0' must be at least 1");
    parse_fails("x/5", "time control 'x/5': moves 'x' is not a number");
    parse_fails("5+", "time control '5+': increment is missing");
    parse_fails("1:75", "time control '1:75': base time '1:75' has 75 seconds (at most 59)");
    parse_fails("5+3+2", "time control '5+3+2': more than one increment");
    parse_fails("5d1b2", "time control '5d1b2': more than one delay");
    parse_fails("10/1, 10/1, 10/1, 10/1, 5",
                "time control '10/1, 10/1, 10/1, 10/1, 5': more than 4 periods");
    parse_fails("5, 3", "time control '5, 3': period 1 lasts the rest of the game, "
                        "so period 2 never starts");
    parse_fails("40/90,", "time control '40/90,': period 2 is empty");
    parse_fails("   ", "time control is empty");
}

Test(clock, format_round_trips) {
    assert_format("5+3", "5+3", "300+3");
    assert_format("40/90+30, 30+30", "40/90+30, 30+30", "40/5400+30:1800+30");
    assert_format("40/90+30", "40/90+30", "40/5400+30");
    assert_format("40/120,20/60,30", "40/120, 20/60, 30", "40/7200:20/3600:1800");
    assert_format("0:30+1", "0:30+1", "30+1");
    assert_format("1:05.5", "1:05.5", "65.5");
    assert_format("2.5+0.25", "2:30+0.25", "150+0.25");
    assert_format("5d3", "5d3", "300");
    assert_format("15b10", "15b10", "900");
    assert_format("none", "none", "-");
}

static Clock make_clock(const char *text) {
    TimeControl tc = parse_ok(text);
    Clock c;
    clock_init(&c, &tc);
    return c;
}

Test(clock, init_state) {
    Clock c = make_clock("5+3");
    cr_assert_eq(c.remaining_ms[WHITE], 300000);
    cr_assert_eq(c.remaining_ms[BLACK], 300000);
    cr_assert_not(c.running);
    cr_assert_eq(c.turn, WHITE);
    cr_assert_eq(clock_remaining(&c, WHITE, 123456), 300000);
}

Test(clock, zero_base_starts_with_one_increment) {
    Clock c = make_clock("0+2");
    cr_assert_eq(c.remaining_ms[WHITE], 2000);
    clock_start(&c, WHITE, 0);
    cr_assert(clock_press(&c, 1500));
    cr_assert_eq(c.remaining_ms[WHITE], 2500);
}

Test(clock, fischer_increment) {
    Clock c = make_clock("5+3");
    clock_start(&c, WHITE, 1000);
    cr_assert_eq(clock_remaining(&c, WHITE, 11000), 290000);
    cr_assert_eq(clock_remaining(&c, BLACK, 11000), 300000);
    cr_assert(clock_press(&c, 11000));
    cr_assert_eq(c.remaining_ms[WHITE], 293000);
    cr_assert_eq(c.turn, BLACK);
    cr_assert(c.running);
    cr_assert_eq(clock_remaining(&c, BLACK, 16000), 295000);
    cr_assert(clock_press(&c, 16000));
    cr_assert_eq(c.remaining_ms[BLACK], 298000);
    cr_assert_eq(clock_increment(&c, WHITE), 3000);
    cr_assert_eq(clock_moves_to_go(&c, WHITE), 0);
}

Test(clock, bronstein_delay) {
    Clock c = make_clock("5b3");
    clock_start(&c, WHITE, 0);
    // A quick move gets all its time back; a slow one only the delay.
    cr_assert_eq(clock_remaining(&c, WHITE, 2000), 298000);
    cr_assert(clock_press(&c, 2000));
    cr_assert_eq(c.remaining_ms[WHITE], 300000);
    cr_assert(clock_press(&c, 12000));
    cr_assert_eq(c.remaining_ms[BLACK], 293000);
}

Test(clock, simple_delay) {
    Clock c = make_clock("5d3");
    clock_start(&c, WHITE, 0);
    cr_assert_eq(clock_remaining(&c, WHITE, 2500), 300000);
    cr_assert_eq(clock_remaining(&c, WHITE, 3000), 300000);
    cr_assert_eq(clock_remaining(&c, WHITE, 4000), 299000);
    cr_assert(clock_press(&c, 2000));
    cr_assert_eq(c.remaining_ms[WHITE], 300000);
    cr_assert(clock_press(&c, 12000));
    cr_assert_eq(c.remaining_ms[BLACK], 293000);
}

Test(clock, multi_period_adds_next_base) {
    Clock c = make_clock("40/90+30, 30+30");
    int64_t now = 0;
    clock_start(&c, WHITE, now);
    for (int i = 0; i < 39 * 2; i++) {
        now += 1000;
        cr_assert(clock_press(&c, now));
    }
    cr_assert_eq(clock_moves_to_go(&c, WHITE), 1);
    cr_assert_eq(c.remaining_ms[WHITE], 90 * 60000 + 39 * 29000);
    now += 1000;
    cr_assert(clock_press(&c, now)); // White's 40th move
    cr_assert_eq(c.period[WHITE], 1);
    cr_assert_eq(c.moves_in_period[WHITE], 0);
    cr_assert_eq(c.remaining_ms[WHITE], 90 * 60000 + 40 * 29000 + 30 * 60000);
    cr_assert_eq(clock_moves_to_go(&c, WHITE), 0);
    cr_assert_eq(c.period[BLACK], 0);
    cr_assert_eq(clock_moves_to_go(&c, BLACK), 1);
    // The last period lasts the rest of the game.
    for (int i = 0; i < 100; i++) {
        now += 1000;
        cr_assert(clock_press(&c, now));
    }
    cr_assert_eq(c.period[WHITE], 1);
    cr_assert_eq(c.period[BLACK], 1);
}

Test(clock, last_period_repeats) {
    Clock c = make_clock("40/90+30");
    int64_t now = 0;
    clock_start(&c, WHITE, now);
    for (int i = 0; i < 80; i++) {
        now += 1000;
        cr_assert(clock_press(&c, now));
    }
    cr_assert_eq(c.period[WHITE], 0);
    cr_assert_eq(c.moves_in_period[WHITE], 0);
    cr_assert_eq(c.remaining_ms[WHITE], 2 * 90 * 60000 + 40 * 29000);
    cr_assert_eq(clock_moves_to_go(&c, BLACK), 40);
    cr_assert_eq(c.remaining_ms[BLACK], 2 * 90 * 60000 + 40 * 29000);
}

Test(clock, flag_fall) {
    Clock c = make_clock("0:10");
    clock_start(&c, WHITE, 0);
    cr_assert_not(clock_check_flag(&c, 9999));
    cr_assert_not(clock_is_out(&c, WHITE, 9999));
    cr_assert_eq(clock_remaining(&c, WHITE, 9999), 1);
    cr_assert(clock_is_out(&c, WHITE, 10000));
    cr_assert_not(c.flagged[WHITE]);
    cr_assert(clock_check_flag(&c, 10000));
    cr_assert(c.flagged[WHITE]);
    cr_assert_eq(clock_remaining(&c, WHITE, 50000), -1);
    cr_assert_not(clock_is_out(&c, BLACK, 50000));
}

Test(clock, press_after_fall_fails) {
    Clock c = make_clock("0:10+5");
    clock_start(&c, WHITE, 0);
    cr_assert_not(clock_press(&c, 10500));
    cr_assert(c.flagged[WHITE]);
    cr_assert_eq(c.remaining_ms[WHITE], -1); // no increment once fallen
    cr_assert_not(c.running);
}

Test(clock, stop_and_restart) {
    Clock c = make_clock("5+0");
    clock_start(&c, BLACK, 0);
    clock_stop(&c, 4000);
    cr_assert_not(c.running);
    cr_assert_eq(clock_remaining(&c, BLACK, 99000), 296000);
    clock_start(&c, BLACK, 100000);
    cr_assert_eq(clock_remaining(&c, BLACK, 101000), 295000);
    cr_assert(clock_press(&c, 101000));
    cr_assert_eq(c.turn, WHITE);
    cr_assert_eq(c.remaining_ms[BLACK], 295000);
}

Test(clock, untimed_never_falls) {
    Clock c = make_clock("none");
    clock_start(&c, WHITE, 0);
    cr_assert_eq(clock_remaining(&c, WHITE, 1000000000), 0);
    cr_assert_not(clock_check_flag(&c, 1000000000));
    cr_assert_not(clock_is_out(&c, WHITE, 1000000000));
    cr_assert(clock_press(&c, 1000000000));
    cr_assert_eq(c.turn, BLACK);
    cr_assert_eq(clock_moves_to_go(&c, BLACK), 0);
    cr_assert_eq(clock_increment(&c, BLACK), 0);
}

Test(clock, set_restores_values) {
    Clock c = make_clock("40/90+30, 30+30");
    int64_t ms[COLOR_NB] = { 1234, 5678 };
    int period[COLOR_NB] = { 1, 0 };
    int moves[COLOR_NB] = { 0, 17 };
    clock_set(&c, ms, period, moves);
    cr_assert_eq(clock_remaining(&c, WHITE, 0), 1234);
    cr_assert_eq(clock_remaining(&c, BLACK, 0), 5678);
    cr_assert_eq(clock_moves_to_go(&c, WHITE), 0);
    cr_assert_eq(clock_moves_to_go(&c, BLACK), 23);
    cr_assert_not(c.flagged[WHITE]);
}
