// SPDX-License-Identifier: GPL-2.0
/*
 * mrc.c - a memcg's miss-ratio curve from its refault distance histogram.
 * See mrc.h.
 */
#include <errno.h>
#include <math.h>

#include "mrc.h"

#define MRC_MiB ((uint64_t)1 << 20)

double mrc_refaults(const struct mrc *m)
{
	double n = 0;
	int i;

	for (i = 0; i < m->nr; i++)
		n += (double)m->pages[i];
	return n;
}

/* Pages of bucket I at distances under D pages, spread evenly in it. */
static double bucket_under(const struct mrc *m, int i, double d)
{
	double lo = i ? (double)m->bound[i - 1] : 0;
	double hi = (double)m->bound[i];

	if (m->bound[i] == UINT64_MAX)
		return 0;	/* "inf": no finite limit keeps those */
	if (d >= hi)
		return (double)m->pages[i];
	if (d <= lo)
		return 0;
	return (double)m->pages[i] * (d - lo) / (hi - lo);
}

double mrc_saved(const struct mrc *m, uint64_t delta)
{
	double d = (double)delta / MRC_PAGE, n = 0;
	int i;

	for (i = 0; i < m->nr; i++)
		n += bucket_under(m, i, d);
	return n;
}

static double clamp01(double x)
{
	return x < 0 ? 0 : x > 1 ? 1 : x;
}

double mrc_hit_now(const struct mrc *m)
{
	if (m->accesses <= 0)
		return -1;
	return clamp01(1 - m->misses / m->accesses);
}

double mrc_hit_at(const struct mrc *m, uint64_t limit)
{
	double misses;

	if (m->accesses <= 0)
		return -1;
	misses = m->misses - mrc_saved(m, limit > m->limit ? limit - m->limit : 0);
	return clamp01(1 - misses / m->accesses);
}

/* The smallest distance (pages) under which the buckets hold NEED pages. */
static int distance_for(const struct mrc *m, double need, double *d)
{
	double have = 0;
	int i;

	if (need <= 0) {
		*d = 0;
		return 0;
	}
	for (i = 0; i < m->nr && m->bound[i] != UINT64_MAX; i++) {
		double lo = i ? (double)m->bound[i - 1] : 0;
		double hi = (double)m->bound[i];
		double n = (double)m->pages[i];

		if (n > 0 && have + n >= need) {
			*d = lo + (hi - lo) * (need - have) / n;
			return 0;
		}
		have += n;
	}
	return -ERANGE;
}

static uint64_t limit_of(const struct mrc *m, double pages)
{
	double bytes = (double)m->limit + ceil(pages) * MRC_PAGE;
	uint64_t l = (uint64_t)bytes;

	return (l + MRC_MiB - 1) / MRC_MiB * MRC_MiB;
}

int mrc_limit_for(const struct mrc *m, double target, uint64_t *limit)
{
	double d;

	if (m->accesses <= 0)
		return -EINVAL;
	/* misses allowed at TARGET: (1 - target) * accesses */
	if (distance_for(m, m->misses - (1 - target) * m->accesses, &d))
		return -ERANGE;
	*limit = d ? limit_of(m, d) : m->limit;
	return 0;
}

uint64_t mrc_knee(const struct mrc *m)
{
	double finite = mrc_saved(m, UINT64_MAX / 2), d;

	if (finite <= 0)
		return 0;
	if (distance_for(m, 0.9 * finite, &d))
		return 0;
	return limit_of(m, d);
}
