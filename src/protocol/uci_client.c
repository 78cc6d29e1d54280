// SPDX-License-Identifier: GPL-3.0-or-later
// The UCI client's process side: the child on two pipes, the handshake, and
// a reader thread that turns the engine's lines into callbacks. The lock
// guards the search state; callbacks run under it, so that a waiter woken by
// the end of a search knows its bestmove has already been handed over.
#define _GNU_SOURCE // pipe2, O_CLOEXEC
#include "src/protocol/uci_client.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include "engine/fen.h"
#include "engine/movegen.h"
#include "engine/notation.h"

enum { LINE_MAX_LEN = 8192, OPTIONS_MAX = 128, QUIT_WAIT_MS = 1000 };

struct UciClient {
    pid_t pid;
    int to_fd, from_fd;
    char command[256];
    char name[UCI_NAME_MAX];
    UciOption options[OPTIONS_MAX];
    int option_count;
    // Input buffer: the handshake reads it, then only the reader thread.
    char buf[LINE_MAX_LEN];
    size_t len;
    pthread_t reader;
    bool reader_running;

    pthread_mutex_t lock;
    pthread_cond_t cond;
    bool searching;      // go sent, bestmove not read yet
    bool chess960;       // UCI_Chess960 set true (by a Chess960 game's first search)
    bool ready;          // readyok read since the last isready
    bool dead;           // the engine's output ended
    Board root;          // the position searched
    UciCallbacks cb;
    char error[UCI_ERROR_MAX];
};

static int64_t now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static bool send_line(UciClient *c, const char *line) {
    size_t n = strlen(line);
    char *text = malloc(n + 2);
    if (!text)
        return false;
    memcpy(text, line, n);
    text[n++] = '\n';
    size_t done = 0;
    while (done < n) {
        ssize_t k = write(c->to_fd, text + done, n - done);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            break;
        done += (size_t)k;
    }
    free(text);
    return done == n;
}

// Takes one line out of the buffer into line; false when none is complete.
static bool take_line(UciClient *c, char *line, size_t linesz) {
    char *nl = memchr(c->buf, '\n', c->len);
    if (!nl) {
        if (c->len < sizeof c->buf)
            return false;
        nl = c->buf + c->len - 1; // a line longer than the buffer: cut it
    }
    size_t k = (size_t)(nl - c->buf);
    size_t copy = k < linesz - 1 ? k : linesz - 1;
    memcpy(line, c->buf, copy);
    line[copy] = '\0';
    if (copy && line[copy - 1] == '\r')
        line[copy - 1] = '\0';
    c->len -= k + 1;
    memmove(c->buf, nl + 1, c->len);
    return true;
}

// Waits (c->lock held) for the reader thread's next signal or the deadline;
// false once the deadline has passed.
static bool wait_until(UciClient *c, int64_t deadline) {
    int64_t left = deadline - now_ms();
    if (left <= 0)
        return false;
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    ts.tv_sec += (time_t)(left / 1000);
    ts.tv_nsec += (long)(left % 1000) * 1000000L;
    if (ts.tv_nsec >= 1000000000L) {
        ts.tv_sec++;
        ts.tv_nsec -= 1000000000L;
    }
    pthread_cond_timedwait(&c->cond, &c->lock, &ts);
    return true;
}

// Reads one line, waiting at most timeout_ms (-1: for ever). 0 on a line,
// -1 at the end of the output, -2 on timeout.
static int read_line(UciClient *c, char *line, size_t linesz, int timeout_ms) {
    int64_t deadline = now_ms() + timeout_ms;
    while (!take_line(c, line, linesz)) {
        if (timeout_ms >= 0) {
            int64_t left = deadline - now_ms();
            struct pollfd p = { .fd = c->from_fd, .events = POLLIN };
            int r = left > 0 ? poll(&p, 1, (int)left) : 0;
            if (r < 0 && errno == EINTR)
                continue;
            if (r <= 0)
                return -2;
        }
        ssize_t k = read(c->from_fd, c->buf + c->len, sizeof c->buf - c->len);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return -1;
        c->len += (size_t)k;
    }
    return 0;
}

__attribute__((format(printf, 2, 3))) static void set_error(UciClient *c, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->error, sizeof c->error, fmt, ap);
    va_end(ap);
}

// The reader thread: every line after the handshake.
static void handle_line(UciClient *c, const char *line) {
    if (!strncmp(line, "info", 4)) {
        pthread_mutex_lock(&c->lock);
        SearchInfo info;
        if (c->searching && c->cb.on_info && uci_parse_info(line, &c->root, &info))
            c->cb.on_info(&info, c->cb.ctx);
        pthread_mutex_unlock(&c->lock);
    } else if (!strncmp(line, "bestmove", 8)) {
        pthread_mutex_lock(&c->lock);
        Move best, ponder;
        char text[64];
        UciBest r = uci_parse_bestmove(line, &c->root, &best, &ponder, text, sizeof text);
        bool ok = r == UCI_BEST_MOVE || (r == UCI_BEST_NONE && movegen_count(&c->root) == 0);
        if (c->searching) {
            if (ok) {
                if (c->cb.on_bestmove)
                    c->cb.on_bestmove(best, ponder, c->cb.ctx);
            } else {
                if (r == UCI_BEST_ILLEGAL)
                    set_error(c, "engine '%s' answered the illegal move '%s'", c->command, text);
                else
                    set_error(c, "engine '%s' answered no move", c->command);
                if (c->cb.on_failure)
                    c->cb.on_failure(c->cb.ctx);
            }
            c->searching = false;
            pthread_cond_broadcast(&c->cond);
        }
        pthread_mutex_unlock(&c->lock);
    } else if (!strcmp(line, "readyok")) {
        pthread_mutex_lock(&c->lock);
        c->ready = true;
        pthread_cond_broadcast(&c->cond);
        pthread_mutex_unlock(&c->lock);
    }
}

// With the lock held: reaps the engine if it has exited, so that its pid is
// never signalled once it may belong to another process. True when gone.
static bool try_reap(UciClient *c, int *status) {
    if (c->pid <= 0)
        return true;
    pid_t r = waitpid(c->pid, status, WNOHANG);
    if (r == c->pid || (r < 0 && errno == ECHILD)) {
        c->pid = -1;
        return true;
    }
    return false;
}

static void *reader_main(void *arg) {
    UciClient *c = arg;
    char line[LINE_MAX_LEN];
    while (read_line(c, line, sizeof line, -1) == 0)
        handle_line(c, line);
    // Its output ended: it is exiting. Reaped here (no zombie while the
    // session goes on), with how it ended for the message.
    char how[64] = "";
    for (int i = 0; i < 25; i++) {
        int status = 0;
        pthread_mutex_lock(&c->lock);
        bool ours = c->pid > 0; // else uci_client_free reaped it already
        bool gone = try_reap(c, &status);
        pthread_mutex_unlock(&c->lock);
        if (gone && ours) {
            if (WIFEXITED(status))
                snprintf(how, sizeof how, " (exit status %d)", WEXITSTATUS(status));
            else if (WIFSIGNALED(status))
                snprintf(how, sizeof how, " (killed by signal %d)", WTERMSIG(status));
        }
        if (gone)
            break;
        struct timespec ts = { 0, 20 * 1000000L };
        nanosleep(&ts, NULL);
    }
    pthread_mutex_lock(&c->lock);
    c->dead = true;
    if (!c->error[0])
        set_error(c, "engine '%s' stopped%s", c->command, how);
    if (c->searching) {
        c->searching = false;
        if (c->cb.on_failure)
            c->cb.on_failure(c->cb.ctx);
    }
    pthread_cond_broadcast(&c->cond);
    pthread_mutex_unlock(&c->lock);
    return NULL;
}

// In the child: the engine's program, from PATH or /usr/games. Reports
// errno on the status pipe if nothing could be run. Between fork and exec
// only async-signal-safe calls (other threads may hold locks): no stdio.
static void exec_child(char *const argv[], int in_fd, int out_fd, int status_fd, pid_t parent) {
#ifdef __linux__
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent)
        _exit(127);
#else
    (void)parent;
#endif
    setpgid(0, 0);
    signal(SIGPIPE, SIG_DFL);
    signal(SIGINT, SIG_DFL);
    dup2(in_fd, STDIN_FILENO);
    dup2(out_fd, STDOUT_FILENO);
    int null_fd = open("/dev/null", O_WRONLY);
    if (null_fd >= 0)
        dup2(null_fd, STDERR_FILENO);
    // The engine gets none of our other descriptors (the terminal, files).
    long max_fd = sysconf(_SC_OPEN_MAX);
    for (int fd = STDERR_FILENO + 1; fd < (max_fd > 0 && max_fd < 4096 ? max_fd : 4096); fd++)
        if (fd != status_fd)
            close(fd);
    execvp(argv[0], argv);
    int err = errno;
    static const char games[] = "/usr/games/";
    size_t n = strlen(argv[0]);
    if (err == ENOENT && !strchr(argv[0], '/') && n + sizeof games <= 4096) {
        char path[4096];
        memcpy(path, games, sizeof games - 1);
        memcpy(path + sizeof games - 1, argv[0], n + 1);
        execv(path, argv);
    }
    ssize_t k = write(status_fd, &err, sizeof err);
    (void)k;
    _exit(127);
}

// Waits up to wait_ms for the engine to exit, then kills it (and what it
// started, its process group) and reaps it.
static void reap(UciClient *c, int wait_ms) {
    int64_t deadline = now_ms() + wait_ms;
    for (;;) {
        int status;
        pthread_mutex_lock(&c->lock);
        bool gone = try_reap(c, &status);
        if (!gone && now_ms() >= deadline) {
            kill(-c->pid, SIGKILL);
            kill(c->pid, SIGKILL);
            waitpid(c->pid, &status, 0);
            c->pid = -1;
            gone = true;
        }
        pthread_mutex_unlock(&c->lock);
        if (gone)
            return;
        struct timespec ts = { 0, 10 * 1000000L };
        nanosleep(&ts, NULL);
    }
}

static bool spawn(UciClient *c, char *const argv[], char *err, size_t errsz) {
    int in[2], out[2], status[2];
    if (pipe2(in, O_CLOEXEC) || pipe2(out, O_CLOEXEC) || pipe2(status, O_CLOEXEC)) {
        snprintf(err, errsz, "cannot start '%s': %s", c->command, strerror(errno));
        return false;
    }
    pid_t parent = getpid();
    c->pid = fork();
    if (c->pid == 0)
        exec_child(argv, in[0], out[1], status[1], parent);
    close(in[0]);
    close(out[1]);
    close(status[1]);
    c->to_fd = in[1];
    c->from_fd = out[0];
    if (c->pid < 0) {
        snprintf(err, errsz, "cannot start '%s': %s", c->command, strerror(errno));
        close(status[0]);
        return false;
    }
    int child_err = 0;
    ssize_t k;
    do
        k = read(status[0], &child_err, sizeof child_err);
    while (k < 0 && errno == EINTR);
    close(status[0]);
    if (k == (ssize_t)sizeof child_err) {
        snprintf(err, errsz, "cannot run '%s': %s", c->command, strerror(child_err));
        reap(c, 0);
        return false;
    }
    return true;
}

// uci ... uciok, then isready ... readyok, with the options on the way.
static bool handshake(UciClient *c, int timeout_ms, char *err, size_t errsz) {
    int64_t deadline = now_ms() + timeout_ms;
    char line[LINE_MAX_LEN];
    const char *waiting = "uciok";
    if (!send_line(c, "uci")) {
        // It is gone already (a write to its pipe fails only then).
        snprintf(err, errsz, "engine '%s' exited before answering uciok", c->command);
        return false;
    }
    for (;;) {
        int left = (int)(deadline - now_ms());
        int r = read_line(c, line, sizeof line, left > 0 ? left : 0);
        if (r == -1) {
            snprintf(err, errsz, "engine '%s' exited before answering %s", c->command, waiting);
            return false;
        }
        if (r == -2) {
            snprintf(err, errsz, "engine '%s' did not answer %s within %d ms (is it a UCI engine?)",
                     c->command, waiting, timeout_ms);
            return false;
        }
        if (!strncmp(line, "id name ", 8)) {
            snprintf(c->name, sizeof c->name, "%.*s", (int)sizeof c->name - 1, line + 8);
        } else if (!strncmp(line, "option ", 7) && c->option_count < OPTIONS_MAX) {
            if (uci_parse_option(line, &c->options[c->option_count]))
                c->option_count++;
        } else if (!strcmp(line, "uciok") && !strcmp(waiting, "uciok")) {
            waiting = "readyok";
            if (!send_line(c, "isready")) {
                snprintf(err, errsz, "engine '%s' stopped after uciok", c->command);
                return false;
            }
        } else if (!strcmp(line, "readyok") && !strcmp(waiting, "readyok")) {
            return true;
        }
    }
}

UciClient *uci_client_start(char *const argv[], int timeout_ms, char *err, size_t errsz) {
    if (!argv || !argv[0] || !argv[0][0]) {
        snprintf(err, errsz, "no engine command given");
        return NULL;
    }
    UciClient *c = calloc(1, sizeof *c);
    if (!c) {
        snprintf(err, errsz, "out of memory");
        return NULL;
    }
    signal(SIGPIPE, SIG_IGN);
    c->pid = -1;
    c->to_fd = c->from_fd = -1;
    size_t len = 0;
    for (int i = 0; argv[i] && len < sizeof c->command; i++) {
        int k = snprintf(c->command + len, sizeof c->command - len, "%s%s", i ? " " : "", argv[i]);
        if (k > 0)
            len += (size_t)k;
    }
    pthread_mutex_init(&c->lock, NULL);
    pthread_cond_init(&c->cond, NULL);
    if (!spawn(c, argv, err, errsz) || !handshake(c, timeout_ms, err, errsz)) {
        uci_client_free(c);
        return NULL;
    }
    if (!c->name[0])
        snprintf(c->name, sizeof c->name, "%.*s", (int)sizeof c->name - 1, c->command);
    if (pthread_create(&c->reader, NULL, reader_main, c)) {
        snprintf(err, errsz, "cannot start a thread for engine '%s'", c->command);
        uci_client_free(c);
        return NULL;
    }
    c->reader_running = true;
    return c;
}

void uci_client_free(UciClient *c) {
    if (!c)
        return;
    if (c->to_fd >= 0) {
        uci_client_stop(c);
        send_line(c, "quit");
        close(c->to_fd); // an engine that reads to the end of its input stops too
        c->to_fd = -1;
    }
    reap(c, QUIT_WAIT_MS); // kills it when it is still there; its output then ends
    if (c->reader_running)
        pthread_join(c->reader, NULL);
    if (c->from_fd >= 0)
        close(c->from_fd);
    pthread_mutex_destroy(&c->lock);
    pthread_cond_destroy(&c->cond);
    free(c);
}

const char *uci_client_name(const UciClient *c) {
    return c->name;
}
int uci_client_option_count(const UciClient *c) {
    return c->option_count;
}
const UciOption *uci_client_option(const UciClient *c, int index) {
    return index >= 0 && index < c->option_count ? &c->options[index] : NULL;
}

const UciOption *uci_client_find_option(const UciClient *c, const char *name) {
    for (int i = 0; i < c->option_count; i++)
        if (!strcasecmp(c->options[i].name, name))
            return &c->options[i];
    return NULL;
}

bool uci_client_set_option(UciClient *c, const char *name, const char *value, bool only_if_changed,
                           char *err, size_t errsz) {
    UciOption *opt = (UciOption *)uci_client_find_option(c, name);
    if (!opt) {
        snprintf(err, errsz, "%s has no option '%.60s' (engine options lists them)", c->name, name);
        return false;
    }
    char v[UCI_OPTION_VALUE_MAX];
    snprintf(v, sizeof v, "%s", value ? value : "");
    if (!uci_option_check(opt, v, sizeof v, err, errsz))
        return false;
    if (only_if_changed && opt->type != UCI_BUTTON && !strcmp(opt->value, v))
        return true;
    char line[UCI_OPTION_NAME_MAX + UCI_OPTION_VALUE_MAX + 32];
    if (opt->type == UCI_BUTTON)
        snprintf(line, sizeof line, "setoption name %s", opt->name);
    else
        snprintf(line, sizeof line, "setoption name %s value %s", opt->name, v);
    if (!send_line(c, line)) {
        snprintf(err, errsz, "engine '%s' is gone", c->command);
        return false;
    }
    snprintf(opt->value, sizeof opt->value, "%s", v);
    return true;
}

bool uci_client_new_game(UciClient *c, int timeout_ms) {
    pthread_mutex_lock(&c->lock);
    c->ready = false;
    pthread_mutex_unlock(&c->lock);
    if (!send_line(c, "ucinewgame") || !send_line(c, "isready"))
        return false;
    int64_t deadline = now_ms() + timeout_ms;
    pthread_mutex_lock(&c->lock);
    while (!c->ready && !c->dead && wait_until(c, deadline)) {
    }
    bool ok = c->ready;
    pthread_mutex_unlock(&c->lock);
    return ok;
}

bool uci_client_go(UciClient *c, const Board *start, const Move *moves, int n,
                   const SearchLimits *limits, const UciCallbacks *cb) {
    // A search the engine will not stop would answer this one with its own late bestmove
    // (for another position): such an engine is broken, and the error says so.
    uci_client_stop(c);
    if (!uci_client_wait(c, QUIT_WAIT_MS))
        return false;
    // position fen F moves m1 m2 ...: the moves, so that it sees repetitions.
    size_t cap = (size_t)n * 6 + FEN_MAX + 32, len = 0;
    char *text = malloc(cap);
    if (!text)
        return false;
    // A Chess960 game: the option first, Shredder-FEN (whose file letters
    // every 960 engine reads) and castling as king takes rook.
    char fen[FEN_MAX], option[64] = "";
    if (start->chess960 != c->chess960)
        snprintf(option, sizeof option, "setoption name UCI_Chess960 value %s",
                 start->chess960 ? "true" : "false");
    c->chess960 = start->chess960;
    if (start->chess960)
        board_to_shredder_fen(start, fen, sizeof fen);
    else
        board_to_fen(start, fen, sizeof fen);
    len = (size_t)snprintf(text, cap, "position fen %s%s", fen, n ? " moves" : "");
    Board root = *start;
    for (int i = 0; i < n; i++) {
        char m[MOVE_TEXT_MAX];
        notation_to_uci_in(start, moves[i], m);
        len += (size_t)snprintf(text + len, cap - len, " %s", m);
        board_play(&root, moves[i]);
    }
    char go[256];
    uci_format_go(limits, go, sizeof go);
    pthread_mutex_lock(&c->lock);
    bool dead = c->dead;
    if (!dead) {
        c->root = root;
        c->cb = *cb;
        c->searching = true;
        c->error[0] = '\0';
    }
    pthread_mutex_unlock(&c->lock);
    bool ok = !dead && (!option[0] || send_line(c, option)) && send_line(c, text) &&
              send_line(c, go);
    free(text);
    if (!ok) {
        pthread_mutex_lock(&c->lock);
        c->searching = false;
        if (!c->error[0])
            set_error(c, "engine '%s' is gone", c->command);
        pthread_mutex_unlock(&c->lock);
    }
    return ok;
}

void uci_client_stop(UciClient *c) {
    pthread_mutex_lock(&c->lock);
    bool searching = c->searching;
    pthread_mutex_unlock(&c->lock);
    if (searching)
        send_line(c, "stop");
}

bool uci_client_wait(UciClient *c, int timeout_ms) {
    int64_t deadline = now_ms() + timeout_ms;
    pthread_mutex_lock(&c->lock);
    while (c->searching && !c->dead && wait_until(c, deadline)) {
    }
    bool done = !c->searching;
    if (!done)
        set_error(c, "engine '%s' did not stop its search when asked", c->command);
    pthread_mutex_unlock(&c->lock);
    return done;
}

bool uci_client_alive(UciClient *c) {
    pthread_mutex_lock(&c->lock);
    bool alive = !c->dead;
    pthread_mutex_unlock(&c->lock);
    return alive;
}

void uci_client_error(UciClient *c, char *buf, size_t bufsz) {
    pthread_mutex_lock(&c->lock);
    snprintf(buf, bufsz, "%s", c->error);
    pthread_mutex_unlock(&c->lock);
}

// ------------------------------------------------------------ blocking search

// One blocking search: the collector, and whether the engine failed.
typedef struct Blocking {
    EngineCollector c;
    bool failed;
} Blocking;

static void blocking_info(const SearchInfo *info, void *ctx) {
    Blocking *b = ctx;
    engine_collector_info(&b->c, info);
}

static void blocking_best(Move best, Move ponder, void *ctx) {
    Blocking *b = ctx;
    b->c.out->best = best;
    b->c.out->ponder = ponder;
}

static void blocking_failure(void *ctx) {
    Blocking *b = ctx;
    b->failed = true;
}

bool uci_client_search(UciClient *c, const Board *start, const Move *moves, int n,
                       const SearchLimits *limits, int lines, int timeout_ms, int stop_ms,
                       EngineResult *out) {
    Blocking *b = calloc(1, sizeof *b);
    if (!b)
        return false;
    engine_collector_init(&b->c, out, lines);
    char value[16], err[256];
    snprintf(value, sizeof value, "%d", b->c.want);
    if (uci_client_find_option(c, "MultiPV"))
        (void)uci_client_set_option(c, "MultiPV", value, true, err, sizeof err);
    else
        engine_collector_init(&b->c, out, 1); // one line is all it gives
    UciCallbacks cb = { blocking_info, blocking_best, blocking_failure, b };
    bool ok = uci_client_go(c, start, moves, n, limits, &cb);
    if (ok && !uci_client_wait(c, timeout_ms)) {
        uci_client_stop(c);
        ok = uci_client_wait(c, stop_ms);
    }
    ok = ok && !b->failed;
    free(b);
    return ok;
}
