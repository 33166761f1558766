// SPDX-License-Identifier: GPL-2.0
/*
 * wsr-sizing - run a file working-set scenario and print, per pass, the hit
 * ratio and every set's page-cache residency.  Optionally inside a memcg
 * (cgroup v1 or v2) created through libcgroup, with a hard limit.
 *
 * A scenario is a list of phases NAME=SIZE*PASSES, run in order: set NAME
 * (a file of SIZE under the data directory) is read PASSES times.  The
 * cover letter's "switch" case on a 2 GiB machine is:
 *
 *	wsr-sizing A=1400M*3 B=1400M*8
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "memcg.h"
#include "wsload.h"

#define MAX_SETS 8

struct phase {
	char name[32];
	char path[512];
	uint64_t bytes;
	int passes;
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: wsr-sizing [-d DIR] [-g MEMCG [-l LIMIT]] [-k] [-v] NAME=SIZE*PASSES...\n"
		"  -d DIR     data directory (default /scratch/wsr)\n"
		"  -g MEMCG   run inside this memcg (created, removed after)\n"
		"  -l LIMIT   its hard limit, e.g. 1200M (memory.limit_in_bytes; v2: memory.max)\n"
		"  -k         keep the page cache: do not drop caches first\n"
		"  -v         verify every byte read\n"
		"  SIZE takes M or G; each phase reads set NAME PASSES times.\n");
}

static int parse_phase(const char *arg, const char *dir, struct phase *ph)
{
	const char *eq = strchr(arg, '='), *star = strchr(arg, '*');
	char *end, size[32];
	long n;

	if (!eq || !star || eq == arg || eq - arg >= (long)sizeof(ph->name) ||
	    star < eq)
		return -EINVAL;
	memcpy(ph->name, arg, eq - arg);
	ph->name[eq - arg] = 0;
	if (strspn(ph->name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") != strlen(ph->name))
		return -EINVAL;
	if ((size_t)(star - eq - 1) >= sizeof(size))
		return -EINVAL;
	memcpy(size, eq + 1, star - eq - 1);
	size[star - eq - 1] = 0;
	if (ws_parse_size(size, &ph->bytes))
		return -EINVAL;
	errno = 0;
	n = strtol(star + 1, &end, 10);
	if (errno || *end || n < 1 || n > 1000)
		return -EINVAL;
	ph->passes = n;
	snprintf(ph->path, sizeof(ph->path), "%s/set-%s-%" PRIu64 "M", dir,
		 ph->name, ph->bytes / WS_MiB);
	return 0;
}

int main(int argc, char **argv)
{
	const char *dir = "/scratch/wsr", *cgname = NULL;
	struct phase ph[MAX_SETS * 4];
	uint64_t limit = 0;
	struct memcg *cg = NULL;
	int nph = 0, opt, ret = 1;
	bool keep = false, verify = false;

	while ((opt = getopt(argc, argv, "d:g:l:kvh")) != -1) {
		switch (opt) {
		case 'd': dir = optarg; break;
		case 'g': cgname = optarg; break;
		case 'l':
			if (ws_parse_size(optarg, &limit)) {
				fprintf(stderr, "wsr-sizing: bad limit '%s'\n", optarg);
				usage(stderr);
				return 2;
			}
			break;
		case 'k': keep = true; break;
		case 'v': verify = true; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (optind == argc || (limit && !cgname)) {
		usage(stderr);
		return 2;
	}
	for (int i = optind; i < argc; i++) {
		if (nph == (int)(sizeof(ph) / sizeof(ph[0])) ||
		    parse_phase(argv[i], dir, &ph[nph])) {
			fprintf(stderr, "wsr-sizing: bad phase '%s'\n", argv[i]);
			usage(stderr);
			return 2;
		}
		nph++;
	}
	if (mkdir(dir, 0755) && errno != EEXIST) {
		fprintf(stderr, "wsr-sizing: %s: %s\n", dir, strerror(errno));
		return 1;
	}
	for (int i = 0; i < nph; i++) {
		int err = ws_dataset(ph[i].path, ph[i].bytes);

		if (err) {
			fprintf(stderr, "wsr-sizing: %s: %s\n", ph[i].path, strerror(-err));
			return 1;
		}
	}
	if (!keep && ws_drop_caches())
		fprintf(stderr, "wsr-sizing: warning: cannot drop caches\n");
	if (cgname) {
		if (memcg_lib_init() ||
		    !(cg = memcg_create(cgname, limit)) || memcg_attach_self(cg)) {
			fprintf(stderr, "wsr-sizing: %s\n", memcg_strerror());
			goto out;
		}
	}

	printf("%-6s %-4s %-4s %8s %8s", "phase", "set", "pass", "hit%", "MB/s");
	for (int i = 0; i < nph; i++) {
		bool seen = false;

		for (int j = 0; j < i; j++)
			seen |= !strcmp(ph[j].path, ph[i].path);
		if (!seen)
			printf("  res%%(%s)", ph[i].name);
	}
	printf("\n");
	for (int i = 0; i < nph; i++) {
		for (int p = 1; p <= ph[i].passes; p++) {
			struct ws_pass r;
			int err = ws_read_pass(ph[i].path, verify, &r);

			if (err || !r.intact) {
				fprintf(stderr, "wsr-sizing: %s: %s\n", ph[i].path,
					err ? strerror(-err) : "content mismatch");
				goto out;
			}
			printf("%-6d %-4s %-4d %8.1f %8.0f", i + 1, ph[i].name, p,
			       100 * r.hit, r.bytes / WS_MiB / (r.secs > 0 ? r.secs : 1));
			for (int k = 0; k < nph; k++) {
				bool seen = false;

				for (int j = 0; j < k; j++)
					seen |= !strcmp(ph[j].path, ph[k].path);
				if (!seen)
					printf("  %*.1f", (int)strlen(ph[k].name) + 6,
					       100 * ws_residency(ph[k].path));
			}
			printf("\n");
			fflush(stdout);
		}
	}
	ret = 0;
out:
	/* the delete moves this task back to the parent first */
	if (cg) {
		if (memcg_destroy(cg))
			fprintf(stderr, "wsr-sizing: %s\n", memcg_strerror());
	}
	return ret;
}
