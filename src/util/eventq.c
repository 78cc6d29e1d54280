// SPDX-License-Identifier: GPL-3.0-or-later
// A fixed-size ring of engine events plus a self-pipe for wake-ups.
#include "src/util/eventq.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

enum { QUEUE_SIZE = 256 };

struct EventQueue {
    pthread_mutex_t lock;
    Event ring[QUEUE_SIZE];
    int head, count;
    int pipe_fd[2];
};

EventQueue *eventq_new(void) {
    EventQueue *q = calloc(1, sizeof *q);
    if (!q)
        return NULL;
    if (pipe(q->pipe_fd) != 0) {
        free(q);
        return NULL;
    }
    for (int i = 0; i < 2; i++) {
        int flags = fcntl(q->pipe_fd[i], F_GETFL);
        if (flags < 0 || fcntl(q->pipe_fd[i], F_SETFL, flags | O_NONBLOCK) != 0) {
            close(q->pipe_fd[0]);
            close(q->pipe_fd[1]);
            free(q);
            return NULL;
        }
    }
    pthread_mutex_init(&q->lock, NULL);
    return q;
}

void eventq_free(EventQueue *q) {
    if (!q)
        return;
    close(q->pipe_fd[0]);
    close(q->pipe_fd[1]);
    pthread_mutex_destroy(&q->lock);
    free(q);
}

int eventq_fd(const EventQueue *q) { return q->pipe_fd[0]; }

// Removes the entry at offset i from the head, keeping the order of the rest.
static void remove_at(EventQueue *q, int i) {
    for (int j = i; j > 0; j--)
        q->ring[(q->head + j) % QUEUE_SIZE] = q->ring[(q->head + j - 1) % QUEUE_SIZE];
    q->head = (q->head + 1) % QUEUE_SIZE;
    q->count--;
}

void eventq_push(EventQueue *q, const Event *ev) {
    pthread_mutex_lock(&q->lock);
    if (q->count == QUEUE_SIZE) {
        if (ev->kind == EV_INFO) {
            // The next info will do; never block the search thread.
            pthread_mutex_unlock(&q->lock);
            return;
        }
        // A best move must get through: drop the oldest info (or event).
        int i = 0;
        while (i < q->count - 1 && q->ring[(q->head + i) % QUEUE_SIZE].kind != EV_INFO)
            i++;
        remove_at(q, i);
    }
    q->ring[(q->head + q->count) % QUEUE_SIZE] = *ev;
    q->count++;
    pthread_mutex_unlock(&q->lock);
    char byte = 1;
    // A full pipe already guarantees a wake-up; nothing else can fail here.
    while (write(q->pipe_fd[1], &byte, 1) < 0 && errno == EINTR)
        ;
}

bool eventq_pop(EventQueue *q, Event *ev) {
    char buf[64];
    while (read(q->pipe_fd[0], buf, sizeof buf) > 0)
        ;
    pthread_mutex_lock(&q->lock);
    bool any = q->count > 0;
    if (any) {
        *ev = q->ring[q->head];
        q->head = (q->head + 1) % QUEUE_SIZE;
        q->count--;
    }
    pthread_mutex_unlock(&q->lock);
    return any;
}
