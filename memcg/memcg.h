/* SPDX-License-Identifier: GPL-2.0 */
/*
 * memcg.h - cgroup-v1 memory controller helpers on the libcgroup C API.
 *
 * Create a memcg with a hard limit, move a task into it, read its
 * memory.stat into a struct, remove it.  Every call returns 0 or a negative
 * errno-style code; memcg_strerror() turns the last failure into a message
 * that names the cgroup and what went wrong (for instance that the v1
 * memory hierarchy is not mounted).
 */
#ifndef WSR_MEMCG_H
#define WSR_MEMCG_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#define MEMCG_STAT_MAX 128

struct memcg;

struct memcg_stat {
	int nr;
	struct {
		char key[48];
		uint64_t val;
	} ent[MEMCG_STAT_MAX];
};

/* cgroup_init() with a clear message when the v1 memory controller is missing. */
int memcg_lib_init(void);

/* Create (or adopt) NAME ("a" or "a/b", relative to the memory root). */
struct memcg *memcg_create(const char *name, uint64_t limit_bytes);
/* Remove it; tasks still inside move to the parent.  Frees @cg. */
int memcg_destroy(struct memcg *cg);
/* Free the handle only; the cgroup stays. */
void memcg_release(struct memcg *cg);

const char *memcg_name(const struct memcg *cg);
/* Absolute path of the memcg directory, e.g. /sys/fs/cgroup/memory/x */
const char *memcg_path(const struct memcg *cg);

int memcg_set_limit(struct memcg *cg, uint64_t limit_bytes);
/* Write any memory.* control file through libcgroup. */
int memcg_set_value(struct memcg *cg, const char *file, const char *value);

int memcg_attach_self(struct memcg *cg);
int memcg_attach_pid(struct memcg *cg, pid_t pid);

/* Read a single-number control file such as memory.max_usage_in_bytes. */
int memcg_read_u64(const struct memcg *cg, const char *file, uint64_t *val);
int memcg_read_stat(const struct memcg *cg, struct memcg_stat *st);

/* Look up one memory.stat key; false when the kernel has no such key. */
bool memcg_stat_has(const struct memcg_stat *st, const char *key);
/* Value of a key, 0 when absent (check memcg_stat_has() where it matters). */
uint64_t memcg_stat_get(const struct memcg_stat *st, const char *key);

/* Message for the last failing call in this thread. */
const char *memcg_strerror(void);

#endif
