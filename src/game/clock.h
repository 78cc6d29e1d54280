// SPDX-License-Identifier: GPL-3.0-or-later
// Chess clocks: time controls of one or more periods, each with a base time,
// an optional number of moves, and an increment (Fischer) or a delay
// (Bronstein or simple). Pure arithmetic over a caller-supplied "now" in
// milliseconds, so it is testable without waiting.
#ifndef SRC_CLOCK_H
#define SRC_CLOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/types.h"

typedef enum { DELAY_NONE, DELAY_BRONSTEIN, DELAY_SIMPLE } DelayKind;

typedef struct TimePeriod {
    int moves;        // moves to make in this period; 0 = the rest of the game
    int64_t base_ms;  // time added when the period starts
    int64_t inc_ms;   // Fischer increment after each move
    int64_t delay_ms; // delay per move (with DELAY_BRONSTEIN or DELAY_SIMPLE)
    DelayKind delay;
} TimePeriod;

enum { TC_MAX_PERIODS = 4, TC_TEXT_MAX = 96 };

typedef struct TimeControl {
    bool untimed;
    int count;
    TimePeriod periods[TC_MAX_PERIODS];
} TimeControl;

// Parses a time control. Minutes for the base time (decimals allowed, or
// m:ss), seconds for increments and delays, unless a unit says otherwise
// (h, m, s, largest first: "90s", "1h30m", "1m+30s"):
//   "5+3"             5 minutes, 3 s increment
//   "1h+30s"          an hour, 30 s increment
//   "40/90+30"        40 moves in 90 minutes, 30 s increment, repeating
//   "40/90+30, 30+30" then the rest of the game in 30 minutes + 30 s
//   "5d3" / "5b3"     5 minutes with a 3 s simple / Bronstein delay
//   "0:30+1"          30 seconds, 1 s increment
//   "none"            no clock
// On error returns false and writes a message naming the part at fault.
bool timecontrol_parse(const char *text, TimeControl *tc, char *err, size_t errsz);
// Writes the human form ("5+3", "40/90+30, 30+30", "none").
void timecontrol_format(const TimeControl *tc, char *buf, size_t bufsz);
// Writes the PGN TimeControl tag value ("300+3", "40/5400+30:1800+30", "-").
void timecontrol_format_pgn(const TimeControl *tc, char *buf, size_t bufsz);

typedef struct Clock {
    TimeControl tc;
    int64_t remaining_ms[COLOR_NB]; // as of the last press/stop
    int period[COLOR_NB];           // index into tc.periods
    int moves_in_period[COLOR_NB];  // moves made in the current period
    bool running;
    Color turn;                     // whose clock runs (or would run)
    int64_t started_ms;             // when the running clock was started
    bool flagged[COLOR_NB];
} Clock;

// A clock at the start of the game, stopped, White's turn.
void clock_init(Clock *c, const TimeControl *tc);
// Starts the clock of side `turn` at now.
void clock_start(Clock *c, Color turn, int64_t now);
// Stops the running clock, charging the time used so far.
void clock_stop(Clock *c, int64_t now);
// The side to move completed a move at now: charge its time, apply delay and
// increment, move to the next period when its moves are done, and start the
// opponent's clock. Returns false if the mover's flag had already fallen.
bool clock_press(Clock *c, int64_t now);
// Time left for side at now (the running side's time counts down live;
// a simple delay is not charged until it has elapsed). Never negative
// below -1 so callers can show a fallen flag.
int64_t clock_remaining(const Clock *c, Color side, int64_t now);
// True once side's time has run out (sets nothing: see clock_check_flag).
bool clock_is_out(const Clock *c, Color side, int64_t now);
// Marks and reports a flag fall of the running side.
bool clock_check_flag(Clock *c, int64_t now);
// Moves the side must still make in its current period (0 when the period
// is the rest of the game), and its increment, for the engine's time manager.
int clock_moves_to_go(const Clock *c, Color side);
int64_t clock_increment(const Clock *c, Color side);
// Sets both remaining times (undo restores the values saved with a move).
void clock_set(Clock *c, const int64_t remaining[COLOR_NB], const int period[COLOR_NB],
               const int moves_in_period[COLOR_NB]);

#endif
