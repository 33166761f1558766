// SPDX-License-Identifier: GPL-2.0
/*
 * memcg.c - memory controller helpers on the libcgroup C API, for the
 * cgroup-v1 memory hierarchy and for cgroup v2 (the unified hierarchy).
 *
 * Control files are read and written, and cgroups created, through
 * libcgroup.  A nested name is created one level at a time, each level
 * with cgroup_create_cgroup() once its parent exists, so that a handle
 * knows exactly which levels it created: cgroup_create_cgroup() alone
 * makes missing parents silently and succeeds on an existing cgroup.
 * (A level that another process makes between the existence check and
 * the creation is taken as ours: the names the tests and tools use are
 * their own.)  Removal moves the tasks out and rmdir(2)s, which is also
 * what the signal handler can do, async-signal-safely.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <time.h>
#include <unistd.h>

#include <libcgroup.h>
#include <linux/magic.h>

#include "memcg.h"

/* Where the memory controller usually is, for messages. */
#define MEMCG_V1_ROOT "/sys/fs/cgroup/memory"
#define MEMCG_V2_ROOT "/sys/fs/cgroup"

#define NAME_MAX_LEN	256
#define PATH_MAX_LEN	512

struct memcg {
	char name[NAME_MAX_LEN];
	char path[PATH_MAX_LEN];
	struct cgroup *cg;
	bool created;		/* the leaf is ours: destroy removes it */
	int ncreated;		/* levels created, counted from the leaf up */
	int slot;		/* in the registry, -1 if none */
	unsigned long seq;	/* the slot's sequence number when registered */
};

static _Thread_local char errbuf[512];

/* The memory controller's mount point and mode, from memcg_lib_init(). */
static char memcg_root[256];
static bool memcg_v2;
static bool lib_ready;

static int fail(int ret, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(errbuf, sizeof(errbuf), fmt, ap);
	va_end(ap);
	return ret;
}

/* libcgroup codes (5xxxx) and plain errnos, as one message. */
static const char *cgerr(int ret)
{
	if (ret == ECGOTHER)
		return strerror(cgroup_get_last_errno());
	if (ret >= ECGROUPNOTCOMPILED)
		return cgroup_strerror(ret);
	return strerror(ret < 0 ? -ret : ret);
}

static int cgerr_to_errno(int ret)
{
	switch (ret) {
	case 0:
		return 0;
	case ECGOTHER:
		return -(cgroup_get_last_errno() ?: EIO);
	case ECGROUPNOTMOUNTED:
	case ECGROUPSUBSYSNOTMOUNTED:
		return -ENODEV;
	case ECGROUPNOTEXIST:
		return -ENOENT;
	case ECGINVAL:
	case ECGROUPVALUENOTEXIST:
		return -EINVAL;
	default:
		return -EIO;
	}
}

const char *memcg_strerror(void)
{
	return errbuf[0] ? errbuf : "no error";
}

bool memcg_is_v2(void)
{
	return memcg_v2;
}

/*
 * The registry of memcgs this process created, for the signal handler:
 * fixed storage, absolute paths, and a state word the handler reads
 * atomically.  Slots are taken and given back under reg_lock with the
 * caller's SIGINT/SIGTERM/SIGHUP blocked.
 */
#define REG_MAX 128
enum { REG_FREE, REG_LIVE };

struct reg_slot {
	atomic_int state;
	pid_t owner;			/* the process that created it */
	unsigned long seq;		/* creation order */
	int ncreated;			/* levels of path created, from the leaf up */
	char path[PATH_MAX_LEN];	/* the leaf */
	char outer[PATH_MAX_LEN];	/* cgroup.procs of the level above the created ones */
};

static struct reg_slot reg[REG_MAX];
static unsigned long reg_seq;
static pthread_mutex_t reg_lock = PTHREAD_MUTEX_INITIALIZER;
static char root_procs[PATH_MAX_LEN];	/* the memory root's cgroup.procs */
static volatile sig_atomic_t cleaning;

static const int cleanup_signals[] = { SIGINT, SIGTERM, SIGHUP };

static void block_signals(sigset_t *old)
{
	sigset_t set;

	sigemptyset(&set);
	for (unsigned int i = 0; i < sizeof(cleanup_signals) / sizeof(cleanup_signals[0]); i++)
		sigaddset(&set, cleanup_signals[i]);
	pthread_sigmask(SIG_BLOCK, &set, old);
}

static void restore_signals(const sigset_t *old)
{
	pthread_sigmask(SIG_SETMASK, old, NULL);
}

int memcg_lib_init(void)
{
	char *mnt = NULL, path[512];
	struct statfs sfs;
	int ret = cgroup_init();

	if (ret == ECGROUPNOTMOUNTED || ret == ECGROUPSUBSYSNOTMOUNTED)
		return fail(-ENODEV,
			    "libcgroup: no cgroup hierarchy is mounted (want the cgroup-v1 memory hierarchy at %s or cgroup v2 at %s)",
			    MEMCG_V1_ROOT, MEMCG_V2_ROOT);
	if (ret)
		return fail(cgerr_to_errno(ret), "cgroup_init: %s", cgerr(ret));
	ret = cgroup_get_subsys_mount_point("memory", &mnt);
	if (ret)
		return fail(-ENODEV,
			    "libcgroup: no memory controller is mounted: neither a cgroup-v1 memory hierarchy (%s) nor 'memory' in cgroup v2's %s/cgroup.controllers: %s",
			    MEMCG_V1_ROOT, MEMCG_V2_ROOT, cgerr(ret));
	if (strlen(mnt) >= sizeof(memcg_root) - 1) {
		ret = fail(-ENAMETOOLONG, "libcgroup: memory controller mount point too long: %s", mnt);
		free(mnt);
		return ret;
	}
	snprintf(memcg_root, sizeof(memcg_root), "%s", mnt);
	free(mnt);
	if (statfs(memcg_root, &sfs))
		return fail(-errno, "libcgroup: memory controller at %s: %s",
			    memcg_root, strerror(errno));
	if (sfs.f_type != CGROUP_SUPER_MAGIC && sfs.f_type != CGROUP2_SUPER_MAGIC)
		return fail(-ENODEV, "libcgroup: %s, the memory controller's mount, is not a cgroup file system",
			    memcg_root);
	memcg_v2 = sfs.f_type == CGROUP2_SUPER_MAGIC;
	/* v2's root has no memory.max; libcgroup found "memory" in its controllers */
	snprintf(path, sizeof(path), "%s/%s", memcg_root,
		 memcg_v2 ? "cgroup.subtree_control" : "memory.limit_in_bytes");
	if (access(path, F_OK))
		return fail(-ENODEV, "libcgroup: no cgroup-%s memory controller at %s: %s: %s",
			    memcg_v2 ? "v2" : "v1", memcg_root, path, strerror(errno));
	snprintf(root_procs, sizeof(root_procs), "%s/cgroup.procs", memcg_root);
	lib_ready = true;
	return 0;
}

static int lib_ensure(void)
{
	return lib_ready ? 0 : memcg_lib_init();
}

static struct cgroup *new_handle(const char *name)
{
	struct cgroup *cg = cgroup_new_cgroup(name);

	if (cg && !cgroup_add_controller(cg, "memory")) {
		cgroup_free(&cg);
		return NULL;
	}
	return cg;
}

/* The hard limit: memory.limit_in_bytes on v1, memory.max on v2. */
static const char *limit_file(void)
{
	return memcg_v2 ? "memory.max" : "memory.limit_in_bytes";
}

/* Write FILE of cgroup NAME ("/" for the root) through libcgroup. */
static int set_file(const char *name, const char *file, const char *value)
{
	struct cgroup_controller *ctl;
	struct cgroup *cg;
	int ret;

	cg = new_handle(name);
	if (!cg)
		return fail(-ENOMEM, "memcg %s: cannot allocate libcgroup handle", name);
	ctl = cgroup_get_controller(cg, "memory");
	ret = cgroup_add_value_string(ctl, file, value);
	if (!ret)
		ret = cgroup_modify_cgroup(cg);
	cgroup_free(&cg);
	if (ret)
		return fail(cgerr_to_errno(ret), "memcg %s: %s=%s: %s",
			    name, file, value, cgerr(ret));
	return 0;
}

/*
 * Read the first line of FILE of cgroup NAME into BUF (empty if the file
 * is): 0, or -errno with a message.
 */
static int read_line(const char *name, const char *file, char *buf, int len)
{
	void *handle = NULL;
	int ret;

	buf[0] = 0;
	ret = cgroup_read_value_begin("memory", name, (char *)file, &handle, buf, len);
	if (handle)
		cgroup_read_value_end(&handle);
	if (ret == ECGEOF) {
		buf[0] = 0;
		return 0;
	}
	if (ret)
		return fail(cgerr_to_errno(ret), "memcg %s: read %s: %s", name, file, cgerr(ret));
	return 0;
}

/*
 * cgroup v2: a cgroup's memory.* files exist only if its parent has
 * "memory" in cgroup.subtree_control.  Enable it in PARENT ("/" for the
 * root) unless it is there already.  A parent that existed before
 * (!CREATED) and holds processes is not written to: v2 allows controllers
 * only above leaves, and the write would fail with EBUSY.
 */
static int enable_memory(const char *parent, bool created)
{
	char buf[256], *tok, *save = NULL;
	int ret;

	ret = read_line(parent, "cgroup.subtree_control", buf, sizeof(buf));
	if (ret)
		return ret;
	for (tok = strtok_r(buf, "\n ", &save); tok; tok = strtok_r(NULL, "\n ", &save))
		if (!strcmp(tok, "memory"))
			return 0;
	if (!created && strcmp(parent, "/")) {
		ret = read_line(parent, "cgroup.procs", buf, sizeof(buf));
		if (ret)
			return ret;
		if (buf[0])
			return fail(-EBUSY, "memcg %s: cannot enable the memory controller for its children: it has processes of its own (cgroup v2 allows controllers only above leaves); it existed before, so it is left as it is",
				    parent);
	}
	ret = set_file(parent, "cgroup.subtree_control", "+memory");
	if (ret == -EBUSY)
		fail(ret, "memcg %s: cannot enable the memory controller for its children: it has processes of its own (cgroup v2 allows controllers only above leaves)",
		     parent);
	return ret;
}

/* "a", "a/b": no empty, "." or ".." components, no leading or trailing '/'. */
static bool name_ok(const char *name)
{
	const char *p = name;

	if (!name || !*name || strlen(name) >= NAME_MAX_LEN)
		return false;
	for (;;) {
		size_t n = strcspn(p, "/");

		if (!n || (n == 1 && p[0] == '.') || (n == 2 && p[0] == '.' && p[1] == '.'))
			return false;
		if (!p[n])
			return true;
		p += n + 1;
	}
}

static int check_name(const char *name)
{
	if (!name_ok(name))
		return fail(-EINVAL, "memcg: bad cgroup name '%s' (want \"a\" or \"a/b\" below the memory root: no leading '/', no empty, '.' or '..' parts, under %d characters)",
			    name ? name : "", NAME_MAX_LEN);
	return 0;
}

int memcg_exists(const char *name)
{
	char path[PATH_MAX_LEN];
	struct stat st;
	int ret = check_name(name) ?: lib_ensure();

	if (ret)
		return ret;
	if (snprintf(path, sizeof(path), "%s/%s", memcg_root, name) >= (int)sizeof(path))
		return fail(-ENAMETOOLONG, "memcg %s: path too long", name);
	if (!stat(path, &st))
		return S_ISDIR(st.st_mode) ? 1 :
			fail(-ENOTDIR, "memcg %s: %s is not a directory", name, path);
	if (errno == ENOENT)
		return 0;
	return fail(-errno, "memcg %s: %s: %s", name, path, strerror(errno));
}

/*
 * Async-signal-safe helpers for removing what was created: plain
 * system calls on absolute paths, no stdio, no allocation, no libcgroup.
 */

/* DST = A + B, truncated to LEN; false if it did not fit. */
static bool path_join(char *dst, size_t len, const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);

	if (la + lb + 1 > len)
		return false;
	memcpy(dst, a, la);
	memcpy(dst + la, b, lb + 1);
	return true;
}

static bool write_pid(int fd, pid_t pid)
{
	char buf[24], *p = buf + sizeof(buf);
	unsigned long v = (unsigned long)pid;

	do {
		*--p = '0' + v % 10;
		v /= 10;
	} while (v);
	return write(fd, p, buf + sizeof(buf) - p) >= 0;
}

/*
 * Move the processes in DIR (all of them, or only ONLY if it is not 0)
 * to the cgroup.procs file OUTER, or to the root's where OUTER takes
 * none (v2: a parent with controllers enabled holds no processes).
 */
static void move_tasks(const char *dir, const char *outer, pid_t only)
{
	char file[PATH_MAX_LEN], buf[512];
	int in, to = -1, to_root = -1;
	unsigned long pid = 0;
	bool digits = false;
	ssize_t n;

	if (!path_join(file, sizeof(file), dir, "/cgroup.procs"))
		return;
	in = open(file, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return;
	while ((n = read(in, buf, sizeof(buf))) > 0) {
		for (ssize_t i = 0; i < n; i++) {
			if (buf[i] >= '0' && buf[i] <= '9') {
				pid = pid * 10 + (buf[i] - '0');
				digits = true;
				continue;
			}
			if (!digits)
				continue;
			if (!only || (pid_t)pid == only) {
				if (to < 0 && outer[0])
					to = open(outer, O_WRONLY | O_CLOEXEC);
				if (to < 0 || !write_pid(to, pid)) {
					if (to_root < 0 && root_procs[0])
						to_root = open(root_procs, O_WRONLY | O_CLOEXEC);
					if (to_root >= 0)
						write_pid(to_root, pid);
				}
			}
			pid = 0;
			digits = false;
		}
	}
	close(in);
	if (to >= 0)
		close(to);
	if (to_root >= 0)
		close(to_root);
}

static void pause_ms(long ms)
{
	struct timespec ts = { 0, ms * 1000000L };

	nanosleep(&ts, NULL);
}

/*
 * Remove the NCREATED levels of LEAF, the leaf first, moving their tasks
 * to OUTER first.  In the process that created them (OWNER); any other
 * (a forked child) moves only itself out.  The leaf is retried while
 * exiting tasks keep it busy; a created parent that is busy (others put
 * tasks or cgroups in it) stays.  With REPORT (not in a signal handler)
 * a failure gets a message; 0 or -errno for the leaf.
 */
static int remove_levels(const char *leaf, int ncreated, const char *outer,
			 pid_t owner, bool report)
{
	char path[PATH_MAX_LEN];
	pid_t me = getpid();
	int ret = 0;

	if (!path_join(path, sizeof(path), leaf, ""))
		return -ENAMETOOLONG;
	for (int lvl = 0; lvl < ncreated; lvl++) {
		int tries = lvl ? 1 : 200, err = 0;

		if (owner != me) {
			move_tasks(path, outer, me);
		} else {
			for (int t = 0; t < tries; t++) {
				/* a created parent's tasks are someone else's now: it stays */
				if (!lvl)
					move_tasks(path, outer, 0);
				err = rmdir(path) && errno != ENOENT ? errno : 0;
				if (err != EBUSY)
					break;
				if (t + 1 < tries)
					pause_ms(5);
			}
			if (err && !lvl) {
				ret = -err;
				if (report && err == EBUSY)
					fail(ret, "cannot remove %s: still busy after moving its tasks out for a second (a child cgroup inside it, or tasks that keep coming back)",
					     path);
				else if (report)
					fail(ret, "cannot remove %s: %s", path, strerror(err));
				break;
			}
			if (err == EBUSY || err == ENOTEMPTY)
				break;		/* a parent others use now: it stays */
			if (err) {
				if (report)
					fail(-err, "cannot remove %s (created with it): %s",
					     path, strerror(err));
				ret = -err;
				break;
			}
		}
		/* up one level */
		for (size_t i = strlen(path); i > 0; i--) {
			if (path[i - 1] == '/') {
				path[i - 1] = 0;
				break;
			}
		}
	}
	return ret;
}

static int reg_add(struct memcg *m)
{
	size_t cut = strlen(m->path);
	int ret = -ENOSPC;

	/* the level above the created ones: NCREATED components off the leaf */
	for (int k = 0; k < m->ncreated; k++)
		while (cut > 0 && m->path[--cut] != '/')
			;
	pthread_mutex_lock(&reg_lock);
	for (int i = 0; i < REG_MAX; i++) {
		struct reg_slot *s = &reg[i];

		if (atomic_load(&s->state) != REG_FREE)
			continue;
		s->owner = getpid();
		s->seq = ++reg_seq;
		s->ncreated = m->ncreated;
		memcpy(s->path, m->path, sizeof(s->path));
		memcpy(s->outer, m->path, cut);
		path_join(s->outer + cut, sizeof(s->outer) - cut, "/cgroup.procs", "");
		atomic_store(&s->state, REG_LIVE);
		m->slot = i;
		m->seq = s->seq;
		ret = 0;
		break;
	}
	pthread_mutex_unlock(&reg_lock);
	if (ret)
		return fail(ret, "memcg %s: this process holds %d memcgs it created already (the most it can remove on a signal)",
			    m->name, REG_MAX);
	return 0;
}

static void reg_del(struct memcg *m)
{
	if (m->slot < 0)
		return;
	pthread_mutex_lock(&reg_lock);
	if (reg[m->slot].seq == m->seq)
		atomic_store(&reg[m->slot].state, REG_FREE);
	pthread_mutex_unlock(&reg_lock);
	m->slot = -1;
}

/* Remove every live registered memcg, newest first (async-signal-safe). */
static void sweep(bool from_signal)
{
	unsigned long below = ~0UL;
	pid_t me = getpid();

	for (;;) {
		struct reg_slot *next = NULL;

		for (int i = 0; i < REG_MAX; i++) {
			struct reg_slot *s = &reg[i];

			if (atomic_load(&s->state) == REG_LIVE && s->seq < below &&
			    (!next || s->seq > next->seq))
				next = s;
		}
		if (!next)
			return;
		below = next->seq;
		if (!from_signal && next->owner != me)
			continue;
		remove_levels(next->path, next->ncreated, next->outer, next->owner, false);
		if (next->owner == me)
			atomic_store(&next->state, REG_FREE);
	}
}

void memcg_remove_created(void)
{
	sigset_t old;

	block_signals(&old);
	pthread_mutex_lock(&reg_lock);
	sweep(false);
	pthread_mutex_unlock(&reg_lock);
	restore_signals(&old);
}

static void on_signal(int sig)
{
	struct sigaction dfl = { .sa_handler = SIG_DFL };
	int saved = errno;

	if (!cleaning) {
		cleaning = 1;
		sweep(true);
	}
	sigemptyset(&dfl.sa_mask);
	sigaction(sig, &dfl, NULL);
	/* pending until the handler returns, then fatal: the default action */
	raise(sig);
	errno = saved;
}

int memcg_cleanup_on_signal(void)
{
	struct sigaction sa = { .sa_handler = on_signal }, old;

	sigemptyset(&sa.sa_mask);
	for (unsigned int i = 0; i < sizeof(cleanup_signals) / sizeof(cleanup_signals[0]); i++)
		sigaddset(&sa.sa_mask, cleanup_signals[i]);
	for (unsigned int i = 0; i < sizeof(cleanup_signals) / sizeof(cleanup_signals[0]); i++) {
		int sig = cleanup_signals[i];

		if (sigaction(sig, NULL, &old))
			return fail(-errno, "memcg: sigaction(%s): %s", strsignal(sig), strerror(errno));
		if (old.sa_handler == SIG_IGN)
			continue;	/* nohup, or a background job: stays ignored */
		if (sigaction(sig, &sa, NULL))
			return fail(-errno, "memcg: sigaction(%s): %s", strsignal(sig), strerror(errno));
	}
	return 0;
}

/* errno from the message's code; the handle calls return NULL */
static void *fail_null(int ret)
{
	errno = ret < 0 ? -ret : EIO;
	return NULL;
}

/* A handle for NAME, or NULL with errno set and a message. */
static struct memcg *new_memcg(const char *name)
{
	struct memcg *m = calloc(1, sizeof(*m));

	if (!m)
		return fail_null(fail(-ENOMEM, "memcg: out of memory"));
	m->slot = -1;
	snprintf(m->name, sizeof(m->name), "%s", name);
	if (snprintf(m->path, sizeof(m->path), "%s/%s", memcg_root, name) >= (int)sizeof(m->path)) {
		free(m);
		return fail_null(fail(-ENAMETOOLONG, "memcg %s: path too long", name));
	}
	m->cg = new_handle(name);
	if (!m->cg) {
		free(m);
		return fail_null(fail(-ENOMEM, "memcg %s: cannot allocate libcgroup handle", name));
	}
	return m;
}

static void free_memcg(struct memcg *m)
{
	if (m->cg)
		cgroup_free(&m->cg);
	free(m);
}

struct memcg *memcg_adopt(const char *name)
{
	int ret;

	/* the root: global reclaim's files (memory.refault_histogram) */
	if (name && !strcmp(name, "/")) {
		struct memcg *m;

		ret = lib_ensure();
		if (ret)
			return fail_null(ret);
		m = new_memcg("/");
		if (m)
			snprintf(m->path, sizeof(m->path), "%s", memcg_root);
		return m;
	}
	ret = memcg_exists(name);

	if (ret < 0)
		return fail_null(ret);
	if (!ret)
		return fail_null(fail(-ENOENT, "memcg %s: does not exist (%s/%s): nothing to adopt",
				      name, memcg_root, name));
	return new_memcg(name);
}

/* Create PREFIX, whose parent exists, through libcgroup. */
static int create_level(const char *name, const char *prefix)
{
	struct cgroup *cg = new_handle(prefix);
	int ret;

	if (!cg)
		return fail(-ENOMEM, "memcg %s: cannot allocate libcgroup handle", name);
	ret = cgroup_create_cgroup(cg, 0);
	cgroup_free(&cg);
	if (ret)
		return fail(cgerr_to_errno(ret), "memcg %s: create %s: %s%s", name, prefix,
			    cgerr(ret), cgerr_to_errno(ret) == -EACCES || cgerr_to_errno(ret) == -EPERM ?
			    " (creating cgroups takes root, or a delegated subtree)" : "");
	return 0;
}

/* Make the missing levels of M's path; the created ones are a suffix. */
static int make_levels(struct memcg *m)
{
	char prefix[NAME_MAX_LEN], path[PATH_MAX_LEN];
	const char *name = m->name;
	bool above_created = false;
	struct stat st;
	int ret;

	for (const char *p = name;; p++) {
		if (*p != '/' && *p)
			continue;
		snprintf(prefix, sizeof(prefix), "%.*s", (int)(p - name), name);
		snprintf(path, sizeof(path), "%s/%s", memcg_root, prefix);
		if (memcg_v2) {
			char parent[NAME_MAX_LEN];
			const char *slash = strrchr(prefix, '/');

			if (slash)
				snprintf(parent, sizeof(parent), "%.*s", (int)(slash - prefix), prefix);
			else
				snprintf(parent, sizeof(parent), "/");
			ret = enable_memory(parent, above_created);
			if (ret)
				return ret;
		}
		if (stat(path, &st) && errno == ENOENT) {
			ret = create_level(name, prefix);
			if (ret)
				return ret;
			above_created = true;
			m->ncreated++;
		} else if (!above_created && *p) {
			/* a parent that exists: not ours */
		} else {
			return fail(-EEXIST, "memcg %s: %s appeared while it was being created",
				    name, path);
		}
		if (!*p)
			return 0;
	}
}

struct memcg *memcg_create_flags(const char *name, uint64_t limit_bytes,
				 unsigned int flags)
{
	struct memcg *m;
	sigset_t old;
	int ret;

	ret = memcg_exists(name);
	if (ret < 0)
		return fail_null(ret);
	if (ret) {
		if (flags & MEMCG_ADOPT)
			return memcg_adopt(name);
		return fail_null(fail(-EEXIST, "memcg %s: already exists (%s/%s): refusing to use or remove a memcg this process did not create (adopt it explicitly, or remove it first)",
				      name, memcg_root, name));
	}
	m = new_memcg(name);
	if (!m)
		return NULL;
	m->created = true;
	/* a signal now would find the levels made but not yet registered */
	block_signals(&old);
	ret = make_levels(m);
	if (ret == -EEXIST && !m->ncreated && (flags & MEMCG_ADOPT)) {
		/* another process made it since memcg_exists(): adopt, as asked */
		restore_signals(&old);
		m->created = false;
		return m;
	}
	if (!ret)
		ret = reg_add(m);
	if (!ret && limit_bytes) {
		char buf[32];

		snprintf(buf, sizeof(buf), "%" PRIu64, limit_bytes);
		ret = set_file(name, limit_file(), buf);
	}
	if (ret) {
		/* keep the message: undo quietly */
		remove_levels(m->path, m->ncreated, "", getpid(), false);
		reg_del(m);
		restore_signals(&old);
		free_memcg(m);
		return fail_null(ret);
	}
	restore_signals(&old);
	return m;
}

struct memcg *memcg_create(const char *name, uint64_t limit_bytes)
{
	return memcg_create_flags(name, limit_bytes, 0);
}

bool memcg_created(const struct memcg *m)
{
	return m->created;
}

void memcg_release(struct memcg *m)
{
	if (!m)
		return;
	reg_del(m);
	free_memcg(m);
}

int memcg_destroy(struct memcg *m)
{
	sigset_t old;
	char outer[PATH_MAX_LEN] = "";
	int ret;

	if (!m)
		return 0;
	if (!m->created) {
		memcg_release(m);
		return 0;
	}
	block_signals(&old);
	if (m->slot >= 0 && reg[m->slot].seq == m->seq)
		memcpy(outer, reg[m->slot].outer, sizeof(outer));
	ret = remove_levels(m->path, m->ncreated, outer, getpid(), true);
	if (ret) {
		char why[sizeof(errbuf)];

		snprintf(why, sizeof(why), "%s", memcg_strerror());
		fail(ret, "memcg %s: delete: %s", m->name, why);
	}
	reg_del(m);
	restore_signals(&old);
	free_memcg(m);
	return ret;
}

const char *memcg_name(const struct memcg *m)
{
	return m->name;
}

const char *memcg_path(const struct memcg *m)
{
	return m->path;
}

int memcg_set_value(struct memcg *m, const char *file, const char *value)
{
	return set_file(m->name, file, value);
}

/* On v2, UINT64_MAX is "max": no limit. */
static int set_bytes(struct memcg *m, const char *file, uint64_t bytes)
{
	char buf[32];

	if (memcg_v2 && bytes == UINT64_MAX)
		snprintf(buf, sizeof(buf), "max");
	else
		snprintf(buf, sizeof(buf), "%" PRIu64, bytes);
	return memcg_set_value(m, file, buf);
}

int memcg_set_limit(struct memcg *m, uint64_t limit_bytes)
{
	return set_bytes(m, limit_file(), limit_bytes);
}

int memcg_set_high(struct memcg *m, uint64_t bytes)
{
	if (!memcg_v2)
		return fail(-EOPNOTSUPP, "memcg %s: memory.high is cgroup v2's; this is cgroup v1",
			    m->name);
	return set_bytes(m, "memory.high", bytes);
}

int memcg_attach_pid(struct memcg *m, pid_t pid)
{
	int ret = cgroup_attach_task_pid(m->cg, pid);

	if (ret)
		return fail(cgerr_to_errno(ret), "memcg %s: attach %d: %s",
			    m->name, (int)pid, cgerr(ret));
	return 0;
}

int memcg_attach_self(struct memcg *m)
{
	return memcg_attach_pid(m, getpid());
}

int memcg_read_u64(const struct memcg *m, const char *file, uint64_t *val)
{
	char buf[64], *end;
	unsigned long long v;
	int ret;

	ret = read_line(m->name, file, buf, sizeof(buf));
	if (ret)
		return ret;
	buf[strcspn(buf, "\n")] = 0;
	if (!buf[0])
		return fail(-ENODATA, "memcg %s: %s is empty", m->name, file);
	/* v2 limits read "max" when there is none */
	if (!strcmp(buf, "max")) {
		*val = UINT64_MAX;
		return 0;
	}
	errno = 0;
	v = strtoull(buf, &end, 10);
	if (buf[0] < '0' || buf[0] > '9' || errno || *end)
		return fail(-EINVAL, "memcg %s: %s: not a number: '%s'", m->name, file, buf);
	*val = v;
	return 0;
}

/* One histogram line: "<bound> <pages>", "inf <pages>", either total_. */
static int hist_line(const char *name, char *line, struct memcg_hist *h)
{
	bool total = !strncmp(line, "total_", 6);
	unsigned long long bound, v;
	char *p = total ? line + 6 : line, *end;
	int i;

	line[strcspn(line, "\n")] = 0;
	if (!strncmp(p, "inf ", 4)) {
		bound = UINT64_MAX;
		p += 3;
	} else {
		errno = 0;
		bound = strtoull(p, &end, 10);
		if (p[0] < '0' || p[0] > '9' || errno || *end != ' ')
			goto bad;
		p = end;
	}
	p++;
	errno = 0;
	v = strtoull(p, &end, 10);
	if (p[0] < '0' || p[0] > '9' || errno || *end)
		goto bad;

	if (!total) {
		if (h->nr == MEMCG_HIST_MAX)
			return fail(-E2BIG, "memcg %s: memory.refault_histogram has more than %d buckets (MEMCG_HIST_MAX)",
				    name, MEMCG_HIST_MAX);
		if (h->nr && bound <= h->bound[h->nr - 1])
			goto bad;
		h->bound[h->nr] = bound;
		h->local[h->nr++] = v;
		return 0;
	}
	for (i = 0; i < h->nr; i++) {
		if (h->bound[i] == bound) {
			h->total[i] = v;
			return 0;
		}
	}
bad:
	return fail(-EINVAL, "memcg %s: memory.refault_histogram: bad line '%s'", name, line);
}

int memcg_read_hist(const struct memcg *m, struct memcg_hist *h)
{
	const char *file = "memory.refault_histogram";
	char line[128];
	void *handle = NULL;
	int ret, err = 0, n = 0;

	memset(h, 0, sizeof(*h));
	ret = cgroup_read_value_begin("memory", m->name, (char *)file, &handle,
				      line, sizeof(line));
	while (!ret && !err) {
		err = hist_line(m->name, line, h);
		n++;
		ret = cgroup_read_value_next(&handle, line, sizeof(line));
	}
	if (handle)
		cgroup_read_value_end(&handle);
	if (err) {
		memset(h, 0, sizeof(*h));
		return err;
	}
	if (ret != ECGEOF) {
		err = cgerr_to_errno(ret);
		if (err == -ENOENT || err == -EINVAL)
			return fail(-ENOENT, "memcg %s: this kernel has no memory.refault_histogram (it comes with the series' refault histogram patch)",
				    m->name);
		return fail(err, "memcg %s: read %s: %s", m->name, file, cgerr(ret));
	}
	if (!h->nr || n != 2 * h->nr || h->bound[h->nr - 1] != UINT64_MAX) {
		int nr = h->nr;

		memset(h, 0, sizeof(*h));
		return fail(-EINVAL, "memcg %s: memory.refault_histogram: %d lines for %d buckets (want a total_ line for each), or no 'inf' bucket",
			    m->name, n, nr);
	}
	return 0;
}

int memcg_reset_hist(struct memcg *m)
{
	return set_file(m->name, "memory.refault_histogram", "0");
}

uint64_t memcg_hist_sum(const struct memcg_hist *h, bool total)
{
	uint64_t n = 0;

	for (int i = 0; i < h->nr; i++)
		n += total ? h->total[i] : h->local[i];
	return n;
}

int memcg_hist_sub(struct memcg_hist *h, const struct memcg_hist *a,
		   const struct memcg_hist *b)
{
	int i;

	if (a->nr != b->nr)
		return fail(-EINVAL, "refault histograms of %d and %d buckets", a->nr, b->nr);
	for (i = 0; i < a->nr; i++) {
		if (a->bound[i] != b->bound[i])
			return fail(-EINVAL, "refault histograms with other buckets");
	}
	h->nr = a->nr;
	for (i = 0; i < a->nr; i++) {
		h->bound[i] = a->bound[i];
		/* a reset in between: the later reading is the interval's */
		h->local[i] = a->local[i] >= b->local[i] ? a->local[i] - b->local[i] : a->local[i];
		h->total[i] = a->total[i] >= b->total[i] ? a->total[i] - b->total[i] : a->total[i];
	}
	return 0;
}

int memcg_read_stat(const struct memcg *m, struct memcg_stat *st)
{
	struct cgroup_stat s;
	void *handle = NULL;
	bool opened;
	int ret, err = 0;

	st->nr = 0;
	ret = cgroup_read_stats_begin("memory", m->name, &handle, &s);
	opened = handle;
	while (!ret) {
		size_t n = strlen(s.name);
		unsigned long long v;
		char *end;

		if (st->nr == MEMCG_STAT_MAX) {
			err = fail(-E2BIG, "memcg %s: memory.stat has more than %d keys, the most struct memcg_stat holds (MEMCG_STAT_MAX in memcg.h): raise it",
				   m->name, MEMCG_STAT_MAX);
			break;
		}
		if (n >= sizeof(st->ent[0].key)) {
			err = fail(-ENAMETOOLONG, "memcg %s: memory.stat key '%s' is longer than struct memcg_stat holds (%zu characters)",
				   m->name, s.name, sizeof(st->ent[0].key) - 1);
			break;
		}
		errno = 0;
		v = strtoull(s.value, &end, 10);
		if (s.value[0] < '0' || s.value[0] > '9' || errno || (*end && *end != '\n')) {
			s.value[strcspn(s.value, "\n")] = 0;
			err = fail(-EINVAL, "memcg %s: memory.stat %s: not a number: '%s'",
				   m->name, s.name, s.value);
			break;
		}
		memcpy(st->ent[st->nr].key, s.name, n + 1);
		st->ent[st->nr].val = v;
		st->nr++;
		ret = cgroup_read_stats_next(&handle, &s);
	}
	if (handle)
		cgroup_read_stats_end(&handle);
	if (err)
		return err;
	if (ret != ECGEOF) {
		char path[PATH_MAX_LEN + 16];

		/* libcgroup says ECGINVAL for a memory.stat it cannot open */
		snprintf(path, sizeof(path), "%s/memory.stat", m->path);
		if (!opened && access(path, R_OK))
			return fail(-errno, "memcg %s: %s: %s", m->name, path, strerror(errno));
		return fail(cgerr_to_errno(ret), "memcg %s: memory.stat: %s",
			    m->name, cgerr(ret));
	}
	if (!st->nr)
		return fail(-EINVAL, "memcg %s: memory.stat is empty", m->name);
	return 0;
}

bool memcg_stat_has(const struct memcg_stat *st, const char *key)
{
	for (int i = 0; i < st->nr; i++)
		if (!strcmp(st->ent[i].key, key))
			return true;
	return false;
}

uint64_t memcg_stat_get(const struct memcg_stat *st, const char *key)
{
	for (int i = 0; i < st->nr; i++)
		if (!strcmp(st->ent[i].key, key))
			return st->ent[i].val;
	return 0;
}

uint64_t memcg_stat_hier(const struct memcg_stat *st, const char *key)
{
	char total[64];

	if (memcg_v2)
		return memcg_stat_get(st, key);
	snprintf(total, sizeof(total), "total_%s", key);
	return memcg_stat_get(st, total);
}
