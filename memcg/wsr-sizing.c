// SPDX-License-Identifier: GPL-2.0
/*
 * wsr-sizing - run a file working-set scenario and print, per pass, the hit
 * ratio and every set's page-cache residency.  Optionally inside a memcg
 * (cgroup v1 or v2) created through libcgroup, with a hard limit, or
 * inside an existing one (-a).
 *
 * A scenario is a list of phases NAME=SIZE*PASSES, run in order: set NAME
 * (a file of SIZE under the data directory) is read PASSES times.  The
 * cover letter's "switch" case on a 2 GiB machine is:
 *
 *	wsr-sizing A=1400M*3 B=1400M*8
 *
 * Every argument is checked before anything is touched; a data set that
 * does not fit in the data directory's free space is refused before
 * anything is written.  A memcg it created is removed on exit, and on
 * SIGINT, SIGTERM or SIGHUP.  Exit status: 0 done, 1 failed, 2 bad usage.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "memcg.h"
#include "wsload.h"

#define MAX_PHASES 32
#define MAX_PASSES 1000
#define NAME_CHARS "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-"

struct phase {
	char name[32];
	char path[512];
	uint64_t bytes;
	int passes;
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: wsr-sizing [-d DIR] [-g MEMCG [-l LIMIT | -a]] [-k] [-v] NAME=SIZE*PASSES...\n"
		"  -d DIR     data directory (default /scratch/wsr)\n"
		"  -g MEMCG   run inside this memcg: created (it must not exist), removed after\n"
		"  -l LIMIT   its hard limit, e.g. 1200M (memory.limit_in_bytes; v2: memory.max)\n"
		"  -a         MEMCG exists: run in it as it is (no limit set, not removed)\n"
		"  -k         keep the page cache: do not drop caches first\n"
		"  -v         verify every byte read\n"
		"  -h         this help\n"
		"  SIZE is a number with M (MiB) or G (GiB); PASSES is 1 to %d; each phase\n"
		"  reads set NAME (letters, digits, '_', '-') PASSES times.\n"
		"exit status: 0 done, 1 failed, 2 bad usage\n", MAX_PASSES);
}

static int bad_usage(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static int bad_usage(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "wsr-sizing: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
	usage(stderr);
	return 2;
}

static const char *size_problem(int err)
{
	return err == -ERANGE ? "too large: over 16 EiB" : "want e.g. 1200M or 2G";
}

/* NAME=SIZE*PASSES; 0, or 2 after saying which part is bad. */
static int parse_phase(const char *arg, const char *dir, struct phase *ph)
{
	const char *eq = strchr(arg, '='), *star = eq ? strchr(eq + 1, '*') : NULL;
	char size[64], *end;
	size_t len;
	long n;
	int err;

	if (!eq)
		return bad_usage("phase '%s': no '=' (want NAME=SIZE*PASSES, e.g. A=1200M*3)", arg);
	if (!star)
		return bad_usage("phase '%s': no pass count (want NAME=SIZE*PASSES, e.g. A=1200M*3)",
				 arg);
	len = eq - arg;
	if (!len || len >= sizeof(ph->name) || strspn(arg, NAME_CHARS) != len)
		return bad_usage("phase '%s': bad name '%.*s' (want 1 to %zu letters, digits, '_' or '-')",
				 arg, (int)len, arg, sizeof(ph->name) - 1);
	memcpy(ph->name, arg, len);
	ph->name[len] = 0;
	len = star - eq - 1;
	if (len >= sizeof(size))
		return bad_usage("phase '%s': bad size '%.*s' (%s)", arg, (int)len, eq + 1,
				 size_problem(-EINVAL));
	memcpy(size, eq + 1, len);
	size[len] = 0;
	err = ws_parse_size(size, &ph->bytes);
	if (err)
		return bad_usage("phase '%s': bad size '%s' (%s)", arg, size, size_problem(err));
	errno = 0;
	n = strtol(star + 1, &end, 10);
	if (star[1] < '0' || star[1] > '9' || errno || *end || n < 1 || n > MAX_PASSES)
		return bad_usage("phase '%s': bad pass count '%s' (want 1 to %d)", arg, star + 1,
				 MAX_PASSES);
	ph->passes = n;
	if (snprintf(ph->path, sizeof(ph->path), "%s/set-%s-%" PRIu64 "M", dir,
		     ph->name, ph->bytes / WS_MiB) >= (int)sizeof(ph->path))
		return bad_usage("data directory '%s': path too long", dir);
	return 0;
}

/* First phase with the same file as phase I (the sets share it). */
static bool first_of_set(const struct phase *ph, int i)
{
	for (int j = 0; j < i; j++)
		if (!strcmp(ph[j].path, ph[i].path))
			return false;
	return true;
}

/*
 * Refuse data sets that do not fit: what ws_dataset() would still write
 * (a set's size less what its file already occupies) against the free
 * space of DIR's file system.  0, or 1 after saying why.
 */
static int check_space(const char *dir, const struct phase *ph, int nph)
{
	uint64_t need = 0, avail;
	int err;

	for (int i = 0; i < nph; i++)
		if (first_of_set(ph, i))
			need = ws_add_sat(need, ws_dataset_need(ph[i].path, ph[i].bytes));
	err = ws_free_space(dir, &avail);
	if (err) {
		fprintf(stderr, "wsr-sizing: %s: statvfs: %s\n", dir, strerror(-err));
		return 1;
	}
	if (need > avail) {
		fprintf(stderr, "wsr-sizing: the data sets need %" PRIu64 " MiB more in %s, whose file system has %" PRIu64 " MiB free: refusing to write them (smaller sets, or another -d)\n",
			need / WS_MiB, dir, avail / WS_MiB);
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	const char *dir = "/scratch/wsr", *cgname = NULL, *limit_arg = NULL;
	struct phase ph[MAX_PHASES];
	uint64_t limit = 0;
	struct memcg *cg = NULL;
	int nph = 0, opt, ret = 1, err;
	bool keep = false, verify = false, adopt = false;

	while ((opt = getopt(argc, argv, "d:g:l:akvh")) != -1) {
		switch (opt) {
		case 'd': dir = optarg; break;
		case 'g': cgname = optarg; break;
		case 'l':
			limit_arg = optarg;
			err = ws_parse_size(optarg, &limit);
			if (err)
				return bad_usage("-l: bad limit '%s' (%s)", optarg, size_problem(err));
			break;
		case 'a': adopt = true; break;
		case 'k': keep = true; break;
		case 'v': verify = true; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (limit_arg && !cgname)
		return bad_usage("-l %s without -g: a limit needs a memcg to go on (-g MEMCG)",
				 limit_arg);
	if (adopt && !cgname)
		return bad_usage("-a without -g: name the memcg to run in (-g MEMCG)");
	if (adopt && limit_arg)
		return bad_usage("-l with -a: an adopted memcg is used as it is (set its limit with cgset)");
	if (!*dir)
		return bad_usage("-d: empty data directory");
	if (optind == argc)
		return bad_usage("no phases: want NAME=SIZE*PASSES..., e.g. A=1200M*3 B=1200M*8");
	if (argc - optind > MAX_PHASES)
		return bad_usage("%d phases: at most %d", argc - optind, MAX_PHASES);
	for (int i = optind; i < argc; i++) {
		if (parse_phase(argv[i], dir, &ph[nph]))
			return 2;
		nph++;
	}

	/* arguments are good: from here on things are touched */
	if (cgname && (memcg_lib_init() || memcg_cleanup_on_signal())) {
		fprintf(stderr, "wsr-sizing: %s\n", memcg_strerror());
		return 1;
	}
	if (mkdir(dir, 0755) && errno != EEXIST) {
		fprintf(stderr, "wsr-sizing: cannot create the data directory %s: %s\n",
			dir, strerror(errno));
		return 1;
	}
	if (check_space(dir, ph, nph))
		return 1;
	if (cgname) {
		cg = adopt ? memcg_adopt(cgname) : memcg_create(cgname, limit);
		if (!cg) {
			fprintf(stderr, "wsr-sizing: %s%s\n", memcg_strerror(),
				errno == EEXIST ? " (-a runs in it as it is)" : "");
			return 1;
		}
	}
	for (int i = 0; i < nph; i++) {
		if (!first_of_set(ph, i))
			continue;
		err = ws_dataset(ph[i].path, ph[i].bytes);
		if (err) {
			fprintf(stderr, "wsr-sizing: cannot write data set %s: %s\n", ph[i].path,
				strerror(-err));
			goto out;
		}
	}
	if (!keep && ws_drop_caches())
		fprintf(stderr, "wsr-sizing: warning: cannot drop caches (not root?)\n");
	if (cg && memcg_attach_self(cg)) {
		fprintf(stderr, "wsr-sizing: %s\n", memcg_strerror());
		goto out;
	}

	printf("%-6s %-4s %-4s %8s %8s", "phase", "set", "pass", "hit%", "MB/s");
	for (int i = 0; i < nph; i++)
		if (first_of_set(ph, i))
			printf("  res%%(%s)", ph[i].name);
	printf("\n");
	for (int i = 0; i < nph; i++) {
		for (int p = 1; p <= ph[i].passes; p++) {
			struct ws_pass r;

			err = ws_read_pass(ph[i].path, verify, &r);
			if (err || !r.intact) {
				fprintf(stderr, "wsr-sizing: %s: %s\n", ph[i].path,
					err ? strerror(-err) : "content mismatch");
				goto out;
			}
			printf("%-6d %-4s %-4d %8.1f %8.0f", i + 1, ph[i].name, p,
			       100 * r.hit, r.bytes / WS_MiB / (r.secs > 0 ? r.secs : 1));
			for (int k = 0; k < nph; k++)
				if (first_of_set(ph, k))
					printf("  %*.1f", (int)strlen(ph[k].name) + 6,
					       100 * ws_residency(ph[k].path));
			printf("\n");
			fflush(stdout);
		}
	}
	ret = 0;
out:
	/* moves this task out first; an adopted memcg is only released */
	if (cg && memcg_destroy(cg)) {
		fprintf(stderr, "wsr-sizing: %s\n", memcg_strerror());
		ret = 1;
	}
	return ret;
}
