// SPDX-License-Identifier: GPL-2.0
/*
 * wsr-bench - the cover letter's scenarios under every workingset_policy
 * (and the multi-gen LRU), globally or inside a memcg (cgroup v1 or v2),
 * printed side by side: per-pass hit ratio, final residency, counters.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "memcg.h"
#include "scenario.h"
#include "wsload.h"

#define LRU_GEN "/sys/kernel/mm/lru_gen/enabled"
#define MAX_RUNS 4

static void usage(FILE *f)
{
	fprintf(f,
		"usage: wsr-bench [-g MEMCG -l LIMIT [-p PARENT]] [-m] [-d DIR] SCENARIO...\n"
		"  SCENARIO   switch, bigger or stream\n"
		"  -g MEMCG   run inside this memcg; the scenario is sized on LIMIT\n"
		"  -l LIMIT   the hard limit, e.g. 1280M (memory.limit_in_bytes; v2: memory.max)\n"
		"  -p PARENT  put the limit on PARENT, run in PARENT/MEMCG\n"
		"  -m         also run with the multi-gen LRU enabled\n"
		"  -d DIR     data directory (default /scratch/wsr)\n");
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
			       const struct scn_run *runs, const char **labels, int n)
{
	printf("== %s (%s, sized on %" PRIu64 " MiB):", scn,
	       env->memcg ? "in a memcg" : "global", env->mem / WS_MiB);
	for (int k = 0; k < env->nsets; k++)
		printf(" %c = %" PRIu64 " MiB", env->names[k], env->sizes[k] / WS_MiB);
	printf("\n%-4s %-4s", "set", "pass");
	for (int r = 0; r < n; r++)
		printf(" %10s", labels[r]);
	printf("   (hit %%)\n");
	for (int i = 0; i < runs[0].npass; i++) {
		printf("%-4c %-4d", runs[0].p[i].set, runs[0].p[i].pass);
		for (int r = 0; r < n; r++) {
			if (i < runs[r].npass && !runs[r].failed)
				printf(" %10.1f", 100 * runs[r].p[i].hit);
			else
				printf(" %10s", "-");
		}
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
	print_counter("stale", runs, n, offsetof(struct scn_run, global.stale), "");
	print_counter("force", runs, n, offsetof(struct scn_run, global.stale_force), "");
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

int main(int argc, char **argv)
{
	struct scn_env base = { 0 };
	bool mglru = false;
	int opt, ret = 0;

	while ((opt = getopt(argc, argv, "g:l:p:md:h")) != -1) {
		switch (opt) {
		case 'g': base.memcg = optarg; break;
		case 'p': base.parent = optarg; break;
		case 'l':
			if (ws_parse_size(optarg, &base.limit)) {
				fprintf(stderr, "wsr-bench: bad limit '%s'\n", optarg);
				usage(stderr);
				return 2;
			}
			break;
		case 'm': mglru = true; break;
		case 'd': scn_set_datadir(optarg); break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (optind == argc || (base.memcg && !base.limit) ||
	    (!base.memcg && (base.limit || base.parent))) {
		usage(stderr);
		return 2;
	}
	for (int i = optind; i < argc; i++) {
		if (strcmp(argv[i], "switch") && strcmp(argv[i], "bigger") &&
		    strcmp(argv[i], "stream")) {
			fprintf(stderr, "wsr-bench: unknown scenario '%s'\n", argv[i]);
			usage(stderr);
			return 2;
		}
	}
	base.mem = base.memcg ? base.limit : scn_global_mem();

	for (int i = optind; i < argc; i++) {
		struct scn_run runs[MAX_RUNS];
		const char *labels[MAX_RUNS];
		struct scn_env env = base;
		char tag[64];
		scn_fn fn;
		int n = 0;

		snprintf(tag, sizeof(tag), "%s-%s", base.memcg ? "memcg" : "global", argv[i]);
		env.tag = tag;

		if (scn_setup(&env, argv[i], &fn)) {
			ret = 1;
			continue;
		}
		scn_run_policies(&env, fn, runs, scn_npolicies, NULL);
		for (n = 0; n < scn_npolicies; n++)
			labels[n] = scn_policies[n];
		if (mglru) {
			if (ws_file_write(LRU_GEN, "y") == 0) {
				labels[n] = "mglru";
				scn_run(&env, "distance", fn, &runs[n]);
				snprintf(runs[n].policy, sizeof(runs[n].policy), "mglru");
				n++;
				ws_file_write(LRU_GEN, "n");
			} else {
				fprintf(stderr, "wsr-bench: cannot enable MGLRU\n");
			}
		}
		print_side_by_side(argv[i], &env, runs, labels, n);
		for (int r = 0; r < n; r++)
			ret |= runs[r].failed;
	}
	return ret;
}
