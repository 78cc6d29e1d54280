// SPDX-License-Identifier: GPL-3.0-or-later
// tools/nnue_train: trains the patzer NNUE network (/NNUE-SPEC: (768 -> 256) x 2 -> 1,
// SCReLU) on `patzer datagen` data and writes it quantised, with its provenance, after
// every epoch; a checkpoint written at the same time lets --resume go on exactly where a run
// was cut off. The work is in tools/nnue_train_*.c (see tools/nnue_train.h); this file runs
// the epochs and reports.
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tools/nnue_train.h"

static void die(const char *what) {
    fprintf(stderr, "nnue_train: %s\n", what);
    exit(2);
}

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void format_duration(double s, char *buf, size_t bufsz) {
    long t = (long)(s + 0.5);
    if (t >= 3600)
        snprintf(buf, bufsz, "%ldh%02ldm", t / 3600, t / 60 % 60);
    else if (t >= 60)
        snprintf(buf, bufsz, "%ldm%02lds", t / 60, t % 60);
    else
        snprintf(buf, bufsz, "%lds", t);
}

// A line within a long epoch, at most every half minute.
typedef struct Progress {
    int epoch, epochs;
    double start, last;
} Progress;

static void report(void *ctx, long long done, long long total) {
    Progress *p = ctx;
    double t = now_seconds();
    if (t - p->last < 30 || done == total)
        return;
    p->last = t;
    char eta[32];
    format_duration((t - p->start) * (double)(total - done) / (double)done, eta, sizeof eta);
    fprintf(stderr, "nnue_train: epoch %d/%d: %lld of %lld positions, %.0f/s, epoch ETA %s\n",
            p->epoch, p->epochs, done, total, (double)done / (t - p->start), eta);
}

// The provenance text the net file carries (NNUE-SPEC: "description").
static void describe(char *buf, size_t bufsz, const NtOptions *o, const NtData *d, const Trainer *t,
                     int argc, char **argv) {
    char date[32], per_file[48] = "every record", held[96] = "no games held out";
    time_t now = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", gmtime(&now));
    if (o->per_file < INT64_MAX)
        snprintf(per_file, sizeof per_file, "the first %lld records", o->per_file);
    if (o->held_out)
        snprintf(held, sizeof held, "held-out loss %.6f on %lld positions of 1 game in %d",
                 t->held_loss, d->held.count, o->held_out);
    int n =
        snprintf(buf, bufsz,
                 "patzer NNUE v1, (768->%d)x2->1 SCReLU. Trained %s by tools/nnue_train "
                 "from %s (%s of each file): %lld%s positions of %lld records (%lld "
                 "games; min ply %d, max score %d). Epoch %d of %d (the last %d with the "
                 "output layer on its quantised grid), batch %d, Adam lr %g cosine to %g, "
                 "lambda %.2f, seed %" PRIu64 ", %d thread%s. Loss %.6f (last epoch), %s. "
                 "Command:",
                 NT_HIDDEN, date, o->data, per_file, d->train.count + d->held.count,
                 o->all ? "" : " quiet", d->records, d->games, o->min_ply, o->max_score, t->epoch,
                 o->epochs, ntrain_grid_epochs(o), o->batch, o->lr, o->lr / 100, o->lambda, o->seed,
                 o->threads, o->threads == 1 ? "" : "s", t->train_loss, held);
    for (int i = 0; i < argc && n > 0 && (size_t)n < bufsz; i++)
        n += snprintf(buf + n, bufsz - (size_t)n, " %s", argv[i]);
}

static void write_outputs(const NtOptions *o, const NtData *d, const Trainer *t,
                          const char *checkpoint, const NtRunKey *key, NtQuantised *q, int argc,
                          char **argv) {
    char err[512], desc[NT_DESC_MAX * 2];
    describe(desc, sizeof desc, o, d, t, argc, argv);
    ntrain_quantise(t->params, q);
    if (!ntrain_write_net(o->out, q, desc, err, sizeof err))
        die(err);
    if (!ntrain_save_checkpoint(checkpoint, t, key, err, sizeof err))
        die(err);
}

int main(int argc, char **argv) {
    NtOptions o;
    char err[512];
    if (!ntrain_parse_args(argc, argv, &o, err, sizeof err)) {
        fprintf(stderr, "nnue_train: %s\n%s", err, ntrain_usage());
        return 2;
    }
    char checkpoint[4096];
    snprintf(checkpoint, sizeof checkpoint, "%s", o.checkpoint ? o.checkpoint : o.out);
    if (!o.checkpoint)
        strncat(checkpoint, ".ckpt", sizeof checkpoint - strlen(checkpoint) - 1);

    double start = now_seconds();
    NtData d;
    if (!ntrain_load(&o, &d, err, sizeof err))
        die(err);
    fprintf(stderr,
            "nnue_train: %lld positions to fit, %lld held out (%lld of %lld games), of %lld "
            "records in %s; %.1f s, %.0f MB\n",
            d.train.count, d.held.count, d.held_games, d.games, d.records, o.data,
            now_seconds() - start, (double)(d.train.cap + d.held.cap) * TRAIN_RECORD_SIZE / 1e6);

    Trainer t;
    NtQuantised *q = malloc(sizeof *q);
    if (!q || !ntrain_init(&t, o.seed))
        die("out of memory");
    NtRunKey key;
    ntrain_run_key(&o, &d, &key);
    FILE *probe = o.resume ? fopen(checkpoint, "rb") : NULL;
    if (probe) {
        fclose(probe);
        if (!ntrain_load_checkpoint(checkpoint, &t, &key, err, sizeof err))
            die(err);
        fprintf(stderr, "nnue_train: resumed from %s after epoch %d of %d\n", checkpoint, t.epoch,
                o.epochs);
    } else {
        if (o.resume)
            fprintf(stderr, "nnue_train: no checkpoint %s yet: starting afresh\n", checkpoint);
        t.held_loss = ntrain_loss(t.params, &d.held, o.lambda, o.threads);
        if (d.held.count)
            fprintf(stderr, "nnue_train: epoch 0: held-out loss %.6f\n", t.held_loss);
    }

    double session = now_seconds();
    int first = t.epoch;
    while (t.epoch < o.epochs) {
        double t0 = now_seconds();
        Progress pr = { .epoch = t.epoch + 1, .epochs = o.epochs, .start = t0, .last = t0 };
        if (!ntrain_epoch(&t, &d, &o, &(NtProgress){ report, &pr }, err, sizeof err))
            die(err);
        double t1 = now_seconds();
        char took[32], eta[32];
        format_duration(t1 - t0, took, sizeof took);
        format_duration((t1 - session) / (t.epoch - first) * (o.epochs - t.epoch), eta, sizeof eta);
        fprintf(stderr,
                "nnue_train: epoch %d/%d: loss %.6f, held-out %.6f, %.0f positions/s, %s, "
                "ETA %s\n",
                t.epoch, o.epochs, t.train_loss, t.held_loss, (double)d.train.count / (t1 - t0),
                took, eta);
        write_outputs(&o, &d, &t, checkpoint, &key, q, argc, argv);
    }
    if (t.epoch == first)
        write_outputs(&o, &d, &t, checkpoint, &key, q, argc, argv);
    // What rounding the weights costs, measured on unseen positions when there are some.
    NtQuantError qe;
    const NtRecords *probe_set = d.held.count ? &d.held : &d.train;
    ntrain_quantisation_error(t.params, q, probe_set, 100000, o.lambda, &qe);
    fprintf(stderr,
            "nnue_train: the quantised net on %lld %s positions: loss %.6f; its eval differs "
            "from the float model's by %.1f cp on average, %.0f cp at most\n",
            qe.count, d.held.count ? "held-out" : "training", qe.loss, qe.mean, qe.worst);
    fprintf(stderr, "nnue_train: net written to %s (checkpoint %s), %.0f s in all\n", o.out,
            checkpoint, now_seconds() - start);
    free(q);
    ntrain_free(&t);
    ntrain_data_free(&d);
    return 0;
}
