// SPDX-License-Identifier: GPL-3.0-or-later
// tools/nnue_train: the command line. Every bad option is named in the error with what it
// accepts, so a long run never starts on a typo.
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/errmsg.h"
#include "src/util/text.h"
#include "tools/nnue_train.h"

enum { MAX_THREADS = 256, MAX_BATCH = 1 << 22 };

void ntrain_options_default(NtOptions *o) {
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    *o = (NtOptions){
        .out = "data/patzer.nnue",
        .limit = 100000000,
        .per_file = INT64_MAX,
        .min_ply = 8,
        .max_score = 2000,
        .held_out = 10,
        // Half the game result, half the search score: the scores come from a shallow search
        // (datagen's 5,000 nodes) whose errors the results correct, while the results alone
        // are too noisy for this little data; the Texel tuner fits the same blend.
        .lambda = 0.5,
        .epochs = 30,
        .batch = 16384,
        .lr = NT_LR,
        .grid_epochs = 2,
        .buckets = 1,
        .king_buckets = 1,
        .seed = 1,
        .threads = cores < 1             ? 1
                   : cores > MAX_THREADS ? MAX_THREADS
                                         : (int)cores,
    };
}

const char *ntrain_usage(void) {
    return "usage: nnue_train DATA [--out FILE] [--checkpoint FILE] [--resume] [--init NET]\n"
           "           [--epochs N] [--batch N] [--lr R] [--lambda L] [--eval-scale CP]\n"
           "           [--seed N] [--threads N]\n"
           "           [--limit N] [--per-file N] [--min-ply N] [--max-score CP] [--held-out N]\n"
           "           [--all] [--grid-epochs N] [--last] [--mirror] [--buckets N] "
           "[--king-mirror]\n"
           "           [--king-buckets K]\n"
           "Trains the patzer NNUE network on patzer datagen data (a .bin file or a directory\n"
           "of them) and writes it quantised (default: data/patzer.nnue) after every epoch,\n"
           "with a checkpoint (default: OUT.ckpt) that --resume goes on from. --init starts\n"
           "from the weights of a net file (fine-tuning) instead of random ones. --mirror fits\n"
           "every position without castling rights also mirrored from a- to h-file. --buckets N\n"
           "(1-8) gives the net N output layers chosen by the number of pieces, --king-mirror\n"
           "makes it see each side's king on files a-d (data/NNUE.md, v2), --king-buckets K\n"
           "(1, 2 or 4) gives each side K sets of input weights chosen by its king's rank (v3).\n";
}

static bool parse_real(const char *text, double lo, double hi, double *out) {
    char *end;
    errno = 0;
    double x = strtod(text, &end);
    if (end == text || *end != '\0' || errno != 0 || !isfinite(x) || x < lo || x > hi)
        return false;
    *out = x;
    return true;
}

typedef enum { ARG_INT, ARG_REAL, ARG_TEXT, ARG_FLAG } ArgKind;

typedef struct Arg {
    const char *name;
    ArgKind kind;
    long long min, max; // ARG_INT
    double lo, hi;      // ARG_REAL
    size_t offset;      // into NtOptions
    int size;           // of an ARG_INT field: 4 (int), 8 (long long) or 9 (uint64_t)
} Arg;

#define INT_ARG(name, field, min, max, size) \
    { name, ARG_INT, min, max, 0, 0, offsetof(NtOptions, field), size }
#define REAL_ARG(name, field, lo, hi) \
    { name, ARG_REAL, 0, 0, lo, hi, offsetof(NtOptions, field), 0 }
#define TEXT_ARG(name, field) \
    { name, ARG_TEXT, 0, 0, 0, 0, offsetof(NtOptions, field), 0 }
#define FLAG_ARG(name, field) \
    { name, ARG_FLAG, 0, 0, 0, 0, offsetof(NtOptions, field), 0 }

static const Arg ARGS[] = {
    TEXT_ARG("--out", out),
    TEXT_ARG("--checkpoint", checkpoint),
    TEXT_ARG("--init", init),
    FLAG_ARG("--resume", resume),
    FLAG_ARG("--all", all),
    FLAG_ARG("--last", last),
    FLAG_ARG("--mirror", mirror),
    FLAG_ARG("--king-mirror", king_mirror),
    INT_ARG("--limit", limit, 1, INT64_MAX, 8),
    INT_ARG("--per-file", per_file, 1, INT64_MAX, 8),
    INT_ARG("--min-ply", min_ply, 0, 1000, 4),
    INT_ARG("--max-score", max_score, 1, 32767, 4),
    INT_ARG("--held-out", held_out, 0, 1000000, 4),
    INT_ARG("--epochs", epochs, 0, 1000000, 4),
    INT_ARG("--batch", batch, 1, MAX_BATCH, 4),
    INT_ARG("--seed", seed, 0, INT64_MAX, 9),
    INT_ARG("--threads", threads, 1, MAX_THREADS, 4),
    INT_ARG("--grid-epochs", grid_epochs, 0, 1000000, 4),
    INT_ARG("--buckets", buckets, 1, NT_MAX_BUCKETS, 4),
    INT_ARG("--king-buckets", king_buckets, 1, NT_MAX_KING_BUCKETS, 4),
    REAL_ARG("--lambda", lambda, 0.0, 1.0),
    REAL_ARG("--eval-scale", eval_scale, 1.0, 100000.0),
    REAL_ARG("--lr", lr, 1e-9, 10.0),
};

static bool set_arg(const Arg *a, const char *v, NtOptions *o, char *err, size_t errsz) {
    char *field = (char *)o + a->offset;
    if (a->kind == ARG_TEXT) {
        if (!*v)
            return errmsg_set(err, errsz, "%s: an empty file name", a->name);
        memcpy(field, &v, sizeof v);
        return true;
    }
    if (a->kind == ARG_REAL) {
        double x;
        if (!parse_real(v, a->lo, a->hi, &x))
            return errmsg_set(err, errsz, "%s: '%s' is not a number from %g to %g", a->name, v,
                              a->lo, a->hi);
        memcpy(field, &x, sizeof x);
        return true;
    }
    int64_t n;
    if (!text_parse_i64(v, a->min, a->max, &n))
        return errmsg_set(err, errsz, "%s: '%s' is not a whole number from %lld to %lld", a->name,
                          v, a->min, a->max);
    if (a->size == 4) {
        int x = (int)n;
        memcpy(field, &x, sizeof x);
    } else if (a->size == 8) {
        long long x = n;
        memcpy(field, &x, sizeof x);
    } else {
        uint64_t x = (uint64_t)n;
        memcpy(field, &x, sizeof x);
    }
    return true;
}

bool ntrain_parse_args(int argc, char **argv, NtOptions *o, char *err, size_t errsz) {
    ntrain_options_default(o);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (a[0] != '-' || a[1] == '\0') {
            if (o->data)
                return errmsg_set(err, errsz, "two data paths: '%s' and '%s'", o->data, a);
            o->data = a;
            continue;
        }
        const Arg *arg = NULL;
        for (size_t k = 0; k < sizeof ARGS / sizeof *ARGS; k++)
            if (strcmp(a, ARGS[k].name) == 0)
                arg = &ARGS[k];
        if (!arg)
            return errmsg_set(err, errsz, "unknown option '%s'", a);
        if (arg->kind == ARG_FLAG) {
            *(bool *)((char *)o + arg->offset) = true;
            continue;
        }
        if (i + 1 >= argc)
            return errmsg_set(err, errsz, "%s needs a value", a);
        if (!set_arg(arg, argv[++i], o, err, errsz))
            return false;
    }
    if (!o->data)
        return errmsg_set(err, errsz, "no data: name a datagen .bin file or directory");
    if (o->king_buckets == 3)
        return errmsg_set(err, errsz, "--king-buckets: 1, 2 or 4 (the trainer's layouts)");
    if (o->held_out == 1)
        return errmsg_set(err, errsz, "--held-out 1 would hold out every game (0: none)");
    return true;
}
