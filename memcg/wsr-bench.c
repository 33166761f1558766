// SPDX-License-Identifier: GPL-2.0
/*
 * wsr-bench - the cover letter's scenarios under every workingset_policy
 * (and the multi-gen LRU), globally or inside a memcg (cgroup v1 or v2),
 * printed side by side: per-pass hit ratio, final residency, counters.
 *
 * Every argument is checked before anything is touched, including that
 * LIMIT is large enough for the scenarios' data sets; the data sets must
 * fit in the data directory's free space before any is written.  The
 * memcg (and -p's parent) must not exist: each run creates it fresh and
 * removes it, also on SIGINT, SIGTERM or SIGHUP.  Exit status: 0 done,
 * 1 failed, 2 bad usage.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "memcg.h"
#include "scenario.h"
#include "wsload.h"

/* every policy and MGLRU, "adaptive" (the series' newest) first */
static const char *const all_policies[] = {
	"adaptive", "distance", "activate", "classic", "mglru",
};
#define MAX_RUNS (int)(sizeof(all_policies) / sizeof(all_policies[0]))
#define SET_UNIT SCN_SET_UNIT

/*
 * The data sets scn_setup() will make come from scenario.c's scn_plans[],
 * so that a LIMIT too small for them and sets that do not fit on the disk
 * are refused before anything is written.
 */

static void usage(FILE *f)
{
	fprintf(f,
		"usage: wsr-bench [-g MEMCG -l LIMIT [-p PARENT]] [-m] [-P POLICIES] [-d DIR] SCENARIO...\n"
		"  SCENARIO   switch, bigger, stream, zipf or mswitch\n"
		"  -g MEMCG   run inside this memcg (it must not exist: created and removed\n"
		"             for each run); the scenario is sized on LIMIT\n"
		"  -l LIMIT   the hard limit, e.g. 1280M (memory.limit_in_bytes; v2: memory.max)\n"
		"  -p PARENT  put the limit on PARENT (must not exist either), run in PARENT/MEMCG\n"
		"  -m         also run with the multi-gen LRU enabled (policy \"mglru\")\n"
		"  -P LIST    the policies to run, comma-separated, in that order, from\n"
		"             adaptive, distance, activate, classic, mglru (default: the\n"
		"             first four, and mglru with -m)\n"
		"  -d DIR     data directory (default /scratch/wsr)\n"
		"  -h         this help\n"
		"exit status: 0 done, 1 failed, 2 bad usage\n");
}

static int bad_usage(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static int bad_usage(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "wsr-bench: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
	usage(stderr);
	return 2;
}

/* Would plan P sized on MEM have an empty set (scn_setup() fails then)? */
static bool plan_empty(const struct scn_plan *p, uint64_t mem)
{
	return !scn_plan_bytes(p, 0, mem) || (p->sets[1].set && !scn_plan_bytes(p, 1, mem));
}

/* The smallest MEM (in MiB, rounded up) that gives plan P no empty set. */
static uint64_t plan_min_mib(const struct scn_plan *p)
{
	uint64_t min = 0;

	for (int k = 0; k < 2 && p->sets[k].set; k++) {
		uint64_t m = (SET_UNIT * p->sets[k].den + p->sets[k].num - 1) / p->sets[k].num;

		if (m > min)
			min = m;
	}
	return (min + WS_MiB - 1) / WS_MiB;
}

/*
 * The bytes SCENARIOS' data sets still need in DIR (their size less what
 * their files occupy) against the free space there.  0, or 1 after
 * saying why.
 */
static int check_space(const char *dir, const char *kind, char **scns, int n,
		       uint64_t mem)
{
	uint64_t need = 0, avail;
	int err;

	for (int i = 0; i < n; i++) {
		const struct scn_plan *p = scn_plan_of(scns[i]);
		bool again = false;

		for (int j = 0; j < i; j++)
			again |= !strcmp(scns[j], scns[i]);
		for (int k = 0; k < 2 && p->sets[k].set && !again; k++) {
			char path[512];

			snprintf(path, sizeof(path), "%s/%s-%s-%c", dir, kind, scns[i],
				 p->sets[k].set);
			need = ws_add_sat(need, ws_dataset_need(path, scn_plan_bytes(p, k, mem)));
		}
	}
	err = ws_free_space(dir, &avail);
	if (err) {
		fprintf(stderr, "wsr-bench: %s: statvfs: %s\n", dir, strerror(-err));
		return 1;
	}
	if (need > avail) {
		fprintf(stderr, "wsr-bench: the data sets need %" PRIu64 " MiB more in %s, whose file system has %" PRIu64 " MiB free: refusing to write them (fewer scenarios, a smaller -l, or another -d)\n",
			need / WS_MiB, dir, avail / WS_MiB);
		return 1;
	}
	return 0;
}

/* One row of a counter, a column per run. */
static void print_counter(const char *label, const struct scn_run *runs, int n,
			  size_t off, const char *note)
{
	printf("%-9s", label);
	for (int r = 0; r < n; r++)
		printf(" %10" PRIu64, *(const uint64_t *)((const char *)&runs[r] + off));
	printf("%s\n", note);
}

static void print_side_by_side(const char *scn, const struct scn_env *env,
			       const struct scn_run *runs, const char *const *labels, int n)
{
	printf("== %s (%s, sized on %" PRIu64 " MiB):", scn,
	       env->memcg ? "in a memcg" : "global", env->mem / WS_MiB);
	for (int k = 0; k < env->nsets; k++)
		printf(" %c = %" PRIu64 " MiB", env->names[k], env->sizes[k] / WS_MiB);
	/*
	 * Belady's bound for the same references and a cache of the memory,
	 * and perfect LFU's: what knowing the future gives, and what
	 * counting every past use does
	 */
	double opt[SCN_MAX_PASSES], lfu[SCN_MAX_PASSES];
	int nopt = 0;

	if (scn_opt(scn, env->sizes, env->memcg ? env->limit : env->mem, opt, lfu, &nopt))
		nopt = 0;
	printf("\n%-4s %-4s", "set", "pass");
	for (int r = 0; r < n; r++)
		printf(" %10s", labels[r]);
	printf(" %10s %10s   (hit %%; OPT: Belady's optimum, LFU: perfect LFU, same reads, a cache of %" PRIu64 " MiB)\n",
	       "OPT", "LFU", (env->memcg ? env->limit : env->mem) / WS_MiB);
	/* the rows are the passes of the run that has most */
	int ref = 0;

	for (int r = 1; r < n; r++)
		if (runs[r].npass > runs[ref].npass)
			ref = r;
	for (int i = 0; i < runs[ref].npass; i++) {
		printf("%-4c %-4d", runs[ref].p[i].set, runs[ref].p[i].pass);
		for (int r = 0; r < n; r++) {
			if (i < runs[r].npass && !runs[r].failed)
				printf(" %10.1f", 100 * runs[r].p[i].hit);
			else
				printf(" %10s", "-");
		}
		if (i < nopt)
			printf(" %10.1f %10.1f", 100 * opt[i], 100 * lfu[i]);
		else
			printf(" %10s %10s", "-", "-");
		printf("\n");
	}
	for (int k = 0; k < env->nsets; k++) {
		printf("res%%%c     ", env->names[k]);
		for (int r = 0; r < n; r++) {
			const struct scn_run *x = &runs[r];

			if (x->npass && !x->failed)
				printf(" %10.1f", 100 * x->p[x->npass - 1].res[k]);
			else
				printf(" %10s", "-");
		}
		printf("   (final residency)\n");
	}
	/*
	 * The same, one CSV row per (policy, pass), for the host to collect
	 * (memcg/wsr-report): scenario, scope, cache MiB, policy, rep, set, pass,
	 * hit, the set's residency after the pass, the run's counters.
	 */
	const char *scope = !env->memcg ? "global" : memcg_is_v2() ? "memcg-v2" : "memcg-v1";
	uint64_t cache = (env->memcg ? env->limit : env->mem) / WS_MiB;
	/* wsr-run's repetition, for the rows */
	int rep = getenv("WSR_REP") ? atoi(getenv("WSR_REP")) : 1;

	for (int r = 0; r < n; r++) {
		const struct scn_run *x = &runs[r];

		for (int i = 0; i < x->npass && !x->failed; i++) {
			int k = 0;

			while (k < env->nsets - 1 && env->names[k] != x->p[i].set)
				k++;
			printf("wsr-row,%s,%s,%" PRIu64 ",%s,%d,%c,%d,%.4f,%.4f,%" PRIu64 ",%" PRIu64
			       ",%" PRIu64 ",%" PRIu64 "\n", scn, scope, cache, labels[r], rep, x->p[i].set,
			       x->p[i].pass, x->p[i].hit, x->p[i].res[k], x->global.refault,
			       x->global.activate, x->global.stale, x->global.dropbehind);
		}
	}
	for (int i = 0; i < nopt && i < runs[ref].npass; i++) {
		printf("wsr-row,%s,%s,%" PRIu64 ",opt,%d,%c,%d,%.4f,,,,,\n", scn, scope, cache,
		       rep, runs[ref].p[i].set, runs[ref].p[i].pass, opt[i]);
		printf("wsr-row,%s,%s,%" PRIu64 ",lfu,%d,%c,%d,%.4f,,,,,\n", scn, scope, cache,
		       rep, runs[ref].p[i].set, runs[ref].p[i].pass, lfu[i]);
	}
	print_counter("stale", runs, n, offsetof(struct scn_run, global.stale), "");
	print_counter("force", runs, n, offsetof(struct scn_run, global.stale_force), "");
	print_counter("dropbhnd", runs, n, offsetof(struct scn_run, global.dropbehind), "");
	print_counter("activate", runs, n, offsetof(struct scn_run, global.activate), "");
	print_counter("refault", runs, n, offsetof(struct scn_run, global.refault),
		      "   (/proc/vmstat, pages)");
	if (env->memcg)
		print_counter("mc.stale", runs, n, offsetof(struct scn_run, memcg.stale),
			      memcg_is_v2() ? "   (memory.stat workingset_stale)" :
					      "   (memory.stat total_workingset_stale)");
	printf("\n");
	fflush(stdout);
}

/*
 * Parse -P's comma-separated LIST into POLS (at most MAX_RUNS, no
 * repeats).  The number of policies, or 0 after saying what is wrong.
 */
static int parse_policies(const char *list, const char **pols)
{
	char buf[256], *save = NULL, *tok;
	int n = 0;

	if (strlen(list) >= sizeof(buf) || !*list) {
		bad_usage("-P '%s': want a comma-separated list of policies", list);
		return 0;
	}
	strcpy(buf, list);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int k;

		for (k = 0; k < MAX_RUNS && strcmp(all_policies[k], tok); k++)
			;
		if (k == MAX_RUNS) {
			bad_usage("-P: unknown policy '%s' (want adaptive, distance, activate, classic or mglru)",
				  tok);
			return 0;
		}
		for (int j = 0; j < n; j++) {
			if (pols[j] == all_policies[k]) {
				bad_usage("-P: policy '%s' given twice", tok);
				return 0;
			}
		}
		pols[n++] = all_policies[k];
	}
	if (!n)
		bad_usage("-P '%s': no policy in the list", list);
	return n;
}

int main(int argc, char **argv)
{
	struct scn_env base = { 0 };
	const char *dir = "/scratch/wsr", *limit_arg = NULL;
	const char *pols[MAX_RUNS];
	int npols = 0;
	bool mglru = false;
	int opt, ret = 0, err;

	while ((opt = getopt(argc, argv, "g:l:p:mP:d:h")) != -1) {
		switch (opt) {
		case 'g': base.memcg = optarg; break;
		case 'p': base.parent = optarg; break;
		case 'l':
			limit_arg = optarg;
			err = ws_parse_size(optarg, &base.limit);
			if (err)
				return bad_usage("-l: bad limit '%s' (%s)", optarg,
						 err == -ERANGE ? "too large: over 16 EiB" :
						 "want e.g. 1280M or 2G");
			break;
		case 'm': mglru = true; break;
		case 'P':
			npols = parse_policies(optarg, pols);
			if (!npols)
				return 2;
			break;
		case 'd': dir = optarg; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (limit_arg && !base.memcg)
		return bad_usage("-l %s without -g: a limit needs a memcg to go on (-g MEMCG)",
				 limit_arg);
	if (base.parent && !base.memcg)
		return bad_usage("-p %s without -g: name the memcg to run in (-g MEMCG)",
				 base.parent);
	if (base.memcg && !limit_arg)
		return bad_usage("-g %s without -l: a memcg run is sized on its limit (-l LIMIT)",
				 base.memcg);
	if (base.limit > UINT64_MAX / 4)
		return bad_usage("-l %s: too large", limit_arg);
	/* scn_env.paths hold 256 characters: "DIR/memcg-switch-A" */
	if (!*dir || strlen(dir) > 200)
		return bad_usage("-d '%s': want a directory path of 1 to 200 characters", dir);
	if (optind == argc)
		return bad_usage("no scenario: want switch, bigger, stream, zipf or mswitch");
	if (!npols) {
		for (npols = 0; npols < MAX_RUNS - 1; npols++)
			pols[npols] = all_policies[npols];
		if (mglru)
			pols[npols++] = "mglru";
	} else if (mglru) {
		return bad_usage("-m with -P: name mglru in the -P list instead");
	}
	for (int i = optind; i < argc; i++) {
		const struct scn_plan *p = scn_plan_of(argv[i]);

		if (!p)
			return bad_usage("unknown scenario '%s' (want switch, bigger, stream, zipf or mswitch)",
					 argv[i]);
		if (base.memcg && plan_empty(p, base.limit))
			return bad_usage("-l %s is too small for %s: its data sets, sized on the limit and rounded down to 64 MiB, would be empty (%s needs -l %" PRIu64 "M or more)",
					 limit_arg, argv[i], argv[i], plan_min_mib(p));
	}

	/* arguments are good: from here on things are touched */
	if (base.memcg) {
		const char *name = base.parent ?: base.memcg;

		if (memcg_lib_init() || memcg_cleanup_on_signal()) {
			fprintf(stderr, "wsr-bench: %s\n", memcg_strerror());
			return 1;
		}
		err = memcg_exists(name);
		if (err < 0) {
			fprintf(stderr, "wsr-bench: %s\n", memcg_strerror());
			return 1;
		}
		if (err) {
			fprintf(stderr, "wsr-bench: memcg %s exists already: every run creates it fresh and removes it, so it must not exist (remove it with cgdelete, or pick another name)\n",
				name);
			return 1;
		}
		base.mem = base.limit;
	} else {
		base.mem = scn_global_mem();
		for (int i = optind; i < argc; i++) {
			const struct scn_plan *p = scn_plan_of(argv[i]);

			if (plan_empty(p, base.mem)) {
				fprintf(stderr, "wsr-bench: %s: sized on %" PRIu64 " MiB of available memory, its data sets would be empty (it needs %" PRIu64 " MiB)\n",
					argv[i], base.mem / WS_MiB, plan_min_mib(p));
				return 1;
			}
		}
	}
	scn_set_datadir(dir);
	scn_progress = true;	/* a line per pass for the host's live view */
	if (mkdir(dir, 0755) && errno != EEXIST) {
		fprintf(stderr, "wsr-bench: cannot create the data directory %s: %s\n",
			dir, strerror(errno));
		return 1;
	}
	if (check_space(dir, base.memcg ? "memcg" : "global", argv + optind, argc - optind,
			base.mem))
		return 1;

	for (int i = optind; i < argc; i++) {
		struct scn_run runs[MAX_RUNS];
		struct scn_env env = base;
		char tag[64];
		scn_fn fn;
		int n;

		snprintf(tag, sizeof(tag), "%s-%s", base.memcg ? "memcg" : "global", argv[i]);
		env.tag = tag;

		err = scn_setup(&env, argv[i], &fn);
		if (err) {
			if (err == -EINVAL)
				fprintf(stderr, "wsr-bench: %s: a data set sized on %" PRIu64 " MiB would be under 64 MiB\n",
					argv[i], env.mem / WS_MiB);
			else
				fprintf(stderr, "wsr-bench: %s: cannot set up its data sets in %s: %s\n",
					argv[i], dir, strerror(-err));
			ret = 1;
			continue;
		}
		for (n = 0; n < npols; n++)
			scn_run_any(&env, pols[n], fn, &runs[n]);
		scn_set_policy("distance");
		print_side_by_side(argv[i], &env, runs, pols, n);
		for (int r = 0; r < n; r++)
			ret |= runs[r].failed;
	}
	return ret;
}
