// SPDX-License-Identifier: GPL-2.0
/*
 * wsr-overhead - what a workingset_policy costs against "activate" (6.1's
 * own code), measured in one boot, interleaved.
 *
 * Three paths:
 * - cached: 4 KiB preads at pseudo-random offsets of a file that is fully
 *   in the page cache (filemap_read() with nothing to fault in: the path
 *   every policy's hooks sit beside);
 * - refault: sequential reads of a file 1.5x a memcg's hard limit, inside
 *   that memcg: every page refaults, so the refault, charge and eviction
 *   hooks run for each; timed twice, by the wall clock and by the
 *   reader's CPU time (its reads, charges and limit reclaim, without the
 *   waits for the disk, which dominate the wall time and spread it);
 * - alloc: page-cache allocation, in the same memcg right after the
 *   refault pass has filled it: new files of 4 MiB each, half the limit
 *   in all by default, written (no fsync) and timed, then unlinked
 *   (untimed).  Every new page is charged to a memcg at its limit, so each
 *   allocation reclaims one of the loop's clean pages (and leaves a
 *   shadow entry): the allocation, charge, LRU-add and reclaim hooks, with
 *   no refault.  The files are gone before writeback would start (on
 *   cgroup v1 dirty pages are limited globally, and half the default
 *   limit, 128 MiB, stays under a 2 GiB guest's background threshold), so
 *   nothing is written to disk.  On cgroup v2 the memcg's own dirty
 *   limits (a fifth of the limit) throttle the writer: there this path
 *   times writeback too.
 *
 * Each rep runs every policy once, alternating the order (activate first
 * on odd reps, last on even ones), so that drift in the host (TCG shares
 * two cores) falls on both sides.  A policy's ratio in a rep is its time
 * over activate's in the same rep; the table gives min/median/max over
 * the reps.  One ratio is noise on these machines; the median of several
 * interleaved ones is the number to quote.
 *
 * With -H it measures the refault distance histograms instead
 * (memory.refault_histogram): vm.workingset_histogram=1 against 0, under
 * the policy in force, the same way.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cgrun.h"
#include "memcg.h"
#include "scenario.h"
#include "wsload.h"

#define MAX_POLS	4
#define MAX_REPS	50

static const char *const known[] = { "adaptive", "distance", "activate", "classic" };

static void usage(FILE *f)
{
	fprintf(f,
		"usage: wsr-overhead [-r REPS] [-P POLICIES | -H] [-s SIZE] [-l LIMIT] [-w SIZE] [-n READS] [-d DIR]\n"
		"  -r REPS      interleaved repetitions, 3-%d (default 7)\n"
		"  -P LIST      policies to compare with activate, comma-separated, from\n"
		"               adaptive, distance, classic (default adaptive,distance)\n"
		"  -s SIZE      the cached file (default 256M)\n"
		"  -l LIMIT     the refault memcg's hard limit; its file is 1.5x (default 256M)\n"
		"  -w SIZE      written into new 4 MiB files in that memcg per alloc\n"
		"               measurement, 16M to half the limit (default: half)\n"
		"  -n READS     4 KiB preads per cached measurement (default 200000)\n"
		"  -d DIR       data directory (default /scratch/wsr)\n"
		"  -H           the histograms' cost instead: vm.workingset_histogram 1 against 0\n"
		"  -h           this help\n"
		"Prints one table per path (cached, refault, refault-cpu: the loop's CPU\n"
		"time, alloc): each policy's time over activate's, min/median/max; then\n"
		"one line per measurement for wsr-report:\n"
		"  wsr-ovh,PATH,POLICY,AGAINST,REP,SECONDS,RATIO\n"
		"(AGAINST: activate, or histogram=0 with -H; RATIO: SECONDS over AGAINST's\n"
		"in the same rep).\n"
		"exit status: 0 measured, 1 failed, 2 bad usage\n", MAX_REPS);
}

static int bad_usage(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "wsr-overhead: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
	usage(stderr);
	return 2;
}

static int parse_policies(const char *list, const char **pols)
{
	char buf[128], *save = NULL, *tok;
	int n = 0;

	if (!*list || strlen(list) >= sizeof(buf)) {
		bad_usage("-P '%s': want a comma-separated list of policies", list);
		return 0;
	}
	strcpy(buf, list);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		unsigned int k;

		for (k = 0; k < sizeof(known) / sizeof(known[0]) && strcmp(known[k], tok); k++)
			;
		if (k == sizeof(known) / sizeof(known[0]) || !strcmp(tok, "activate")) {
			bad_usage("-P: '%s' is not a policy to compare (adaptive, distance, classic)",
				  tok);
			return 0;
		}
		for (int j = 1; j < n + 1; j++)
			if (pols[j] == known[k]) {
				bad_usage("-P: policy '%s' given twice", tok);
				return 0;
			}
		if (n + 1 == MAX_POLS) {
			bad_usage("-P: at most %d policies", MAX_POLS - 1);
			return 0;
		}
		pols[++n] = known[k];
	}
	if (!n)
		bad_usage("-P '%s': no policy in the list", list);
	return n;
}

static int parse_count(const char *opt, const char *s, long min, long max, long *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < min || v > max)
		return bad_usage("%s '%s': want a number from %ld to %ld", opt, s, min, max);
	*out = v;
	return 0;
}

/* The cached path: NREADS 4 KiB preads at xorshift offsets; seconds. */
static int cached_reads(const char *path, uint64_t size, long nreads, double *secs)
{
	uint64_t s = 0x2545f4914f6cdd1dULL, pages = size / 4096;
	char buf[4096];
	double t0;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return -errno;
	t0 = ws_now();
	for (long i = 0; i < nreads; i++) {
		s ^= s >> 12;
		s ^= s << 25;
		s ^= s >> 27;
		if (pread(fd, buf, sizeof(buf), (s * 0x2545F4914F6CDD1DULL) % pages * 4096) !=
		    (ssize_t)sizeof(buf)) {
			close(fd);
			return -EIO;
		}
	}
	*secs = ws_now() - t0;
	close(fd);
	return 0;
}

struct loop {
	const char *path;
	double secs;
	double cpu;		/* the reader's CPU time: its reads, charges, reclaim */
	uint64_t disk;
};

#define ALLOC_FILE	(4 * WS_MiB)
#define ALLOC_CHUNK	(64 * 1024)

/* The alloc path: NFILES new files of ALLOC_FILE in DIR. */
struct alloc {
	const char *dir;
	long nfiles;
	double secs;
};

static void alloc_name(char *buf, size_t len, const char *dir, long i)
{
	snprintf(buf, len, "%s/f%ld", dir, i);
}

/* Remove what an alloc pass (or one killed before its end) left. */
static int alloc_unlink(const char *dir, long nfiles)
{
	char path[600];
	int ret = 0;

	for (long i = 0; i < nfiles; i++) {
		alloc_name(path, sizeof(path), dir, i);
		if (unlink(path) && errno != ENOENT)
			ret = -errno;
	}
	return ret;
}

/* In the memcg: create and write the files (timed), then unlink them. */
static int alloc_pass(void *arg)
{
	static char buf[ALLOC_CHUNK];
	struct alloc *a = arg;
	char path[600];
	double t0;
	int err = 0;

	memset(buf, 0x5a, sizeof(buf));
	t0 = ws_now();
	for (long i = 0; i < a->nfiles && !err; i++) {
		int fd;

		alloc_name(path, sizeof(path), a->dir, i);
		fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd < 0) {
			err = -errno;
			break;
		}
		for (uint64_t off = 0; off < ALLOC_FILE; off += sizeof(buf)) {
			ssize_t n = write(fd, buf, sizeof(buf));

			if (n != (ssize_t)sizeof(buf)) {
				err = n < 0 ? -errno : -EIO;
				break;
			}
		}
		if (close(fd) && !err)
			err = -errno;
	}
	a->secs = ws_now() - t0;
	if (err)
		fprintf(stderr, "wsr-overhead: %s: %s\n", path, strerror(-err));
	return alloc_unlink(a->dir, a->nfiles) ?: err;
}

/* In the memcg: one sequential pass of a file 1.5x its limit. */
static int refault_pass(void *arg)
{
	struct loop *l = arg;
	struct ws_pass p;
	double c0 = ws_cpu_now();
	int err = ws_read_pass(l->path, false, &p);

	l->cpu = ws_cpu_now() - c0;
	l->secs = p.secs;
	l->disk = p.disk_bytes;
	return err;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(const double *sorted, int n)
{
	return n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
}

#define HIST_SYSCTL	"/proc/sys/vm/workingset_histogram"

/* A policy, or "histogram=0|1": vm.workingset_histogram. */
static int apply(const char *what)
{
	if (!strncmp(what, "histogram=", 10))
		return ws_file_write(HIST_SYSCTL, what + 10);
	return scn_set_policy(what);
}

static void print_table(const char *what, const char **pols, int npols,
			double t[][MAX_REPS], int reps, const char *unit, double scale)
{
	printf("%s: time over %s's, %d interleaved reps\n", what, pols[0], reps);
	printf("  %-11s %10s %10s %10s %12s\n", "policy", "min", "median", "max", unit);
	for (int k = 0; k < npols; k++) {
		double r[MAX_REPS], abs[MAX_REPS];

		for (int i = 0; i < reps; i++) {
			r[i] = t[k][i] / t[0][i];
			abs[i] = t[k][i];
		}
		qsort(r, reps, sizeof(r[0]), cmp_double);
		qsort(abs, reps, sizeof(abs[0]), cmp_double);
		printf("  %-11s %10.4f %10.4f %10.4f %12.2f\n", pols[k], r[0], median(r, reps),
		       r[reps - 1], median(abs, reps) * scale);
	}
	for (int k = 1; k < npols; k++) {
		double r[MAX_REPS];

		for (int i = 0; i < reps; i++)
			r[i] = t[k][i] / t[0][i];
		qsort(r, reps, sizeof(r[0]), cmp_double);
		printf("  %s: median %+.2f%% against %s (spread %+.2f%% .. %+.2f%%): %s\n",
		       pols[k], 100 * (median(r, reps) - 1), pols[0], 100 * (r[0] - 1), 100 * (r[reps - 1] - 1),
		       median(r, reps) <= 1.01 ? "within the 1% bound" : "OVER the 1% bound");
	}
	printf("\n");
	fflush(stdout);
}

/*
 * The measurements, one line each, for memcg/wsr-report: path, policy,
 * the policy it is compared with, rep (1-based), seconds, ratio.
 */
static void print_rows(const char *path, const char **pols, int npols,
		       double t[][MAX_REPS], int reps)
{
	for (int i = 0; i < reps; i++)
		for (int k = 0; k < npols; k++)
			printf("wsr-ovh,%s,%s,%s,%d,%.6f,%.4f\n", path, pols[k], pols[0], i + 1,
			       t[k][i], t[k][i] / t[0][i]);
}

int main(int argc, char **argv)
{
	const char *pols[MAX_POLS] = { "activate", "adaptive", "distance" };
	const char *dir = "/scratch/wsr";
	uint64_t size = 256 * WS_MiB, limit = 256 * WS_MiB, wsize = 0;
	static double tc[MAX_POLS][MAX_REPS], tr[MAX_POLS][MAX_REPS], ta[MAX_POLS][MAX_REPS];
	static double trc[MAX_POLS][MAX_REPS];
	long reps = 7, nreads = 200000;
	char cpath[512], rpath[512], apath[512];
	int npols = 3, opt, err, ret = 1;
	struct memcg *cg = NULL;
	struct loop *l = NULL;
	struct alloc *a = NULL;
	const char *wsize_arg = NULL;
	double warm;

	bool hist = false, given_p = false;
	char policy[32] = "";

	while ((opt = getopt(argc, argv, "r:P:s:l:w:n:d:Hh")) != -1) {
		switch (opt) {
		case 'H':
			hist = true;
			break;
		case 'r':
			if (parse_count("-r", optarg, 3, MAX_REPS, &reps))
				return 2;
			break;
		case 'n':
			if (parse_count("-n", optarg, 1000, 100000000, &nreads))
				return 2;
			break;
		case 'P':
			npols = parse_policies(optarg, pols);
			if (!npols)
				return 2;
			npols++;
			given_p = true;
			break;
		case 's':
		case 'l':
			err = ws_parse_size(optarg, opt == 's' ? &size : &limit);
			if (err || (opt == 's' ? size : limit) < 64 * WS_MiB ||
			    (opt == 's' ? size : limit) > 64 * WS_GiB)
				return bad_usage("-%c '%s': want a size from 64M to 64G, e.g. 256M",
						 opt, optarg);
			break;
		case 'w':
			err = ws_parse_size(optarg, &wsize);
			if (err || wsize < 16 * WS_MiB)
				return bad_usage("-w '%s': want a size from 16M to half the limit, e.g. 128M",
						 optarg);
			wsize_arg = optarg;
			break;
		case 'd':
			dir = optarg;
			if (!*dir || strlen(dir) > 400)
				return bad_usage("-d '%s': want a directory path of 1-400 characters",
						 dir);
			break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (optind != argc)
		return bad_usage("unexpected argument '%s'", argv[optind]);
	if (hist && given_p)
		return bad_usage("-H and -P exclude each other");
	limit -= limit % WS_MiB;
	if (!wsize_arg)
		wsize = limit / 2;
	else if (wsize > limit / 2)
		return bad_usage("-w %s: over half the limit (%" PRIu64 "M): the writes would have to reclaim their own dirty pages",
				 wsize_arg, limit / WS_MiB);
	wsize -= wsize % ALLOC_FILE;
	if (hist) {
		if (access(HIST_SYSCTL, W_OK)) {
			fprintf(stderr, "wsr-overhead: %s: %s (a kernel without the refault histogram?)\n",
				HIST_SYSCTL, strerror(errno));
			return 1;
		}
		pols[0] = "histogram=0";
		pols[1] = "histogram=1";
		npols = 2;
		ws_file_read("/proc/sys/vm/workingset_policy", policy, sizeof(policy));
		policy[strcspn(policy, "\n")] = 0;
	}
	size -= size % WS_MiB;

	snprintf(cpath, sizeof(cpath), "%s/overhead-cached", dir);
	snprintf(rpath, sizeof(rpath), "%s/overhead-loop", dir);
	snprintf(apath, sizeof(apath), "%s/overhead-new", dir);
	if ((mkdir(dir, 0755) && errno != EEXIST) || ws_dataset(cpath, size) ||
	    ws_dataset(rpath, limit / 2 * 3 - limit / 2 * 3 % WS_MiB) ||
	    (mkdir(apath, 0755) && errno != EEXIST)) {
		fprintf(stderr, "wsr-overhead: cannot make the data sets in %s\n", dir);
		return 1;
	}
	if (memcg_lib_init() || memcg_cleanup_on_signal()) {
		fprintf(stderr, "wsr-overhead: %s\n", memcg_strerror());
		return 1;
	}
	l = cg_shared(sizeof(*l));
	a = cg_shared(sizeof(*a));
	if (!l || !a)
		return 1;
	l->path = rpath;
	a->dir = apath;
	a->nfiles = wsize / ALLOC_FILE;
	/* a run killed in the alloc path may have left its files */
	if (alloc_unlink(apath, a->nfiles > 1024 ? a->nfiles : 1024)) {
		fprintf(stderr, "wsr-overhead: cannot remove the files left in %s\n", apath);
		return 1;
	}
	cg = memcg_create("wsr-overhead", limit);
	if (!cg) {
		fprintf(stderr, "wsr-overhead: memcg wsr-overhead: %s\n", memcg_strerror());
		goto out;
	}
	printf("wsr-overhead: cached %" PRIu64 " MiB, %ld preads; refault loop %" PRIu64
	       " MiB in a memcg at %" PRIu64 " MiB; alloc %ld new files, %" PRIu64
	       " MiB, there; %ld reps, order alternating%s%s\n",
	       size / WS_MiB, nreads, (limit / 2 * 3) / WS_MiB, limit / WS_MiB, a->nfiles,
	       wsize / WS_MiB, reps,
	       hist ? "; vm.workingset_histogram 1 against 0 under policy " : "", hist ? policy : "");
	/*
	 * warm: the cached file in, the loop file through the memcg once, and
	 * the new files once (each measurement's memcg then starts as it left
	 * the previous one's alloc pass)
	 */
	if (cached_reads(cpath, size, nreads, &warm) || ws_read_pass(cpath, false, &(struct ws_pass){ 0 }) ||
	    cg_run(cg, refault_pass, l) || cg_run(cg, alloc_pass, a)) {
		fprintf(stderr, "wsr-overhead: warm-up failed\n");
		goto out;
	}
	for (long i = 0; i < reps; i++) {
		for (int j = 0; j < npols; j++) {
			int k = i % 2 ? npols - 1 - j : j;
			bool failed;

			err = apply(pols[k]);
			if (err) {
				fprintf(stderr, "wsr-overhead: policy %s: %s\n", pols[k], strerror(-err));
				goto out;
			}
			/* the cached file back in, should the loop have pushed any out */
			failed = ws_read_pass(cpath, false, &(struct ws_pass){ 0 }) ||
				 cached_reads(cpath, size, nreads, &tc[k][i]) ||
				 cg_run(cg, refault_pass, l);
			tr[k][i] = l->secs;
			trc[k][i] = l->cpu;
			/* right after the loop has filled the memcg */
			failed = failed || cg_run(cg, alloc_pass, a);
			ta[k][i] = a->secs;
			if (failed) {
				fprintf(stderr, "wsr-overhead: rep %ld, %s: a measurement failed\n",
					i + 1, pols[k]);
				goto out;
			}
		}
		fprintf(stderr, "# progress: rep %ld of %ld\n", i + 1, reps);
	}
	print_table("cached 4 KiB preads", pols, npols, tc, reps, "us/read", 1e6 / nreads);
	print_table("refault loop (1.5x the limit, every page refaults)", pols, npols, tr, reps,
		    "s/pass", 1);
	print_table("refault loop, the reader's CPU time (its reads, charges and reclaim; not the disk)",
		    pols, npols, trc, reps, "s/pass", 1);
	print_table("alloc (new files written into the full memcg: each page reclaims one)",
		    pols, npols, ta, reps, "us/page", 1e6 / (wsize / 4096));
	print_rows("cached", pols, npols, tc, reps);
	print_rows("refault", pols, npols, tr, reps);
	print_rows("refault-cpu", pols, npols, trc, reps);
	print_rows("alloc", pols, npols, ta, reps);
	fflush(stdout);
	ret = 0;
out:
	if (hist)
		ws_file_write(HIST_SYSCTL, "1");
	else
		scn_set_policy("distance");
	if (cg && memcg_destroy(cg))
		fprintf(stderr, "wsr-overhead: %s\n", memcg_strerror());
	if (l)
		cg_unshare(l, sizeof(*l));
	if (a) {
		rmdir(apath);
		cg_unshare(a, sizeof(*a));
	}
	return ret;
}
