/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cgtest.h - one function per behaviour, listed in one table, run by a loop
 * that prints TAP through kselftest.h, as tools/testing/selftests/cgroup does.
 *
 * A test returns KSFT_PASS, KSFT_FAIL or KSFT_SKIP and says why on "# "
 * lines (ksft_print_msg).  It cleans up what it created on every path.
 */
#ifndef WSR_CGTEST_H
#define WSR_CGTEST_H

#include <stdbool.h>
#include <stdint.h>

#include "kselftest.h"
#include "../memcg/memcg.h"
#include "../memcg/wsload.h"

struct cgtest {
	const char *name;
	int (*fn)(void);
};

#define CGTEST(fn) { #fn, fn }

/* -l lists the tests, -t NAME runs one; no option runs them all. */
int cgtest_main(int argc, char **argv, const struct cgtest *t, int n);

/* Data directory on the scratch disk (created on first use). */
const char *cgt_datadir(void);
/* "<datadir>/<name>" in a static buffer per call site's own array. */
void cgt_path(char *buf, int len, const char *name);

/*
 * Read PATH PASSES times in a child attached to CG (NULL: the caller's
 * cgroup), verifying the content if asked; *HIT is the last pass's hit
 * ratio.  0 or a negative errno.
 */
int cgt_read_in(struct memcg *cg, const char *path, int passes, bool verify,
		double *hit);

struct scn_run;

/*
 * The switch case's bound, for every scope that runs it: B served >= 95%
 * from cache by pass BY, and A's residency down by more than 25 points
 * from its third pass (test_memcg, test_v2).
 */
bool cgt_check_switch(const struct scn_run *d, const char *who, int by);

/* Checks that print what they compared, so a failure explains itself. */
#define CGT_CHECK(cond, fmt, ...) ({					\
	bool __ok = (cond);						\
	ksft_print_msg("%s: " fmt " [%s]\n", __ok ? "ok" : "FAILED",	\
		       ##__VA_ARGS__, #cond);				\
	__ok;								\
})

#endif
