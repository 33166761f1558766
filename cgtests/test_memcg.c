// SPDX-License-Identifier: GPL-2.0
/*
 * test_memcg.c - refault-distance file cache sizing under the hard limit
 * of cgroup-v1 memcgs, created through libcgroup.  The guest has ample
 * memory, so only the limit reclaims; the limit is big enough that the
 * memcg's file LRU is over 1 GiB, where the inactive ratio is not 1.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cgtest.h"
#include "../memcg/scenario.h"

#define LIMIT	(1280 * WS_MiB)

static int switch_env(struct scn_env *env)
{
	scn_fn fn;

	env->mem = env->limit = LIMIT;
	return scn_setup(env, "switch", &fn);
}

/* The switch case at a memcg's hard limit; counters move in memory.stat. */
static int test_memcg_switch(void)
{
	struct scn_env env = { .tag = "memcg-switch", .memcg = "cgt_switch" };
	struct scn_run runs[3];
	const struct scn_run *d = &runs[0];
	bool ok;

	if (memcg_lib_init() || switch_env(&env))
		return KSFT_FAIL;
	scn_run_policies(&env, scn_switch, runs, scn_npolicies, "# ");
	if (d->failed)
		return KSFT_FAIL;
	ok = cgt_check_switch(d, "distance", 5);
	ok &= CGT_CHECK(d->memcg.stale > 0, "memory.stat total_workingset_stale %" PRIu64,
			d->memcg.stale);
	ok &= CGT_CHECK(d->global.stale >= d->memcg.stale,
			"/proc/vmstat workingset_stale %" PRIu64 " >= the memcg's",
			d->global.stale);
	ok &= CGT_CHECK(d->memcg.refault > 0, "memory.stat total_workingset_refault_file %" PRIu64,
			d->memcg.refault);
	ksft_print_msg("for comparison: B adapted at pass %d (activate), %d (classic; 0 = never)\n",
		       scn_first_pass_at(&runs[1], 'B', 0.95), scn_first_pass_at(&runs[2], 'B', 0.95));
	return ok ? KSFT_PASS : KSFT_FAIL;
}

/* B bigger than the limit: A is left alone. */
static int test_memcg_bigger(void)
{
	struct scn_env env = { .tag = "memcg-bigger", .memcg = "cgt_bigger", .mem = LIMIT, .limit = LIMIT };
	struct scn_run runs[3];
	const struct scn_pass *last;
	scn_fn fn;

	if (memcg_lib_init() || scn_setup(&env, "bigger", &fn))
		return KSFT_FAIL;
	scn_run_policies(&env, fn, runs, scn_npolicies, "# ");
	if (runs[0].failed)
		return KSFT_FAIL;
	last = scn_last(&runs[0], 'B');
	return CGT_CHECK(last->res[0] >= 0.90, "distance: A %.1f%% resident after B (>= 90%%)",
			 100 * last->res[0]) ? KSFT_PASS : KSFT_FAIL;
}

/* A hot set between chunks of a stream of 4x the limit stays cached. */
static int test_memcg_stream(void)
{
	struct scn_env env = { .tag = "memcg-stream", .memcg = "cgt_stream", .mem = LIMIT, .limit = LIMIT };
	struct scn_run runs[3];
	double min;
	scn_fn fn;

	if (memcg_lib_init() || scn_setup(&env, "stream", &fn))
		return KSFT_FAIL;
	scn_run_policies(&env, fn, runs, scn_npolicies, "# ");
	if (runs[0].failed)
		return KSFT_FAIL;
	min = scn_min_hit(&runs[0], 'H', 3);
	return CGT_CHECK(min >= 0.99, "distance: worst H pass during the stream %.2f%% (>= 99%%)",
			 100 * min) ? KSFT_PASS : KSFT_FAIL;
}

/* Limit on the parent, workload in a child. */
static int test_memcg_hierarchy(void)
{
	struct scn_env env = { .tag = "memcg-switch", .memcg = "child", .parent = "cgt_parent" };
	struct scn_run run;
	bool ok;

	if (memcg_lib_init() || switch_env(&env))
		return KSFT_FAIL;
	if (scn_run(&env, "distance", scn_switch, &run))
		return KSFT_FAIL;
	scn_print(stdout, "# ", &env, &run);
	ok = cgt_check_switch(&run, "child of a limited parent", 5);
	ok &= CGT_CHECK(run.memcg.stale > 0, "child's workingset_stale %" PRIu64, run.memcg.stale);
	ok &= CGT_CHECK(run.parent.stale >= run.memcg.stale,
			"parent's total_workingset_stale %" PRIu64 " includes the child's",
			run.parent.stale);
	return ok ? KSFT_PASS : KSFT_FAIL;
}

/*
 * Two siblings: X thrashes at its limit, Y keeps an active set.  Y's
 * active pages are not deactivated for X's refaults.
 */
static int test_memcg_isolation(void)
{
	struct memcg *x = NULL, *y = NULL;
	char px[512], py[512];
	struct memcg_stat st;
	double hit = 0;
	bool ok = false;

	if (memcg_lib_init())
		return KSFT_FAIL;
	cgt_path(px, sizeof(px), "isolation-x");
	cgt_path(py, sizeof(py), "isolation-y");
	if (ws_dataset(px, 512 * WS_MiB) || ws_dataset(py, 256 * WS_MiB))
		return KSFT_FAIL;
	ws_drop_caches();
	scn_set_policy("distance");
	x = memcg_create("cgt_iso_x", 256 * WS_MiB);
	y = memcg_create("cgt_iso_y", 1024 * WS_MiB);
	if (!x || !y) {
		ksft_print_msg("%s\n", memcg_strerror());
		goto out;
	}
	if (cgt_read_in(y, py, 2, true, &hit) || cgt_read_in(x, px, 4, true, &hit))
		goto out;
	ksft_print_msg("X (512 MiB set, 256 MiB limit) last pass hit %.1f%%\n", 100 * hit);
	if (cgt_read_in(y, py, 1, true, &hit) || memcg_read_stat(y, &st))
		goto out;
	ok = CGT_CHECK(hit >= 0.99, "Y's set still served from cache: %.1f%%", 100 * hit);
	ok &= CGT_CHECK(ws_residency(py) >= 0.99, "Y's set %.1f%% resident",
			100 * ws_residency(py));
	ok &= CGT_CHECK(memcg_stat_get(&st, "workingset_stale") == 0 &&
			memcg_stat_get(&st, "workingset_stale_force") == 0,
			"nothing of Y deactivated (stale %" PRIu64 ", force %" PRIu64 ")",
			memcg_stat_get(&st, "workingset_stale"),
			memcg_stat_get(&st, "workingset_stale_force"));
	if (!memcg_read_stat(x, &st))
		ksft_print_msg("X: refault_file %" PRIu64 " stale %" PRIu64 " stale_force %" PRIu64 "\n",
			       memcg_stat_get(&st, "workingset_refault_file"),
			       memcg_stat_get(&st, "workingset_stale"),
			       memcg_stat_get(&st, "workingset_stale_force"));
out:
	memcg_destroy(x);
	memcg_destroy(y);
	return ok ? KSFT_PASS : KSFT_FAIL;
}

/*
 * Evict a memcg's files, delete the memcg, refault them from a new one:
 * the shadows name a dead memcg; charging and data must still be right.
 */
static int test_memcg_rmdir(void)
{
	struct memcg *a, *b = NULL;
	uint64_t usage = 0, refault = 0;
	struct memcg_stat st;
	char path[512];
	double hit = 0;
	bool ok = false;

	if (memcg_lib_init())
		return KSFT_FAIL;
	cgt_path(path, sizeof(path), "rmdir-set");
	if (ws_dataset(path, 384 * WS_MiB))
		return KSFT_FAIL;
	ws_drop_caches();
	a = memcg_create("cgt_rmdir_a", 128 * WS_MiB);
	if (!a || cgt_read_in(a, path, 2, true, &hit)) {
		ksft_print_msg("%s\n", memcg_strerror());
		memcg_destroy(a);
		return KSFT_FAIL;
	}
	if (!CGT_CHECK(!memcg_destroy(a), "first memcg removed with its shadows in the cache"))
		return KSFT_FAIL;
	b = memcg_create("cgt_rmdir_b", 256 * WS_MiB);
	if (!b || cgt_read_in(b, path, 2, true, &hit)) {
		ksft_print_msg("%s\n", memcg_strerror());
		goto out;
	}
	if (memcg_read_u64(b, "memory.max_usage_in_bytes", &usage) || memcg_read_stat(b, &st))
		goto out;
	refault = memcg_stat_get(&st, "workingset_refault_file");
	ok = CGT_CHECK(usage > 0 && usage <= 256 * WS_MiB,
		       "new memcg charged: max_usage %" PRIu64 " KiB within its limit", usage / 1024);
	ok &= CGT_CHECK(memcg_stat_get(&st, "cache") > 0, "its cache %" PRIu64 " KiB",
			memcg_stat_get(&st, "cache") / 1024);
	ksft_print_msg("data read back intact twice; refaults counted: %" PRIu64 "\n", refault);
out:
	memcg_destroy(b);
	return ok ? KSFT_PASS : KSFT_FAIL;
}

/* The switch case started the way a user does: cgcreate/cgset/cgexec. */
static int test_memcg_cgexec(void)
{
	char cmd[256];
	int st;

	snprintf(cmd, sizeof(cmd), "%s/cgexec-switch.sh", getenv("CGT_DIR") ?: "/mnt/wsr/cgtests");
	st = system(cmd);
	if (!WIFEXITED(st))
		return KSFT_FAIL;
	return WEXITSTATUS(st) == KSFT_SKIP ? KSFT_SKIP :
	       WEXITSTATUS(st) == 0 ? KSFT_PASS : KSFT_FAIL;
}

static const struct cgtest tests[] = {
	CGTEST(test_memcg_switch),
	CGTEST(test_memcg_bigger),
	CGTEST(test_memcg_stream),
	CGTEST(test_memcg_hierarchy),
	CGTEST(test_memcg_isolation),
	CGTEST(test_memcg_rmdir),
	CGTEST(test_memcg_cgexec),
};

int main(int argc, char **argv)
{
	return cgtest_main(argc, argv, tests, ARRAY_SIZE(tests));
}
