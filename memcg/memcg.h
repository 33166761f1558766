/* SPDX-License-Identifier: GPL-2.0 */
/*
 * memcg.h - memory controller helpers on the libcgroup C API, for the
 * cgroup-v1 memory hierarchy and for cgroup v2 (the unified hierarchy).
 *
 * Create a memcg with a hard limit, move a task into it, read its
 * memory.stat into a struct, remove it.  Every call returns 0 or a negative
 * errno-style code; memcg_strerror() turns the last failure into a message
 * that names the cgroup and what went wrong (for instance that no memory
 * controller is mounted).
 *
 * The mode is the memory controller's: memcg_lib_init() finds its mount
 * through libcgroup (/sys/fs/cgroup/memory on v1, /sys/fs/cgroup on v2)
 * and tells the two apart by the file system there.  The hard limit is
 * memory.limit_in_bytes on v1 and memory.max on v2; on v2 memcg_create()
 * also enables the memory controller in the cgroup.subtree_control of the
 * root and of every parent in the name.  Other control files and
 * memory.stat keys are the kernel's own and differ between the two modes
 * (see memcg_stat_hier() for the hierarchical counters).
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

/*
 * cgroup_init(), and find the memory controller (v1 or v2), with a clear
 * message when there is none.  Call it before the others; calling it
 * again is harmless.
 */
int memcg_lib_init(void);
/* True on cgroup v2, as found by the last memcg_lib_init(). */
bool memcg_is_v2(void);

/*
 * Create (or adopt) NAME ("a" or "a/b", relative to the memory root),
 * with a hard limit unless LIMIT_BYTES is 0.  On v2 the parents of a
 * nested name must hold no processes: the memory controller is enabled
 * for their children.
 */
struct memcg *memcg_create(const char *name, uint64_t limit_bytes);
/* Remove it; tasks still inside move to the parent.  Frees @cg. */
int memcg_destroy(struct memcg *cg);
/* Free the handle only; the cgroup stays. */
void memcg_release(struct memcg *cg);

const char *memcg_name(const struct memcg *cg);
/* Absolute path of the memcg directory: /sys/fs/cgroup/memory/x (v1), /sys/fs/cgroup/x (v2) */
const char *memcg_path(const struct memcg *cg);

/* The hard limit: memory.limit_in_bytes (v1), memory.max (v2; UINT64_MAX: "max"). */
int memcg_set_limit(struct memcg *cg, uint64_t limit_bytes);
/* v2's memory.high (UINT64_MAX: "max"); -EOPNOTSUPP on v1. */
int memcg_set_high(struct memcg *cg, uint64_t bytes);
/* Write any memory.* control file through libcgroup. */
int memcg_set_value(struct memcg *cg, const char *file, const char *value);

int memcg_attach_self(struct memcg *cg);
int memcg_attach_pid(struct memcg *cg, pid_t pid);

/*
 * Read a single-number control file such as memory.max_usage_in_bytes
 * (v1) or memory.current (v2); "max" (v2, no limit) reads as UINT64_MAX.
 */
int memcg_read_u64(const struct memcg *cg, const char *file, uint64_t *val);
int memcg_read_stat(const struct memcg *cg, struct memcg_stat *st);

/* Look up one memory.stat key; false when the kernel has no such key. */
bool memcg_stat_has(const struct memcg_stat *st, const char *key);
/* Value of a key, 0 when absent (check memcg_stat_has() where it matters). */
uint64_t memcg_stat_get(const struct memcg_stat *st, const char *key);
/*
 * A counter of the memcg and all its descendants: total_KEY on v1, KEY on
 * v2 (whose memory.stat is hierarchical).  KEY must be a name both modes
 * use, such as workingset_refault_file, workingset_activate_file,
 * workingset_stale, workingset_stale_force, active_file, inactive_file
 * (v1's "cache" is v2's "file").
 */
uint64_t memcg_stat_hier(const struct memcg_stat *st, const char *key);

/* Message for the last failing call in this thread. */
const char *memcg_strerror(void);

#endif
