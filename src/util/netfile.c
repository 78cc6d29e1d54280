// SPDX-License-Identifier: GPL-3.0-or-later
// Reading NNUE net files for the engine (src/util/netfile.h).
#include "src/util/netfile.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/errmsg.h"
#include "src/util/netbuiltin.h"

NnueNet *netfile_read(const char *path, char *err, size_t errsz) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        errmsg_set(err, errsz, "cannot open: %s", strerror(errno));
        return NULL;
    }
    // One byte more than the largest valid file, so that a longer one is seen as such.
    size_t cap = nnue_file_size(3, NNUE_MAX_BUCKETS, NNUE_MAX_KING_BUCKETS, NNUE_DESC_MAX) + 1;
    uint8_t *bytes = malloc(cap);
    NnueNet *net = nnue_net_new();
    if (!bytes || !net) {
        errmsg_set(err, errsz, "out of memory");
        goto fail;
    }
    size_t len = fread(bytes, 1, cap, f);
    if (ferror(f)) {
        errmsg_set(err, errsz, "cannot read: %s", strerror(errno));
        goto fail;
    }
    if (len == cap) {
        errmsg_set(err, errsz, "too large for a patzer NNUE file (over %zu bytes)", cap - 1);
        goto fail;
    }
    if (!nnue_net_load(net, bytes, len, err, errsz))
        goto fail;
    fclose(f);
    free(bytes);
    return net;
fail:
    fclose(f);
    free(bytes);
    nnue_net_free(net);
    return NULL;
}

NnueNet *netfile_open(const char *name, char *err, size_t errsz) {
    return strcmp(name, "builtin") == 0 ? netfile_builtin(err, errsz)
                                        : netfile_read(name, err, errsz);
}

NnueNet *netfile_builtin(char *err, size_t errsz) {
    NnueNet *net = nnue_net_new();
    if (!net) {
        errmsg_set(err, errsz, "out of memory");
        return NULL;
    }
    if (!nnue_net_load(net, netbuiltin, netbuiltin_size, err, errsz)) {
        nnue_net_free(net);
        return NULL;
    }
    return net;
}

// The description on one line: control characters (newlines) become spaces.
static void one_line(char *s) {
    for (; *s; s++)
        if ((unsigned char)*s < 32 || *s == 127)
            *s = ' ';
}

void netfile_release(NetFile *nf, Engine *e) {
    engine_set_net(e, NULL);
    nnue_net_free(nf->net);
    nf->net = NULL;
}

void netfile_attach(NetFile *nf, Engine *e, const Engine *like) {
    if (like) {
        static const char *const names[] = { "EvalFile", "UseNNUE" };
        for (int i = 0; i < 2; i++) {
            char value[1024];
            if (engine_get_option(like, names[i], value, sizeof value))
                (void)engine_set_option(e, names[i], value, NULL, 0); // like's value: valid
        }
    }
    char msg[NNUE_DESC_MAX + 1200];
    (void)netfile_sync(nf, e, msg, sizeof msg);
}

// Loads the net e's options name into nf (the built-in one when EvalFile is empty); on
// failure, what is wrong with which file in why and NULL.
static NnueNet *load_named(const char *path, char *why, size_t whysz) {
    char err[256];
    NnueNet *net = path[0] ? netfile_read(path, err, sizeof err) : netfile_builtin(err, sizeof err);
    if (!net)
        errmsg_set(why, whysz, "%s: %s", path[0] ? path : "(the built-in net)", err);
    return net;
}

NetFileStatus netfile_sync(NetFile *nf, Engine *e, char *msg, size_t msgsz) {
    char use[8], path[1024];
    engine_get_option(e, "UseNNUE", use, sizeof use);
    engine_get_option(e, "EvalFile", path, sizeof path);
    if (strcmp(use, "true") != 0) {
        if (!nf->net)
            return NETFILE_QUIET;
        netfile_release(nf, e);
        errmsg_set(msg, msgsz, "NNUE off: using the hand-crafted evaluation");
        return NETFILE_OFF;
    }
    // The net may be in use by a search: the engine lets go of it before it is replaced.
    netfile_release(nf, e);
    char why[1400];
    NnueNet *net = load_named(path, why, sizeof why);
    if (!net) {
        errmsg_set(msg, msgsz, "EvalFile %s; using the hand-crafted evaluation", why);
        return NETFILE_ERROR;
    }
    nf->net = net;
    engine_set_net(e, net);
    if (path[0])
        errmsg_set(msg, msgsz, "NNUE loaded from %s: %s", path, net->desc);
    else
        errmsg_set(msg, msgsz, "NNUE: the built-in net: %s", net->desc);
    one_line(msg);
    return NETFILE_LOADED;
}

bool netfile_choose(NetFile *nf, Engine *e, const char *choice, char *msg, size_t msgsz) {
    if (choice) {
        bool none = strcmp(choice, "none") == 0, builtin = strcmp(choice, "builtin") == 0;
        (void)engine_set_option(e, "EvalFile", none || builtin ? "" : choice, NULL, 0);
        (void)engine_set_option(e, "UseNNUE", none ? "false" : "true", NULL, 0);
    }
    char use[8], path[1024];
    engine_get_option(e, "UseNNUE", use, sizeof use);
    engine_get_option(e, "EvalFile", path, sizeof path);
    netfile_release(nf, e);
    if (strcmp(use, "true") != 0)
        return true;
    // A command line stops on a net it cannot use rather than going on with another
    // evaluation.
    char why[1400];
    NnueNet *net = load_named(path, why, sizeof why);
    if (!net)
        return errmsg_set(msg, msgsz, "--eval-file %s", why);
    nf->net = net;
    engine_set_net(e, net);
    return true;
}
