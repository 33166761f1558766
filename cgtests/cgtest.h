/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cgtest.h - one function per behaviour, listed in one table, run by a loop
 * that prints TAP through kselftest.h, as tools/testing/selftests/cgroup does.
 *
 * A test returns KSFT_PASS, KSFT_FAIL or KSFT_SKIP and says why on "# "
 * lines (ksft_print_msg).  It cleans up what it created on every path.
 */
#ifndef WSR_CGTEST_H
#define WSR_CGTEST_H

#include <stdbool.h>
#include <stdint.h>

#include "kselftest.h"
#include "../memcg/cgrun.h"
#include "../memcg/memcg.h"
#include "../memcg/wsload.h"

/*
 * The hard limit of the memcg scenarios (test_memcg, test_v2): under
 * 1 GiB, so that the memcg's file LRU is below the step where the
 * inactive ratio stops being 1 (int_sqrt(10 * GiB)); the global
 * scenarios (test_global, a 2 GiB guest) run above it.  So make test
 * covers both sides, and its memcg sets cost half of what they would
 * at 1280M (make run measures the memcg at 1280M).
 */
#define CGT_MEMCG_LIMIT	cgt_scaled(640 * WS_MiB)
/*
 * The bigger case's limit (test_memcg, test_v2): over 1 GiB.  Under it,
 * the kernel's own inactive ratio of 1 caps the active list at half the
 * file LRU under every policy but "adaptive" (which keeps a floor of 4):
 * A (70% of the limit) cannot stay resident there whatever refaults say,
 * so the protection the bigger case tests only shows above the step.
 * For that reason CGT_SCALE does not scale it: at 25% (320M) the case
 * would test the other side of the step, which test_memcg_bigger_small
 * already covers.
 */
#define CGT_MEMCG_BIG_LIMIT	((uint64_t)1280 * WS_MiB)

/*
 * The limit of the memcg cases whose passes are slow (the switch through
 * mmap: one 4 KiB fault per page; Zipf: 4 KiB random preads): half of
 * CGT_MEMCG_LIMIT, under 1 GiB as well, so that they fit in make test.
 */
#define CGT_MEMCG_SMALL_LIMIT	cgt_scaled_min(320 * WS_MiB, 192 * WS_MiB)

/*
 * BYTES times CGT_SCALE percent (1-100, default 100): the limits and
 * fixed-size sets of the memcg tests, scaled down for the debug kernel,
 * whose KASAN under TCG reads ~10x slower.  Sets that are sized on the
 * guest's memory scale with the guest (make test-debug MEM=...).
 */
uint64_t cgt_scaled(uint64_t bytes);
/*
 * cgt_scaled(BYTES), but at least MIN: a limit too small at CGT_SCALE=25
 * for the kernel's own memory in the memcg to leave the sets room.
 */
uint64_t cgt_scaled_min(uint64_t bytes, uint64_t min);

struct cgtest {
	const char *name;
	int (*fn)(void);
};

#define CGTEST(fn) { #fn, fn }

/* -l lists the tests, -t NAME runs one; no option runs them all. */
int cgtest_main(int argc, char **argv, const struct cgtest *t, int n);

/*
 * Every memcg a test makes lives under a root of its own, "cgt-<pid>",
 * made on first use and removed when the test exits: leftovers of an old
 * run can neither feed nor break a new one.  cgt_name("x") is
 * "cgt-<pid>/x" (a string that lives as long as the process);
 * cgt_memcg() creates it (memcg_create(): NULL and memcg_strerror()).
 */
const char *cgt_name(const char *name);
struct memcg *cgt_memcg(const char *name, uint64_t limit);

/* Data directory on the scratch disk (created on first use). */
const char *cgt_datadir(void);
/* "<datadir>/<name>" in a static buffer per call site's own array. */
void cgt_path(char *buf, int len, const char *name);

/*
 * Read PATH PASSES times in a child attached to CG (NULL: the caller's
 * cgroup), verifying the content if asked; *HIT is the last pass's hit
 * ratio.  0 or a negative errno.
 */
int cgt_read_in(struct memcg *cg, const char *path, int passes, bool verify,
		double *hit);

struct scn_run;
struct scn_env;

/*
 * The switch case's bounds, for every scope that runs it (test_global,
 * test_memcg, test_v2): A >= 90% resident after its third pass, B
 * served >= 95% from cache by pass BY and on every pass after, A gives
 * way: at the end at most 10 points over what fits beside B (and under
 * 60% where that is less).  cgtest.c says what the controls show.
 */
bool cgt_check_switch(const struct scn_run *d, const char *who, int by);
/*
 * The controls of a scenario run under every policy (RUNS as from
 * scn_run_policies()): only the tested "distance" and "adaptive"
 * deactivate on refaults or drop refaults behind, so the controls
 * ("activate", "classic") leave workingset_stale, stale_force and
 * dropbehind at 0, globally and in the memcg.
 * That proves the switch took (the kernel counts only where it
 * deactivates); what tells the policies apart are the tested policy's
 * stale > 0 and the behaviour bounds.  Each run must have completed.
 */
bool cgt_check_controls(const struct scn_run *runs, int n);
/* switch: "classic" (no refault detection) never serves B >= 95%. */
bool cgt_check_switch_controls(const struct scn_run *runs, int n);
/* bigger: A >= 90% resident under RUNS[0]; "classic" leaves it < 90%. */
bool cgt_check_bigger(const struct scn_run *runs, int n);
/*
 * stream: H served >= 99% on every pass, the stream refaulted, and
 * (nearly) nothing was deactivated for it: stale <= 1% of the refaults.
 */
bool cgt_check_stream(const struct scn_run *d, bool memcg);

/* The run of RUNS asked for POLICY, or NULL. */
const struct scn_run *cgt_find_run(const struct scn_run *runs, int n, const char *policy);
/*
 * The "adaptive" policy's bounds (cgtest.c says what the others show),
 * each with: never 5 points under "activate" on any pass.
 * switch: B >= 95% by pass BY and after, A gives way (cgt_check_switch()).
 */
bool cgt_check_adaptive_switch(const struct scn_run *runs, int n, const char *who, int by);
/*
 * switch through mmap: the switch's bounds by pass 3 and stale > 0
 * (MEMCG: memory.stat's); the rule against "activate" is counted unless
 * SMALL (a limit under 1 GiB, where it is reported: cgtest.c says why).
 */
bool cgt_check_adaptive_mswitch(const struct scn_run *runs, int n, const char *who,
				bool memcg, bool small);
/* bigger: A >= 95% after every B pass; B from pass 3 >= 0.5 (mem - A) / B. */
bool cgt_check_adaptive_bigger(const struct scn_run *runs, int n, const struct scn_env *env);
/*
 * stream: H >= 99.5% on every pass during the stream; the stream's second
 * read served >= 0.5 (mem - H) / S, "activate" under that.
 */
bool cgt_check_adaptive_stream(const struct scn_run *runs, int n, const struct scn_env *env);

/*
 * zipf, "adaptive": never 5 points under "activate" on any round, and
 * its activations paid for (workingset_stale > 0 where it reclaimed).
 * The ">= 92% by round 6" is printed against the measured
 * number, and not counted (cgtest.c says why).
 */
bool cgt_check_adaptive_zipf(const struct scn_run *runs, int n, const struct scn_env *env);

/*
 * KEY of memory.stat ST into *VAL; -ENOENT, after saying so, when this
 * kernel's memory.stat has no KEY (memcg_stat_get() would give 0, and a
 * check on 0 could pass on a kernel without the counter).
 */
int cgt_stat(const struct memcg_stat *st, const char *key, uint64_t *val);

/*
 * A and B agree within ERR percent of the larger, as the kselftests'
 * values_close(); a counter read twice through different files is only
 * equal up to the flushing of per-cpu and rstat deltas.
 */
bool cgt_close(uint64_t a, uint64_t b, int err);

/* Checks that print what they compared, so a failure explains itself. */
#define CGT_CHECK(cond, fmt, ...) ({					\
	bool __ok = (cond);						\
	ksft_print_msg("%s: " fmt " [%s]\n", __ok ? "ok" : "FAILED",	\
		       ##__VA_ARGS__, #cond);				\
	__ok;								\
})

#endif
