// SPDX-License-Identifier: GPL-2.0
/*
 * test_reclaim.c - what reclaim must keep doing under every policy, and
 * how the "distance" policy shares global reclaim between memcgs.
 *
 * test_restore_psi: a set that was part of the working set and thrashes
 * back in is marked as such (workingset_restore_file) and counts as
 * memory pressure, under every workingset_policy.  A kernel that skips
 * this bookkeeping for refaults it does not activate leaves oomd and
 * LMKD blind.
 *
 * test_fairness: refaults of one memcg's set under global pressure ask
 * global reclaim to deactivate; every other memcg gives up active pages
 * in proportion to its size, as 6.1 does, not whichever memcg reclaim
 * happens to visit first.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cgtest.h"
#include "../memcg/scenario.h"

/* total= of the "some" line of /proc/pressure/memory, in microseconds */
static int psi_memory_some(uint64_t *total)
{
	char buf[256];
	char *p;

	if (ws_file_read("/proc/pressure/memory", buf, sizeof(buf)) < 0)
		return -ENOENT;
	p = strstr(buf, "total=");
	if (!p || strncmp(buf, "some", 4))
		return -EINVAL;
	*total = strtoull(p + 6, NULL, 10);
	return 0;
}

/*
 * In a memcg at 640 MiB (a file LRU under 1 GiB: inactive ratio 1 under
 * 6.1's policies), a set A of 512 MiB is read three times, so that most
 * of it has been on the active list.  The limit then drops to 256 MiB
 * and back: reclaim pushes half of A out whichever policy runs, and much
 * of it from the active list (PG_workingset set on deactivation).  A is
 * read once more: its pages come back at distances up to 256 MiB, many
 * within the active list, the distance 6.1 calls thrashing.  A kernel
 * that drops the bookkeeping outside "activate" shows 0 restores under
 * "distance" and "classic"; one whose "adaptive" verdict skips it, 0
 * under "adaptive".  (An earlier version pushed A out with a once-read
 * stream: under "adaptive", whose inactive list is a fifth of the LRU,
 * the stream passed by and A stayed 99.8% resident.)
 */
#define RP_LIMIT	cgt_scaled(640 * WS_MiB)
#define RP_SHRUNK	(RP_LIMIT * 2 / 5)

static int test_restore_psi(void)
{
	char pa[512];
	bool ok = true;

	if (memcg_lib_init()) {
		ksft_print_msg("%s\n", memcg_strerror());
		return KSFT_FAIL;
	}
	cgt_path(pa, sizeof(pa), "restore-a");
	if (ws_dataset(pa, cgt_scaled(512 * WS_MiB) & ~(WS_MiB - 1)))
		return KSFT_FAIL;

	for (int i = 0; i < scn_npolicies; i++) {
		const char *pol = scn_policies[i];
		uint64_t r0 = 0, r1 = 0, p0 = 0, p1 = 0;
		struct memcg *cg;
		double hit = 0;
		int err;

		if (scn_set_policy(pol)) {
			ksft_print_msg("cannot set vm.workingset_policy=%s\n", pol);
			return KSFT_FAIL;
		}
		ws_drop_caches();
		cg = cgt_memcg("restore", RP_LIMIT);
		if (!cg) {
			ksft_print_msg("%s\n", memcg_strerror());
			return KSFT_FAIL;
		}
		err = cgt_read_in(cg, pa, 3, false, NULL) ?:
		      memcg_set_limit(cg, RP_SHRUNK) ?:
		      memcg_set_limit(cg, RP_LIMIT) ?:
		      ws_vmstat("workingset_restore_file", &r0) ?:
		      psi_memory_some(&p0) ?:
		      cgt_read_in(cg, pa, 1, true, &hit) ?:
		      ws_vmstat("workingset_restore_file", &r1) ?:
		      psi_memory_some(&p1);
		memcg_destroy(cg);
		if (!CGT_CHECK(!err, "%s: workload ran and counters were read (%s)",
			       pol, err ? strerror(-err) : "ok"))
			return KSFT_FAIL;
		ksft_print_msg("%s: A re-read hit %.1f%%, restore_file +%" PRIu64
			       ", memory pressure some +%" PRIu64 " us\n",
			       pol, 100 * hit, r1 - r0, p1 - p0);
		ok &= CGT_CHECK(hit < 0.95, "%s: A partly refaulted (hit %.1f%% < 95%%)",
				pol, 100 * hit);
		/* the broken kernel: 0 under "distance" and "classic" */
		ok &= CGT_CHECK(r1 - r0 >= 1024,
				"%s: >= 1024 restored pages (once-active pages thrashing): %" PRIu64,
				pol, r1 - r0);
		ok &= CGT_CHECK(p1 > p0, "%s: /proc/pressure/memory some total rose", pol);
	}
	scn_set_policy("distance");
	return ok ? KSFT_PASS : KSFT_FAIL;
}

/*
 * Three memcgs without limits in the 2 GiB guest: X and Y each activate
 * a set of a quarter of memory, then Z reads a set of 60% of memory six
 * times.  Z's refaults (distance smaller than the active list) ask global
 * reclaim to deactivate; X's and Y's active lists must shrink alike.  A
 * kernel that lets the first memcg visited take every request shrinks X
 * and leaves Y alone.
 */
static uint64_t stat_of(struct memcg *cg, const char *key)
{
	struct memcg_stat st;

	if (memcg_read_stat(cg, &st) || !memcg_stat_has(&st, key))
		return UINT64_MAX;
	return memcg_stat_get(&st, key);
}

static uint64_t active_file(struct memcg *cg)
{
	return stat_of(cg, "active_file");
}

struct fair_run {
	const char *pol;
	uint64_t x0, y0, x1, y1;	/* active_file before and after Z */
	uint64_t sx, sy;		/* workingset_stale after Z, in bytes */
	double zhit;
};

static int fair_run(const char *pol, const char *px, const char *py,
		    const char *pz, struct fair_run *r)
{
	struct memcg *x, *y, *z;
	int err = -EIO;

	r->pol = scn_policy_run(pol);
	if (scn_set_policy(pol))
		return -EINVAL;
	ws_drop_caches();
	x = cgt_memcg("fair_x", 0);
	y = cgt_memcg("fair_y", 0);
	z = cgt_memcg("fair_z", 0);
	if (!x || !y || !z) {
		ksft_print_msg("%s\n", memcg_strerror());
		goto out;
	}
	if (cgt_read_in(x, px, 3, false, NULL) || cgt_read_in(y, py, 3, false, NULL))
		goto out;
	r->x0 = active_file(x);
	r->y0 = active_file(y);
	if (cgt_read_in(z, pz, 6, true, &r->zhit))
		goto out;
	r->x1 = active_file(x);
	r->y1 = active_file(y);
	r->sx = stat_of(x, "workingset_stale");
	r->sy = stat_of(y, "workingset_stale");
	if (r->x0 == UINT64_MAX || r->y0 == UINT64_MAX ||
	    r->x1 == UINT64_MAX || r->y1 == UINT64_MAX ||
	    r->sx == UINT64_MAX || r->sy == UINT64_MAX) {
		ksft_print_msg("memory.stat active_file or workingset_stale unreadable\n");
		goto out;
	}
	/* a count of pages */
	r->sx *= (uint64_t)sysconf(_SC_PAGESIZE);
	r->sy *= (uint64_t)sysconf(_SC_PAGESIZE);
	err = 0;
out:
	memcg_destroy(x);
	memcg_destroy(y);
	memcg_destroy(z);
	return err;
}

/*
 * X and Y activate sets of XS and YS bytes, then Z reads 60% of memory
 * six times.  Runs under "distance" and "activate" (6.1) and prints both.
 */
static int fairness(uint64_t xs, uint64_t ys, struct fair_run *d, struct fair_run *a)
{
	uint64_t mem = scn_global_mem(), zset;
	char px[512], py[512], pz[512], name[64];
	int err;

	if (memcg_lib_init()) {
		ksft_print_msg("%s\n", memcg_strerror());
		return -ENODEV;
	}
	xs -= xs % (64 * WS_MiB);
	ys -= ys % (64 * WS_MiB);
	zset = mem * 6 / 10 - mem * 6 / 10 % (64 * WS_MiB);
	snprintf(name, sizeof(name), "fair-x-%" PRIu64 "M", xs >> 20);
	cgt_path(px, sizeof(px), name);
	snprintf(name, sizeof(name), "fair-y-%" PRIu64 "M", ys >> 20);
	cgt_path(py, sizeof(py), name);
	cgt_path(pz, sizeof(pz), "fair-z");
	err = ws_dataset(px, xs) ?: ws_dataset(py, ys) ?: ws_dataset(pz, zset);
	if (!CGT_CHECK(!err, "data sets: X %" PRIu64 " MiB, Y %" PRIu64 " MiB, Z %" PRIu64
		       " MiB of %" PRIu64 " MiB available (%s)", xs >> 20, ys >> 20, zset >> 20,
		       mem >> 20, err ? strerror(-err) : "ok"))
		return err;
	err = fair_run("distance", px, py, pz, d) ?: fair_run("activate", px, py, pz, a);
	scn_set_policy("distance");
	if (!CGT_CHECK(!err, "both runs completed"))
		return err;
	for (int i = 0; i < 2; i++) {
		const struct fair_run *r = i ? a : d;

		ksft_print_msg("%-9s X active %4" PRIu64 " -> %4" PRIu64 " MiB, Y %4" PRIu64
			       " -> %4" PRIu64 " MiB, stale X %" PRIu64 " Y %" PRIu64
			       " MiB, Z's last pass %.1f%%\n", r->pol, r->x0 >> 20, r->x1 >> 20,
			       r->y0 >> 20, r->y1 >> 20, r->sx >> 20, r->sy >> 20, 100 * r->zhit);
	}
	/* the setup: both sets mostly active before Z */
	return CGT_CHECK(d->x0 >= xs / 2 && d->y0 >= ys / 2,
			 "X and Y active before Z: %" PRIu64 " and %" PRIu64 " MiB (>= half their sets)",
			 d->x0 >> 20, d->y0 >> 20) ? 0 : -EINVAL;
}

static uint64_t loss(uint64_t before, uint64_t after)
{
	return before > after ? before - after : 0;
}

/*
 * 6.1 ("activate") shares the loss the same way, by deactivating every
 * memcg while refaults are seen: what is tested is that "distance" gets
 * there by its own requests.  X and Y are idle while Z reads, so every
 * page scanned for a request (workingset_stale) is deactivated: the
 * requests must account for at least half of each one's loss.  Under
 * "activate" workingset_stale stays 0.
 */
static bool check_by_requests(const struct fair_run *d, uint64_t lx, uint64_t ly)
{
	return CGT_CHECK(d->sx >= lx / 2 && d->sy >= ly / 2 && d->sx && d->sy,
			 "%s: the losses are the requests' (workingset_stale >= half of each): X %"
			 PRIu64 " of %" PRIu64 " MiB, Y %" PRIu64 " of %" PRIu64 " MiB", d->pol,
			 d->sx >> 20, lx >> 20, d->sy >> 20, ly >> 20);
}

/* Equal sets (a quarter of memory each): equal losses, within 2x. */
static int test_fairness(void)
{
	uint64_t set = scn_global_mem() / 4, lx, ly;
	struct fair_run d = { 0 }, a = { 0 };
	bool ok;

	if (fairness(set, set, &d, &a))
		return KSFT_FAIL;
	lx = loss(d.x0, d.x1);
	ly = loss(d.y0, d.y1);
	/* Z adapted, so the requests were there to share */
	ok = CGT_CHECK(lx + ly >= set / 4, "X and Y gave up %" PRIu64 " MiB of active pages (>= %" PRIu64 ")",
		       (lx + ly) >> 20, (set / 4) >> 20);
	/* the broken kernel: X pays for everything, Y loses nothing */
	ok &= CGT_CHECK(lx <= 2 * ly + (16 << 20) && ly <= 2 * lx + (16 << 20),
			"losses within 2x of each other: X %" PRIu64 " MiB, Y %" PRIu64 " MiB",
			lx >> 20, ly >> 20);
	ok &= check_by_requests(&d, lx, ly);
	return ok ? KSFT_PASS : KSFT_FAIL;
}

/*
 * X's set three times Y's (3/8 and 1/8 of memory): losses in proportion
 * to the active lists, as 6.1 scans them, so X gives up 1.5-6x what Y
 * does.  A kernel that hands each memcg it visits one batch of requests
 * takes the same from both (ratio ~1) until Y has nothing left.
 */
static int test_fairness_sizes(void)
{
	uint64_t mem = scn_global_mem(), lx, ly;
	struct fair_run d = { 0 }, a = { 0 };
	bool ok;

	if (fairness(mem * 3 / 8, mem / 8, &d, &a))
		return KSFT_FAIL;
	lx = loss(d.x0, d.x1);
	ly = loss(d.y0, d.y1);
	ksft_print_msg("for comparison: activate (6.1) X lost %" PRIu64 " MiB, Y %" PRIu64 " MiB\n",
		       loss(a.x0, a.x1) >> 20, loss(a.y0, a.y1) >> 20);
	ok = CGT_CHECK(lx + ly >= (mem / 2) / 8, "X and Y gave up %" PRIu64 " MiB of active pages (>= %" PRIu64 ")",
		       (lx + ly) >> 20, (mem / 16) >> 20);
	ok &= CGT_CHECK(ly && lx * 2 >= ly * 3 && lx <= ly * 6,
			"X lost %" PRIu64 " MiB, Y %" PRIu64 " MiB: ratio %.2f (1.5-6, sets 3:1)",
			lx >> 20, ly >> 20, ly ? (double)lx / ly : 0.0);
	ok &= check_by_requests(&d, lx, ly);
	return ok ? KSFT_PASS : KSFT_FAIL;
}

static const struct cgtest tests[] = {
	CGTEST(test_restore_psi),
	CGTEST(test_fairness),
	CGTEST(test_fairness_sizes),
};

int main(int argc, char **argv)
{
	return cgtest_main(argc, argv, tests, ARRAY_SIZE(tests));
}
