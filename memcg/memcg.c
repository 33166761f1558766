// SPDX-License-Identifier: GPL-2.0
/*
 * memcg.c - cgroup-v1 memory controller helpers on the libcgroup C API.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libcgroup.h>

#include "memcg.h"

#define MEMCG_ROOT "/sys/fs/cgroup/memory"

struct memcg {
	char name[256];
	char path[512];
	struct cgroup *cg;
};

static _Thread_local char errbuf[512];

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

int memcg_lib_init(void)
{
	int ret = cgroup_init();

	if (ret == ECGROUPNOTMOUNTED || ret == ECGROUPSUBSYSNOTMOUNTED)
		return fail(-ENODEV,
			    "libcgroup: the cgroup-v1 memory hierarchy is not mounted at %s (boot with systemd.unified_cgroup_hierarchy=0)",
			    MEMCG_ROOT);
	if (ret)
		return fail(cgerr_to_errno(ret), "cgroup_init: %s", cgerr(ret));
	if (access(MEMCG_ROOT "/memory.limit_in_bytes", F_OK))
		return fail(-ENODEV,
			    "libcgroup: no cgroup-v1 memory controller at %s (boot with systemd.unified_cgroup_hierarchy=0)",
			    MEMCG_ROOT);
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
	snprintf(m->path, sizeof(m->path), MEMCG_ROOT "/%s", name);
	m->cg = cgroup_new_cgroup(name);
	ctl = m->cg ? cgroup_add_controller(m->cg, "memory") : NULL;
	if (!ctl) {
		fail(-ENOMEM, "memcg %s: cannot allocate libcgroup handle", name);
		goto err;
	}
	if (limit_bytes) {
		ret = cgroup_add_value_uint64(ctl, "memory.limit_in_bytes", limit_bytes);
		if (ret) {
			fail(cgerr_to_errno(ret), "memcg %s: %s", name, cgerr(ret));
			goto err;
		}
	}
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
	struct cgroup_controller *ctl;
	struct cgroup *cg;
	int ret;

	cg = new_handle(m->name);
	if (!cg)
		return fail(-ENOMEM, "memcg %s: cannot allocate libcgroup handle", m->name);
	ctl = cgroup_get_controller(cg, "memory");
	ret = cgroup_add_value_string(ctl, file, value);
	if (!ret)
		ret = cgroup_modify_cgroup(cg);
	cgroup_free(&cg);
	if (ret)
		return fail(cgerr_to_errno(ret), "memcg %s: %s=%s: %s",
			    m->name, file, value, cgerr(ret));
	return 0;
}

int memcg_set_limit(struct memcg *m, uint64_t limit_bytes)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%" PRIu64, limit_bytes);
	return memcg_set_value(m, "memory.limit_in_bytes", buf);
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
