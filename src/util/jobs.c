// SPDX-License-Identifier: GPL-3.0-or-later
// A fixed pool of worker threads taking items from a shared counter; the
// calling thread waits for the next item in order and delivers it.
#include "src/util/jobs.h"

#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

typedef struct Run {
    pthread_mutex_t lock;
    pthread_cond_t done_cond;
    int count;
    int next;      // the next item to start
    bool stopping; // deliver said stop: start nothing more
    bool *done;
    JobsWorkFn *work;
    void *ctx;
} Run;

typedef struct Worker {
    Run *run;
    int id;
    pthread_t thread;
} Worker;

static void *worker_main(void *arg) {
    Worker *w = arg;
    Run *r = w->run;
    for (;;) {
        pthread_mutex_lock(&r->lock);
        int i = r->stopping || r->next >= r->count ? -1 : r->next++;
        pthread_mutex_unlock(&r->lock);
        if (i < 0)
            return NULL;
        r->work(i, w->id, r->ctx);
        pthread_mutex_lock(&r->lock);
        r->done[i] = true;
        pthread_cond_broadcast(&r->done_cond);
        pthread_mutex_unlock(&r->lock);
    }
}

static bool run_serially(int count, JobsWorkFn *work, JobsDeliverFn *deliver, void *ctx) {
    for (int i = 0; i < count; i++) {
        work(i, 0, ctx);
        if (!deliver(i, ctx))
            return false;
    }
    return true;
}

bool jobs_run(int jobs, int count, JobsWorkFn *work, JobsDeliverFn *deliver, void *ctx) {
    if (jobs > count)
        jobs = count;
    if (jobs > JOBS_MAX)
        jobs = JOBS_MAX;
    if (jobs <= 1)
        return run_serially(count, work, deliver, ctx);
    Run r = {.count = count, .work = work, .ctx = ctx};
    r.done = calloc((size_t)count, sizeof *r.done);
    Worker *workers = calloc((size_t)jobs, sizeof *workers);
    if (!r.done || !workers) {
        free(r.done);
        free(workers);
        return run_serially(count, work, deliver, ctx);
    }
    pthread_mutex_init(&r.lock, NULL);
    pthread_cond_init(&r.done_cond, NULL);
    int started = 0;
    for (; started < jobs; started++) {
        workers[started].run = &r;
        workers[started].id = started;
        if (pthread_create(&workers[started].thread, NULL, worker_main, &workers[started]) != 0)
            break;
    }
    bool ok = true;
    if (started == 0) {
        ok = run_serially(count, work, deliver, ctx);
    } else {
        for (int i = 0; i < count && ok; i++) {
            pthread_mutex_lock(&r.lock);
            while (!r.done[i])
                pthread_cond_wait(&r.done_cond, &r.lock);
            pthread_mutex_unlock(&r.lock);
            if (!deliver(i, ctx)) {
                ok = false;
                pthread_mutex_lock(&r.lock);
                r.stopping = true;
                pthread_mutex_unlock(&r.lock);
            }
        }
    }
    for (int i = 0; i < started; i++)
        pthread_join(workers[i].thread, NULL);
    pthread_mutex_destroy(&r.lock);
    pthread_cond_destroy(&r.done_cond);
    free(r.done);
    free(workers);
    return ok;
}

int jobs_cores(void) {
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    if (cores < 1)
        return 1;
    return cores < JOBS_MAX ? (int)cores : JOBS_MAX;
}
