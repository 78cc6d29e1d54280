// SPDX-License-Identifier: GPL-3.0-or-later
// The bridge from the engine's search thread to the main thread: a small
// mutex-protected queue of engine events with a self-pipe, so the main loop
// can sleep in poll() on the keyboard and the pipe together.
#ifndef SRC_EVENTQ_H
#define SRC_EVENTQ_H

#include "engine/search.h"

typedef enum {
    EV_INFO,
    EV_BESTMOVE,
    EV_REVIEW_PROGRESS,
    EV_REVIEW_DONE,
    EV_TRAIN_PROGRESS, // a game searched for puzzles (done: games, total: puzzles)
    EV_TRAIN_DONE,     // the search for puzzles ended
    EV_INDEX_PROGRESS, // the explorer's indexing thread went on (its counters say how far)
    EV_INDEX_DONE,     // the indexing thread ended
    EV_ENGINE_FAILED,  // the external engine gave no legal move (or died) for the request
} EventKind;

typedef struct Event {
    EventKind kind;
    unsigned request;  // which engine request this answers (stale ones are dropped)
    SearchInfo info;   // EV_INFO
    Move best, ponder; // EV_BESTMOVE
    int done, total;   // EV_REVIEW_PROGRESS: plies reviewed of all
} Event;

typedef struct EventQueue EventQueue;

EventQueue *eventq_new(void);
void eventq_free(EventQueue *q);
// The descriptor to poll for readability.
int eventq_fd(const EventQueue *q);
// Called from any thread. Infos are dropped when the queue is full (the next
// one will do); best moves are never dropped.
void eventq_push(EventQueue *q, const Event *ev);
// Called from the main thread: takes the oldest event; false when empty.
bool eventq_pop(EventQueue *q, Event *ev);

#endif
