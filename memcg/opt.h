/* SPDX-License-Identifier: GPL-2.0 */
/*
 * opt.h - Belady's optimal replacement (MIN) on a page reference string:
 * the most hits any replacement policy could get with a cache of a given
 * number of pages, the bound a policy's hit ratio is measured against.
 *
 * On a miss with the cache full, MIN evicts the page whose next use is
 * farthest away (never used again: farthest of all).  Every page
 * accessed is cached at least until the next miss, as in the page cache.
 */
#ifndef WSR_OPT_H
#define WSR_OPT_H

#include <stddef.h>
#include <stdint.h>

/*
 * Simulate MIN with CACHE pages over REFS[0..N) (page numbers below
 * NPAGES).  HIT[i] (if not NULL) is set to 1 for a hit, 0 for a miss.
 * Returns the number of hits, or -1 (errno: ENOMEM, EINVAL for a page
 * number out of range or CACHE 0).
 */
long opt_hits(const uint32_t *refs, size_t n, uint32_t npages, size_t cache,
	      uint8_t *hit);

/*
 * Perfect LFU with a cache of CACHE pages over REFS[0..N): on a miss with
 * the cache full, evict the cached page used fewest times so far, counting
 * every use since the start, cached or not (ties: the least recently
 * used).  An online policy: it sees only the past.  When references are
 * drawn independently from a fixed distribution (the Zipf scenario), the
 * count of past uses is the best estimate of a page's chance of being
 * used next, so LFU is the reference for what a policy can learn from
 * the past, where OPT is what knowledge of the future gives.  Returns
 * and errors as opt_hits().
 */
long lfu_hits(const uint32_t *refs, size_t n, uint32_t npages, size_t cache,
	      uint8_t *hit);

#endif
