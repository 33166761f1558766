// SPDX-License-Identifier: GPL-2.0
/*
 * test_sizing.c - per-memcg refault distance histograms
 * (memory.refault_histogram) and the hit ratios predicted from them.
 *
 * Each prediction test runs a workload in a cgroup-v1 memcg at a limit L,
 * resets the memcg's histogram after a warm-up, and measures the
 * interval that follows: page reads (accesses), reads from storage
 * (misses) and the histogram.  From them it predicts the hit ratio at two
 * larger limits (memcg/mrc.c, what wsr-predict prints), then runs the
 * same workload, the same reads in the same order, at those limits and
 * measures.  Prediction and measurement must agree within 5 points.
 * On a kernel without the histogram every test fails: the file is
 * missing.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "cgtest.h"
#include "../memcg/mrc.h"

/* The limit the predictions start from: under 1 GiB (inactive ratio 1). */
#define LIMIT		cgt_scaled(256 * WS_MiB)
/* Prediction and measurement agree within this (points). */
#define AGREE		5.0
#define ZIPF_ALPHA	0.9
#define ZIPF_SEED	0x512eULL

enum wl_kind { WL_LOOP, WL_SWITCH, WL_ZIPF };

struct wl {
	enum wl_kind kind;
	const char *name;
	uint64_t bytes[2];		/* its sets: of LIMIT, fixed across limits */
	char paths[2][256];
	double factors[3];		/* the larger limits, as multiples of LIMIT */
	bool counted[3];		/* the two asserted; the other reported */
	const char *why;		/* why the other is not */
};

/* Measured by the child in the interval after the reset. */
struct interval {
	uint64_t bytes, disk_bytes;
	uint64_t refaults0;	/* workingset_refault_file at the reset */
	double secs;
	int err;
};

struct wl_run {
	const struct wl *w;
	struct memcg *cg;
	struct interval *iv;	/* shared */
};

static int pass(const char *path, struct interval *iv, bool count)
{
	struct ws_pass p = { 0 };
	int err = ws_read_pass(path, false, &p);

	if (!err && count) {
		iv->bytes += p.bytes;
		iv->disk_bytes += p.disk_bytes;
	}
	return err;
}

static int zipf_rounds(const char *path, uint64_t bytes, int rounds, struct interval *iv,
		       bool count, struct ws_zipf *z)
{
	uint64_t pages = bytes / 4096;
	int err = 0;

	for (int r = 0; !err && r < rounds; r++) {
		struct ws_pass p = { 0 };

		err = ws_read_zipf(path, z, pages, false, &p);
		if (!err && count) {
			iv->bytes += p.bytes;
			iv->disk_bytes += p.disk_bytes;
		}
	}
	return err;
}

/* In the memcg: warm up, reset the histogram, run the measured interval. */
static int wl_child(void *arg)
{
	struct wl_run *r = arg;
	const struct wl *w = r->w;
	struct interval *iv = r->iv;
	struct ws_zipf z;
	double t0;
	int err = 0, i;

	switch (w->kind) {
	case WL_LOOP:		/* a set of 1.5 L read in a loop: 1 pass, then 4 */
		err = pass(w->paths[0], iv, false);
		break;
	case WL_SWITCH:		/* A read 3 times, then B 4 times */
		for (i = 0; !err && i < 3; i++)
			err = pass(w->paths[0], iv, false);
		break;
	case WL_ZIPF:		/* filled, 2 rounds, then 3 */
		err = ws_zipf_init(&z, w->bytes[0] / 4096, ZIPF_ALPHA, ZIPF_SEED);
		if (!err)
			err = pass(w->paths[0], iv, false);
		if (!err)
			err = zipf_rounds(w->paths[0], w->bytes[0], 2, iv, false, &z);
		break;
	}
	if (!err) {
		struct memcg_stat *st = malloc(sizeof(*st));

		if (!st || memcg_reset_hist(r->cg) || memcg_read_stat(r->cg, st)) {
			ksft_print_msg("%s\n", st ? memcg_strerror() : "out of memory");
			err = -EIO;
		} else {
			iv->refaults0 = memcg_stat_hier(st, "workingset_refault_file");
		}
		free(st);
	}
	t0 = ws_now();
	switch (w->kind) {
	case WL_LOOP:
		for (i = 0; !err && i < 4; i++)
			err = pass(w->paths[0], iv, true);
		break;
	case WL_SWITCH:
		for (i = 0; !err && i < 4; i++)
			err = pass(w->paths[1], iv, true);
		break;
	case WL_ZIPF:
		if (!err)
			err = zipf_rounds(w->paths[0], w->bytes[0], 3, iv, true, &z);
		ws_zipf_free(&z);
		break;
	}
	iv->secs = ws_now() - t0;
	iv->err = err;
	return err ? 1 : 0;
}

/*
 * Run W in a fresh memcg at LIMIT from an empty page cache; its interval
 * in *IV and, if H, the histogram and the memcg's workingset_refault_file
 * over it in *H and *REFAULTS.
 */
static int wl_run(const struct wl *w, uint64_t limit, struct interval *out,
		  struct memcg_hist *h, uint64_t *refaults)
{
	struct wl_run r = { .w = w };
	struct memcg_stat *st = NULL;
	int err;

	r.iv = cg_shared(sizeof(*r.iv));
	if (!r.iv)
		return -ENOMEM;
	r.cg = cgt_memcg("sizing", limit);
	if (!r.cg) {
		ksft_print_msg("%s\n", memcg_strerror());
		cg_unshare(r.iv, sizeof(*r.iv));
		return -EIO;
	}
	ws_drop_caches();
	err = cg_run(r.cg, wl_child, &r);
	*out = *r.iv;
	if (err || r.iv->err) {
		ksft_print_msg("%s at %" PRIu64 " MiB: the workload failed (%s)\n", w->name,
			       limit / WS_MiB, strerror(r.iv->err ? -r.iv->err : EIO));
		err = -EIO;
	}
	if (!err && h) {
		st = malloc(sizeof(*st));
		if (!st || memcg_read_hist(r.cg, h) || memcg_read_stat(r.cg, st)) {
			ksft_print_msg("%s\n", st ? memcg_strerror() : "out of memory");
			err = -EIO;
		} else {
			*refaults = memcg_stat_hier(st, "workingset_refault_file") - r.iv->refaults0;
		}
		free(st);
	}
	memcg_destroy(r.cg);
	cg_unshare(r.iv, sizeof(*r.iv));
	return err;
}

static double hit_of(const struct interval *iv)
{
	return iv->bytes ? 1 - (double)iv->disk_bytes / (double)iv->bytes : -1;
}

static void print_hist(const struct memcg_hist *h)
{
	char line[256];
	int len = 0;

	for (int i = 0; i < h->nr; i++) {
		if (!h->local[i])
			continue;
		if (h->bound[i] == UINT64_MAX)
			len += snprintf(line + len, sizeof(line) - len, " inf:%" PRIu64, h->local[i]);
		else
			len += snprintf(line + len, sizeof(line) - len, " <%" PRIu64 ":%" PRIu64,
					h->bound[i], h->local[i]);
		if (len > 200) {
			ksft_print_msg("  histogram (pages at distance):%s\n", line);
			len = 0;
		}
	}
	if (len)
		ksft_print_msg("  histogram (pages at distance):%s\n", line);
}

static int wl_setup(struct wl *w)
{
	for (int i = 0; i < 2 && w->bytes[i]; i++) {
		char name[64];
		int err;

		snprintf(name, sizeof(name), "sizing-%s-%c", w->name, 'a' + i);
		cgt_path(w->paths[i], sizeof(w->paths[i]), name);
		err = ws_dataset(w->paths[i], w->bytes[i]);
		if (err) {
			ksft_print_msg("%s: %s\n", w->paths[i], strerror(-err));
			return err;
		}
	}
	return 0;
}

/* Run W at LIMIT, predict at its two larger limits, measure there, compare. */
static int predict_test(struct wl *w)
{
	static const double curve[] = { 1.0, 1.1, 1.25, 1.5, 1.75, 2.0, 3.0, 4.0 };
	struct memcg_hist h;
	struct interval iv;
	uint64_t limit = LIMIT, refaults, sum, want;
	double hit, pred[3], meas[3];
	struct mrc m;
	bool ok = true;
	int i;

	if (memcg_lib_init() || wl_setup(w))
		return KSFT_FAIL;
	if (wl_run(w, limit, &iv, &h, &refaults))
		return KSFT_FAIL;
	hit = hit_of(&iv);
	sum = memcg_hist_sum(&h, false);
	m = (struct mrc){ .nr = h.nr, .bound = h.bound, .pages = h.local,
			  .accesses = (double)(iv.bytes / 4096),
			  .misses = (double)(iv.disk_bytes / 4096), .limit = limit };
	if (m.misses < (double)sum)
		m.misses = (double)sum;
	ksft_print_msg("%s at %" PRIu64 " MiB: %" PRIu64 " page reads, %" PRIu64
		       " from storage (hit %.1f%%), %" PRIu64 " refaults in the histogram, %.1f s\n",
		       w->name, limit / WS_MiB, iv.bytes / 4096, iv.disk_bytes / 4096, 100 * hit, sum,
		       iv.secs);
	print_hist(&h);
	ok &= CGT_CHECK(sum > 0, "%s: the histogram counted the refaults (%" PRIu64 " pages)",
			w->name, sum);
	/* both are counted where the refault is seen; stats may lag a flush */
	ok &= CGT_CHECK(cgt_close(sum, refaults, 2),
			"%s: histogram %" PRIu64 " pages vs memory.stat workingset_refault_file %" PRIu64
			" (within 2%%)", w->name, sum, refaults);
	ok &= CGT_CHECK(memcg_hist_sum(&h, true) == sum, "%s: total_ lines equal the memcg's own (no children)",
			w->name);

	ksft_print_msg("  predicted curve:  limit MiB   hit%%\n");
	for (i = 0; i < (int)(sizeof(curve) / sizeof(curve[0])); i++) {
		uint64_t l = (uint64_t)(limit * curve[i]);

		ksft_print_msg("                    %9" PRIu64 " %6.1f\n", l / WS_MiB,
			       100 * mrc_hit_at(&m, l));
	}
	if (!mrc_limit_for(&m, 0.95, &want))
		ksft_print_msg("  for 95%%: %" PRIu64 " MiB; knee %" PRIu64 " MiB\n", want / WS_MiB,
			       mrc_knee(&m) / WS_MiB);

	for (i = 0; i < 3; i++) {
		uint64_t l = (uint64_t)(limit * w->factors[i]) / WS_MiB * WS_MiB;
		bool agree;

		pred[i] = mrc_hit_at(&m, l);
		if (wl_run(w, l, &iv, NULL, NULL))
			return KSFT_FAIL;
		meas[i] = hit_of(&iv);
		agree = fabs(pred[i] - meas[i]) * 100 <= AGREE;
		if (w->counted[i]) {
			ok &= CGT_CHECK(agree, "%s at %" PRIu64 " MiB (x%.2f): predicted %.1f%%, measured %.1f%% (within %.0f points)",
					w->name, l / WS_MiB, w->factors[i], 100 * pred[i], 100 * meas[i], AGREE);
		} else {
			ksft_print_msg("%s: %s at %" PRIu64 " MiB (x%.2f): predicted %.1f%%, measured %.1f%% (reported, not counted: %s)\n",
				       agree ? "ok" : "differs", w->name, l / WS_MiB, w->factors[i],
				       100 * pred[i], 100 * meas[i], w->why);
		}
	}
	ksft_print_msg("%s:     limit x1.00 x%.2f x%.2f x%.2f\n", w->name, w->factors[0],
		       w->factors[1], w->factors[2]);
	ksft_print_msg("  predicted      %5.1f %5.1f %5.1f %5.1f\n", 100 * hit, 100 * pred[0],
		       100 * pred[1], 100 * pred[2]);
	ksft_print_msg("  measured       %5.1f %5.1f %5.1f %5.1f\n", 100 * hit, 100 * meas[0],
		       100 * meas[1], 100 * meas[2]);
	/* the control: the larger limits must matter, or agreeing says nothing */
	ok &= CGT_CHECK(meas[2] - hit >= 0.05,
			"%s: the largest limit gains %.1f points (%.1f%% -> %.1f%%), at least 5: the prediction is tested on a change",
			w->name, 100 * (meas[2] - hit), 100 * hit, 100 * meas[2]);
	return ok ? KSFT_PASS : KSFT_FAIL;
}

/* A set of 1.5 L read in a loop. */
static int test_predict_loop(void)
{
	struct wl w = { .kind = WL_LOOP, .name = "loop",
			.bytes = { LIMIT * 3 / 2 / WS_MiB * WS_MiB },
			.factors = { 1.25, 1.5, 2.0 }, .counted = { true, false, true },
			.why = "the loop's refaults sit in one bucket, and x1.5 falls inside it" };

	return predict_test(&w);
}

/*
 * The switch case: A (0.7 L) read 3 times, then B (0.7 L) 4 times.  At
 * x1.25, A and B do not fit together: how soon B is served then depends
 * on how fast the policy hands A's memory to B, which the distances (LRU
 * order) do not know.  From x1.5 both fit.
 */
static int test_predict_switch(void)
{
	struct wl w = { .kind = WL_SWITCH, .name = "switch",
			.bytes = { LIMIT * 7 / 10 / WS_MiB * WS_MiB, LIMIT * 7 / 10 / WS_MiB * WS_MiB },
			.factors = { 1.25, 1.5, 2.0 }, .counted = { false, true, true },
			.why = "A and B do not fit together: the policy's speed decides, not the memory" };

	return predict_test(&w);
}

/* Zipf 0.9 4 KiB random reads over 1.5 L. */
static int test_predict_zipf(void)
{
	struct wl w = { .kind = WL_ZIPF, .name = "zipf",
			.bytes = { LIMIT * 3 / 2 / WS_MiB * WS_MiB },
			.factors = { 1.25, 1.5, 2.0 }, .counted = { true, false, true },
			.why = "the curve's third point" };

	return predict_test(&w);
}

static int run_tool(const char *cmd, char *out, size_t len)
{
	FILE *f = popen(cmd, "r");
	size_t n;
	int st;

	if (!f)
		return -1;
	n = fread(out, 1, len - 1, f);
	out[n] = 0;
	st = pclose(f);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/*
 * A memcg whose set fits: no refaults, an empty histogram, and
 * wsr-predict says the limit holds the working set.
 */
static int test_histogram_empty(void)
{
	char path[256], cmd[512], out[4096];
	struct memcg_hist h;
	struct memcg *cg;
	bool ok = true;
	int rc;

	if (memcg_lib_init())
		return KSFT_FAIL;
	cgt_path(path, sizeof(path), "sizing-small");
	if (ws_dataset(path, LIMIT / 4 / WS_MiB * WS_MiB))
		return KSFT_FAIL;
	cg = cgt_memcg("sizing_empty", LIMIT);
	if (!cg)
		return KSFT_FAIL;
	ws_drop_caches();
	if (memcg_reset_hist(cg) || cgt_read_in(cg, path, 3, false, NULL) ||
	    memcg_read_hist(cg, &h)) {
		ksft_print_msg("%s\n", memcg_strerror());
		memcg_destroy(cg);
		return KSFT_FAIL;
	}
	ok &= CGT_CHECK(h.nr > 0 && memcg_hist_sum(&h, false) == 0 && memcg_hist_sum(&h, true) == 0,
			"%" PRIu64 "M read 3 times at %" PRIu64 "M: histogram empty (%" PRIu64 " pages)",
			LIMIT / 4 / WS_MiB, LIMIT / WS_MiB, memcg_hist_sum(&h, true));
	snprintf(cmd, sizeof(cmd), "wsr-predict -g %s -A %" PRIu64 " -M %" PRIu64 " 2>&1", memcg_name(cg),
		 LIMIT / 4 / 4096 * 3, LIMIT / 4 / 4096);
	rc = run_tool(cmd, out, sizeof(out));
	ksft_print_msg("%s", out);
	ok &= CGT_CHECK(rc == 0 && strstr(out, "no refaults: the current limit already holds the working set"),
			"wsr-predict: exit %d, says the limit holds the working set", rc);
	/* bad input: exit 2, nothing touched */
	snprintf(cmd, sizeof(cmd), "wsr-predict -g %s -t 150 2>&1", memcg_name(cg));
	rc = run_tool(cmd, out, sizeof(out));
	ok &= CGT_CHECK(rc == 2 && strstr(out, "usage:"), "wsr-predict -t 150: exit %d, usage", rc);
	snprintf(cmd, sizeof(cmd), "wsr-predict -g %s_nosuch 2>&1", memcg_name(cg));
	rc = run_tool(cmd, out, sizeof(out));
	ok &= CGT_CHECK(rc == 1 && strstr(out, "does not exist"),
			"wsr-predict on a missing memcg: exit %d, '%.*s'", rc,
			(int)strcspn(out, "\n"), out);
	memcg_destroy(cg);
	return ok ? KSFT_PASS : KSFT_FAIL;
}

struct loop_for {
	char path[256];
	double secs;
	volatile int warm;	/* the first pass is done */
};

/* One pass (first touches), then passes for SECS. */
static int loop_for(void *arg)
{
	struct loop_for *l = arg;
	struct ws_pass p;
	double end;

	if (ws_read_pass(l->path, false, &p))
		return 1;
	l->warm = 1;
	end = ws_now() + l->secs;
	while (ws_now() < end)
		if (ws_read_pass(l->path, false, &p))
			return 1;
	return 0;
}

/*
 * wsr-predict -w on a running container: a reader loops over 1.5x its
 * memcg's limit; after its first pass, wsr-predict -w 2 -n 2 -j watches
 * it.  Each interval reports the reader's accesses and refaults, and
 * predicts >= 95% at x2, where the loop fits.
 */
static int test_predict_watch(void)
{
	struct loop_for *l = cg_shared(sizeof(*l));
	uint64_t lim = cgt_scaled_min(192 * WS_MiB, 128 * WS_MiB);
	char cmd[512], out[8192];
	struct memcg *cg;
	bool ok;
	pid_t pid;
	int rc;

	if (!l || memcg_lib_init())
		return KSFT_FAIL;
	cgt_path(l->path, sizeof(l->path), "sizing-sib-x");
	l->secs = 6;
	if (ws_dataset(l->path, lim * 3 / 2 / WS_MiB * WS_MiB))
		return KSFT_FAIL;
	cg = cgt_memcg("sizing_watch", lim);
	if (!cg)
		return KSFT_FAIL;
	/* the set may be cached, charged to an earlier test's memcg */
	ws_drop_caches();
	pid = cg_run_nowait(cg, loop_for, l);
	if (pid < 0) {
		memcg_destroy(cg);
		return KSFT_FAIL;
	}
	while (!l->warm && !waitpid(pid, NULL, WNOHANG))
		usleep(100000);
	snprintf(cmd, sizeof(cmd), "wsr-predict -g %s -w 2 -n 2 -j 2>&1", memcg_name(cg));
	rc = run_tool(cmd, out, sizeof(out));
	ksft_print_msg("%s", out);
	cg_wait(pid);
	ok = CGT_CHECK(rc == 0, "wsr-predict -w 2 -n 2: exit %d", rc);
	{
		const char *p = out;
		int n = 0, good = 0;

		while ((p = strstr(p, "\"accesses\": "))) {
			double acc = atof(p + 12), hit2 = -1;
			const char *r = strstr(p, "\"refaults\": ");
			const char *x2 = strstr(p, "\"factor\": 2.00");
			const char *h = x2 ? strstr(x2, "\"hit\": ") : NULL;

			if (h)
				hit2 = atof(h + 7);
			n++;
			good += acc > 0 && r && atof(r + 12) > 0 && hit2 >= 0.95;
			p++;
		}
		ok &= CGT_CHECK(n == 2 && good == 2,
				"2 intervals, each with the reader's accesses and refaults, predicting >= 95%% at x2 (%d of %d)",
				good, n);
	}
	memcg_destroy(cg);
	return ok ? KSFT_PASS : KSFT_FAIL;
}

struct sib {
	char path[256];
	int passes;
};

static int sib_read(void *arg)
{
	struct sib *s = arg;
	struct ws_pass p;
	int err = 0;

	for (int i = 0; !err && i < s->passes; i++)
		err = ws_read_pass(s->path, false, &p);
	return err ? 1 : 0;
}

/*
 * Two siblings under one parent, each with its own limit: X loops over
 * 1.5x its limit, Y reads a set that fits.  X's histogram has X's
 * refaults, Y's none; the parent's total_ lines are X's, its own lines
 * empty.  A reset of X leaves the parent's totals.
 */
static int test_histogram_siblings(void)
{
	struct sib *x = cg_shared(sizeof(*x)), *y = cg_shared(sizeof(*y));
	struct memcg_hist hx, hy, hp, hp2;
	struct memcg *p = NULL, *cx = NULL, *cy = NULL;
	uint64_t lim = cgt_scaled_min(192 * WS_MiB, 128 * WS_MiB);
	bool ok = false;
	pid_t px, py;

	if (!x || !y || memcg_lib_init())
		return KSFT_FAIL;
	cgt_path(x->path, sizeof(x->path), "sizing-sib-x");
	cgt_path(y->path, sizeof(y->path), "sizing-sib-y");
	x->passes = 3;
	y->passes = 3;
	if (ws_dataset(x->path, lim * 3 / 2 / WS_MiB * WS_MiB) || ws_dataset(y->path, lim / 2 / WS_MiB * WS_MiB))
		return KSFT_FAIL;
	p = cgt_memcg("sizing_par", 0);
	cx = p ? memcg_create(cgt_name("sizing_par/x"), lim) : NULL;
	cy = cx ? memcg_create(cgt_name("sizing_par/y"), lim) : NULL;
	if (!cy) {
		ksft_print_msg("%s\n", memcg_strerror());
		goto out;
	}
	ws_drop_caches();
	px = cg_run_nowait(cx, sib_read, x);
	py = cg_run_nowait(cy, sib_read, y);
	if (px < 0 || py < 0 || cg_wait(px) || cg_wait(py)) {
		ksft_print_msg("the readers failed\n");
		goto out;
	}
	if (memcg_read_hist(cx, &hx) || memcg_read_hist(cy, &hy) || memcg_read_hist(p, &hp)) {
		ksft_print_msg("%s\n", memcg_strerror());
		goto out;
	}
	ok = CGT_CHECK(memcg_hist_sum(&hx, false) > 0, "x (loop of 1.5x its limit): %" PRIu64 " refaults",
		       memcg_hist_sum(&hx, false));
	ok &= CGT_CHECK(memcg_hist_sum(&hy, true) == 0, "y (set fits): %" PRIu64 " refaults",
			memcg_hist_sum(&hy, true));
	ok &= CGT_CHECK(memcg_hist_sum(&hp, false) == 0, "parent's own lines: %" PRIu64 " (nothing evicted by it)",
			memcg_hist_sum(&hp, false));
	ok &= CGT_CHECK(memcg_hist_sum(&hp, true) == memcg_hist_sum(&hx, true),
			"parent's total_ lines: %" PRIu64 ", x's: %" PRIu64, memcg_hist_sum(&hp, true),
			memcg_hist_sum(&hx, true));
	{
		struct memcg *root = memcg_adopt("/");
		struct memcg_hist hr;

		ok &= CGT_CHECK(root && !memcg_read_hist(root, &hr) &&
				memcg_hist_sum(&hr, true) >= memcg_hist_sum(&hp, true),
				"the root's total_ lines (global reclaim and every memcg): %" PRIu64
				" >= the parent's", root ? memcg_hist_sum(&hr, true) : 0);
		if (root)
			memcg_release(root);
	}
	if (memcg_reset_hist(cx) || memcg_read_hist(cx, &hx) || memcg_read_hist(p, &hp2)) {
		ksft_print_msg("%s\n", memcg_strerror());
		ok = false;
		goto out;
	}
	ok &= CGT_CHECK(memcg_hist_sum(&hx, true) == 0 && memcg_hist_sum(&hp2, true) == memcg_hist_sum(&hp, true),
			"after resetting x: x %" PRIu64 ", parent's total_ %" PRIu64 " (as before)",
			memcg_hist_sum(&hx, true), memcg_hist_sum(&hp2, true));
	/* a bad write is refused, and the histogram stays */
	ok &= CGT_CHECK(memcg_set_value(cx, "memory.refault_histogram", "5") < 0,
			"writing 5 to memory.refault_histogram is refused: %s", memcg_strerror());
out:
	if (cy)
		memcg_destroy(cy);
	if (cx)
		memcg_destroy(cx);
	if (p)
		memcg_destroy(p);
	return ok ? KSFT_PASS : KSFT_FAIL;
}

static const struct cgtest tests[] = {
	CGTEST(test_histogram_empty),
	CGTEST(test_histogram_siblings),
	CGTEST(test_predict_watch),
	CGTEST(test_predict_loop),
	CGTEST(test_predict_switch),
	CGTEST(test_predict_zipf),
};

int main(int argc, char **argv)
{
	return cgtest_main(argc, argv, tests, ARRAY_SIZE(tests));
}
