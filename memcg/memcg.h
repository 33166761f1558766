/* SPDX-License-Identifier: GPL-2.0 */
/*
 * memcg.h - memory controller helpers on the libcgroup C API, for the
 * cgroup-v1 memory hierarchy and for cgroup v2 (the unified hierarchy).
 *
 * Create a memcg with a hard limit, move a task into it, read its
 * memory.stat into a struct, remove it.  Every call returns 0 or a negative
 * errno-style code (the calls that return a handle return NULL and set
 * errno); memcg_strerror() turns the last failure into a message that
 * names the cgroup and what went wrong (for instance that no memory
 * controller is mounted, or that the memcg exists already).
 *
 * The mode is the memory controller's: memcg_lib_init() finds its mount
 * through libcgroup (/sys/fs/cgroup/memory on v1, /sys/fs/cgroup on v2)
 * and tells the two apart by the file system there.  The hard limit is
 * memory.limit_in_bytes on v1 and memory.max on v2.  Other control files
 * and memory.stat keys are the kernel's own and differ between the two
 * modes (see memcg_stat_hier() for the hierarchical counters).
 *
 * Ownership: the library never changes or removes a cgroup it did not
 * create.  memcg_create() refuses a NAME that exists already (-EEXIST);
 * a caller that means to use an existing memcg says so with memcg_adopt()
 * (or MEMCG_ADOPT), and such a handle is only released, never removed.
 * For a nested NAME ("a/b") the handle remembers which levels this call
 * created: memcg_destroy() removes those (the leaf, then each created
 * parent while it is empty) and nothing else; a parent that existed keeps
 * its settings (the limit goes to the leaf only).  The one exception is
 * cgroup v2's cgroup.subtree_control: a cgroup's memory.* files exist only
 * when its parent has "memory" there, so memcg_create() enables it in the
 * root and in every parent of NAME (created or not) that lacks it.  A
 * parent that existed and holds processes cannot get it (v2 allows
 * controllers only above leaves): memcg_create() fails with -EBUSY and
 * says so, without writing to it.
 *
 * The memcgs a process created and has not destroyed are recorded, so
 * that memcg_cleanup_on_signal() can remove them when SIGINT, SIGTERM or
 * SIGHUP ends the process, and memcg_remove_created() at any time.
 */
#ifndef WSR_MEMCG_H
#define WSR_MEMCG_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

/*
 * Keys struct memcg_stat holds.  A 6.1 memory.stat has ~70 keys on v1
 * (with total_*), ~50 on v2; memcg_read_stat() fails with -E2BIG, and
 * says so, rather than drop keys past this.
 */
#define MEMCG_STAT_MAX 256

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
 * message when there is none.  Call it before the others (memcg_create()
 * and memcg_adopt() call it if nobody has); calling it again is harmless.
 */
int memcg_lib_init(void);
/* True on cgroup v2, as found by the last memcg_lib_init(). */
bool memcg_is_v2(void);

/* memcg_create_flags() flags */
#define MEMCG_ADOPT	0x1	/* an existing NAME is adopted, not refused */

/*
 * Create NAME ("a" or "a/b", relative to the memory root; no "..", no
 * empty or "." components), with a hard limit on the leaf unless
 * LIMIT_BYTES is 0.  Missing parents are created too, level by level,
 * and recorded as created.  NULL with errno set on failure: EEXIST when
 * NAME exists already (nothing is touched; see memcg_adopt()), EBUSY when
 * a v2 parent that holds processes would need the memory controller,
 * ENODEV when there is no memory controller, EINVAL for a bad name or
 * limit; on failure every level it had created is removed again.
 */
struct memcg *memcg_create(const char *name, uint64_t limit_bytes);
/*
 * memcg_create() with FLAGS.  MEMCG_ADOPT: if NAME exists, return a
 * handle to it as memcg_adopt() does (LIMIT_BYTES is then NOT written:
 * check memcg_created() and call memcg_set_limit() if you mean to change
 * a memcg you did not create); if it does not, create it as
 * memcg_create() does.
 */
struct memcg *memcg_create_flags(const char *name, uint64_t limit_bytes,
				 unsigned int flags);
/*
 * A handle to the existing memcg NAME, as it is: nothing is created or
 * written (not even v2's cgroup.subtree_control), and memcg_destroy()
 * of the handle only releases it.  NULL with errno ENOENT if NAME does
 * not exist.  NAME "/" is the root memcg (for reading its files).
 */
struct memcg *memcg_adopt(const char *name);
/* True if the handle's leaf was created by this process (not adopted). */
bool memcg_created(const struct memcg *cg);
/* 1 if NAME exists (a directory under the memory root), 0 if not, or -errno. */
int memcg_exists(const char *name);

/*
 * Remove what the handle created and free @cg: tasks still inside are
 * moved out (to the parent of the topmost level it created; on v2, where
 * that parent may not hold tasks, to the root), then the leaf is removed
 * (retrying for up to a second while exiting tasks keep it busy), then
 * each parent level the handle created, while it is empty; one that
 * others use now stays, without error.  For an adopted handle
 * (memcg_adopt(), MEMCG_ADOPT on an existing NAME) it only releases the
 * handle and returns 0: the memcg stays as it was.  Frees @cg even when
 * it fails (-EBUSY: the leaf kept tasks or child cgroups).
 */
int memcg_destroy(struct memcg *cg);
/*
 * Free the handle only; the cgroup stays, and is no longer removed by
 * memcg_cleanup_on_signal() or memcg_remove_created().
 */
void memcg_release(struct memcg *cg);

/*
 * Install handlers for SIGINT, SIGTERM and SIGHUP (except a signal that
 * is ignored, as under nohup) that remove every memcg this process
 * created and has not destroyed or released, newest first, as
 * memcg_destroy() would (tasks moved out, created levels removed, using
 * only async-signal-safe calls), then end the process by the signal with
 * its default action.  A child forked afterwards inherits the handlers:
 * when the signal hits it, it moves only itself out of those memcgs and
 * leaves the removal to the process that created them.  Replaces any
 * handler the caller had for these signals.  0 or -errno.
 */
int memcg_cleanup_on_signal(void);
/*
 * Remove every memcg this process created and has not destroyed or
 * released, as the signal handlers do (usable with atexit(); does
 * nothing in a forked child).  Their handles stay valid for
 * memcg_destroy() or memcg_release() only.
 */
void memcg_remove_created(void);

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
 * -ENODATA for an empty file, -EINVAL for anything but one number.
 */
int memcg_read_u64(const struct memcg *cg, const char *file, uint64_t *val);
/*
 * Read memory.stat into ST.  -E2BIG if it has more than MEMCG_STAT_MAX
 * keys, -ENAMETOOLONG for a key longer than ST's, -EINVAL for a value
 * that is not a number: never a silently partial ST.
 */
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

/*
 * memory.refault_histogram (the series' patch 7): file refaults of the
 * pages this memcg's reclaim evicted, by refault distance.  BOUND[i] is
 * bucket i's upper bound in pages (UINT64_MAX for "inf"; bucket i holds
 * distances from BOUND[i - 1], or 0, up to under BOUND[i]); LOCAL[i] the
 * memcg's own refaults, TOTAL[i] those of its subtree (total_ lines).
 */
#define MEMCG_HIST_MAX 64
struct memcg_hist {
	int nr;
	uint64_t bound[MEMCG_HIST_MAX];
	uint64_t local[MEMCG_HIST_MAX];
	uint64_t total[MEMCG_HIST_MAX];
};
/*
 * Read it.  -ENOENT, with a message that says so, on a kernel without
 * it; -EINVAL for a line it cannot parse: never a partial H.
 */
int memcg_read_hist(const struct memcg *cg, struct memcg_hist *h);
/* Start the memcg's histogram afresh (writes 0). */
int memcg_reset_hist(struct memcg *cg);
/* The pages of all buckets: the memcg's own, or (TOTAL) its subtree's. */
uint64_t memcg_hist_sum(const struct memcg_hist *h, bool total);
/* H = A - B, bucket by bucket (B read before A, same buckets): -EINVAL if not. */
int memcg_hist_sub(struct memcg_hist *h, const struct memcg_hist *a,
		   const struct memcg_hist *b);

/* Message for the last failing call in this thread. */
const char *memcg_strerror(void);

#endif
