// SPDX-License-Identifier: GPL-3.0-or-later
// tools/nnue_train: trains the patzer NNUE network (/data/NNUE.md: (768 -> 256) x 2 -> 1,
// SCReLU) on `patzer datagen` data and writes it quantised, with its provenance, after
// every epoch; a checkpoint written at the same time lets --resume go on exactly where a run
// was cut off. The work is in tools/nnue_train_*.c (see tools/nnue_train.h); this file runs
// the epochs and reports.
#include <errno.h>
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

// What one run holds besides the trainer.
typedef struct Run {
    NtOptions o;
    NtData d;
    NtRunKey key;
    char checkpoint[4096];
    int argc;
    char **argv;
    NtQuantised *q;
    NtQuantError qe;   // of the net last written
    NtParent parent;   // the --init net (when o.init is set)
    bool scale_fitted; // o.eval_scale was fitted on the data rather than given
} Run;

// The parent's description up to its first sentence about the data ("... Trained DATE by
// tools/nnue_train from DIR (...): N positions of ..."), at most max bytes cut between
// UTF-8 characters: enough to name its lineage without the child's description growing by
// the whole of every ancestor's.
static void parent_summary(const char *desc, char *out, size_t max) {
    size_t n = strlen(desc);
    const char *stop = strstr(desc, " records (");
    if (stop)
        n = (size_t)(stop - desc) + strlen(" records");
    if (n >= max)
        n = max - 1;
    while (n > 0 && ((unsigned char)desc[n] & 0xC0) == 0x80)
        n--;
    memcpy(out, desc, n);
    out[n] = '\0';
}

// The settings of the datagen run in a data directory (its settings.txt: seed, nodes per
// move, ...), which with the build that ran it make the data again; "" when there is none.
static void data_settings(const char *data, char *out, size_t outsz) {
    char path[4200];
    out[0] = '\0';
    snprintf(path, sizeof path, "%s/settings.txt", data);
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    char line[300];
    if (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\r\n")] = '\0';
        snprintf(out, outsz, " Datagen settings: %s.", line);
    }
    fclose(f);
}

// The provenance text the net file carries (data/NNUE.md: "description").
static void describe(char *buf, size_t bufsz, const Run *r, const Trainer *t) {
    const NtOptions *o = &r->o;
    const NtData *d = &r->d;
    char date[32], per_file[48] = "every record", held[400] = "no games held out";
    char parent[700] = "", summary[400], settings[340];
    data_settings(o->data, settings, sizeof settings);
    if (o->init) {
        parent_summary(r->parent.desc, summary, sizeof summary);
        snprintf(parent, sizeof parent, " Fine-tuned from %s (checksum %08x: \"%s\").", o->init,
                 (unsigned)r->parent.checksum, summary);
    }
    time_t now = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", gmtime(&now));
    if (o->per_file < INT64_MAX)
        snprintf(per_file, sizeof per_file, "the first %lld records", o->per_file);
    if (o->held_out)
        snprintf(held, sizeof held, "held-out loss %.6f on the %lld positions of 1 game in %d%s",
                 t->held_loss, d->held.count, o->held_out,
                 o->last ? "" : ", the best epoch on them so far");
    int n = snprintf(
        buf, bufsz,
        "patzer NNUE %s, (768->%d)x2->%d SCReLU%s%s%s.%s Trained %s by tools/nnue_train from %s "
        "(%s "
        "of "
        "each file): %lld%s positions of %lld records (%lld games; min ply %d, max score %d).%s "
        "Epoch %d of %d (the last %d with the output layer on its quantised grid),%s batch %d, "
        "Adam lr %g cosine to %g, lambda %.2f, eval scale %.1f cp (%s), seed %" PRIu64
        ", %d thread%s. Loss %.6f (last "
        "epoch), %s. Quantised: loss %.6f against %.6f for the float model on %lld %s "
        "positions, eval %.1f cp from the float model's on average. Command:",
        o->king_buckets > 1                  ? "v3"
        : o->buckets == 1 && !o->king_mirror ? "v1"
                                             : "v2",
        NT_HIDDEN, o->buckets, o->buckets > 1 ? " (output buckets by piece count)" : "",
        o->king_mirror ? ", king mirrored to files a-d" : "",
        o->king_buckets == 4   ? ", 4 king buckets (ranks 1, 2, 3-4, 5-8)"
        : o->king_buckets == 2 ? ", 2 king buckets (rank 1, ranks 2-8)"
                               : "",
        parent, date, o->data, per_file, d->train.count + d->held.count, o->all ? "" : " quiet",
        d->records, d->games, o->min_ply, o->max_score, settings, t->epoch, o->epochs,
        ntrain_grid_epochs(o),
        o->mirror ? " positions without castling rights mirrored a-h in every other epoch," : "",
        o->batch, o->lr, o->lr / 100, o->lambda, o->eval_scale,
        r->scale_fitted ? "fitted on the results" : "given", o->seed, o->threads,
        o->threads == 1 ? "" : "s", t->train_loss, held, r->qe.loss, r->qe.float_loss, r->qe.count,
        d->held.count ? "held-out" : "training", r->qe.mean);
    for (int i = 0; i < r->argc && n > 0 && (size_t)n < bufsz; i++)
        n += snprintf(buf + n, bufsz - (size_t)n, " %s", r->argv[i]);
}

// Quantises the trainer's weights, measures what rounding costs (on unseen positions when
// there are some) and writes the net.
static void write_net(Run *r, const Trainer *t) {
    char err[512], desc[NT_DESC_MAX * 2];
    ntrain_quantise(t->params, ntrain_shape(&r->o), r->q);
    const NtRecords *probe = r->d.held.count ? &r->d.held : &r->d.train;
    ntrain_quantisation_error(t->params, r->q, probe, 20000, ntrain_objective(&r->o), &r->qe);
    describe(desc, sizeof desc, r, t);
    if (!ntrain_write_net(r->o.out, r->q, desc, err, sizeof err))
        die(err);
}

static void start(Run *r, Trainer *t) {
    char err[512];
    if (!ntrain_init(t, r->o.seed))
        die("out of memory");
    FILE *probe = r->o.resume ? fopen(r->checkpoint, "rb") : NULL;
    if (probe) {
        fclose(probe);
        if (!ntrain_load_checkpoint(r->checkpoint, t, &r->key, err, sizeof err))
            die(err);
        fprintf(stderr, "nnue_train: resumed from %s after epoch %d of %d\n", r->checkpoint,
                t->epoch, r->o.epochs);
        return;
    }
    if (r->o.resume)
        fprintf(stderr, "nnue_train: no checkpoint %s yet: starting afresh\n", r->checkpoint);
    // Fine-tuning: the parent's weights, with Adam's moments at zero as for a new run (its
    // own moments belonged to other data and are not in the file anyway).
    if (r->o.init) {
        NtShape ps = r->parent.q.shape;
        if (ps.king_mirror != r->o.king_mirror || (ps.buckets != 1 && ps.buckets != r->o.buckets) ||
            (ps.king_buckets != 1 && ps.king_buckets != r->o.king_buckets)) {
            snprintf(err, sizeof err,
                     "--init %s: a net of %d bucket%s%s and %d king bucket%s cannot start a run "
                     "of %d bucket%s%s and %d king bucket%s",
                     r->o.init, ps.buckets, ps.buckets == 1 ? "" : "s",
                     ps.king_mirror ? " with the king mirror" : "", ps.king_buckets,
                     ps.king_buckets == 1 ? "" : "s", r->o.buckets, r->o.buckets == 1 ? "" : "s",
                     r->o.king_mirror ? " with the king mirror" : "", r->o.king_buckets,
                     r->o.king_buckets == 1 ? "" : "s");
            die(err);
        }
        ntrain_dequantise(&r->parent.q, t->params);
        fprintf(stderr, "nnue_train: starting from %s (checksum %08x), lr %g\n", r->o.init,
                (unsigned)r->parent.checksum, r->o.lr);
    }
    t->held_loss = ntrain_loss(t->params, &r->d.held, ntrain_objective(&r->o), r->o.threads);
    if (r->d.held.count)
        fprintf(stderr, "nnue_train: epoch 0: held-out loss %.6f\n", t->held_loss);
    if (r->o.epochs == 0) {
        // The net written is the starting one (a parent re-quantised exactly): its held-out
        // loss is the one just measured.
        t->best_held = t->held_loss;
        write_net(r, t);
    }
}

// The held-out loss of the trainer's weights as the file will hold them (0 without held-out
// positions).
static double quantised_held_loss(Run *r, const Trainer *t) {
    if (!r->d.held.count)
        return 0;
    NtQuantError qe;
    ntrain_quantise(t->params, ntrain_shape(&r->o), r->q);
    ntrain_quantisation_error(t->params, r->q, &r->d.held, r->d.held.count, ntrain_objective(&r->o),
                              &qe);
    return qe.loss;
}

// Runs the epochs left; after each, the net when it is the best so far on the held-out
// games (or the last, with --last or none held out), and the checkpoint.
static void train(Run *r, Trainer *t) {
    char err[512];
    double session = now_seconds();
    int first = t->epoch;
    while (t->epoch < r->o.epochs) {
        double t0 = now_seconds();
        Progress pr = { .epoch = t->epoch + 1, .epochs = r->o.epochs, .start = t0, .last = t0 };
        if (!ntrain_epoch(t, &r->d, &r->o, &(NtProgress){ report, &pr }, err, sizeof err))
            die(err);
        double t1 = now_seconds();
        // The net is chosen by what the engine will play with: the quantised net's held-out
        // loss. (By the float loss, an epoch before the output layer went onto its grid
        // looked best with 8 output buckets, while its rounding cost more than the grid
        // epochs' small rise.)
        double qloss = quantised_held_loss(r, t);
        bool keep = r->o.last || !r->d.held.count || t->best_epoch == 0 || qloss < t->best_held;
        if (keep) {
            t->best_epoch = t->epoch;
            t->best_held = qloss;
            write_net(r, t);
        }
        if (!ntrain_save_checkpoint(r->checkpoint, t, &r->key, err, sizeof err))
            die(err);
        char took[32], eta[32], kept[64] = "net written";
        format_duration(t1 - t0, took, sizeof took);
        format_duration((t1 - session) / (t->epoch - first) * (r->o.epochs - t->epoch), eta,
                        sizeof eta);
        if (!keep)
            snprintf(kept, sizeof kept, "the net stays that of epoch %d", t->best_epoch);
        fprintf(stderr,
                "nnue_train: epoch %d/%d: loss %.6f, held-out %.6f (quantised %.6f), %.0f "
                "positions/s, %s, ETA %s; %s\n",
                t->epoch, r->o.epochs, t->train_loss, t->held_loss, qloss,
                (double)r->d.train.count / (t1 - t0), took, eta, kept);
    }
}

int main(int argc, char **argv) {
    static Run run;
    Run *r = &run;
    char err[512];
    if (!ntrain_parse_args(argc, argv, &r->o, err, sizeof err)) {
        fprintf(stderr, "nnue_train: %s\n%s", err, ntrain_usage());
        return 2;
    }
    r->argc = argc;
    r->argv = argv;
    snprintf(r->checkpoint, sizeof r->checkpoint, "%s%s",
             r->o.checkpoint ? r->o.checkpoint : r->o.out, r->o.checkpoint ? "" : ".ckpt");
    r->q = malloc(sizeof *r->q);
    if (!r->q)
        die("out of memory");

    // A path that cannot be written is found now, not after the first epoch.
    const char *outputs[2] = { r->o.out, r->checkpoint };
    for (int i = 0; i < 2; i++) {
        char tmp[4200];
        snprintf(tmp, sizeof tmp, "%s.tmp", outputs[i]);
        FILE *f = fopen(tmp, "wb");
        if (!f) {
            fprintf(stderr, "nnue_train: cannot write %s: %s\n", tmp, strerror(errno));
            return 2;
        }
        fclose(f);
        remove(tmp);
    }

    // A parent that cannot be used is found before the data is read.
    if (r->o.init && !ntrain_read_net(r->o.init, &r->parent, err, sizeof err))
        die(err);

    double begin = now_seconds();
    if (!ntrain_load(&r->o, &r->d, err, sizeof err))
        die(err);
    fprintf(stderr,
            "nnue_train: %lld positions to fit, %lld held out (%lld of %lld games), of %lld "
            "records in %s; %.1f s, %.0f MB\n",
            r->d.train.count, r->d.held.count, r->d.held_games, r->d.games, r->d.records, r->o.data,
            now_seconds() - begin,
            (double)(r->d.train.cap + r->d.held.cap) * TRAIN_RECORD_SIZE / 1e6);
    if (r->o.eval_scale == 0) {
        r->scale_fitted = true;
        r->o.eval_scale = ntrain_fit_scale(&r->d.train);
    }
    fprintf(stderr, "nnue_train: eval scale %.1f cp (%s)\n", r->o.eval_scale,
            r->scale_fitted ? "fitted on the game results" : "--eval-scale");
    ntrain_run_key(&r->o, &r->d, r->o.init ? &r->parent : NULL, &r->key);

    Trainer t;
    start(r, &t);
    int first = t.epoch;
    train(r, &t);
    if (t.epoch > first || r->o.epochs == 0)
        fprintf(stderr,
                "nnue_train: %s holds epoch %d (held-out loss %.6f); on %lld %s positions the "
                "quantised net's loss is %.6f against %.6f for the float model, its eval %.1f "
                "cp from the float model's on average, %.0f cp at most\n",
                r->o.out, t.best_epoch, t.best_held, r->qe.count,
                r->d.held.count ? "held-out" : "training", r->qe.loss, r->qe.float_loss, r->qe.mean,
                r->qe.worst);
    else
        fprintf(stderr, "nnue_train: all %d epochs were done already: %s holds epoch %d\n",
                r->o.epochs, r->o.out, t.best_epoch);
    fprintf(stderr, "nnue_train: checkpoint %s, %.0f s in all\n", r->checkpoint,
            now_seconds() - begin);
    free(r->q);
    ntrain_free(&t);
    ntrain_data_free(&r->d);
    return 0;
}
