// SPDX-License-Identifier: GPL-2.0
/*
 * test_global.c - refault-distance file cache sizing under global reclaim.
 *
 * Each scenario runs under every workingset_policy and prints the per-pass
 * hit ratio and residency of each; only the "distance" policy's bounds,
 * from the cover letter, are asserted.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cgtest.h"
#include "../memcg/scenario.h"

#define POLICY		"/proc/sys/vm/workingset_policy"
#define PLACEMENT	"/proc/sys/vm/workingset_placement"

/* Bad values are refused with EINVAL and the old value stays. */
static int test_policy_input(void)
{
	static const char *const bad_policy[] = { "bogus", "\n", "distance2", "1" };
	static const char *const bad_place[] = { "2", "-1", "abc", "1x" };
	static const char *const counters[] = {
		"workingset_skip", "workingset_alloc",
		"workingset_stale", "workingset_stale_force",
	};
	bool ok = true;
	char buf[64];
	uint64_t v;
	int err;

	ok &= CGT_CHECK(ws_file_read(POLICY, buf, sizeof(buf)) > 0 &&
			!strcmp(buf, "distance"), "default policy '%s'", buf);
	for (unsigned int i = 0; i < ARRAY_SIZE(bad_policy); i++) {
		err = ws_file_write(POLICY, bad_policy[i]);
		ws_file_read(POLICY, buf, sizeof(buf));
		ok &= CGT_CHECK(err == -EINVAL && !strcmp(buf, "distance"),
				"policy '%s' -> %s, policy still '%s'", bad_policy[i],
				strerror(-err), buf);
	}
	for (int i = 0; i < scn_npolicies; i++) {
		err = scn_set_policy(scn_policies[i]);
		ws_file_read(POLICY, buf, sizeof(buf));
		ok &= CGT_CHECK(!err && !strcmp(buf, scn_policies[i]),
				"policy '%s' accepted, reads '%s'", scn_policies[i], buf);
	}
	ok &= CGT_CHECK(!ws_file_write(POLICY, "distance\n"), "'distance\\n' accepted");
	for (unsigned int i = 0; i < ARRAY_SIZE(bad_place); i++) {
		err = ws_file_write(PLACEMENT, bad_place[i]);
		ws_file_read(PLACEMENT, buf, sizeof(buf));
		ok &= CGT_CHECK(err == -EINVAL && !strcmp(buf, "1"),
				"placement '%s' -> %s, still %s", bad_place[i],
				strerror(-err), buf);
	}
	for (unsigned int i = 0; i < ARRAY_SIZE(counters); i++)
		ok &= CGT_CHECK(!ws_vmstat(counters[i], &v), "%s in /proc/vmstat", counters[i]);
	scn_set_policy("distance");
	ws_file_write(PLACEMENT, "1");
	return ok ? KSFT_PASS : KSFT_FAIL;
}

/*
 * A (70% of memory) read 3 times, then B of equal size read 8 times:
 * B is served from cache no later than its 5th pass, A gives way.
 */
static int test_global_switch(void)
{
	struct scn_run runs[3];
	struct scn_env env = { .tag = "global-switch", .mem = scn_global_mem() };
	const struct scn_run *d = &runs[0];
	const struct scn_pass *a3, *last;
	int adapted;
	bool ok;
	scn_fn fn;

	if (scn_setup(&env, "switch", &fn))
		return KSFT_FAIL;
	ksft_print_msg("memory %" PRIu64 " MiB, A = B = %" PRIu64 " MiB\n",
		       env.mem / WS_MiB, env.sizes[0] / WS_MiB);
	scn_run_policies(&env, fn, runs, scn_npolicies, "# ");
	if (d->failed)
		return KSFT_FAIL;
	adapted = scn_first_pass_at(d, 'B', 0.95);
	a3 = &d->p[2];
	last = scn_last(d, 'B');
	ok = CGT_CHECK(adapted && adapted <= 5,
		       "distance: B served >= 95%% from cache at pass %d (<= 5)", adapted);
	ok &= CGT_CHECK(last->res[0] < a3->res[0] - 0.25,
			"distance: A residency fell %.1f%% -> %.1f%%",
			100 * a3->res[0], 100 * last->res[0]);
	ok &= CGT_CHECK(d->global.stale > 0, "distance: workingset_stale rose by %" PRIu64,
			d->global.stale);
	ksft_print_msg("for comparison: B adapted at pass %d (activate), %d (classic; 0 = never)\n",
		       scn_first_pass_at(&runs[1], 'B', 0.95),
		       scn_first_pass_at(&runs[2], 'B', 0.95));
	return ok ? KSFT_PASS : KSFT_FAIL;
}

/* A activated, then B bigger than memory: A is left untouched. */
static int test_global_bigger(void)
{
	struct scn_run runs[3];
	struct scn_env env = { .tag = "global-bigger", .mem = scn_global_mem() };
	const struct scn_run *d = &runs[0];
	const struct scn_pass *last;
	bool ok;
	scn_fn fn;

	if (scn_setup(&env, "bigger", &fn))
		return KSFT_FAIL;
	ksft_print_msg("memory %" PRIu64 " MiB, A = %" PRIu64 " MiB, B = %" PRIu64 " MiB\n",
		       env.mem / WS_MiB, env.sizes[0] / WS_MiB, env.sizes[1] / WS_MiB);
	scn_run_policies(&env, fn, runs, scn_npolicies, "# ");
	if (d->failed)
		return KSFT_FAIL;
	last = scn_last(d, 'B');
	ok = CGT_CHECK(last->res[0] >= 0.90, "distance: A %.1f%% resident after B (>= 90%%)",
		       100 * last->res[0]);
	ksft_print_msg("for comparison: A %.1f%% (activate), %.1f%% (classic)\n",
		       100 * scn_last(&runs[1], 'B')->res[0],
		       100 * scn_last(&runs[2], 'B')->res[0]);
	return ok ? KSFT_PASS : KSFT_FAIL;
}

/* A hot set (40%) between chunks of a stream of 4x memory stays cached. */
static int test_global_stream(void)
{
	struct scn_run runs[3];
	struct scn_env env = { .tag = "global-stream", .mem = scn_global_mem() };
	const struct scn_run *d = &runs[0];
	double min;
	scn_fn fn;

	if (scn_setup(&env, "stream", &fn))
		return KSFT_FAIL;
	ksft_print_msg("memory %" PRIu64 " MiB, H = %" PRIu64 " MiB, stream %" PRIu64 " MiB\n",
		       env.mem / WS_MiB, env.sizes[0] / WS_MiB, env.sizes[1] / WS_MiB);
	scn_run_policies(&env, fn, runs, scn_npolicies, "# ");
	if (d->failed)
		return KSFT_FAIL;
	min = scn_min_hit(d, 'H', 3);
	ksft_print_msg("for comparison: worst H pass %.1f%% (activate), %.1f%% (classic)\n",
		       100 * scn_min_hit(&runs[1], 'H', 3), 100 * scn_min_hit(&runs[2], 'H', 3));
	return CGT_CHECK(min >= 0.99, "distance: worst H pass during the stream %.2f%% (>= 99%%)",
			 100 * min) ? KSFT_PASS : KSFT_FAIL;
}

static const struct cgtest tests[] = {
	CGTEST(test_policy_input),
	CGTEST(test_global_switch),
	CGTEST(test_global_bigger),
	CGTEST(test_global_stream),
};

int main(int argc, char **argv)
{
	return cgtest_main(argc, argv, tests, ARRAY_SIZE(tests));
}
