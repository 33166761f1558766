/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cgrun.h - run a function in a child process inside a memcg, the way the
 * kernel's cgroup kselftests do with cg_run(): fork, attach the child,
 * call the function, exit with its result, and let the parent wait.  The
 * parent's own memory stays out of what the child's memcg measures.  A
 * child reports numbers back through cg_shared() memory.
 */
#ifndef WSR_CGRUN_H
#define WSR_CGRUN_H

#include <stddef.h>
#include <sys/types.h>

struct memcg;

typedef int (*cg_fn)(void *arg);

/*
 * fork(), with the child killed when the caller dies (PR_SET_PDEATHSIG):
 * a test the watchdog kills leaves no workload running that would hold
 * the runner's pipe or load the next test.  Returns as fork() does.
 */
pid_t cg_fork(void);
/*
 * Fork a child that joins CG (NULL: stays in the caller's cgroup), calls
 * FN(ARG) and exits 0 if it returned 0, 1 otherwise.  The child is
 * killed when the caller dies (PR_SET_PDEATHSIG).  The child's pid,
 * or a negative errno if the fork failed.
 */
pid_t cg_run_nowait(struct memcg *cg, cg_fn fn, void *arg);
/* Wait for a cg_run_nowait() child: 0 if FN returned 0, else -EIO. */
int cg_wait(pid_t pid);
/* cg_run_nowait() and cg_wait(): 0 if FN returned 0 in the child. */
int cg_run(struct memcg *cg, cg_fn fn, void *arg);

/* Zeroed memory shared with the children forked after it; NULL on failure. */
void *cg_shared(size_t size);
void cg_unshare(void *p, size_t size);

#endif
