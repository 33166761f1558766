// SPDX-License-Identifier: GPL-2.0
/*
 * cgtest.c - the loop that runs a cgtest table and prints TAP.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cgtest.h"
#include "../memcg/scenario.h"

const char *cgt_datadir(void)
{
	static const char *dir;

	if (!dir) {
		dir = getenv("CGT_DATADIR") ?: "/scratch/cgtests";
		if (mkdir(dir, 0755) && errno != EEXIST)
			ksft_exit_fail_msg("%s: %s\n", dir, strerror(errno));
	}
	return dir;
}

void cgt_path(char *buf, int len, const char *name)
{
	snprintf(buf, len, "%s/%s", cgt_datadir(), name);
}

int cgt_read_in(struct memcg *cg, const char *path, int passes, bool verify,
		double *hit)
{
	int status, fds[2];
	double h = 0;
	pid_t pid;

	if (pipe(fds))
		return -errno;
	pid = fork();
	if (pid == 0) {
		struct ws_pass p = { 0 };
		int err = cg ? memcg_attach_self(cg) : 0;

		if (err)
			ksft_print_msg("%s\n", memcg_strerror());
		for (int i = 0; !err && i < passes; i++) {
			err = ws_read_pass(path, verify, &p);
			if (!err && verify && !p.intact) {
				ksft_print_msg("%s: content corrupted\n", path);
				err = -EIO;
			}
		}
		if (write(fds[1], &p.hit, sizeof(p.hit)) != sizeof(p.hit))
			err = -EIO;
		_exit(err ? 1 : 0);
	}
	close(fds[1]);
	if (pid < 0) {
		close(fds[0]);
		return -EAGAIN;
	}
	if (read(fds[0], &h, sizeof(h)) != sizeof(h))
		h = -1;
	close(fds[0]);
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status) || h < 0)
		return -EIO;
	if (hit)
		*hit = h;
	return 0;
}

/*
 * A watchdog for one test: after CGT_TIMEOUT seconds (default 600) it
 * writes what the kernel is doing into the kernel log (sysrq w: blocked
 * tasks, l: every CPU's backtrace), says so on stderr, and kills the
 * test.  A hung test then fails by name in minutes, and the log shows
 * why; a test stuck in the kernel still leaves the dump.
 */
static pid_t watchdog(const char *name)
{
	int secs = atoi(getenv("CGT_TIMEOUT") ?: "600");
	pid_t test = getpid(), pid;

	if (secs <= 0)
		return -1;
	pid = fork();
	if (pid)
		return pid;
	sleep(secs);
	if (kill(test, 0))
		_exit(0);
	fprintf(stderr, "# cgtest: %s still running after %d s: dumping tasks and CPUs to the kernel log, killing it\n",
		name, secs);
	ws_file_write("/proc/sysrq-trigger", "w");
	ws_file_write("/proc/sysrq-trigger", "l");
	kill(test, SIGKILL);
	_exit(0);
}

bool cgt_check_switch(const struct scn_run *d, const char *who, int by)
{
	const struct scn_pass *a3 = &d->p[2], *last = scn_last(d, 'B');
	int adapted = scn_first_pass_at(d, 'B', 0.95);
	bool ok;

	ok = CGT_CHECK(adapted && adapted <= by,
		       "%s: B served >= 95%% from cache at pass %d (<= %d)", who, adapted, by);
	ok &= CGT_CHECK(last && last->res[0] < a3->res[0] - 0.25,
			"%s: A residency fell %.1f%% -> %.1f%%", who,
			100 * a3->res[0], last ? 100 * last->res[0] : 0.0);
	return ok;
}

static void usage(const char *prog, const struct cgtest *t, int n)
{
	fprintf(stderr, "usage: %s [-l] [-t TEST]...\n  tests:", prog);
	for (int i = 0; i < n; i++)
		fprintf(stderr, " %s", t[i].name);
	fprintf(stderr, "\n");
	exit(2);
}

int cgtest_main(int argc, char **argv, const struct cgtest *t, int n)
{
	bool want[64] = { 0 }, any = false;
	int opt, plan = 0, last = KSFT_FAIL;

	if (n > 64)
		ksft_exit_fail_msg("too many tests in one table\n");
	while ((opt = getopt(argc, argv, "lt:h")) != -1) {
		int i;

		switch (opt) {
		case 'l':
			for (i = 0; i < n; i++)
				printf("%s\n", t[i].name);
			return 0;
		case 't':
			for (i = 0; i < n && strcmp(t[i].name, optarg); i++)
				;
			if (i == n) {
				fprintf(stderr, "%s: no test '%s'\n", argv[0], optarg);
				usage(argv[0], t, n);
			}
			want[i] = any = true;
			break;
		default:
			usage(argv[0], t, n);
		}
	}
	if (optind != argc)
		usage(argv[0], t, n);
	for (int i = 0; i < n; i++) {
		want[i] |= !any;
		plan += want[i];
	}

	setvbuf(stdout, NULL, _IOLBF, 0);
	ksft_print_header();
	ksft_set_plan(plan);
	for (int i = 0; i < n; i++) {
		pid_t dog;

		if (!want[i])
			continue;
		dog = watchdog(t[i].name);
		last = t[i].fn();
		if (dog > 0) {
			kill(dog, SIGKILL);
			waitpid(dog, NULL, 0);
		}
		switch (last) {
		case KSFT_PASS:
			ksft_test_result_pass("%s\n", t[i].name);
			break;
		case KSFT_SKIP:
			ksft_test_result_skip("%s\n", t[i].name);
			break;
		default:
			ksft_test_result_fail("%s\n", t[i].name);
			break;
		}
	}
	/* one test: its own verdict, so a runner can tell a skip */
	if (plan == 1)
		exit(last == KSFT_PASS || last == KSFT_SKIP ? last : KSFT_FAIL);
	ksft_finished();
	return KSFT_FAIL;	/* not reached */
}
