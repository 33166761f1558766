// SPDX-License-Identifier: GPL-2.0
/*
 * test_global.c - refault-distance file cache sizing under global reclaim.
 *
 * Each scenario runs under every workingset_policy and prints the per-pass
 * hit ratio and residency of each.  The "distance" policy's bounds come
 * from the cover letter; the other policies are controls, asserted too,
 * so that a kernel whose sizing does nothing fails (cgtest.c says what
 * each bound's control shows).
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
	/* the sysctl itself, not scn_set_policy(): no WSR_TESTED_POLICY here */
	for (int i = 0; i < scn_npolicies; i++) {
		err = ws_file_write(POLICY, scn_policies[i]);
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
	ws_file_write(POLICY, "distance");
	ws_file_write(PLACEMENT, "1");
	return ok ? KSFT_PASS : KSFT_FAIL;
}

/*
 * A (70% of memory) read 3 times, then B of equal size read 6 times:
 * B is served from cache no later than its 5th pass, A gives way, and
 * the deactivations show as workingset_stale.  Controls: see
 * cgt_check_switch() and cgt_check_switch_controls().
 */
static int test_global_switch(void)
{
	struct scn_run runs[SCN_NPOLICIES];
	struct scn_env env = { .tag = "global-switch", .mem = scn_global_mem() };
	const struct scn_run *d = &runs[0];
	bool ok;
	scn_fn fn;

	if (scn_setup(&env, "switch", &fn))
		return KSFT_FAIL;
	ksft_print_msg("memory %" PRIu64 " MiB, A = B = %" PRIu64 " MiB\n",
		       env.mem / WS_MiB, env.sizes[0] / WS_MiB);
	scn_run_policies(&env, fn, runs, scn_npolicies, "# ");
	if (d->failed)
		return KSFT_FAIL;
	ok = cgt_check_switch(d, d->policy, 5);
	/* 6.1's own code ("activate") never deactivates on a refault */
	ok &= CGT_CHECK(d->global.stale > 0, "%s: workingset_stale rose by %" PRIu64,
			d->policy, d->global.stale);
	ok &= cgt_check_switch_controls(runs, scn_npolicies);
	ok &= cgt_check_adaptive_switch(runs, scn_npolicies, NULL, 3);
	return ok ? KSFT_PASS : KSFT_FAIL;
}

/*
 * A activated, then B bigger than memory looped: A is left untouched,
 * and under "adaptive" the part of B that fits beside A is served.
 */
static int test_global_bigger(void)
{
	struct scn_run runs[SCN_NPOLICIES];
	struct scn_env env = { .tag = "global-bigger", .mem = scn_global_mem() };
	scn_fn fn;

	if (scn_setup(&env, "bigger", &fn))
		return KSFT_FAIL;
	ksft_print_msg("memory %" PRIu64 " MiB, A = %" PRIu64 " MiB, B = %" PRIu64 " MiB\n",
		       env.mem / WS_MiB, env.sizes[0] / WS_MiB, env.sizes[1] / WS_MiB);
	scn_run_policies(&env, fn, runs, scn_npolicies, "# ");
	if (runs[0].failed)
		return KSFT_FAIL;
	return cgt_check_bigger(runs, scn_npolicies) &
	       cgt_check_adaptive_bigger(runs, scn_npolicies, &env) ? KSFT_PASS : KSFT_FAIL;
}

/*
 * A hot set (40%) between the chunks of a stream of 2x memory, read
 * twice: H stays cached, and the stream's refaults, all farther than
 * memory, deactivate nothing.
 */
static int test_global_stream(void)
{
	struct scn_run runs[SCN_NPOLICIES];
	struct scn_env env = { .tag = "global-stream", .mem = scn_global_mem() };
	const struct scn_run *d = &runs[0];
	bool ok;
	scn_fn fn;

	if (scn_setup(&env, "stream", &fn))
		return KSFT_FAIL;
	ksft_print_msg("memory %" PRIu64 " MiB, H = %" PRIu64 " MiB, stream %" PRIu64 " MiB read twice\n",
		       env.mem / WS_MiB, env.sizes[0] / WS_MiB, env.sizes[1] / WS_MiB);
	scn_run_policies(&env, fn, runs, scn_npolicies, "# ");
	if (d->failed)
		return KSFT_FAIL;
	ok = cgt_check_stream(d, false);
	ok &= cgt_check_controls(runs, scn_npolicies);
	ok &= cgt_check_adaptive_stream(runs, scn_npolicies, &env);
	for (int i = 0; i < scn_npolicies; i++)
		ksft_print_msg("for comparison: worst H pass %.1f%% (%s)\n",
			       100 * scn_min_hit(&runs[i], 'H', 3), runs[i].policy);
	return ok ? KSFT_PASS : KSFT_FAIL;
}

/*
 * The switch through mmap (MADV_RANDOM, every page touched once per pass
 * in a new shuffled order, then unmapped): page-ins are faults without
 * readahead, and refaults come through filemap_fault().  "adaptive" must
 * meet the read() switch's bounds by pass 3 and stay within 5 points of
 * "activate"; see cgt_check_adaptive_mswitch() for why "classic" is no
 * control here.  A pass of 4 KiB faults is several times slower than a
 * read() pass under TCG, so this one is in make test-long, not make test.
 */
static int test_global_mswitch(void)
{
	static const char *const pols[] = { "adaptive", "activate", "classic", "mglru" };
	struct scn_run runs[ARRAY_SIZE(pols)];
	struct scn_env env = { .tag = "global-switch", .mem = scn_global_mem() };
	int n = ARRAY_SIZE(pols);
	scn_fn fn;

	if (scn_setup(&env, "mswitch", &fn))
		return KSFT_FAIL;
	ksft_print_msg("memory %" PRIu64 " MiB, A = B = %" PRIu64 " MiB, through mmap\n",
		       env.mem / WS_MiB, env.sizes[0] / WS_MiB);
	scn_run_named(&env, fn, runs, pols, n, "# ");
	return cgt_check_adaptive_mswitch(runs, n, "through mmap", false, false) ?
	       KSFT_PASS : KSFT_FAIL;
}

/*
 * Zipf (alpha 0.9) random 4 KiB reads over 1.5x memory, six rounds: see
 * cgt_check_adaptive_zipf().  MGLRU runs beside, for comparison.
 */
static int test_global_zipf(void)
{
	static const char *const pols[] = { "adaptive", "activate", "mglru" };
	struct scn_env env = { .tag = "global-zipf", .mem = scn_global_mem() };
	struct scn_run runs[ARRAY_SIZE(pols)];
	scn_fn fn;

	if (scn_setup(&env, "zipf", &fn))
		return KSFT_FAIL;
	ksft_print_msg("memory %" PRIu64 " MiB, Z = %" PRIu64 " MiB\n",
		       env.mem / WS_MiB, env.sizes[0] / WS_MiB);
	scn_run_named(&env, fn, runs, pols, ARRAY_SIZE(pols), "# ");
	return cgt_check_adaptive_zipf(runs, ARRAY_SIZE(pols), &env) ? KSFT_PASS : KSFT_FAIL;
}

static const struct cgtest tests[] = {
	CGTEST(test_policy_input),
	CGTEST(test_global_switch),
	CGTEST(test_global_bigger),
	CGTEST(test_global_stream),
	CGTEST(test_global_mswitch),
	CGTEST(test_global_zipf),
};

int main(int argc, char **argv)
{
	return cgtest_main(argc, argv, tests, ARRAY_SIZE(tests));
}
