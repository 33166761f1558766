// SPDX-License-Identifier: GPL-2.0
/*
 * test_v2.c - refault-distance file cache sizing in cgroup-v2 memcgs,
 * created through libcgroup: the switch and bigger cases of test_memcg.c
 * at memory.max, and the switch case at memory.high with no memory.max.
 * Only run on a cgroup-v2 boot (make test boots one for it); on cgroup
 * v1 every test fails and says so.
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "cgtest.h"
#include "../memcg/scenario.h"

/* test_memcg.c's limit, and its data sets (same tags, same sizes) */
#define LIMIT	CGT_MEMCG_LIMIT

/* memcg_lib_init(), and fail unless the memory controller is on v2. */
static bool v2_init(void)
{
	if (memcg_lib_init()) {
		ksft_print_msg("%s\n", memcg_strerror());
		return false;
	}
	if (!memcg_is_v2()) {
		ksft_print_msg("FAILED: the memory controller is on cgroup v1, this test needs cgroup v2: boot with systemd.unified_cgroup_hierarchy=1 (guest-image/boot.sh --cgroup2; make test does for test_v2)\n");
		return false;
	}
	return true;
}

/* The switch case at memory.max; counters move in v2's memory.stat. */
static int test_v2_switch(void)
{
	struct scn_env env = { .tag = "memcg-switch", .memcg = cgt_name("v2_switch"),
			       .mem = LIMIT, .limit = LIMIT };
	struct scn_run runs[SCN_NPOLICIES];
	const struct scn_run *d = &runs[0];
	scn_fn fn;
	bool ok;

	if (!v2_init() || scn_setup(&env, "switch", &fn))
		return KSFT_FAIL;
	scn_run_policies(&env, fn, runs, scn_npolicies, "# ");
	if (d->failed)
		return KSFT_FAIL;
	ok = cgt_check_switch(d, d->policy, 5);
	ok &= CGT_CHECK(d->memcg.stale > 0, "%s: memory.stat workingset_stale %" PRIu64,
			d->policy, d->memcg.stale);
	ok &= CGT_CHECK(d->memcg.refault > 0, "%s: memory.stat workingset_refault_file %" PRIu64,
			d->policy, d->memcg.refault);
	ok &= cgt_check_switch_controls(runs, scn_npolicies);
	ok &= cgt_check_adaptive_switch(runs, scn_npolicies, "at memory.max", 3);
	return ok ? KSFT_PASS : KSFT_FAIL;
}

/* B bigger than memory.max (1280M: see CGT_MEMCG_BIG_LIMIT), looped: A is left alone. */
static int test_v2_bigger(void)
{
	struct scn_env env = { .tag = "memcg-bigger", .memcg = cgt_name("v2_bigger"),
			       .mem = CGT_MEMCG_BIG_LIMIT, .limit = CGT_MEMCG_BIG_LIMIT };
	struct scn_run runs[SCN_NPOLICIES];
	scn_fn fn;

	if (!v2_init() || scn_setup(&env, "bigger", &fn))
		return KSFT_FAIL;
	scn_run_policies(&env, fn, runs, scn_npolicies, "# ");
	if (runs[0].failed)
		return KSFT_FAIL;
	return cgt_check_bigger(runs, scn_npolicies) &
	       cgt_check_adaptive_bigger(runs, scn_npolicies, &env) ? KSFT_PASS : KSFT_FAIL;
}

/*
 * The switch case at memory.high, memory.max left at "max": reclaim
 * comes from the return to user space over the high boundary, not from
 * a charge that fails.  "distance" may take one pass more (by its 6th,
 * the last); "adaptive" has the same bound as at memory.max.  Controls:
 * "classic" at memory.high never adapts, and neither control moves
 * workingset_stale.
 */
static int test_v2_high(void)
{
	struct scn_env env = { .tag = "memcg-switch", .memcg = cgt_name("v2_high"),
			       .mem = LIMIT, .limit = LIMIT, .high = true };
	struct scn_run runs[SCN_NPOLICIES];
	const struct scn_run *d = &runs[0];
	scn_fn fn;
	bool ok;

	if (!v2_init() || scn_setup(&env, "switch", &fn))
		return KSFT_FAIL;
	scn_run_policies(&env, fn, runs, scn_npolicies, "# ");
	if (d->failed)
		return KSFT_FAIL;
	ok = cgt_check_switch(d, "at memory.high", 6);
	ok &= CGT_CHECK(d->memcg.stale > 0, "%s: memory.stat workingset_stale %" PRIu64,
			d->policy, d->memcg.stale);
	ksft_print_msg("memory.stat workingset_stale_force %" PRIu64 ", workingset_refault_file %" PRIu64 "\n",
		       d->memcg.stale_force, d->memcg.refault);
	ok &= cgt_check_switch_controls(runs, scn_npolicies);
	ok &= cgt_check_adaptive_switch(runs, scn_npolicies, "at memory.high", 3);
	return ok ? KSFT_PASS : KSFT_FAIL;
}

/*
 * memory.refault_histogram on v2: a loop over 1.5x memory.max fills the
 * memcg's histogram with its refaults (as many as memory.stat's
 * workingset_refault_file), the root cgroup has the file, and writing 0
 * empties the memcg's.
 */
static int test_v2_histogram(void)
{
	uint64_t lim = cgt_scaled_min(192 * WS_MiB, 128 * WS_MiB), sum, refaults;
	struct memcg_hist *h = calloc(1, sizeof(*h));
	struct memcg_stat *st = calloc(1, sizeof(*st));
	struct memcg *cg = NULL, *root = NULL;
	char path[256];
	bool ok = false;

	if (!h || !st || !v2_init())
		goto out;
	cgt_path(path, sizeof(path), "sizing-sib-x");
	if (ws_dataset(path, lim * 3 / 2 / WS_MiB * WS_MiB))
		goto out;
	cg = cgt_memcg("v2_hist", lim);
	if (!cg)
		goto out;
	ws_drop_caches();
	if (memcg_reset_hist(cg) || cgt_read_in(cg, path, 3, false, NULL) ||
	    memcg_read_hist(cg, h) || memcg_read_stat(cg, st)) {
		ksft_print_msg("%s\n", memcg_strerror());
		goto out;
	}
	sum = memcg_hist_sum(h, true);
	refaults = memcg_stat_hier(st, "workingset_refault_file");
	ok = CGT_CHECK(sum > 0 && cgt_close(sum, refaults, 2),
		       "loop of 1.5x memory.max: histogram %" PRIu64 " pages, workingset_refault_file %" PRIu64,
		       sum, refaults);
	root = memcg_adopt("/");
	ok &= CGT_CHECK(root && !memcg_read_hist(root, h) && h->nr > 0,
			"the root cgroup has memory.refault_histogram (%d buckets)", h->nr);
	if (!memcg_reset_hist(cg) && !memcg_read_hist(cg, h))
		sum = memcg_hist_sum(h, true);
	else
		sum = UINT64_MAX;
	ok &= CGT_CHECK(sum == 0, "after writing 0: %" PRIu64 " pages", sum);
out:
	if (root)
		memcg_release(root);
	if (cg)
		memcg_destroy(cg);
	free(h);
	free(st);
	return ok ? KSFT_PASS : KSFT_FAIL;
}

static const struct cgtest tests[] = {
	CGTEST(test_v2_switch),
	CGTEST(test_v2_bigger),
	CGTEST(test_v2_high),
	CGTEST(test_v2_histogram),
};

int main(int argc, char **argv)
{
	return cgtest_main(argc, argv, tests, ARRAY_SIZE(tests));
}
