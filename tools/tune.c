// SPDX-License-Identifier: GPL-3.0-or-later
// tools/tune: fits the evaluation weights (engine/eval_weights.h) to `patzer datagen` data by
// Texel's method and writes them as engine/eval_weights.c. Each position's coefficients come
// from the traced build of the engine's own eval.c (EVAL_TRACE), so the tuner cannot drift
// from the evaluation. The scaling constant K is fitted first, on the game results; then Adam
// minimises the mean squared error between sigmoid(K * eval) and a blend of the game result
// and the search score. The king danger weights enter the evaluation squared (middlegame) or
// through max(danger, 0) (both), so their gradient takes the chain rule through the danger.
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/eval.h"
#include "engine/eval_weights.h"
#include "src/train/record.h"
#include "src/util/text.h"

enum { SCALE_NORMAL = 64, PARAMS = 2 * EVAL_WEIGHT_COUNT };

// A sample's king danger features for one side: none (most positions) or an offset into
// Data.danger of EVAL_DANGER_COUNT of them.
#define NO_DANGER UINT32_MAX

typedef struct Options {
    const char *data;
    const char *out;
    long long limit;    // positions kept at most
    long long per_file; // records read from the start of each file at most
    int epochs;
    double lambda; // weight of the game result in the target (the rest: search score)
    double rate;   // Adam's step in centipawns
    int min_ply;
    int max_score; // positions whose search score is beyond this are left out
    int held_out;  // every held_out-th game is kept out of the fit (0: none)
} Options;

// One weight's use in one position.
typedef struct Entry {
    uint16_t index;
    int16_t coef;
} Entry;

// One position, ready for the loss: its sparse coefficients and king danger features.
typedef struct Sample {
    uint32_t first; // into the entries
    uint16_t count;
    uint8_t phase, scale;
    bool held_out;             // in the validation set: measured, never fitted
    uint32_t danger[COLOR_NB]; // the attack on c's king, or NO_DANGER
    float result;              // 0, 0.5, 1 for White
    float score;               // search score, White's view
    float target;              // set once K is known
} Sample;

typedef struct Data {
    Sample *samples;
    long long count, cap;
    Entry *entries;
    long long entry_count, entry_cap;
    int16_t *danger; // the samples' king danger features
    long long danger_count, danger_cap;
    long long records, games;
    long long fitted; // samples not held out
} Data;

// How often the held-out loss is measured to keep the best weights (early stopping).
enum { CHECK_EVERY = 10 };

static void die(const char *what) {
    fprintf(stderr, "tune: %s\n", what);
    exit(2);
}

static void *grow(void *p, long long *cap, long long need, size_t size) {
    if (need <= *cap)
        return p;
    long long n = *cap ? *cap : 4096;
    while (n < need)
        n *= 2;
    void *q = realloc(p, (size_t)n * size);
    if (!q)
        die("out of memory");
    *cap = n;
    return q;
}

// ------------------------------------------------------------------------------ loading

static bool keep_position(const Options *o, const TrainPosition *p) {
    int mag = p->score < 0 ? -p->score : p->score;
    return train_is_quiet(p) && mag <= o->max_score && p->ply >= o->min_ply;
}

static void add_sample(Data *d, const TrainPosition *p, const EvalTrace *t, bool held_out) {
    d->samples = grow(d->samples, &d->cap, d->count + 1, sizeof *d->samples);
    d->entries =
        grow(d->entries, &d->entry_cap, d->entry_count + EVAL_WEIGHT_COUNT, sizeof *d->entries);
    Sample *s = &d->samples[d->count++];
    s->first = (uint32_t)d->entry_count;
    s->count = 0;
    for (int i = 0; i < EVAL_WEIGHT_COUNT; i++) {
        if (t->coef[i]) {
            d->entries[d->entry_count++] = (Entry){ (uint16_t)i, t->coef[i] };
            s->count++;
        }
    }
    s->held_out = held_out;
    d->fitted += !held_out;
    s->phase = (uint8_t)t->phase;
    s->scale = (uint8_t)t->scale;
    for (Color c = WHITE; c <= BLACK; c++) {
        s->danger[c] = NO_DANGER;
        bool any = false;
        for (int i = 0; i < EVAL_DANGER_COUNT; i++)
            any |= t->danger[c][i] != 0;
        if (!any)
            continue;
        d->danger =
            grow(d->danger, &d->danger_cap, d->danger_count + EVAL_DANGER_COUNT, sizeof *d->danger);
        s->danger[c] = (uint32_t)d->danger_count;
        for (int i = 0; i < EVAL_DANGER_COUNT; i++)
            d->danger[d->danger_count++] = t->danger[c][i];
    }
    s->result = (float)p->result / 2.0f;
    s->score = (float)p->score;
}

static void load(const Options *o, Data *d) {
    char err[320];
    TrainReader r;
    if (!train_reader_open(&r, o->data, err, sizeof err))
        die(err);
    Board *b = malloc(sizeof *b);
    EvalTrace *t = malloc(sizeof *t);
    if (!b || !t)
        die("out of memory");
    TrainPosition p;
    int st;
    while ((st = train_reader_next(&r, &p, err, sizeof err)) == 1) {
        // A growing run's files are read up to the same point each time, so a tuning
        // reproduces from the same seeds (r.record counts this file's records so far).
        if (r.record > o->per_file)
            continue;
        d->records++;
        bool held_out = o->held_out && d->games % o->held_out == o->held_out - 1;
        d->games += (p.flags & TRAIN_FLAG_GAME_END) != 0;
        if (d->count >= o->limit || !keep_position(o, &p))
            continue;
        if (!train_position_to_board(&p, b, err, sizeof err))
            die(err);
        eval_trace(b, t);
        // Clamped or dead-drawn evaluations teach the weights nothing.
        if (t->scale == 0 || t->eval >= VALUE_EVAL_MAX - 1 || t->eval <= -(VALUE_EVAL_MAX - 1))
            continue;
        add_sample(d, &p, t, held_out);
    }
    if (st < 0)
        die(err);
    train_reader_close(&r);
    free(t);
    free(b);
}

// ------------------------------------------------------------------------------ the loss

static double sigmoid(double k, double cp) {
    return 1.0 / (1.0 + pow(10.0, -k * cp / 400.0));
}

// The middlegame and endgame danger (at least 0) of the attack on c's king in a sample.
static void danger(const Data *d, const Sample *s, Color c, const double *w, double out[2]) {
    out[0] = out[1] = 0;
    if (s->danger[c] == NO_DANGER)
        return;
    const int16_t *f = &d->danger[s->danger[c]];
    const double *dw = &w[2 * EVAL_DANGER_FIRST];
    for (int i = 0; i < EVAL_DANGER_COUNT; i++) {
        out[0] += f[i] * dw[2 * i];
        out[1] += f[i] * dw[2 * i + 1];
    }
    out[0] = fmax(out[0], 0);
    out[1] = fmax(out[1], 0);
}

// The white-relative evaluation of a sample under the weights w (mg, eg interleaved).
static double evaluate(const Data *d, const Sample *s, const double *w) {
    double mg = 0, eg = 0;
    const Entry *e = &d->entries[s->first];
    for (int i = 0; i < s->count; i++) {
        mg += e[i].coef * w[2 * e[i].index];
        eg += e[i].coef * w[2 * e[i].index + 1];
    }
    for (Color c = WHITE; c <= BLACK; c++) {
        double dd[2], sign = c == WHITE ? -1 : 1;
        danger(d, s, c, w, dd);
        mg += sign * dd[0] * dd[0] / EVAL_DANGER_MG_DIVISOR;
        eg += sign * dd[1] / EVAL_DANGER_EG_DIVISOR;
    }
    double phase = s->phase / (double)EVAL_PHASE_MAX;
    return (mg * phase + eg * (1 - phase)) * s->scale / SCALE_NORMAL;
}

// Mean squared error against the results only (for K) or against the targets, over the
// fitted samples or the held-out ones.
static double loss(const Data *d, const double *w, double k, bool results_only, bool held_out) {
    double sum = 0;
    long long n = 0;
    for (long long i = 0; i < d->count; i++) {
        const Sample *s = &d->samples[i];
        if (s->held_out != held_out)
            continue;
        double diff = sigmoid(k, evaluate(d, s, w)) - (results_only ? s->result : s->target);
        sum += diff * diff;
        n++;
    }
    return n ? sum / (double)n : 0;
}

// Golden-section search of the K that fits the results best.
static double fit_k(const Data *d, const double *w) {
    double lo = 0.05, hi = 4.0, g = (sqrt(5.0) - 1) / 2;
    double a = hi - g * (hi - lo), b = lo + g * (hi - lo);
    double fa = loss(d, w, a, true, false), fb = loss(d, w, b, true, false);
    for (int i = 0; i < 40; i++) {
        if (fa < fb) {
            hi = b, b = a, fb = fa;
            a = hi - g * (hi - lo);
            fa = loss(d, w, a, true, false);
        } else {
            lo = a, a = b, fa = fb;
            b = lo + g * (hi - lo);
            fb = loss(d, w, b, true, false);
        }
    }
    return (lo + hi) / 2;
}

// The gradient of the loss over all samples.
static void gradient(const Data *d, const double *w, double k, double *grad) {
    memset(grad, 0, PARAMS * sizeof *grad);
    double c = k * log(10.0) / 400.0;
    for (long long i = 0; i < d->count; i++) {
        const Sample *s = &d->samples[i];
        if (s->held_out)
            continue;
        double sg = sigmoid(k, evaluate(d, s, w));
        double g = 2 * (sg - s->target) * sg * (1 - sg) * c * s->scale / SCALE_NORMAL;
        double phase = s->phase / (double)EVAL_PHASE_MAX;
        double gm = g * phase, ge = g * (1 - phase);
        const Entry *e = &d->entries[s->first];
        for (int j = 0; j < s->count; j++) {
            grad[2 * e[j].index] += gm * e[j].coef;
            grad[2 * e[j].index + 1] += ge * e[j].coef;
        }
        // The danger's weights: d(-danger^2 / D)/dw = -2 danger f / D for the middlegame,
        // -f / E for the endgame, both 0 while the danger is clamped at 0.
        for (Color king = WHITE; king <= BLACK; king++) {
            if (s->danger[king] == NO_DANGER)
                continue;
            double dd[2], sign = king == WHITE ? -1 : 1;
            danger(d, s, king, w, dd);
            double dm = sign * gm * 2 * dd[0] / EVAL_DANGER_MG_DIVISOR;
            double de = dd[1] > 0 ? sign * ge / EVAL_DANGER_EG_DIVISOR : 0;
            const int16_t *f = &d->danger[s->danger[king]];
            double *dg = &grad[2 * EVAL_DANGER_FIRST];
            for (int j = 0; j < EVAL_DANGER_COUNT; j++) {
                dg[2 * j] += dm * f[j];
                dg[2 * j + 1] += de * f[j];
            }
        }
    }
    for (int j = 0; j < PARAMS; j++)
        grad[j] /= (double)d->fitted;
}

// Runs the epochs; with held-out games, keeps the weights that did best on them (checked
// every CHECK_EVERY epochs) and returns that epoch, else the last.
static int adam(const Options *o, const Data *d, double *w, double k) {
    double *grad = calloc(PARAMS, sizeof *grad), *m = calloc(PARAMS, sizeof *m);
    double *v = calloc(PARAMS, sizeof *v), *best = malloc(PARAMS * sizeof *best);
    if (!grad || !m || !v || !best)
        die("out of memory");
    bool early = d->count > d->fitted;
    double best_loss = early ? loss(d, w, k, false, true) : 0;
    int best_epoch = 0;
    memcpy(best, w, PARAMS * sizeof *best);
    const double beta1 = 0.9, beta2 = 0.999, eps = 1e-8;
    for (int epoch = 1; epoch <= o->epochs; epoch++) {
        gradient(d, w, k, grad);
        double c1 = 1 - pow(beta1, epoch), c2 = 1 - pow(beta2, epoch);
        for (int j = 0; j < PARAMS; j++) {
            m[j] = beta1 * m[j] + (1 - beta1) * grad[j];
            v[j] = beta2 * v[j] + (1 - beta2) * grad[j] * grad[j];
            w[j] -= o->rate * (m[j] / c1) / (sqrt(v[j] / c2) + eps);
        }
        if (early && (epoch % CHECK_EVERY == 0 || epoch == o->epochs)) {
            double held = loss(d, w, k, false, true);
            if (held < best_loss) {
                best_loss = held;
                best_epoch = epoch;
                memcpy(best, w, PARAMS * sizeof *best);
            }
        }
        if (epoch % 50 == 0 || epoch == o->epochs)
            fprintf(stderr, "tune: epoch %d, loss %.7f, held-out games %.7f\n", epoch,
                    loss(d, w, k, false, false), loss(d, w, k, false, true));
    }
    if (early)
        memcpy(w, best, PARAMS * sizeof *best);
    free(grad);
    free(m);
    free(v);
    free(best);
    return early ? best_epoch : o->epochs;
}

// ------------------------------------------------------------------------------ output

typedef struct Field {
    const char *name;
    int rows, cols;
} Field;

#define DESCRIBE(name, rows, cols) { #name, rows, cols },
static const Field FIELDS[] = { EVAL_WEIGHTS(DESCRIBE) };
#undef DESCRIBE

static void write_weights(FILE *f, const double *w) {
    fputs("// clang-format off\nconst EvalWeights eval_weights = {\n", f);
    int at = 0;
    for (size_t i = 0; i < sizeof FIELDS / sizeof *FIELDS; i++) {
        fprintf(f, "    .%s = {\n", FIELDS[i].name);
        for (int r = 0; r < FIELDS[i].rows; r++) {
            fputs("        {\n", f);
            for (int c = 0; c < FIELDS[i].cols; c++, at++) {
                fprintf(f, "%s{ %ld, %ld },%s", c % 8 == 0 ? "            " : "", lround(w[2 * at]),
                        lround(w[2 * at + 1]), c % 8 == 7 || c == FIELDS[i].cols - 1 ? "\n" : " ");
            }
            fputs("        },\n", f);
        }
        fputs("    },\n", f);
    }
    fputs("};\n// clang-format on\n", f);
}

// Writes the file atomically (temporary file, then rename).
static void write_file(const Options *o, const Data *d, const double *w, double k, int epoch,
                       const double before[2], const double after[2]) {
    char tmp[4096], date[32];
    snprintf(tmp, sizeof tmp, "%s.tmp", o->out);
    time_t now = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%d", gmtime(&now));
    char per_file[40] = "all", run[96];
    if (d->count > d->fitted)
        snprintf(run, sizeof run, "epoch %d of %d, best on held-out games (1 in %d)", epoch,
                 o->epochs, o->held_out);
    else
        snprintf(run, sizeof run, "%d epochs, no games held out", o->epochs);
    if (o->per_file < INT64_MAX)
        snprintf(per_file, sizeof per_file, "the first %lld", o->per_file);
    FILE *f = fopen(tmp, "w");
    if (!f)
        die(strerror(errno));
    fprintf(f,
            "// SPDX-License-Identifier: GPL-3.0-or-later\n"
            "// The evaluation weights (engine/eval_weights.h). GENERATED by tools/tune: do not "
            "edit by hand;\n"
            "// regenerate it as docs/training.md says (\"Tuning\").\n"
            "//\n"
            "// Provenance: tuned %s by tools/tune from %s,\n"
            "// %s records of each file: %lld of %lld positions (%lld games);\n"
            "// K %.4f, lambda %.2f, Adam at %.2f: %s;\n"
            "// loss %.7f before, %.7f after (held-out games: %.7f, %.7f).\n"
            "#include \"engine/eval_weights.h\"\n\n",
            date, o->data, per_file, d->count, d->records, d->games, k, o->lambda, o->rate, run,
            before[0], after[0], before[1], after[1]);
    write_weights(f, w);
    if (fclose(f) != 0 || rename(tmp, o->out) != 0) {
        remove(tmp);
        die("cannot write the weights file");
    }
}

// ------------------------------------------------------------------------------ main

static void usage(void) {
    fputs("usage: tune DATA [--out FILE] [--limit N] [--per-file N] [--epochs N] [--lambda L]\n"
          "            [--rate R] [--min-ply N] [--max-score CP] [--held-out N]\n"
          "Fits the evaluation weights to patzer datagen data (a file or a directory) and\n"
          "writes them as C (default: eval_weights.c in the current directory).\n",
          stderr);
    exit(2);
}

// A whole decimal number with a fraction; false for anything else.
static bool parse_double(const char *text, double *out) {
    char *end;
    errno = 0;
    *out = strtod(text, &end);
    return end != text && *end == '\0' && errno == 0;
}

static void parse(int argc, char **argv, Options *o) {
    *o = (Options){ .out = "eval_weights.c",
                    .limit = 100000000,
                    .per_file = INT64_MAX,
                    .epochs = 500,
                    .held_out = 10,
                    .lambda = 0.5,
                    .rate = 1.0,
                    .min_ply = 8,
                    .max_score = 2000 };
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        int64_t n;
        if (a[0] != '-') {
            o->data = a;
            continue;
        }
        if (!v)
            usage();
        i++;
        if (strcmp(a, "--out") == 0)
            o->out = v;
        else if (strcmp(a, "--limit") == 0 && text_parse_i64(v, 1, INT64_MAX, &n))
            o->limit = n;
        else if (strcmp(a, "--held-out") == 0 && text_parse_i64(v, 0, 1000, &n))
            o->held_out = (int)n;
        else if (strcmp(a, "--per-file") == 0 && text_parse_i64(v, 1, INT64_MAX, &n))
            o->per_file = n;
        else if (strcmp(a, "--epochs") == 0 && text_parse_i64(v, 0, 1000000, &n))
            o->epochs = (int)n;
        else if (strcmp(a, "--min-ply") == 0 && text_parse_i64(v, 0, 1000, &n))
            o->min_ply = (int)n;
        else if (strcmp(a, "--max-score") == 0 && text_parse_i64(v, 1, 32767, &n))
            o->max_score = (int)n;
        else if (strcmp(a, "--lambda") == 0 && parse_double(v, &o->lambda))
            continue;
        else if (strcmp(a, "--rate") == 0 && parse_double(v, &o->rate))
            continue;
        else
            usage();
    }
    if (!o->data || o->lambda < 0 || o->lambda > 1 || o->rate <= 0 || o->held_out == 1)
        usage();
}

int main(int argc, char **argv) {
    Options o;
    parse(argc, argv, &o);
    board_init_tables();
    Data d = { 0 };
    time_t start = time(NULL);
    load(&o, &d);
    fprintf(stderr, "tune: %lld positions of %lld (%lld games), %lld coefficients, %lds\n", d.count,
            d.records, d.games, d.entry_count, (long)(time(NULL) - start));
    if (d.fitted == 0)
        die("no usable positions");

    double *w = malloc(PARAMS * sizeof *w);
    if (!w)
        die("out of memory");
    const Score *hand = &eval_weights.piece_value[0][0];
    for (int i = 0; i < EVAL_WEIGHT_COUNT; i++) {
        w[2 * i] = hand[i].mg;
        w[2 * i + 1] = hand[i].eg;
    }
    double k = fit_k(&d, w);
    for (long long i = 0; i < d.count; i++) {
        Sample *s = &d.samples[i];
        s->target = (float)(o.lambda * s->result + (1 - o.lambda) * sigmoid(k, s->score));
    }
    double before[2] = { loss(&d, w, k, false, false), loss(&d, w, k, false, true) };
    fprintf(stderr, "tune: K %.4f, loss %.7f (results only %.7f), held-out games %.7f\n", k,
            before[0], loss(&d, w, k, true, false), before[1]);
    int epoch = adam(&o, &d, w, k);
    double after[2] = { loss(&d, w, k, false, false), loss(&d, w, k, false, true) };
    fprintf(stderr, "tune: loss %.7f -> %.7f, held-out games %.7f -> %.7f, %lds in all\n",
            before[0], after[0], before[1], after[1], (long)(time(NULL) - start));
    write_file(&o, &d, w, k, epoch, before, after);
    fprintf(stderr, "tune: weights written to %s\n", o.out);
    free(w);
    free(d.samples);
    free(d.entries);
    free(d.danger);
    return 0;
}
