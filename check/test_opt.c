// SPDX-License-Identifier: GPL-2.0
/*
 * test_opt.c - Belady's MIN and perfect LFU (memcg/opt.c) on hand-computed
 * sequences.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "opt.h"
#include "tap.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

int main(void)
{
	/* the textbook string, 3 frames: MIN has 9 faults of 20 */
	static const uint32_t text[] = { 7, 0, 1, 2, 0, 3, 0, 4, 2, 3, 0, 3, 2, 1, 2, 0, 1, 7, 0, 1 };
	/* a loop of 4 pages, 3 times, in 3 frames: LRU 0 hits, MIN 6 */
	static const uint32_t loop[] = { 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3 };
	static const uint8_t loop_hits[] = { 0, 0, 0, 0, 1, 1, 0, 1, 1, 0, 1, 1 };
	/* 1 2 3 4 1 2 5 1 2 3 4 5, 3 frames: 7 faults (5 hits) */
	static const uint32_t belady[] = { 1, 2, 3, 4, 1, 2, 5, 1, 2, 3, 4, 5 };
	uint8_t hit[32];
	long h;

	h = opt_hits(text, N(text), 8, 3, NULL);
	tap_ok(h == 11, "textbook string, 3 frames: 11 hits (9 faults), got %ld", h);
	h = opt_hits(loop, N(loop), 4, 3, hit);
	tap_ok(h == 6 && !memcmp(hit, loop_hits, N(loop)),
	       "loop of 4 in 3 frames: 6 hits, at the positions worked out by hand (got %ld)", h);
	h = opt_hits(belady, N(belady), 6, 3, NULL);
	tap_ok(h == 5, "1 2 3 4 1 2 5 1 2 3 4 5 in 3 frames: 5 hits, got %ld", h);
	h = opt_hits(belady, N(belady), 6, 4, NULL);
	tap_ok(h == 6, "the same in 4 frames: 6 hits (MIN has no Belady anomaly), got %ld", h);
	h = opt_hits(loop, N(loop), 4, 4, NULL);
	tap_ok(h == 8, "everything fits: every reference after the first touch hits (8), got %ld", h);
	h = opt_hits(loop, N(loop), 4, 1, NULL);
	tap_ok(h == 0, "one frame, no repeats in a row: 0 hits, got %ld", h);
	h = opt_hits(loop, N(loop), 4, 0, NULL);
	tap_ok(h == -1 && errno == EINVAL, "no frames: -1, EINVAL");
	h = opt_hits(loop, N(loop), 3, 2, NULL);
	tap_ok(h == -1 && errno == EINVAL, "a page number out of range: -1, EINVAL");
	h = opt_hits(loop, 0, 4, 2, NULL);
	tap_ok(h == 0, "an empty string: 0 hits");
	{
		/* a larger random string: MIN never below LRU, never above cold-miss bound */
		enum { LEN = 20000, PAGES = 500, CACHE = 100 };
		uint32_t *r = malloc(LEN * sizeof(*r));
		uint32_t lru[CACHE];
		long lru_hits = 0, distinct = 0;
		uint8_t seen[PAGES] = { 0 };
		uint64_t x = 88172645463325252ULL;
		int nlru = 0;

		for (int i = 0; r && i < LEN; i++) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			r[i] = (uint32_t)(x % 7 ? x % (PAGES / 5) : x % PAGES);
			distinct += !seen[r[i]];
			seen[r[i]] = 1;
			/* LRU by a move-to-front array */
			int j;

			for (j = 0; j < nlru && lru[j] != r[i]; j++)
				;
			if (j < nlru) {
				lru_hits++;
			} else {
				j = nlru < CACHE ? nlru++ : CACHE - 1;
			}
			memmove(lru + 1, lru, j * sizeof(lru[0]));
			lru[0] = r[i];
		}
		h = r ? opt_hits(r, LEN, PAGES, CACHE, NULL) : -1;
		tap_ok(h >= lru_hits && h <= LEN - distinct,
		       "random string: LRU %ld <= MIN %ld <= %ld (every reference but first touches)",
		       lru_hits, h, LEN - distinct);
		free(r);
	}
	{
		/*
		 * LFU, 2 frames.  0 0 1 2 1 0: 0 (1 use) miss, 0 hit (2), 1
		 * miss, 2 miss evicts 1 (1 use against 0's 2), 1 miss (now 2
		 * uses) evicts 2 (1 use), 0 hit: 2 hits, at 1 and 5.
		 */
		static const uint32_t f[] = { 0, 0, 1, 2, 1, 0 };
		static const uint8_t f_hits[] = { 0, 1, 0, 0, 0, 1 };
		/*
		 * Ties go to the least recent: 0 1 2 0, 2 frames.  2 evicts 0
		 * (1 use each, 0 older), then 0 evicts 1: no hits; LRU the same.
		 */
		static const uint32_t t[] = { 0, 1, 2, 0 };
		/*
		 * Uses count while not cached ("perfect" LFU): 0 1 0 2 1 1 2 2 2
		 * 0 in 1 frame: only repeats in a row hit (1 1, 2 2 2): 3.  In 2
		 * frames: 0 1 miss, 0 hit (0: 2), 2 evicts 1 (1 use), 1 miss (2
		 * uses; evicts 2, 1 use), 1 hit (3), 2 miss (2 uses) evicts 0 (2
		 * uses, older than 1), 2 hit, 2 hit, 0 miss (3 uses) evicts 1
		 * (3 uses against 2's 4): 4 hits.
		 */
		static const uint32_t u[] = { 0, 1, 0, 2, 1, 1, 2, 2, 2, 0 };
		static const uint8_t u_hits[] = { 0, 0, 1, 0, 0, 1, 0, 1, 1, 0 };

		h = lfu_hits(f, N(f), 3, 2, hit);
		tap_ok(h == 2 && !memcmp(hit, f_hits, N(f)),
		       "LFU, 0 0 1 2 1 0 in 2 frames: hits at 1 and 5 (got %ld)", h);
		h = lfu_hits(t, N(t), 3, 2, NULL);
		tap_ok(h == 0, "LFU ties go to the least recent: 0 1 2 0 in 2 frames, 0 hits (got %ld)", h);
		h = lfu_hits(u, N(u), 3, 1, NULL);
		tap_ok(h == 3, "LFU in 1 frame: repeats in a row only, 3 hits (got %ld)", h);
		h = lfu_hits(u, N(u), 3, 2, hit);
		tap_ok(h == 4 && !memcmp(hit, u_hits, N(u)),
		       "LFU counts uses while not cached: 4 hits where worked out by hand (got %ld)", h);
		h = lfu_hits(u, N(u), 3, 3, NULL);
		tap_ok(h == 7, "LFU, everything fits: all but the 3 first touches hit (got %ld)", h);
		h = lfu_hits(u, N(u), 3, 0, NULL);
		tap_ok(h == -1 && errno == EINVAL, "LFU, no frames: -1, EINVAL");
		h = lfu_hits(u, N(u), 2, 2, NULL);
		tap_ok(h == -1 && errno == EINVAL, "LFU, a page number out of range: -1, EINVAL");
		h = opt_hits(u, N(u), 3, 2, NULL);
		tap_ok(h >= 4, "MIN is never below LFU on the same string (%ld >= 4)", h);
	}
	return tap_done();
}
