// SPDX-License-Identifier: GPL-2.0
/*
 * fake_libcgroup.c - the part of libcgroup memcg.c uses, over a plain
 * directory tree, so that memcg.c's create/adopt/destroy and signal
 * cleanup can be tested on the host without touching its cgroups.
 *
 * fake_root is the "memory controller's mount" (a temporary directory);
 * statfs() there reports a cgroup (fake_v2: cgroup2) file system.
 * Writes through cgroup_modify_cgroup() are not stored in the tree (a
 * file would keep rmdir from working) but appended to fake_log as
 * "NAME FILE=VALUE" lines, and kept in memory for later reads; reads
 * fall back to real files in the tree (fixtures).  fake_fail_value makes
 * a write of that value fail with EINVAL, as the kernel does.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>

#include <libcgroup.h>
#include <linux/magic.h>

#include "fake_libcgroup.h"

char fake_root[256];
bool fake_v2;
const char *fake_fail_value;
char fake_log[8192];

static int last_errno;

struct cgroup_controller {
	char file[64];
	char value[64];
	bool set;
};

struct cgroup {
	char name[256];
	struct cgroup_controller ctl;
};

#define STORE_MAX 64
static struct {
	char key[320];
	char value[64];
} store[STORE_MAX];
static int nstore;

static void key_of(char *key, size_t len, const char *name, const char *file)
{
	/* "/" and "" are the root */
	if (!strcmp(name, "/"))
		name = "";
	snprintf(key, len, "%s/%s", name, file);
}

static const char *store_get(const char *name, const char *file)
{
	char key[320];

	key_of(key, sizeof(key), name, file);
	for (int i = 0; i < nstore; i++)
		if (!strcmp(store[i].key, key))
			return store[i].value;
	return NULL;
}

static void store_put(const char *name, const char *file, const char *value)
{
	char key[320];
	int i;

	key_of(key, sizeof(key), name, file);
	for (i = 0; i < nstore && strcmp(store[i].key, key); i++)
		;
	if (i == STORE_MAX)
		abort();
	if (i == nstore)
		nstore++;
	snprintf(store[i].key, sizeof(store[i].key), "%s", key);
	/* cgroup.subtree_control: "+memory" makes "memory" */
	snprintf(store[i].value, sizeof(store[i].value), "%s\n",
		 value[0] == '+' ? value + 1 : value);
}

void fake_reset(void)
{
	nstore = 0;
	fake_log[0] = 0;
	fake_fail_value = NULL;
}

int statfs(const char *path, struct statfs *buf)
{
	(void)path;
	memset(buf, 0, sizeof(*buf));
	buf->f_type = fake_v2 ? CGROUP2_SUPER_MAGIC : CGROUP_SUPER_MAGIC;
	return 0;
}

int cgroup_init(void)
{
	return fake_root[0] ? 0 : ECGROUPNOTMOUNTED;
}

int cgroup_get_subsys_mount_point(const char *controller, char **mount_point)
{
	if (strcmp(controller, "memory"))
		return ECGROUPSUBSYSNOTMOUNTED;
	*mount_point = strdup(fake_root);
	return *mount_point ? 0 : ECGOTHER;
}

struct cgroup *cgroup_new_cgroup(const char *name)
{
	struct cgroup *cg = calloc(1, sizeof(*cg));

	if (cg)
		snprintf(cg->name, sizeof(cg->name), "%s", name);
	return cg;
}

struct cgroup_controller *cgroup_add_controller(struct cgroup *cg, const char *name)
{
	return strcmp(name, "memory") ? NULL : &cg->ctl;
}

struct cgroup_controller *cgroup_get_controller(struct cgroup *cg, const char *name)
{
	return strcmp(name, "memory") ? NULL : &cg->ctl;
}

void cgroup_free(struct cgroup **cg)
{
	free(*cg);
	*cg = NULL;
}

int cgroup_add_value_string(struct cgroup_controller *ctl, const char *file,
			    const char *value)
{
	snprintf(ctl->file, sizeof(ctl->file), "%s", file);
	snprintf(ctl->value, sizeof(ctl->value), "%s", value);
	ctl->set = true;
	return 0;
}

int cgroup_modify_cgroup(struct cgroup *cg)
{
	size_t n = strlen(fake_log);

	if (!cg->ctl.set)
		return 0;
	if (fake_fail_value && !strcmp(cg->ctl.value, fake_fail_value)) {
		last_errno = EINVAL;
		return ECGOTHER;
	}
	snprintf(fake_log + n, sizeof(fake_log) - n, "%s %s=%s\n", cg->name,
		 cg->ctl.file, cg->ctl.value);
	store_put(cg->name, cg->ctl.file, cg->ctl.value);
	return 0;
}

/* Like libcgroup's: the parents too (mkdir -p), and an existing one is fine. */
int cgroup_create_cgroup(struct cgroup *cg, int ignore_ownership)
{
	char path[512];

	(void)ignore_ownership;
	snprintf(path, sizeof(path), "%s/%s", fake_root, cg->name);
	for (char *p = path + strlen(fake_root) + 1;; p++) {
		if (*p && *p != '/')
			continue;
		char c = *p;

		*p = 0;
		if (mkdir(path, 0755) && errno != EEXIST) {
			last_errno = errno;
			return ECGOTHER;
		}
		*p = c;
		if (!c)
			break;
	}
	return cgroup_modify_cgroup(cg);
}

int cgroup_attach_task_pid(struct cgroup *cg, pid_t tid)
{
	size_t n = strlen(fake_log);

	snprintf(fake_log + n, sizeof(fake_log) - n, "%s attach %d\n", cg->name, (int)tid);
	return 0;
}

static FILE *open_file(const char *name, const char *file)
{
	char path[600];

	if (!strcmp(name, "/"))
		name = "";
	snprintf(path, sizeof(path), "%s/%s/%s", fake_root, name, file);
	return fopen(path, "re");
}

int cgroup_read_value_begin(const char *controller, const char *path, char *name,
			    void **handle, char *buffer, int max)
{
	const char *v = store_get(path, name);
	FILE *f;

	(void)controller;
	f = v ? fmemopen((void *)v, strlen(v), "r") : open_file(path, name);
	/* the kernel's cgroup.* files are in every cgroup: empty if not a fixture */
	if (!f && errno == ENOENT && !strncmp(name, "cgroup.", 7)) {
		*handle = fmemopen((void *)"", 1, "r");
		return ECGEOF;
	}
	if (!f) {
		last_errno = errno;
		*handle = NULL;
		return ECGOTHER;
	}
	*handle = f;
	return fgets(buffer, max, f) ? 0 : ECGEOF;
}

int cgroup_read_value_next(void **handle, char *buffer, int max)
{
	return fgets(buffer, max, *handle) ? 0 : ECGEOF;
}

int cgroup_read_value_end(void **handle)
{
	fclose(*handle);
	return 0;
}

static int read_stat(FILE *f, struct cgroup_stat *s)
{
	char line[512], *sp;

	if (!fgets(line, sizeof(line), f))
		return ECGEOF;
	sp = strchr(line, ' ');
	if (!sp)
		return ECGINVAL;
	*sp = 0;
	snprintf(s->name, sizeof(s->name), "%s", line);
	snprintf(s->value, sizeof(s->value), "%s", sp + 1);
	return 0;
}

int cgroup_read_stats_begin(const char *controller, const char *path, void **handle,
			    struct cgroup_stat *s)
{
	FILE *f = open_file(path, "memory.stat");

	(void)controller;
	if (!f)
		return ECGINVAL;
	*handle = f;
	return read_stat(f, s);
}

int cgroup_read_stats_next(void **handle, struct cgroup_stat *s)
{
	return read_stat(*handle, s);
}

int cgroup_read_stats_end(void **handle)
{
	fclose(*handle);
	return 0;
}

int cgroup_get_last_errno(void)
{
	return last_errno;
}

const char *cgroup_strerror(int code)
{
	static char buf[32];

	snprintf(buf, sizeof(buf), "libcgroup error %d", code);
	return buf;
}
