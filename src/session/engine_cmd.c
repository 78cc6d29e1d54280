// SPDX-License-Identifier: GPL-3.0-or-later
// `engine`: which engine plays and analyses (the built-in one or an external
// UCI engine), and its options. The search requests themselves go through
// think.c, which hands them to whichever engine is in use.
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "src/session/session_int.h"

enum { ENGINE_START_MS = 5000, ARGS_MAX = 32 };

// Splits text into words in place: blanks separate them, "double quotes"
// keep blanks inside one. Returns the count; argv ends with NULL.
static int split_words(char *text, char **argv, int max) {
    int n = 0;
    char *p = text;
    while (n < max - 1) {
        while (isspace((unsigned char)*p))
            p++;
        if (!*p)
            break;
        char *out = p;
        argv[n++] = p;
        bool quoted = false;
        while (*p && (quoted || !isspace((unsigned char)*p))) {
            if (*p == '"')
                quoted = !quoted;
            else
                *out++ = *p;
            p++;
        }
        bool end = !*p;
        *out = '\0';
        if (end)
            break;
        p++;
    }
    argv[n] = NULL;
    return n;
}

static void say_engine(Think *t) {
    if (t->uci)
        session_say(t->session, MSG_INFO, "Engine: %s (%s), %d options.", uci_client_name(t->uci),
                    t->uci_command, uci_client_option_count(t->uci));
    else
        session_say(t->session, MSG_INFO, "Engine: the built-in engine (engine CMD uses another).");
}

// The hash size and threads of patzer.conf (the built-in engine's) go to
// the external engine too, where it has the options, within its ranges.
static void apply_settings(Think *t) {
    const SessionOptions *o = &t->session->opts;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    int want[2] = { o->hash_mb, o->threads > 0 ? o->threads : cores > 0 ? (int)cores : 1 };
    static const char *const names[2] = { "Hash", "Threads" };
    for (int i = 0; i < 2; i++) {
        const UciOption *opt = uci_client_find_option(t->uci, names[i]);
        if (!opt || opt->type != UCI_SPIN || want[i] <= 0)
            continue;
        int v = want[i] < opt->min ? opt->min : want[i] > opt->max ? opt->max : want[i];
        char text[16], err[256];
        snprintf(text, sizeof text, "%d", v);
        uci_client_set_option(t->uci, names[i], text, true, err, sizeof err);
    }
}

bool think_use_engine(Think *t, char *const argv[]) {
    think_cancel(t);
    memset(&t->thinking, 0, sizeof t->thinking);
    if (!argv) {
        think_drop_uci(t);
        return true;
    }
    char err[UCI_ERROR_MAX];
    UciClient *c = uci_client_start(argv, ENGINE_START_MS, err, sizeof err);
    if (!c) {
        session_say(t->session, MSG_ERROR, "Cannot use the engine: %s. The %s engine plays on.",
                    err, t->uci ? "current" : "built-in");
        return false;
    }
    uci_client_free(t->uci);
    t->uci = c;
    t->elo_said = false;
    size_t len = 0;
    t->uci_command[0] = '\0';
    for (int i = 0; argv[i] && len < sizeof t->uci_command; i++) {
        int k = snprintf(t->uci_command + len, sizeof t->uci_command - len, "%s%s", i ? " " : "",
                         argv[i]);
        if (k > 0)
            len += (size_t)k;
    }
    len = 0;
    t->uci_argc = 0;
    for (int i = 0; argv[i]; i++) {
        size_t k = strlen(argv[i]) + 1;
        if (len + k > sizeof t->uci_args)
            break; // cannot happen: the words come from one command line
        memcpy(t->uci_args + len, argv[i], k);
        len += k;
        t->uci_argc++;
    }
    apply_settings(t);
    if (!uci_client_new_game(c, ENGINE_START_MS)) {
        session_say(t->session, MSG_ERROR,
                    "Engine '%s' did not answer isready; back to the "
                    "built-in engine.",
                    t->uci_command);
        think_use_engine(t, NULL);
        return false;
    }
    return true;
}

static void list_options(Think *t) {
    char text[MESSAGE_MAX * 2];
    size_t len = 0;
    text[0] = '\0';
#define ADD(...)                                                           \
    do {                                                                   \
        if (len < sizeof text) {                                           \
            int k_ = snprintf(text + len, sizeof text - len, __VA_ARGS__); \
            if (k_ > 0)                                                    \
                len += (size_t)k_;                                         \
        }                                                                  \
    } while (0)
    if (!t->uci) {
        ADD("Options of the built-in engine:");
        for (int i = 0; i < engine_option_count(); i++) {
            const EngineOption *o = engine_option(i);
            char value[128] = "";
            engine_get_option(t->engine, o->name, value, sizeof value);
            static const char *const types[] = { "spin", "check", "string", "button" };
            ADD("\n  %s (%s", o->name, types[o->type]);
            if (o->type == OPTION_SPIN)
                ADD(" %d..%d", o->min, o->max);
            ADD(") = %s", value);
        }
    } else {
        static const char *const types[] = { "spin", "check", "combo", "button", "string" };
        ADD("Options of %s:", uci_client_name(t->uci));
        for (int i = 0; i < uci_client_option_count(t->uci); i++) {
            const UciOption *o = uci_client_option(t->uci, i);
            ADD("\n  %s (%s", o->name, types[o->type]);
            if (o->type == UCI_SPIN)
                ADD(" %d..%d", o->min, o->max);
            if (o->type == UCI_COMBO) {
                ADD(":");
                for (const char *p = o->vars; *p; p++)
                    ADD("%c", *p == '\t' ? '/' : *p);
            }
            ADD(")");
            if (o->type != UCI_BUTTON)
                ADD(" = %s", o->value[0] ? o->value : "<empty>");
        }
    }
#undef ADD
    session_say_text(t->session, MSG_TEXT, text); // a page of its own on a screen
}

// `engine option NAME VALUE`: the longest run of words that names an option
// is its name (names hold blanks: "Skill Level"); the rest is the value.
static void set_option(Think *t, const char *arg) {
    while (isspace((unsigned char)*arg))
        arg++;
    char copy[COMMAND_TEXT_MAX];
    snprintf(copy, sizeof copy, "%s", arg);
    char *words[64];
    int n = 0;
    char *save = NULL;
    for (char *w = strtok_r(copy, " \t", &save); w && n < 64; w = strtok_r(NULL, " \t", &save))
        words[n++] = w;
    if (n == 0) {
        session_say(t->session, MSG_ERROR,
                    "engine option needs a NAME and a VALUE "
                    "(engine options lists them).");
        return;
    }
    for (int k = n; k >= 1; k--) {
        char name[COMMAND_TEXT_MAX] = "", value[COMMAND_TEXT_MAX] = "";
        size_t len = 0;
        for (int i = 0; i < k; i++)
            len += (size_t)snprintf(name + len, sizeof name - len, "%s%s", i ? " " : "", words[i]);
        len = 0;
        for (int i = k; i < n; i++)
            len += (size_t)snprintf(value + len, sizeof value - len, "%s%s", i > k ? " " : "",
                                    words[i]);
        char err[512];
        if (t->uci) {
            if (!uci_client_find_option(t->uci, name))
                continue;
            think_cancel(t);
            if (!uci_client_set_option(t->uci, name, value, false, err, sizeof err))
                session_say(t->session, MSG_ERROR, "%s.", err);
            else
                session_say(t->session, MSG_INFO, "%s: %s = %s", uci_client_name(t->uci),
                            uci_client_find_option(t->uci, name)->name, value);
            return;
        }
        char current[128];
        if (!engine_get_option(t->engine, name, current, sizeof current))
            continue;
        think_cancel(t);
        if (!engine_set_option(t->engine, name, value, err, sizeof err)) {
            session_say(t->session, MSG_ERROR, "%s.", err);
            return;
        }
        session_say(t->session, MSG_INFO, "Built-in engine: %s = %s", name, value);
        if (strcasecmp(name, "EvalFile") == 0 || strcasecmp(name, "UseNNUE") == 0) {
            // The net file is read now, with the search cancelled above.
            char msg[NNUE_DESC_MAX + 1200];
            NetFileStatus st = netfile_sync(&t->net, t->engine, msg, sizeof msg);
            if (st != NETFILE_QUIET)
                session_say(t->session, st == NETFILE_ERROR ? MSG_ERROR : MSG_INFO, "%s.", msg);
        }
        return;
    }
    session_say(t->session, MSG_ERROR, "%s has no option '%.60s' (engine options lists them).",
                t->uci ? uci_client_name(t->uci) : "The built-in engine", arg);
}

void think_engine_command(Think *t, const char *arg) {
    while (isspace((unsigned char)*arg))
        arg++;
    if (!*arg) {
        say_engine(t);
    } else if (!strcasecmp(arg, "builtin") || !strcasecmp(arg, "built-in")) {
        think_use_engine(t, NULL);
        say_engine(t);
    } else if (!strcasecmp(arg, "options")) {
        list_options(t);
    } else if (!strncasecmp(arg, "option", 6) && (!arg[6] || isspace((unsigned char)arg[6]))) {
        set_option(t, arg + 6);
    } else {
        char copy[COMMAND_TEXT_MAX];
        snprintf(copy, sizeof copy, "%s", arg);
        char *argv[ARGS_MAX];
        split_words(copy, argv, ARGS_MAX);
        if (think_use_engine(t, argv))
            say_engine(t);
    }
}

const char *think_engine_name(const Think *t) {
    return t->uci ? uci_client_name(t->uci) : "patzer";
}
