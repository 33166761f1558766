// SPDX-License-Identifier: GPL-2.0
/*
 * opt.c - Belady's MIN on a page reference string: see opt.h.
 *
 * The next use of every reference is found in one backward scan; the
 * cache is a max-heap of its pages keyed by their next use, updated in
 * place (each page knows its slot), so a run costs O(N log CACHE).
 */
#include <errno.h>
#include <stdlib.h>

#include "opt.h"

#define NEVER SIZE_MAX

struct heap {
	size_t n;
	uint32_t *page;		/* slot -> page */
	size_t *key;		/* slot -> next use */
	size_t *slot;		/* page -> slot + 1 (0: not cached) */
};

static void swap_slots(struct heap *h, size_t a, size_t b)
{
	uint32_t p = h->page[a];
	size_t k = h->key[a];

	h->page[a] = h->page[b];
	h->key[a] = h->key[b];
	h->page[b] = p;
	h->key[b] = k;
	h->slot[h->page[a]] = a + 1;
	h->slot[h->page[b]] = b + 1;
}

static void sift_up(struct heap *h, size_t i)
{
	while (i && h->key[(i - 1) / 2] < h->key[i]) {
		swap_slots(h, i, (i - 1) / 2);
		i = (i - 1) / 2;
	}
}

static void sift_down(struct heap *h, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;

		if (l < h->n && h->key[l] > h->key[m])
			m = l;
		if (r < h->n && h->key[r] > h->key[m])
			m = r;
		if (m == i)
			return;
		swap_slots(h, i, m);
		i = m;
	}
}

long opt_hits(const uint32_t *refs, size_t n, uint32_t npages, size_t cache,
	      uint8_t *hit)
{
	size_t *next = NULL, *last = NULL, i;
	struct heap h = { 0 };
	long hits = 0;

	if (!cache) {
		errno = EINVAL;
		return -1;
	}
	if (cache > npages)
		cache = npages;
	next = malloc((n ? n : 1) * sizeof(*next));
	last = malloc(((size_t)npages + 1) * sizeof(*last));
	h.page = malloc(cache * sizeof(*h.page));
	h.key = malloc(cache * sizeof(*h.key));
	h.slot = calloc((size_t)npages + 1, sizeof(*h.slot));
	if (!next || !last || !h.page || !h.key || !h.slot) {
		hits = -1;
		errno = ENOMEM;
		goto out;
	}
	for (i = 0; i < npages; i++)
		last[i] = NEVER;
	for (i = n; i-- > 0;) {
		if (refs[i] >= npages) {
			hits = -1;
			errno = EINVAL;
			goto out;
		}
		next[i] = last[refs[i]];
		last[refs[i]] = i;
	}
	for (i = 0; i < n; i++) {
		uint32_t p = refs[i];
		size_t s = h.slot[p];

		if (s) {
			hits++;
			if (hit)
				hit[i] = 1;
			h.key[s - 1] = next[i];
			sift_up(&h, s - 1);
			sift_down(&h, h.slot[p] - 1);
			continue;
		}
		if (hit)
			hit[i] = 0;
		if (h.n == cache) {
			/* evict the farthest next use: the heap's top */
			h.slot[h.page[0]] = 0;
			h.n--;
			if (h.n) {
				h.page[0] = h.page[h.n];
				h.key[0] = h.key[h.n];
				h.slot[h.page[0]] = 1;
				sift_down(&h, 0);
			}
		}
		h.page[h.n] = p;
		h.key[h.n] = next[i];
		h.slot[p] = h.n + 1;
		h.n++;
		sift_up(&h, h.n - 1);
	}
out:
	free(next);
	free(last);
	free(h.page);
	free(h.key);
	free(h.slot);
	return hits;
}
