// SPDX-License-Identifier: GPL-2.0
/*
 * wsr-predict - how much memory does this container need?
 *
 * Reads a memcg's refault distance histogram (memory.refault_histogram)
 * and predicts the hit ratio its workload would get at larger limits: a
 * refault at distance D would have been a hit had the memcg's file cache
 * been D pages larger (see mrc.h).  Three ways to run it:
 *
 *	wsr-predict -g MEMCG -- CMD [ARG...]
 *		run CMD in MEMCG from a fresh histogram; the accesses and
 *		misses are CMD's own (read() bytes and bytes from storage,
 *		/proc/self/io of the waited-for child)
 *	wsr-predict -g MEMCG -w SECONDS [-n COUNT]
 *		a running container: every SECONDS, the curve of the last
 *		SECONDS; accesses and misses are those of the tasks in the
 *		memcg and below (/proc/PID/io)
 *	wsr-predict -g MEMCG [-A PAGES -M PAGES]
 *		the histogram as it stands (since the last reset); the hit
 *		ratios need the accesses and misses given
 *
 * read() is what /proc/PID/io counts: accesses through mmap are not seen;
 * give them with -A (and the misses with -M) where they matter.
 * Exit status: 0 done, 1 failed, 2 bad usage.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "memcg.h"
#include "mrc.h"
#include "wsload.h"

static const double factors[] = { 1.0, 1.1, 1.25, 1.5, 2.0, 4.0 };
#define NFACTORS (int)(sizeof(factors) / sizeof(factors[0]))

struct opts {
	const char *memcg;
	double target;
	double watch;
	long count;
	double accesses, misses;
	bool json, ascii, reset;
	const char *plot;
	char **cmd;
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: wsr-predict -g MEMCG [options] [-- CMD [ARG...]]\n"
		"  -g MEMCG     the memcg (it must exist; cgroup v1 or v2; / for global reclaim)\n"
		"  -t PERCENT   the hit ratio to size for (default 95): prints the smallest limit\n"
		"               predicted to reach it\n"
		"  -w SECONDS   watch: every SECONDS, the curve of the last SECONDS\n"
		"  -n COUNT     with -w: stop after COUNT intervals (default: until interrupted)\n"
		"  -A PAGES     page reads of the interval (accesses), where /proc/PID/io cannot\n"
		"               see them (mmap); with -M PAGES, the misses among them\n"
		"  -r           reset the histogram first (with -- CMD it always is)\n"
		"  -j           JSON instead of the table\n"
		"  -a           also draw the curve in the terminal\n"
		"  -p FILE      plot the curve with gnuplot to FILE (.svg or .png)\n"
		"  -h           this help\n"
		"  -- CMD       run CMD inside MEMCG and predict for its run\n"
		"exit status: 0 done, 1 failed, 2 bad usage\n");
}

static void say(const char *fmt, va_list ap)
{
	fprintf(stderr, "wsr-predict: ");
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "\n");
}

/* Say what is wrong, then the usage: exit status 2. */
static int bad_usage(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static int bad_usage(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say(fmt, ap);
	va_end(ap);
	usage(stderr);
	return 2;
}

/* Say what failed: exit status 1. */
static int fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static int fail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say(fmt, ap);
	va_end(ap);
	return 1;
}

/* A positive number, nothing after it; MAX bounds it. */
static int parse_num(const char *s, double max, double *v)
{
	char *end;

	errno = 0;
	*v = strtod(s, &end);
	if (end == s || *end || errno || !isfinite(*v) || *v <= 0 || *v > max)
		return -EINVAL;
	return 0;
}

static int parse_opts(int argc, char **argv, struct opts *o)
{
	const char *plot_ext;
	double v;
	int opt;

	memset(o, 0, sizeof(*o));
	o->target = 0.95;
	o->accesses = o->misses = -1;
	opterr = 0;
	while ((opt = getopt(argc, argv, "+g:t:w:n:A:M:rjap:h")) != -1) {
		switch (opt) {
		case 'g':
			o->memcg = optarg;
			break;
		case 't':
			if (parse_num(optarg, 100, &v) || v >= 100)
				return bad_usage("-t %s: want a percentage above 0 and under 100", optarg);
			o->target = v / 100;
			break;
		case 'w':
			if (parse_num(optarg, 86400, &v))
				return bad_usage("-w %s: want seconds, 0 to 86400", optarg);
			o->watch = v;
			break;
		case 'n':
			if (parse_num(optarg, 1e9, &v) || v != floor(v))
				return bad_usage("-n %s: want a count, 1 or more", optarg);
			o->count = (long)v;
			break;
		case 'A':
			if (parse_num(optarg, 1e15, &v) || v != floor(v))
				return bad_usage("-A %s: want a number of pages", optarg);
			o->accesses = v;
			break;
		case 'M':
			if (strcmp(optarg, "0") && (parse_num(optarg, 1e15, &v) || v != floor(v)))
				return bad_usage("-M %s: want a number of pages", optarg);
			o->misses = strcmp(optarg, "0") ? v : 0;
			break;
		case 'r':
			o->reset = true;
			break;
		case 'j':
			o->json = true;
			break;
		case 'a':
			o->ascii = true;
			break;
		case 'p':
			plot_ext = strrchr(optarg, '.');
			if (!plot_ext || (strcmp(plot_ext, ".svg") && strcmp(plot_ext, ".png")))
				return bad_usage("-p %s: the file must end in .svg or .png", optarg);
			o->plot = optarg;
			break;
		case 'h':
			usage(stdout);
			exit(0);
		default:
			if (optopt && strchr("gtwnAMp", optopt))
				return bad_usage("-%c needs a value", optopt);
			return bad_usage("unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind < argc) {
		if (strcmp(argv[optind - 1], "--"))
			return bad_usage("unexpected argument '%s' (a command goes after --)", argv[optind]);
		o->cmd = argv + optind;
	} else if (optind > 1 && !strcmp(argv[optind - 1], "--")) {
		return bad_usage("-- without a command");
	}
	if (!o->memcg)
		return bad_usage("-g MEMCG is required");
	if (o->count && !o->watch)
		return bad_usage("-n goes with -w");
	if (o->watch && o->cmd)
		return bad_usage("-w and -- CMD exclude each other");
	if ((o->accesses >= 0) != (o->misses >= 0))
		return bad_usage("-A and -M go together");
	if (o->accesses >= 0 && o->misses > o->accesses)
		return bad_usage("-M %.0f: more misses than accesses (-A %.0f)", o->misses, o->accesses);
	if (o->accesses >= 0 && (o->watch || o->cmd))
		return bad_usage("-A/-M are for a histogram as it stands, not with -w or -- CMD");
	return 0;
}

/* rchar and read_bytes of /proc/PID/io ("self" for this process and its waited children). */
static int proc_io(const char *pid, uint64_t *rchar, uint64_t *rbytes)
{
	char path[64], line[128];
	unsigned long long v;
	int found = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%s/io", pid);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "rchar: %llu", &v) == 1) {
			*rchar += v;
			found++;
		} else if (sscanf(line, "read_bytes: %llu", &v) == 1) {
			*rbytes += v;
			found++;
		}
	}
	fclose(f);
	return found == 2 ? 0 : -EINVAL;
}

/* Sum /proc/PID/io over the tasks of the cgroup directory DIR and below. */
static void cgroup_io(const char *dir, uint64_t *rchar, uint64_t *rbytes, int depth)
{
	char path[PATH_MAX], pid[32];
	struct dirent *de;
	DIR *d;
	FILE *f;

	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	f = fopen(path, "re");
	if (f) {
		while (fgets(pid, sizeof(pid), f)) {
			pid[strcspn(pid, "\n")] = 0;
			proc_io(pid, rchar, rbytes);	/* gone since: not counted */
		}
		fclose(f);
	}
	if (depth > 32)
		return;
	d = opendir(dir);
	if (!d)
		return;
	while ((de = readdir(d))) {
		if (de->d_type != DT_DIR || de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		cgroup_io(path, rchar, rbytes, depth + 1);
	}
	closedir(d);
}

/* The limit the curve starts from: the hard (or v2 high) limit, else the usage. */
static int current_limit(struct memcg *cg, uint64_t *limit, bool *unlimited)
{
	uint64_t max, high = UINT64_MAX;
	int ret;

	if (memcg_is_v2()) {
		ret = memcg_read_u64(cg, "memory.max", &max);
		if (!ret)
			ret = memcg_read_u64(cg, "memory.high", &high);
		if (ret == -ENOENT || ret == -EINVAL) {	/* the root has neither */
			max = UINT64_MAX;
			ret = 0;
		}
	} else {
		ret = memcg_read_u64(cg, "memory.limit_in_bytes", &max);
	}
	if (ret)
		return ret;
	if (high < max)
		max = high;
	*unlimited = max >= ((uint64_t)1 << 60);
	if (!*unlimited) {
		*limit = max;
		return 0;
	}
	/* no limit: the usage is what the workload got */
	ret = memcg_read_u64(cg, memcg_is_v2() ? "memory.current" : "memory.usage_in_bytes", limit);
	if (ret) {
		uint64_t total, avail;

		/* v2's root has no memory.current: the memory global reclaim shares */
		ret = ws_meminfo("MemTotal", &total);
		if (!ret)
			ret = ws_meminfo("MemAvailable", &avail);
		if (!ret)
			*limit = total - avail;
	}
	return ret;
}

static double mib(uint64_t b)
{
	return (double)b / (1 << 20);
}

static void print_table(const struct opts *o, const struct mrc *m, bool unlimited, double secs)
{
	double refaults = mrc_refaults(m), hit = mrc_hit_now(m);
	uint64_t lim, knee;
	int i, ret;

	printf("memcg %s: %s %.0f MiB", o->memcg, unlimited ? "no limit; usage" : "limit", mib(m->limit));
	if (secs > 0)
		printf(", interval %.1f s", secs);
	printf("\n");
	if (hit >= 0)
		printf("  accesses %.0f pages, misses %.0f (refaults %.0f, first-touch %.0f): hit %.1f%%\n",
		       m->accesses, m->misses, refaults, fmax(0, m->misses - refaults), 100 * hit);
	else
		printf("  refaults %.0f pages (accesses unknown: give -A and -M for hit ratios)\n", refaults);
	if (refaults <= 0) {
		printf("  no refaults: the current limit already holds the working set\n");
		return;
	}
	printf("  %10s %6s %9s %15s\n", "limit", "x", "hit%", "refaults saved");
	for (i = 0; i < NFACTORS; i++) {
		uint64_t l = (uint64_t)(m->limit * factors[i]);
		double h = mrc_hit_at(m, l), saved = mrc_saved(m, l - m->limit);

		printf("  %6.0f MiB %6.2f ", mib(l), factors[i]);
		if (h >= 0)
			printf("%9.1f", 100 * h);
		else
			printf("%9s", "-");
		printf(" %8.0f %5.1f%%\n", saved, 100 * saved / refaults);
	}
	if (hit >= 0) {
		ret = mrc_limit_for(m, o->target, &lim);
		if (!ret)
			printf("  for a %.1f%% hit ratio: %.0f MiB\n", 100 * o->target, mib(lim));
		else
			printf("  for a %.1f%% hit ratio: no limit reaches it (first-touch misses, or refaults beyond 1 TiB)\n",
			       100 * o->target);
	}
	knee = mrc_knee(m);
	if (knee)
		printf("  knee (90%% of what more memory can gain): %.0f MiB\n", mib(knee));
}

static void print_json(const struct opts *o, const struct mrc *m, bool unlimited, double secs)
{
	double refaults = mrc_refaults(m), hit = mrc_hit_now(m);
	uint64_t lim = 0, knee = mrc_knee(m);
	int i, ret = -EINVAL;

	if (hit >= 0)
		ret = mrc_limit_for(m, o->target, &lim);
	printf("{\"memcg\": \"%s\", \"limit\": %" PRIu64 ", \"unlimited\": %s, \"interval\": %.3f,\n",
	       o->memcg, m->limit, unlimited ? "true" : "false", secs);
	if (hit >= 0)
		printf(" \"accesses\": %.0f, \"misses\": %.0f, \"hit\": %.4f,\n", m->accesses, m->misses, hit);
	else
		printf(" \"accesses\": null, \"misses\": null, \"hit\": null,\n");
	printf(" \"refaults\": %.0f,\n \"histogram\": [", refaults);
	for (i = 0; i < m->nr; i++) {
		if (m->bound[i] == UINT64_MAX)
			printf("%s{\"bound\": null, \"pages\": %" PRIu64 "}", i ? ", " : "", m->pages[i]);
		else
			printf("%s{\"bound\": %" PRIu64 ", \"pages\": %" PRIu64 "}", i ? ", " : "",
			       m->bound[i], m->pages[i]);
	}
	printf("],\n \"curve\": [");
	for (i = 0; i < NFACTORS; i++) {
		uint64_t l = (uint64_t)(m->limit * factors[i]);
		double h = mrc_hit_at(m, l);

		printf("%s\n  {\"limit\": %" PRIu64 ", \"factor\": %.2f, \"saved\": %.0f, \"hit\": ",
		       i ? "," : "", l, factors[i], mrc_saved(m, l - m->limit));
		if (h >= 0)
			printf("%.4f}", h);
		else
			printf("null}");
	}
	printf("],\n \"target\": %.4f, \"target_limit\": ", o->target);
	if (!ret)
		printf("%" PRIu64, lim);
	else
		printf("null");
	printf(", \"knee\": ");
	if (knee)
		printf("%" PRIu64 "}\n", knee);
	else
		printf("null}\n");
}

/* The curve from the limit to 4x, as NPTS (limit MiB, hit or saved share). */
static void curve_points(const struct mrc *m, int npts, double *x, double *y)
{
	double refaults = mrc_refaults(m);
	int i;

	for (i = 0; i < npts; i++) {
		uint64_t l = (uint64_t)(m->limit * (1 + 3.0 * i / (npts - 1)));
		double h = mrc_hit_at(m, l);

		x[i] = mib(l);
		y[i] = h >= 0 ? 100 * h : refaults > 0 ? 100 * mrc_saved(m, l - m->limit) / refaults : 0;
	}
}

static void print_ascii(const struct mrc *m)
{
	enum { W = 60, H = 12 };
	double x[W], y[W];
	int r, c;

	curve_points(m, W, x, y);
	printf("  %s vs limit (MiB), %.0f to %.0f\n", mrc_hit_now(m) >= 0 ? "predicted hit%" : "refaults saved %",
	       x[0], x[W - 1]);
	for (r = H; r >= 0; r--) {
		printf("  %5.0f |", 100.0 * r / H);
		for (c = 0; c < W; c++) {
			/* each column's point on its nearest row, filled below */
			long at = lround(y[c] * H / 100);

			putchar(at == r ? '*' : at > r ? '.' : ' ');
		}
		printf("\n");
	}
	printf("        +");
	for (c = 0; c < W; c++)
		putchar(c % 20 ? '-' : '+');
	printf("\n        %-20.0f%-20.0f%-19.0f%.0f\n", x[0], x[20], x[40], x[W - 1]);
}

static int write_plot(const struct opts *o, const struct mrc *m)
{
	enum { N = 97 };
	char dat[PATH_MAX], gp[PATH_MAX], cmd[PATH_MAX * 2 + 64];
	double x[N], y[N];
	bool svg = !strcmp(strrchr(o->plot, '.'), ".svg");
	bool hits = mrc_hit_now(m) >= 0;
	FILE *f;
	int i;

	snprintf(dat, sizeof(dat), "%s.dat", o->plot);
	snprintf(gp, sizeof(gp), "%s.gp", o->plot);
	curve_points(m, N, x, y);
	f = fopen(dat, "we");
	if (!f)
		return fail("%s: %s", dat, strerror(errno));
	fprintf(f, "# limit_MiB %s\n", hits ? "predicted_hit_percent" : "refaults_saved_percent");
	for (i = 0; i < N; i++)
		fprintf(f, "%.1f %.2f\n", x[i], y[i]);
	fclose(f);
	f = fopen(gp, "we");
	if (!f)
		return fail("%s: %s", gp, strerror(errno));
	fprintf(f, "set terminal %s size 800,500\nset output '%s'\n", svg ? "svg" : "pngcairo", o->plot);
	fprintf(f, "set title 'memcg %s: miss-ratio curve from refault distances'\n", o->memcg);
	fprintf(f, "set xlabel 'limit (MiB)'\nset ylabel '%s'\nset yrange [0:100]\nset grid\n",
		hits ? "predicted hit ratio (%)" : "refaults saved (%)");
	fprintf(f, "set arrow from %.1f, graph 0 to %.1f, graph 1 nohead dt 2\n", mib(m->limit), mib(m->limit));
	fprintf(f, "plot '%s' using 1:2 with lines lw 2 title 'predicted'\n", dat);
	fclose(f);
	snprintf(cmd, sizeof(cmd), "gnuplot '%s' 2>&1", gp);
	if (system("command -v gnuplot >/dev/null 2>&1")) {
		fprintf(stderr, "wsr-predict: gnuplot is not installed: wrote %s and %s (render with gnuplot %s)\n",
			dat, gp, gp);
		return 0;
	}
	if (system(cmd))
		return fail("gnuplot %s failed", gp);
	fprintf(stderr, "wsr-predict: plot in %s\n", o->plot);
	return 0;
}

static int report(const struct opts *o, const struct memcg_hist *h, double accesses,
		  double misses, uint64_t limit, bool unlimited, double secs)
{
	struct mrc m = {
		.nr = h->nr, .bound = h->bound, .pages = h->total,
		.accesses = accesses, .misses = misses, .limit = limit,
	};

	if (accesses >= 0 && misses < mrc_refaults(&m))
		m.misses = mrc_refaults(&m);	/* refaults are misses, whoever read them */
	if (o->json)
		print_json(o, &m, unlimited, secs);
	else
		print_table(o, &m, unlimited, secs);
	if (o->ascii && !o->json && mrc_refaults(&m) > 0)
		print_ascii(&m);
	fflush(stdout);
	if (o->plot)
		return write_plot(o, &m);
	return 0;
}

static int run_cmd(const struct opts *o, struct memcg *cg)
{
	uint64_t r0 = 0, b0 = 0, r1 = 0, b1 = 0, limit;
	struct memcg_hist h;
	double t0, secs;
	bool unlimited;
	int status, ret;
	pid_t pid;

	if (memcg_reset_hist(cg))
		return fail("%s", memcg_strerror());
	if (proc_io("self", &r0, &b0))
		return fail("/proc/self/io: cannot read it (CONFIG_TASK_IO_ACCOUNTING?)");
	t0 = ws_now();
	pid = fork();
	if (pid < 0)
		return fail("fork: %s", strerror(errno));
	if (!pid) {
		if (memcg_attach_self(cg)) {
			fprintf(stderr, "wsr-predict: %s\n", memcg_strerror());
			_exit(126);
		}
		execvp(o->cmd[0], o->cmd);
		fprintf(stderr, "wsr-predict: %s: %s\n", o->cmd[0], strerror(errno));
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR)
			return fail("waitpid: %s", strerror(errno));
	}
	secs = ws_now() - t0;
	if (proc_io("self", &r1, &b1))
		return fail("/proc/self/io: cannot read it");
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		fprintf(stderr, "wsr-predict: %s exited with status %d: predicting for the run it made\n",
			o->cmd[0], WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
	if (WIFEXITED(status) && WEXITSTATUS(status) >= 126)
		return 1;
	ret = memcg_read_hist(cg, &h);
	if (!ret)
		ret = current_limit(cg, &limit, &unlimited);
	if (ret)
		return fail("%s", memcg_strerror());
	return report(o, &h, (double)((r1 - r0) / MRC_PAGE), (double)((b1 - b0) / MRC_PAGE),
		      limit, unlimited, secs);
}

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static int watch(const struct opts *o, struct memcg *cg)
{
	struct memcg_hist h0, h1, d;
	uint64_t r0 = 0, b0 = 0, r1, b1, limit;
	char dir[PATH_MAX];
	struct timespec ts;
	bool unlimited;
	double t0, t1;
	long n;
	int ret;

	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	snprintf(dir, sizeof(dir), "%s", memcg_path(cg));
	if (memcg_read_hist(cg, &h0))
		return fail("%s", memcg_strerror());
	cgroup_io(dir, &r0, &b0, 0);
	t0 = ws_now();
	for (n = 0; !stop && (!o->count || n < o->count); n++) {
		ts.tv_sec = (time_t)o->watch;
		ts.tv_nsec = (long)((o->watch - (double)ts.tv_sec) * 1e9);
		while (nanosleep(&ts, &ts) && errno == EINTR && !stop)
			;
		if (stop)
			break;
		r1 = b1 = 0;
		ret = memcg_read_hist(cg, &h1);
		if (!ret)
			ret = current_limit(cg, &limit, &unlimited);
		if (ret)
			return fail("%s", memcg_strerror());
		cgroup_io(dir, &r1, &b1, 0);
		t1 = ws_now();
		if (memcg_hist_sub(&d, &h1, &h0))
			return fail("%s", memcg_strerror());
		/* tasks that left the memcg take their counts with them */
		ret = report(o, &d, r1 >= r0 ? (double)((r1 - r0) / MRC_PAGE) : 0,
			     b1 >= b0 ? (double)((b1 - b0) / MRC_PAGE) : 0, limit, unlimited, t1 - t0);
		if (ret)
			return ret;
		h0 = h1;
		r0 = r1;
		b0 = b1;
		t0 = t1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct memcg_hist h;
	struct opts o;
	struct memcg *cg;
	uint64_t limit;
	bool unlimited;
	int ret;

	ret = parse_opts(argc, argv, &o);
	if (ret)
		return ret;
	if (memcg_lib_init())
		return fail("%s", memcg_strerror());
	cg = memcg_adopt(o.memcg);
	if (!cg)
		return fail("%s", memcg_strerror());
	if (o.cmd) {
		ret = run_cmd(&o, cg);
	} else if (o.watch) {
		ret = watch(&o, cg);
	} else {
		if (o.reset && memcg_reset_hist(cg)) {
			ret = fail("%s", memcg_strerror());
		} else if (memcg_read_hist(cg, &h) || current_limit(cg, &limit, &unlimited)) {
			ret = fail("%s", memcg_strerror());
		} else {
			ret = report(&o, &h, o.accesses, o.misses, limit, unlimited, 0);
		}
	}
	memcg_release(cg);
	return ret;
}
