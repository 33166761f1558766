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

#define NEVER UINT64_MAX

/* A max-heap of the cached pages (MIN: by next use; LFU: see lfu_key()). */
struct heap {
	size_t n;
	uint32_t *page;		/* slot -> page */
	uint64_t *key;		/* slot -> key */
	size_t *slot;		/* page -> slot + 1 (0: not cached) */
};

static void swap_slots(struct heap *h, size_t a, size_t b)
{
	uint32_t p = h->page[a];
	uint64_t k = h->key[a];

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

/* Page P's key changed to KEY: restore the heap order. */
static void heap_set(struct heap *h, uint32_t p, uint64_t key)
{
	size_t s = h->slot[p] - 1;

	h->key[s] = key;
	sift_up(h, s);
	sift_down(h, h->slot[p] - 1);
}

/* Drop the heap's top: the page to evict. */
static void heap_pop(struct heap *h)
{
	h->slot[h->page[0]] = 0;
	h->n--;
	if (h->n) {
		h->page[0] = h->page[h->n];
		h->key[0] = h->key[h->n];
		h->slot[h->page[0]] = 1;
		sift_down(h, 0);
	}
}

static void heap_add(struct heap *h, uint32_t p, uint64_t key)
{
	h->page[h->n] = p;
	h->key[h->n] = key;
	h->slot[p] = h->n + 1;
	h->n++;
	sift_up(h, h->n - 1);
}

static int heap_init(struct heap *h, uint32_t npages, size_t cache)
{
	h->n = 0;
	h->page = malloc(cache * sizeof(*h->page));
	h->key = malloc(cache * sizeof(*h->key));
	h->slot = calloc((size_t)npages + 1, sizeof(*h->slot));
	return h->page && h->key && h->slot ? 0 : -1;
}

static void heap_free(struct heap *h)
{
	free(h->page);
	free(h->key);
	free(h->slot);
}

long opt_hits(const uint32_t *refs, size_t n, uint32_t npages, size_t cache,
	      uint8_t *hit)
{
	uint64_t *next = NULL, *last = NULL;
	struct heap h = { 0 };
	long hits = 0;
	size_t i;

	if (!cache) {
		errno = EINVAL;
		return -1;
	}
	if (cache > npages)
		cache = npages;
	next = malloc((n ? n : 1) * sizeof(*next));
	last = malloc(((size_t)npages + 1) * sizeof(*last));
	if (heap_init(&h, npages, cache) || !next || !last) {
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
			heap_set(&h, p, next[i]);
			continue;
		}
		if (hit)
			hit[i] = 0;
		/* evict the farthest next use: the heap's top */
		if (h.n == cache)
			heap_pop(&h);
		heap_add(&h, p, next[i]);
	}
out:
	free(next);
	free(last);
	heap_free(&h);
	return hits;
}

/*
 * LFU's victim is the fewest uses, and of those the least recent: the
 * heap's top is the largest key, so the key is the complement of (uses,
 * time).  40 bits of time (the reference's index) are plenty here.
 */
static uint64_t lfu_key(uint32_t uses, size_t when)
{
	return ~(((uint64_t)uses << 40) | ((uint64_t)when & ((1ULL << 40) - 1)));
}

long lfu_hits(const uint32_t *refs, size_t n, uint32_t npages, size_t cache,
	      uint8_t *hit)
{
	uint32_t *uses = NULL;
	struct heap h = { 0 };
	long hits = 0;

	if (!cache) {
		errno = EINVAL;
		return -1;
	}
	if (cache > npages)
		cache = npages;
	uses = calloc((size_t)npages + 1, sizeof(*uses));
	if (heap_init(&h, npages, cache) || !uses) {
		hits = -1;
		errno = ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		uint32_t p = refs[i];

		if (p >= npages) {
			hits = -1;
			errno = EINVAL;
			goto out;
		}
		if (uses[p] < UINT32_MAX)
			uses[p]++;
		if (h.slot[p]) {
			hits++;
			if (hit)
				hit[i] = 1;
			heap_set(&h, p, lfu_key(uses[p], i));
			continue;
		}
		if (hit)
			hit[i] = 0;
		if (h.n == cache)
			heap_pop(&h);
		heap_add(&h, p, lfu_key(uses[p], i));
	}
out:
	free(uses);
	heap_free(&h);
	return hits;
}
