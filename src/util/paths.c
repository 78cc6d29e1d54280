// SPDX-License-Identifier: GPL-3.0-or-later
// XDG directories, the book's location, and atomic writes.
#include "src/util/paths.h"

#include "engine/engine.h"
#include "engine/errmsg.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef __linux__
#include <linux/magic.h>
#include <sys/vfs.h>
#endif

#ifndef PKGDATADIR
#define PKGDATADIR "/usr/local/share/patzer"
#endif

static char saved_argv0[PATH_MAX_LEN];

void paths_set_argv0(const char *argv0) {
    snprintf(saved_argv0, sizeof saved_argv0, "%s", argv0 ? argv0 : "");
}

const char *paths_argv0(void) { return saved_argv0; }

// mkdir -p for the directory itself (not its last component being a file).
static bool make_dirs(const char *dir) {
    char tmp[PATH_MAX_LEN];
    if (snprintf(tmp, sizeof tmp, "%s", dir) >= (int)sizeof tmp)
        return false;
    for (char *p = tmp + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir(tmp, 0700) != 0 && errno != EEXIST)
            return false;
        *p = '/';
    }
    return mkdir(tmp, 0700) == 0 || errno == EEXIST;
}

const char *paths_home(void) {
    const char *home = getenv("HOME");
    if (home && *home)
        return home;
    // As the shell and other programs do without $HOME (a service, env -i):
    // the home directory of the user in the password database.
    const struct passwd *pw = getpwuid(getuid());
    return pw && pw->pw_dir && pw->pw_dir[0] ? pw->pw_dir : NULL;
}

static bool xdg_dir(const char *env, const char *fallback, char *buf, size_t bufsz, bool create) {
    const char *base = getenv(env);
    int n;
    if (base && base[0] == '/') {
        n = snprintf(buf, bufsz, "%s/patzer", base);
    } else {
        const char *home = paths_home();
        if (!home)
            return false;
        n = snprintf(buf, bufsz, "%s/%s/patzer", home, fallback);
    }
    if (n < 0 || (size_t)n >= bufsz)
        return false;
    return !create || make_dirs(buf);
}

bool paths_config_dir(char *buf, size_t bufsz, bool create) {
    return xdg_dir("XDG_CONFIG_HOME", ".config", buf, bufsz, create);
}

bool paths_state_dir(char *buf, size_t bufsz, bool create) {
    return xdg_dir("XDG_STATE_HOME", ".local/state", buf, bufsz, create);
}

bool paths_user_data_dir(char *buf, size_t bufsz, bool create) {
    return xdg_dir("XDG_DATA_HOME", ".local/share", buf, bufsz, create);
}

bool paths_cache_dir(char *buf, size_t bufsz, bool create) {
    return xdg_dir("XDG_CACHE_HOME", ".cache", buf, bufsz, create);
}

static bool in_dir(bool (*dir_fn)(char *, size_t, bool), const char *name, char *buf,
                   size_t bufsz, bool create_dir) {
    char dir[PATH_MAX_LEN];
    if (!dir_fn(dir, sizeof dir, create_dir))
        return false;
    int n = snprintf(buf, bufsz, "%s/%s", dir, name);
    return n >= 0 && (size_t)n < bufsz;
}

bool paths_config_file(const char *name, char *buf, size_t bufsz, bool create_dir) {
    return in_dir(paths_config_dir, name, buf, bufsz, create_dir);
}

bool paths_state_file(const char *name, char *buf, size_t bufsz, bool create_dir) {
    return in_dir(paths_state_dir, name, buf, bufsz, create_dir);
}

bool paths_user_data_file(const char *name, char *buf, size_t bufsz, bool create_dir) {
    return in_dir(paths_user_data_dir, name, buf, bufsz, create_dir);
}

static bool readable(const char *path) { return access(path, R_OK) == 0; }

static bool set_path(char *buf, size_t bufsz, const char *path) {
    int n = snprintf(buf, bufsz, "%s", path);
    if (n >= 0 && (size_t)n < bufsz)
        return true;
    buf[0] = '\0';
    return false;
}

bool paths_data_file(const char *name, const char *env_var, const char *argv0, char *buf,
                     size_t bufsz) {
    if (!buf || !bufsz)
        return false;
    buf[0] = '\0';
    const char *env = env_var ? getenv(env_var) : NULL;
    if (env && *env)
        return set_path(buf, bufsz, env);
    if (argv0 && strchr(argv0, '/')) {
        char copy[PATH_MAX_LEN];
        char candidate[PATH_MAX_LEN];
        snprintf(copy, sizeof copy, "%s", argv0);
        int n = snprintf(candidate, sizeof candidate, "%s/../data/%s", dirname(copy), name);
        if (n > 0 && (size_t)n < sizeof candidate && readable(candidate))
            return set_path(buf, bufsz, candidate);
    }
    char installed[PATH_MAX_LEN];
    int n = snprintf(installed, sizeof installed, "%s/%s", PKGDATADIR, name);
    if (n > 0 && (size_t)n < sizeof installed && readable(installed))
        return set_path(buf, bufsz, installed);
    return false;
}

void paths_find_book(const char *argv0, char *buf, size_t bufsz) {
    paths_data_file("patzer.bin", "PATZER_BOOK", argv0, buf, bufsz);
}

void paths_set_default_book(Engine *engine) {
    char book[PATH_MAX_LEN];
    paths_find_book(saved_argv0, book, sizeof book);
    if (book[0])
        engine_set_option(engine, "BookFile", book, NULL, 0);
}

bool paths_dir_writable(const char *file, char *dir, size_t dirsz) {
    if (snprintf(dir, dirsz, "%s", file) >= (int)dirsz) {
        errno = ENAMETOOLONG;
        return false;
    }
    char *slash = strrchr(dir, '/');
    if (slash == dir)
        slash[1] = '\0'; // a file in /
    else if (slash)
        *slash = '\0';
    else
        snprintf(dir, dirsz, ".");
    // Writing a file there means creating the temporary and renaming it:
    // write and search permission on the directory, on a writable file system.
    return make_dirs(dir) && access(dir, W_OK | X_OK) == 0;
}

// The tests' fault injection (paths_fail_writes): writes left before the
// failures start, and the errno they fail with (0: none).
static int writes_before_failure;
static int injected_errno;

void paths_fail_writes(int after, int errnum) {
    writes_before_failure = after;
    injected_errno = errnum;
}

// Whether this write is one the tests made fail.
static bool injected_failure(void) {
    if (!injected_errno)
        return false;
    if (writes_before_failure > 0) {
        writes_before_failure--;
        return false;
    }
    return true;
}

// "what path: reason", the reason from errno.
static bool fail(char *err, size_t errsz, const char *what, const char *path) {
    return errmsg_set(err, errsz, "%s %s: %s", what, path, strerror(errno));
}

// The file a chain of symbolic links ends at (path itself when it is none,
// or does not exist yet): a rename onto a link would replace the link and
// leave the file it names (a synced folder, dotfiles) as it was. False with
// errno set on a loop or a name too long.
static bool follow_links(const char *path, char *out, size_t outsz) {
    enum { MAX_LINKS = 40 }; // as the kernel's ELOOP limit
    if (snprintf(out, outsz, "%s", path) >= (int)outsz) {
        errno = ENAMETOOLONG;
        return false;
    }
    for (int i = 0; i < MAX_LINKS; i++) {
        struct stat st;
        if (lstat(out, &st) != 0 || !S_ISLNK(st.st_mode))
            return true;
        char target[PATH_MAX_LEN];
        ssize_t n = readlink(out, target, sizeof target - 1);
        if (n < 0)
            return false;
        target[n] = '\0';
        char *slash = strrchr(out, '/');
        // Absolute, or relative to the current directory; else to the link's.
        char *at = target[0] == '/' || !slash ? out : slash + 1;
        size_t room = outsz - (size_t)(at - out);
        int written = snprintf(at, room, "%s", target);
        if (written < 0 || (size_t)written >= room || (size_t)n >= sizeof target - 1) {
            errno = ENAMETOOLONG;
            return false;
        }
    }
    errno = ELOOP;
    return false;
}

// The kernel's own file systems (/proc, /sys) take no new file: a save
// there failed with "cannot create a temporary file: No such file or
// directory". Their name, or NULL for a file system that keeps files.
static const char *kernel_fs(const char *file) {
#ifdef __linux__
    char dir[PATH_MAX_LEN];
    snprintf(dir, sizeof dir, "%s", file);
    struct statfs fs;
    if (statfs(dirname(dir), &fs) != 0)
        return NULL;
    if (fs.f_type == PROC_SUPER_MAGIC)
        return "proc";
    if (fs.f_type == SYSFS_MAGIC)
        return "sysfs";
#else
    (void)file;
#endif
    return NULL;
}

bool paths_write_atomic(const char *path, const char *data, size_t len, char *err, size_t errsz) {
    char tmp[PATH_MAX_LEN + 16], file[PATH_MAX_LEN];
    if (!follow_links(path, file, sizeof file))
        return fail(err, errsz, "cannot write", path);
    // A rename onto a device or a FIFO would replace it (/dev/null, as root).
    // One look at the file serves every question below (a new one: none).
    struct stat target;
    bool exists = stat(file, &target) == 0;
    if (exists && !S_ISREG(target.st_mode))
        return errmsg_set(err, errsz, "cannot write %s: not a regular file", path);
    const char *kernel = kernel_fs(file);
    if (kernel)
        return errmsg_set(err, errsz,
                          "cannot write %s: it is in the kernel's %s file system, where no file "
                          "can be saved",
                          path, kernel);
    // A file made read-only is kept as it is, though the rename needs only
    // the directory's permission; by its mode too, as root may write anything.
    if (exists &&
        ((target.st_mode & (S_IWUSR | S_IWGRP | S_IWOTH)) == 0 || access(file, W_OK) != 0))
        return errmsg_set(err, errsz, "cannot write %s: the file is read-only", path);
    if (snprintf(tmp, sizeof tmp, "%s.tmpXXXXXX", file) >= (int)sizeof tmp) {
        errno = ENAMETOOLONG;
        return fail(err, errsz, "cannot write", path);
    }
    int fd = mkstemp(tmp);
    if (fd < 0)
        return fail(err, errsz, "cannot create a temporary file for", path);
    bool inject = injected_failure();
    size_t done = 0;
    while (done < len || inject) {
        // An injected failure comes after half the data, as on a disk that fills.
        size_t chunk = inject ? (len - done) / 2 : len - done;
        ssize_t n;
        if (inject && (done > 0 || chunk == 0)) {
            errno = injected_errno;
            n = -1;
        } else {
            n = write(fd, data + done, chunk);
        }
        if (n < 0) {
            if (errno == EINTR)
                continue;
            int saved = errno;
            close(fd);
            unlink(tmp);
            errno = saved;
            return fail(err, errsz, "cannot write", path);
        }
        done += (size_t)n;
    }
    // A file replaced keeps its permissions (a private database stays private).
    mode_t mode = exists ? target.st_mode & 07777 : 0644;
    if (fsync(fd) != 0 || fchmod(fd, mode) != 0) {
        int saved = errno;
        close(fd);
        unlink(tmp);
        errno = saved;
        return fail(err, errsz, "cannot write", path);
    }
    if (close(fd) != 0) {
        int saved = errno;
        unlink(tmp);
        errno = saved;
        return fail(err, errsz, "cannot write", path);
    }
    if (rename(tmp, file) != 0) {
        int saved = errno;
        unlink(tmp);
        errno = saved;
        return fail(err, errsz, "cannot replace", path);
    }
    return true;
}

char *paths_read_file(const char *path, size_t max_bytes, size_t *len, char *err, size_t errsz) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        fail(err, errsz, "cannot open", path);
        return NULL;
    }
    struct stat st;
    if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
        fclose(f);
        errmsg_set(err, errsz, "%s is a directory", path);
        return NULL;
    }
    if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) && (size_t)st.st_size > max_bytes) {
        fclose(f);
        errmsg_set(err, errsz, "%s is too large (%lld bytes, the limit is %zu)", path,
                   (long long)st.st_size, max_bytes);
        return NULL;
    }
    char *buf = malloc(max_bytes + 1);
    if (!buf) {
        fclose(f);
        errmsg_set(err, errsz, "out of memory reading %s", path);
        return NULL;
    }
    size_t n = fread(buf, 1, max_bytes + 1, f);
    bool read_error = ferror(f);
    fclose(f);
    if (read_error || n > max_bytes) {
        free(buf);
        errmsg_set(err, errsz, read_error ? "cannot read %s" : "%s is too large", path);
        return NULL;
    }
    if (memchr(buf, '\0', n)) {
        free(buf);
        errmsg_set(err, errsz, "%s is a binary file, not text", path);
        return NULL;
    }
    buf[n] = '\0';
    if (len)
        *len = n;
    return buf;
}

bool paths_looks_binary(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f)
        return false;
    unsigned char buf[4096];
    size_t n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    return memchr(buf, 0, n) != NULL;
}

unsigned paths_hard_links(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode) ? (unsigned)st.st_nlink : 0;
}
