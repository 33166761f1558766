/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mrc.h - a memcg's miss-ratio curve from its refault distance histogram.
 *
 * A file refault at distance D (memory.refault_histogram) would have been
 * a hit had the memcg's file cache been D pages larger.  Over an interval
 * in which a workload made ACCESSES page reads of which MISSES went to
 * storage, a limit larger by X bytes would have missed MISSES less the
 * refaults at distances under X / 4096 pages: that is the curve.  Within
 * a bucket, distances are taken as spread evenly.  First-touch misses are
 * not refaults: no limit saves them, and they cap the curve.
 */
#ifndef WSR_MRC_H
#define WSR_MRC_H

#include <stdbool.h>
#include <stdint.h>

#define MRC_PAGE	4096

struct mrc {
	int nr;
	const uint64_t *bound;	/* bucket upper bounds in pages, UINT64_MAX last */
	const uint64_t *pages;	/* refaulted pages per bucket */
	double accesses;	/* pages the workload read in the interval */
	double misses;		/* of which from storage (>= the refaults) */
	uint64_t limit;		/* the memcg's limit (bytes) in the interval */
};

/* Refaulted pages in the histogram, all buckets. */
double mrc_refaults(const struct mrc *m);
/* Refaulted pages a cache larger by DELTA bytes would have kept. */
double mrc_saved(const struct mrc *m, uint64_t delta);
/* Hit ratio measured in the interval, 0..1 (-1: no accesses). */
double mrc_hit_now(const struct mrc *m);
/* Hit ratio predicted at LIMIT bytes (>= m->limit), 0..1 (-1: no accesses). */
double mrc_hit_at(const struct mrc *m, uint64_t limit);
/*
 * The smallest limit (bytes, rounded up to 1 MiB) whose predicted hit
 * ratio reaches TARGET (0..1): 0 and *LIMIT, or -ERANGE when no limit
 * does (the first-touch misses, or refaults farther than the last finite
 * bucket, keep it under TARGET), or -EINVAL without accesses.
 */
int mrc_limit_for(const struct mrc *m, double target, uint64_t *limit);
/*
 * The knee: the smallest limit that gains 90% of the hits any larger
 * limit could gain (0: no refaults, the limit already holds the working set).
 */
uint64_t mrc_knee(const struct mrc *m);

#endif
