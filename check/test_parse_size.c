// SPDX-License-Identifier: GPL-2.0
/*
 * test_parse_size.c - ws_parse_size() (memcg/wsload.c): what it takes,
 * what it refuses, and overflow; and the zipf scenario's draws
 * (ws_zipf_*).  TAP on stdout.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "wsload.h"

static void good(const char *s, uint64_t want)
{
	uint64_t v = 0;
	int err = ws_parse_size(s, &v);

	tap_ok(!err && v == want, "'%s' is %" PRIu64 " bytes (got %d, %" PRIu64 ")",
	       s, want, err, v);
}

static void bad(const char *s, int want)
{
	uint64_t v = 12345;
	int err = ws_parse_size(s, &v);

	tap_ok(err == want && v == 12345, "'%s' is refused with %s (got %d: %s)", s,
	       want == -ERANGE ? "ERANGE" : "EINVAL", err, err ? strerror(-err) : "accepted");
}

/*
 * The zipf scenario's draws: in range, the same for the same seed, and
 * distributed as Zipf(0.9), whose hottest 2/3 of 720000 pages draw 94.7%
 * of the reads (the "best static set" the scenario is measured against).
 */
static void zipf(void)
{
	const uint64_t pages = 720000;
	struct ws_zipf a, b;
	uint64_t hot = 0, same = 0, inrange = 0, n = 200000;
	uint32_t *rank_of = calloc(pages, sizeof(*rank_of));

	if (!tap_ok(rank_of && !ws_zipf_init(&a, pages, 0.9, 42) &&
		    !ws_zipf_init(&b, pages, 0.9, 42), "ws_zipf_init over %" PRIu64 " pages", pages))
		return;
	for (uint64_t r = 0; r < pages; r++)
		rank_of[a.perm[r]] = r;
	for (uint64_t i = 0; i < n; i++) {
		uint32_t x = ws_zipf_next(&a), y = ws_zipf_next(&b);

		inrange += x < pages;
		same += x == y;
		hot += x < pages && rank_of[x] < pages * 2 / 3;
	}
	tap_ok(inrange == n && same == n, "zipf: %" PRIu64 " draws in range, %" PRIu64
	       " equal for the same seed (of %" PRIu64 ")", inrange, same, n);
	tap_ok(hot > n * 935 / 1000 && hot < n * 960 / 1000,
	       "zipf 0.9: the hottest 2/3 of the pages draw %.1f%% (94.7%% expected)",
	       100.0 * hot / n);
	tap_ok(ws_zipf_init(&b, 0, 0.9, 1) == -EINVAL, "zipf over 0 pages is refused");
	ws_zipf_free(&a);
	ws_zipf_free(&b);
	free(rank_of);
}

int main(void)
{
	good("1M", WS_MiB);
	good("1200M", 1200 * WS_MiB);
	good("2G", 2 * WS_GiB);
	good("0001G", WS_GiB);
	/* the largest that fit: 2^64 - 1 MiB and 2^34 - 1 GiB */
	good("17592186044415M", 17592186044415ULL * WS_MiB);
	good("17179869183G", 17179869183ULL * WS_GiB);

	bad("17179869184G", -ERANGE);			/* 2^64 bytes: was 0 */
	bad("17592186044416M", -ERANGE);
	bad("99999999999999999999G", -ERANGE);		/* beyond 64 bits as a number */
	bad("184467440737095516160M", -ERANGE);
	bad("", -EINVAL);
	bad("M", -EINVAL);
	bad("G", -EINVAL);
	bad("12", -EINVAL);				/* no suffix */
	bad("12X", -EINVAL);
	bad("12K", -EINVAL);
	bad("12m", -EINVAL);
	bad("12MB", -EINVAL);				/* trailing garbage */
	bad("12M ", -EINVAL);
	bad("1.5G", -EINVAL);
	bad("-1G", -EINVAL);				/* negative */
	bad("-0M", -EINVAL);
	bad("+1G", -EINVAL);
	bad(" 1G", -EINVAL);
	bad("0x10M", -EINVAL);
	bad("0M", -EINVAL);
	bad("0G", -EINVAL);
	zipf();
	return tap_done();
}
