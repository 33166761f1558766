// SPDX-License-Identifier: GPL-2.0
/*
 * test_parse_size.c - ws_parse_size() (memcg/wsload.c): what it takes,
 * what it refuses, and overflow.  TAP on stdout.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
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
	return tap_done();
}
