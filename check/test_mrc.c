// SPDX-License-Identifier: GPL-2.0
/*
 * test_mrc.c - the miss-ratio curve (memcg/mrc.c) on hand-computed
 * histograms.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>

#include "mrc.h"
#include "tap.h"

#define MiB ((uint64_t)1 << 20)

static bool near(double a, double b)
{
	return fabs(a - b) < 1e-9;
}

int main(void)
{
	/* buckets [0,256) [256,512) [512,1024) [1024,inf) pages */
	const uint64_t bound[] = { 256, 512, 1024, UINT64_MAX };
	const uint64_t loop[] = { 0, 0, 1000, 0 };	/* all at 512..1024 */
	const uint64_t mixed[] = { 100, 200, 400, 300 };
	const uint64_t none[] = { 0, 0, 0, 0 };
	struct mrc m = { .nr = 4, .bound = bound, .pages = loop,
			 .accesses = 4000, .misses = 1000, .limit = 100 * MiB };
	uint64_t lim = 0;
	int ret;

	tap_ok(near(mrc_refaults(&m), 1000), "refaults: the histogram's sum");
	tap_ok(near(mrc_hit_now(&m), 0.75), "hit now: 1 - 1000/4000");
	/* 512 pages = 2 MiB: the bucket starts there, nothing saved yet */
	tap_ok(near(mrc_saved(&m, 2 * MiB), 0), "saved at +2 MiB (512 pages): 0");
	/* 768 pages: half the bucket [512,1024) */
	tap_ok(near(mrc_saved(&m, 3 * MiB), 500), "saved at +3 MiB (768 pages): half the bucket, 500");
	tap_ok(near(mrc_saved(&m, 4 * MiB), 1000), "saved at +4 MiB: the whole bucket");
	tap_ok(near(mrc_hit_at(&m, 104 * MiB), 1.0), "hit at 104 MiB: 100%%");
	tap_ok(near(mrc_hit_at(&m, 103 * MiB), 0.875), "hit at 103 MiB: 1 - 500/4000");
	tap_ok(near(mrc_hit_at(&m, 50 * MiB), 0.75), "hit at a smaller limit: what was measured");
	/* 95%: 200 misses allowed, 800 to save: 512 + 512 * 0.8 = 921.6 pages */
	ret = mrc_limit_for(&m, 0.95, &lim);
	tap_ok(!ret && lim == 104 * MiB,
	       "limit for 95%%: 100 MiB + 922 pages, rounded up to 104 MiB (got %d, %llu)",
	       ret, (unsigned long long)lim);
	ret = mrc_limit_for(&m, 0.70, &lim);
	tap_ok(!ret && lim == 100 * MiB, "limit for 70%%: the current one");
	/* knee: 90% of 1000 = 900 pages saved at 512 + 460.8 pages */
	tap_ok(mrc_knee(&m) == 104 * MiB, "knee: 90%% of the gain at 973 pages, 104 MiB");

	/* first-touch misses cap the curve */
	m.misses = 2000;
	tap_ok(near(mrc_hit_at(&m, 1024 * MiB), 0.75), "with 1000 first-touch misses: at most 75%%");
	tap_ok(mrc_limit_for(&m, 0.95, &lim) == -ERANGE, "95%% out of reach: -ERANGE");

	/* the "inf" bucket is never saved */
	m.pages = mixed;
	m.misses = 1000;
	tap_ok(near(mrc_saved(&m, UINT64_MAX / 2), 700), "inf bucket: never saved (700 of 1000)");
	tap_ok(near(mrc_saved(&m, MiB / 2), 50), "saved at 128 pages: 50");
	tap_ok(mrc_limit_for(&m, 0.95, &lim) == -ERANGE, "95%%: 300 refaults beyond every bucket, -ERANGE");
	ret = mrc_limit_for(&m, 0.80, &lim);
	/* 200 misses to save: bucket 0 gives 100, then 100 of bucket 1: 256 + 128 = 384 pages */
	tap_ok(!ret && lim == 102 * MiB, "limit for 80%%: 384 pages more, 102 MiB (got %llu)",
	       (unsigned long long)lim);

	/* no refaults */
	m.pages = none;
	m.misses = 10;
	tap_ok(near(mrc_refaults(&m), 0) && mrc_knee(&m) == 0, "no refaults: no knee");
	tap_ok(near(mrc_hit_at(&m, 400 * MiB), mrc_hit_now(&m)), "no refaults: the curve is flat");

	/* no accesses */
	m.accesses = 0;
	tap_ok(mrc_hit_now(&m) < 0 && mrc_hit_at(&m, 200 * MiB) < 0, "no accesses: no hit ratio");
	tap_ok(mrc_limit_for(&m, 0.9, &lim) == -EINVAL, "no accesses: no limit, -EINVAL");
	return tap_done();
}
