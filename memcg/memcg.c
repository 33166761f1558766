// SPDX-License-Identifier: GPL-2.0
/*
 * memcg.c - memory controller helpers on the libcgroup C API, for the
 * cgroup-v1 memory hierarchy and for cgroup v2 (the unified hierarchy).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <libcgroup.h>
#include <linux/magic.h>

#include "memcg.h"

/* Where the memory controller usually is, for messages. */
#define MEMCG_V1_ROOT "/sys/fs/cgroup/memory"
#define MEMCG_V2_ROOT "/sys/fs/cgroup"

struct memcg {
	char name[256];
	char path[512];
	struct cgroup *cg;
};

static _Thread_local char errbuf[512];

/* The memory controller's mount point and mode, from memcg_lib_init(). */
static char memcg_root[256] = MEMCG_V1_ROOT;
static bool memcg_v2;

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
			    "libcgroup: no memory controller: neither a cgroup-v1 memory hierarchy (%s) nor 'memory' in cgroup v2's %s/cgroup.controllers: %s",
			    MEMCG_V1_ROOT, MEMCG_V2_ROOT, cgerr(ret));
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
	return 0;
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
 * cgroup v2: a cgroup's memory.* files exist only if its parent has
 * "memory" in cgroup.subtree_control.  Enable it in PARENT ("/" for the
 * root, where systemd normally has done so) unless it is there already;
 * a parent that does not exist yet is left to cgroup_create_cgroup(),
 * which enables the controller in every cgroup it creates on the way.
 */
static int enable_memory(const char *parent)
{
	char buf[256], *tok, *save = NULL;
	void *handle = NULL;
	int ret;

	ret = cgroup_read_value_begin("memory", parent, "cgroup.subtree_control",
				      &handle, buf, sizeof(buf));
	if (handle)
		cgroup_read_value_end(&handle);
	if (ret == ECGOTHER && cgroup_get_last_errno() == ENOENT)
		return 0;
	if (ret && ret != ECGEOF)
		return fail(cgerr_to_errno(ret), "memcg %s: read cgroup.subtree_control: %s",
			    parent, cgerr(ret));
	for (tok = ret ? NULL : strtok_r(buf, "\n ", &save); tok;
	     tok = strtok_r(NULL, "\n ", &save))
		if (!strcmp(tok, "memory"))
			return 0;
	ret = set_file(parent, "cgroup.subtree_control", "+memory");
	if (ret == -EBUSY)
		fail(ret, "memcg %s: cannot enable the memory controller for its children: it has processes of its own (cgroup v2 allows controllers only above leaves)",
		     parent);
	return ret;
}

/* cgroup v2: enable memory in the root and every parent of NAME. */
static int enable_memory_above(const char *name)
{
	char parent[256];
	int ret = enable_memory("/");

	for (const char *p = strchr(name, '/'); !ret && p; p = strchr(p + 1, '/')) {
		snprintf(parent, sizeof(parent), "%.*s", (int)(p - name), name);
		ret = enable_memory(parent);
	}
	return ret;
}

struct memcg *memcg_create(const char *name, uint64_t limit_bytes)
{
	struct cgroup_controller *ctl;
	struct memcg *m;
	int ret;

	if (!name || !*name || strstr(name, "..") || name[0] == '/') {
		fail(-EINVAL, "memcg: bad cgroup name '%s'", name ? name : "");
		errno = EINVAL;
		return NULL;
	}
	m = calloc(1, sizeof(*m));
	if (!m) {
		fail(-ENOMEM, "memcg: out of memory");
		return NULL;
	}
	snprintf(m->name, sizeof(m->name), "%s", name);
	snprintf(m->path, sizeof(m->path), "%s/%s", memcg_root, name);
	m->cg = cgroup_new_cgroup(name);
	ctl = m->cg ? cgroup_add_controller(m->cg, "memory") : NULL;
	if (!ctl) {
		fail(-ENOMEM, "memcg %s: cannot allocate libcgroup handle", name);
		goto err;
	}
	if (limit_bytes) {
		ret = cgroup_add_value_uint64(ctl, limit_file(), limit_bytes);
		if (ret) {
			fail(cgerr_to_errno(ret), "memcg %s: %s", name, cgerr(ret));
			goto err;
		}
	}
	if (memcg_v2 && enable_memory_above(name))
		goto err;
	ret = cgroup_create_cgroup(m->cg, 0);
	if (ret) {
		fail(cgerr_to_errno(ret), "memcg %s: create: %s", name, cgerr(ret));
		goto err;
	}
	return m;
err:
	if (m->cg)
		cgroup_free(&m->cg);
	free(m);
	errno = EIO;
	return NULL;
}

void memcg_release(struct memcg *m)
{
	if (!m)
		return;
	cgroup_free(&m->cg);
	free(m);
}

int memcg_destroy(struct memcg *m)
{
	int ret;

	if (!m)
		return 0;
	/* a fresh handle: cgroup_delete_cgroup walks every controller it holds */
	cgroup_free(&m->cg);
	m->cg = new_handle(m->name);
	ret = m->cg ? cgroup_delete_cgroup(m->cg, 1) : ECGFAIL;
	if (ret)
		fail(cgerr_to_errno(ret), "memcg %s: delete: %s", m->name, cgerr(ret));
	memcg_release(m);
	return ret ? cgerr_to_errno(ret) : 0;
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
	void *handle = NULL;
	int ret;

	ret = cgroup_read_value_begin("memory", m->name, (char *)file, &handle,
				      buf, sizeof(buf));
	if (handle)
		cgroup_read_value_end(&handle);
	if (ret && ret != ECGEOF)
		return fail(cgerr_to_errno(ret), "memcg %s: read %s: %s",
			    m->name, file, cgerr(ret));
	/* v2 limits read "max" when there is none */
	if (!ret && (!strcmp(buf, "max") || !strcmp(buf, "max\n"))) {
		*val = UINT64_MAX;
		return 0;
	}
	errno = 0;
	*val = strtoull(buf, &end, 10);
	if (ret == ECGEOF || errno || end == buf)
		return fail(-EINVAL, "memcg %s: %s: not a number: '%s'",
			    m->name, file, ret == ECGEOF ? "" : buf);
	return 0;
}

int memcg_read_stat(const struct memcg *m, struct memcg_stat *st)
{
	struct cgroup_stat s;
	void *handle = NULL;
	int ret;

	st->nr = 0;
	ret = cgroup_read_stats_begin("memory", m->name, &handle, &s);
	while (!ret) {
		if (st->nr < MEMCG_STAT_MAX) {
			size_t n = strnlen(s.name, sizeof(st->ent[0].key) - 1);

			memcpy(st->ent[st->nr].key, s.name, n);
			st->ent[st->nr].key[n] = 0;
			st->ent[st->nr].val = strtoull(s.value, NULL, 10);
			st->nr++;
		}
		ret = cgroup_read_stats_next(&handle, &s);
	}
	if (handle)
		cgroup_read_stats_end(&handle);
	if (ret != ECGEOF)
		return fail(cgerr_to_errno(ret), "memcg %s: memory.stat: %s",
			    m->name, cgerr(ret));
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
