// SPDX-License-Identifier: GPL-3.0-or-later
// Chess clocks: parsing and printing time controls, and the clock arithmetic of
// increments, delays and multi-period controls over a caller-supplied "now".
#include "src/game/clock.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

enum {
    MS_PER_SECOND = 1000,
    MS_PER_MINUTE = 60 * MS_PER_SECOND,
    SECONDS_PER_MINUTE = 60,
    NUMBER_DIGITS_MAX = 7, // whole part: ten million minutes is plenty
    FRACTION_DIGITS_MAX = 6,
    MOVES_MAX = 9999,
    PERIOD_TEXT_MAX = 64,
};

// ------------------------------------------------------------------ parsing

typedef struct ParseCtx {
    const char *text; // the whole time control, trimmed, for messages
    char *err;
    size_t errsz;
} ParseCtx;

static bool fail(const ParseCtx *ctx, const char *fmt, ...) {
    if (!ctx->err || ctx->errsz == 0)
        return false;
    char detail[160];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(detail, sizeof detail, fmt, ap);
    va_end(ap);
    snprintf(ctx->err, ctx->errsz, "time control '%s': %s", ctx->text, detail);
    return false;
}

// Copies [begin, end) without surrounding blanks into out.
static void trim_copy(const char *begin, const char *end, char *out, size_t outsz) {
    while (begin < end && isspace((unsigned char)*begin))
        begin++;
    while (end > begin && isspace((unsigned char)end[-1]))
        end--;
    size_t n = (size_t)(end - begin);
    if (n >= outsz)
        n = outsz - 1;
    memcpy(out, begin, n);
    out[n] = '\0';
}

// Outcome of reading one number, so the caller can name the fault.
typedef enum { NUM_OK, NUM_BAD, NUM_NEGATIVE, NUM_TOO_LARGE } NumStatus;

// Reads "digits[.digits]" scaled by unit_ms; the whole string must be used.
static NumStatus parse_decimal(const char *s, int64_t unit_ms, bool allow_fraction, int64_t *out) {
    if (*s == '-')
        return s[1] ? NUM_NEGATIVE : NUM_BAD;
    int64_t whole = 0, frac = 0, scale = 1;
    int digits = 0, frac_digits = 0;
    for (; isdigit((unsigned char)*s); s++, digits++) {
        if (digits >= NUMBER_DIGITS_MAX)
            return NUM_TOO_LARGE;
        whole = whole * 10 + (*s - '0');
    }
    if (*s == '.' && allow_fraction) {
        for (s++; isdigit((unsigned char)*s); s++) {
            // Digits past the sixth are below a microsecond: read and dropped.
            if (frac_digits < FRACTION_DIGITS_MAX) {
                frac = frac * 10 + (*s - '0');
                scale *= 10;
                frac_digits++;
            }
            digits++;
        }
    }
    if (*s != '\0' || digits == 0)
        return NUM_BAD;
    *out = whole * unit_ms + (frac * unit_ms + scale / 2) / scale;
    return NUM_OK;
}

static bool report_number(const ParseCtx *ctx, NumStatus st, const char *what, const char *tok) {
    switch (st) {
    case NUM_OK: return true;
    case NUM_NEGATIVE: return fail(ctx, "%s '%s' is negative", what, tok);
    case NUM_TOO_LARGE: return fail(ctx, "%s '%s' is too large", what, tok);
    case NUM_BAD: break;
    }
    if (*tok == '\0')
        return fail(ctx, "%s is missing", what);
    return fail(ctx, "%s '%s' is not a number", what, tok);
}

// Whether tok is a number with units ("90s", "1h30m", "2.5m"): it starts
// like a number and holds a letter.
static bool has_units(const char *tok) {
    if (!isdigit((unsigned char)tok[0]) && tok[0] != '.')
        return false;
    for (const char *c = tok; *c; c++)
        if (isalpha((unsigned char)*c))
            return true;
    return false;
}

// A duration with units, largest first, each at most once: "1h", "90s",
// "1h30m", "1m30s", "2.5m". Every number needs its unit (a bare "1h30" is
// refused rather than guessed); the message names the part at fault.
static bool parse_units(const ParseCtx *ctx, const char *tok, const char *what, int64_t *out) {
    static const char units[] = "hms";
    static const int64_t unit_ms[] = { 60 * MS_PER_MINUTE, MS_PER_MINUTE, MS_PER_SECOND };
    int64_t total = 0;
    int last = -1; // index in units of the last unit read
    const char *p = tok;
    while (*p) {
        char number[PERIOD_TEXT_MAX], unit[PERIOD_TEXT_MAX];
        size_t n = strspn(p, "0123456789.");
        trim_copy(p, p + n, number, sizeof number);
        p += n;
        size_t u = strcspn(p, "0123456789.");
        trim_copy(p, p + u, unit, sizeof unit);
        p += u;
        if (number[0] == '\0')
            return fail(ctx, "%s '%s': '%s' has no number before it", what, tok, unit);
        if (unit[0] == '\0')
            return fail(ctx, "%s '%s': %s has no unit (h, m or s)", what, tok, number);
        const char *found = unit[1] == '\0' ? strchr(units, tolower((unsigned char)unit[0])) : NULL;
        if (!found)
            return fail(ctx, "%s '%s': unknown unit '%s' (h, m or s)", what, tok, unit);
        int index = (int)(found - units);
        if (index <= last)
            return fail(ctx, "%s '%s': %s comes after a smaller or equal unit", what, tok, unit);
        last = index;
        int64_t ms = 0;
        NumStatus st = parse_decimal(number, unit_ms[index], true, &ms);
        if (st != NUM_OK)
            return fail(ctx, "%s '%s': '%s' is %s", what, tok, number,
                        st == NUM_TOO_LARGE ? "too large" : "not a number");
        total += ms;
    }
    *out = total;
    return true;
}

// The base time: minutes ("5", "2.5"), minutes and seconds ("1:30",
// "0:30.5"), or with units ("90s", "1h", "1h30m").
static bool parse_base(const ParseCtx *ctx, const char *tok, int64_t *out) {
    if (has_units(tok))
        return parse_units(ctx, tok, "base time", out);
    const char *colon = strchr(tok, ':');
    if (!colon)
        return report_number(ctx, parse_decimal(tok, MS_PER_MINUTE, true, out), "base time", tok);
    char minutes[PERIOD_TEXT_MAX], seconds[PERIOD_TEXT_MAX];
    trim_copy(tok, colon, minutes, sizeof minutes);
    trim_copy(colon + 1, colon + strlen(colon), seconds, sizeof seconds);
    int64_t m = 0, s = 0;
    NumStatus st = parse_decimal(minutes, MS_PER_MINUTE, false, &m);
    if (st == NUM_OK)
        st = parse_decimal(seconds, MS_PER_SECOND, true, &s);
    if (st == NUM_OK && s >= SECONDS_PER_MINUTE * MS_PER_SECOND)
        return fail(ctx, "base time '%s' has %s seconds (at most 59)", tok, seconds);
    if (!report_number(ctx, st, "base time", tok))
        return false;
    *out = m + s;
    return true;
}

// One period: [moves/]base[+inc][d|b delay].
static bool parse_period(const ParseCtx *ctx, const char *text, TimePeriod *p) {
    memset(p, 0, sizeof *p);
    p->delay = DELAY_NONE;
    char tok[PERIOD_TEXT_MAX];
    const char *rest = text;
    const char *slash = strchr(text, '/');
    if (slash) {
        trim_copy(text, slash, tok, sizeof tok);
        int64_t moves = 0;
        NumStatus st = parse_decimal(tok, 1, false, &moves);
        if (st == NUM_OK && moves > MOVES_MAX)
            st = NUM_TOO_LARGE;
        if (!report_number(ctx, st, "moves", tok))
            return false;
        if (moves == 0)
            return fail(ctx, "moves '%s' must be at least 1", tok);
        p->moves = (int)moves;
        rest = slash + 1;
    }

    // The base runs up to the first suffix marker; each suffix up to the next.
    // A delay follows a base time, so a base that starts with a letter is a
    // word ("bullet"), not an empty base before a 'b' delay: named whole.
    static const char markers[] = "+dDbB";
    bool word = isalpha((unsigned char)*rest) != 0;
    const char *end = rest + strcspn(rest, word ? "+" : markers);
    trim_copy(rest, end, tok, sizeof tok);
    if (!parse_base(ctx, tok, &p->base_ms))
        return false;
    bool have_inc = false;
    while (*end) {
        char marker = (char)tolower((unsigned char)*end);
        const char *begin = end + 1;
        end = begin + strcspn(begin, markers);
        trim_copy(begin, end, tok, sizeof tok);
        const char *what = marker == '+' ? "increment" : "delay";
        if (marker == '+' ? have_inc : p->delay != DELAY_NONE)
            return fail(ctx, "more than one %s", what);
        int64_t ms = 0;
        if (has_units(tok) ? !parse_units(ctx, tok, what, &ms)
                           : !report_number(ctx, parse_decimal(tok, MS_PER_SECOND, true, &ms),
                                            what, tok))
            return false;
        if (marker == '+') {
            have_inc = true;
            p->inc_ms = ms;
        } else {
            p->delay = marker == 'd' ? DELAY_SIMPLE : DELAY_BRONSTEIN;
            p->delay_ms = ms;
        }
    }
    if (p->base_ms == 0 && p->inc_ms == 0)
        return fail(ctx, "the base time is zero and there is no increment");
    return true;
}

static bool is_untimed_word(const char *s) {
    static const char *const words[] = { "none", "untimed", "-" };
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
        size_t n = strlen(words[i]), k = 0;
        while (k < n && s[k] && tolower((unsigned char)s[k]) == words[i][k])
            k++;
        if (k == n && s[k] == '\0')
            return true;
    }
    return false;
}

bool timecontrol_parse(const char *text, TimeControl *tc, char *err, size_t errsz) {
    char whole[TC_TEXT_MAX * 2];
    trim_copy(text, text + strlen(text), whole, sizeof whole);
    ParseCtx ctx = { whole, err, errsz };
    if (whole[0] == '\0') {
        if (err && errsz)
            snprintf(err, errsz, "time control is empty");
        return false;
    }
    TimeControl out;
    memset(&out, 0, sizeof out);
    if (is_untimed_word(whole)) {
        out.untimed = true;
        *tc = out;
        return true;
    }
    if (!strpbrk(whole, "0123456789")) {
        // Every time control has a number; without one, the text is no part of one.
        if (err && errsz)
            snprintf(err, errsz,
                     "'%s' is not a time control (such as 5+3, 40/90+30, 90s+5 or none)", whole);
        return false;
    }
    const char *p = whole;
    for (;;) {
        const char *comma = strchr(p, ',');
        const char *end = comma ? comma : p + strlen(p);
        if (out.count == TC_MAX_PERIODS)
            return fail(&ctx, "more than %d periods", TC_MAX_PERIODS);
        char period[PERIOD_TEXT_MAX];
        trim_copy(p, end, period, sizeof period);
        if (period[0] == '\0')
            return fail(&ctx, "period %d is empty", out.count + 1);
        if (out.count > 0 && out.periods[out.count - 1].moves == 0)
            return fail(&ctx, "period %d lasts the rest of the game, so period %d never starts",
                        out.count, out.count + 1);
        if (!parse_period(&ctx, period, &out.periods[out.count]))
            return false;
        out.count++;
        if (!comma)
            break;
        p = comma + 1;
    }
    *tc = out;
    return true;
}

// ----------------------------------------------------------------- printing

// Appends to buf at *len, keeping the text NUL-terminated when it is cut short.
static void append(char *buf, size_t bufsz, size_t *len, const char *fmt, ...) {
    if (*len >= bufsz)
        return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf + *len, bufsz - *len, fmt, ap);
    va_end(ap);
    if (n > 0)
        *len = *len + (size_t)n < bufsz ? *len + (size_t)n : bufsz;
}

// Writes ms as seconds: "30", "0.5", "1.25".
static void format_seconds(int64_t ms, char *buf, size_t bufsz) {
    int64_t whole = ms / MS_PER_SECOND, frac = ms % MS_PER_SECOND;
    if (frac == 0) {
        snprintf(buf, bufsz, "%" PRId64, whole);
        return;
    }
    char digits[8];
    snprintf(digits, sizeof digits, "%03" PRId64, frac);
    for (int i = 2; i > 0 && digits[i] == '0'; i--)
        digits[i] = '\0';
    snprintf(buf, bufsz, "%" PRId64 ".%s", whole, digits);
}

// Writes a base time as minutes ("90") or minutes and seconds ("0:30", "1:02.5").
static void format_base(int64_t ms, char *buf, size_t bufsz) {
    if (ms % MS_PER_MINUTE == 0) {
        snprintf(buf, bufsz, "%" PRId64, ms / MS_PER_MINUTE);
        return;
    }
    char seconds[24];
    format_seconds(ms % MS_PER_MINUTE, seconds, sizeof seconds);
    bool pad = ms % MS_PER_MINUTE < 10 * MS_PER_SECOND;
    snprintf(buf, bufsz, "%" PRId64 ":%s%s", ms / MS_PER_MINUTE, pad ? "0" : "", seconds);
}

void timecontrol_format(const TimeControl *tc, char *buf, size_t bufsz) {
    if (bufsz == 0)
        return;
    buf[0] = '\0';
    if (tc->untimed) {
        snprintf(buf, bufsz, "none");
        return;
    }
    size_t len = 0;
    for (int i = 0; i < tc->count; i++) {
        const TimePeriod *p = &tc->periods[i];
        char base[80], num[48];
        if (i > 0)
            append(buf, bufsz, &len, ", ");
        if (p->moves > 0)
            append(buf, bufsz, &len, "%d/", p->moves);
        format_base(p->base_ms, base, sizeof base);
        append(buf, bufsz, &len, "%s", base);
        if (p->inc_ms > 0) {
            format_seconds(p->inc_ms, num, sizeof num);
            append(buf, bufsz, &len, "+%s", num);
        }
        if (p->delay != DELAY_NONE) {
            format_seconds(p->delay_ms, num, sizeof num);
            append(buf, bufsz, &len, "%c%s", p->delay == DELAY_SIMPLE ? 'd' : 'b', num);
        }
    }
}

void timecontrol_format_pgn(const TimeControl *tc, char *buf, size_t bufsz) {
    if (bufsz == 0)
        return;
    buf[0] = '\0';
    if (tc->untimed) {
        snprintf(buf, bufsz, "-");
        return;
    }
    // The PGN tag knows no delays; they are left out.
    size_t len = 0;
    for (int i = 0; i < tc->count; i++) {
        const TimePeriod *p = &tc->periods[i];
        char num[32];
        if (i > 0)
            append(buf, bufsz, &len, ":");
        if (p->moves > 0)
            append(buf, bufsz, &len, "%d/", p->moves);
        format_seconds(p->base_ms, num, sizeof num);
        append(buf, bufsz, &len, "%s", num);
        if (p->inc_ms > 0) {
            format_seconds(p->inc_ms, num, sizeof num);
            append(buf, bufsz, &len, "+%s", num);
        }
    }
}

// -------------------------------------------------------------------- clock

static const TimePeriod *current_period(const Clock *c, Color side) {
    return &c->tc.periods[c->period[side]];
}

// Time charged for `used` ms of thinking: a simple delay is free.
static int64_t charged(const Clock *c, Color side, int64_t used) {
    const TimePeriod *p = current_period(c, side);
    if (p->delay == DELAY_SIMPLE)
        return used > p->delay_ms ? used - p->delay_ms : 0;
    return used;
}

static int64_t elapsed(const Clock *c, int64_t now) {
    return now > c->started_ms ? now - c->started_ms : 0;
}

void clock_init(Clock *c, const TimeControl *tc) {
    memset(c, 0, sizeof *c);
    c->tc = *tc;
    if (c->tc.untimed || c->tc.count <= 0) {
        c->tc.untimed = true;
        c->tc.count = 0;
    } else {
        // With no base time ("0+2") one increment is credited up front, or
        // the first move could never be made in time.
        const TimePeriod *first = &c->tc.periods[0];
        for (int side = WHITE; side < COLOR_NB; side++)
            c->remaining_ms[side] = first->base_ms > 0 ? first->base_ms : first->inc_ms;
    }
    c->turn = WHITE;
}

void clock_start(Clock *c, Color turn, int64_t now) {
    if (c->running)
        clock_stop(c, now);
    c->turn = turn;
    c->running = true;
    c->started_ms = now;
}

void clock_stop(Clock *c, int64_t now) {
    if (!c->running)
        return;
    if (!c->tc.untimed)
        c->remaining_ms[c->turn] -= charged(c, c->turn, elapsed(c, now));
    c->running = false;
}

bool clock_press(Clock *c, int64_t now) {
    Color side = c->turn;
    if (c->tc.untimed) {
        clock_start(c, (Color)!side, now);
        return true;
    }
    int64_t used = c->running ? elapsed(c, now) : 0;
    c->remaining_ms[side] -= charged(c, side, used);
    c->running = false;
    if (c->flagged[side] || c->remaining_ms[side] <= 0) {
        // The flag fell before the move was completed: no delay or increment.
        c->flagged[side] = true;
        if (c->remaining_ms[side] < -1)
            c->remaining_ms[side] = -1;
        return false;
    }
    const TimePeriod *p = current_period(c, side);
    if (p->delay == DELAY_BRONSTEIN)
        c->remaining_ms[side] += used < p->delay_ms ? used : p->delay_ms;
    c->remaining_ms[side] += p->inc_ms;
    if (p->moves > 0 && ++c->moves_in_period[side] >= p->moves) {
        // The last period repeats; otherwise the next one starts.
        if (c->period[side] + 1 < c->tc.count)
            c->period[side]++;
        c->moves_in_period[side] = 0;
        c->remaining_ms[side] += current_period(c, side)->base_ms;
    }
    clock_start(c, (Color)!side, now);
    return true;
}

int64_t clock_remaining(const Clock *c, Color side, int64_t now) {
    if (c->tc.untimed)
        return 0;
    int64_t left = c->remaining_ms[side];
    if (c->running && c->turn == side)
        left -= charged(c, side, elapsed(c, now));
    return left < -1 ? -1 : left;
}

bool clock_is_out(const Clock *c, Color side, int64_t now) {
    if (c->tc.untimed)
        return false;
    return c->flagged[side] || clock_remaining(c, side, now) <= 0;
}

bool clock_check_flag(Clock *c, int64_t now) {
    if (c->tc.untimed || !c->running)
        return false;
    if (clock_is_out(c, c->turn, now))
        c->flagged[c->turn] = true;
    return c->flagged[c->turn];
}

int clock_moves_to_go(const Clock *c, Color side) {
    if (c->tc.untimed)
        return 0;
    const TimePeriod *p = current_period(c, side);
    return p->moves > 0 ? p->moves - c->moves_in_period[side] : 0;
}

int64_t clock_increment(const Clock *c, Color side) {
    return c->tc.untimed ? 0 : current_period(c, side)->inc_ms;
}

void clock_set(Clock *c, const int64_t remaining[COLOR_NB], const int period[COLOR_NB],
               const int moves_in_period[COLOR_NB]) {
    for (int side = WHITE; side < COLOR_NB; side++) {
        c->remaining_ms[side] = remaining[side];
        int last = c->tc.count > 0 ? c->tc.count - 1 : 0;
        c->period[side] = period[side] < 0 ? 0 : period[side] > last ? last : period[side];
        c->moves_in_period[side] = moves_in_period[side];
        c->flagged[side] = !c->tc.untimed && remaining[side] <= 0;
    }
}
