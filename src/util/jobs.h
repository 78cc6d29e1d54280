// SPDX-License-Identifier: GPL-3.0-or-later
// Independent work items run on several threads, their results delivered in
// order: the batch tools (annotate, epd) search positions or games in
// parallel and still print exactly what one thread would.
#ifndef SRC_UTIL_JOBS_H
#define SRC_UTIL_JOBS_H

#include <stdbool.h>

enum { JOBS_MAX = 256 };

// Does item `index` on worker `worker` (0..jobs-1; a worker runs one item at
// a time, so per-worker state such as an engine needs no lock).
typedef void JobsWorkFn(int index, int worker, void *ctx);
// Takes item `index`, on the calling thread, in index order, as soon as it
// and every item before it are done. Returning false stops the run: items
// not yet started are skipped and not delivered.
typedef bool JobsDeliverFn(int index, void *ctx);

// Runs work on items 0..count-1 with `jobs` threads (1: all on the calling
// thread, no thread made) and delivers them in order. Returns false when
// deliver stopped the run. When threads cannot be had it uses fewer, down to
// the calling thread alone.
bool jobs_run(int jobs, int count, JobsWorkFn *work, JobsDeliverFn *deliver, void *ctx);

// The number of online cores (1 when unknown), at most JOBS_MAX.
int jobs_cores(void);

#endif
