// SPDX-License-Identifier: GPL-2.0
/*
 * test_memcg_lib.c - memcg.c's ownership rules and signal cleanup, on the
 * host: linked against fake_libcgroup.c, whose "memory controller" is a
 * temporary directory, so no cgroup of the host is touched.
 *
 * Checks that memcg_create() refuses an existing memcg and touches
 * nothing then; that adoption is explicit and an adopted memcg is never
 * removed; that a nested name creates (and destroy removes) exactly the
 * levels that were missing, with the limit on the leaf only; v2's
 * subtree_control rules; the read fixes; and that SIGTERM/SIGINT remove
 * what the process created, in it and not in its forked children.
 * TAP on stdout.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fake_libcgroup.h"
#include "memcg.h"
#include "tap.h"

static char *at(const char *rel)
{
	static char buf[4][600];
	static int i;

	i = (i + 1) % 4;
	snprintf(buf[i], sizeof(buf[i]), "%s/%s", fake_root, rel);
	return buf[i];
}

static bool exists(const char *rel)
{
	struct stat st;

	return !stat(at(rel), &st);
}

static void mk(const char *rel)
{
	if (mkdir(at(rel), 0755) && errno != EEXIST) {
		perror(at(rel));
		exit(1);
	}
}

static void put(const char *rel, const char *content)
{
	FILE *f = fopen(at(rel), "w");

	if (!f || fputs(content, f) < 0 || fclose(f)) {
		perror(at(rel));
		exit(1);
	}
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st; (void)flag; (void)ftw;
	return remove(path);
}

static void rm_tree(const char *rel)
{
	nftw(at(rel), rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

static bool logged(const char *line)
{
	return strstr(fake_log, line) != NULL;
}

/* ": message" for a handle call that failed, "" if it did not */
static const char *why(const struct memcg *cg)
{
	static char buf[600];

	if (cg)
		return "";
	snprintf(buf, sizeof(buf), ": %s", memcg_strerror());
	return buf;
}

/* The fake's write log as one line, for a test's description. */
static const char *show_log(void)
{
	static char buf[sizeof(fake_log) + 16];
	char *p;

	snprintf(buf, sizeof(buf), " (writes: %s)", fake_log[0] ? fake_log : "none");
	/* "a\nb\n)" -> "a, b)" */
	while ((p = strchr(buf, '\n'))) {
		if (p[1] == ')')
			memmove(p, p + 1, strlen(p));
		else
			*p = ',';
	}
	return buf;
}

static bool said(const char *text)
{
	return strstr(memcg_strerror(), text) != NULL;
}

static void init(bool v2)
{
	fake_v2 = v2;
	fake_reset();
	if (memcg_lib_init()) {
		printf("Bail out! memcg_lib_init: %s\n", memcg_strerror());
		exit(1);
	}
}

static void test_create_destroy(void)
{
	struct memcg *cg;

	cg = memcg_create("a", 64ULL << 20);
	tap_ok(cg && memcg_created(cg) && exists("a"), "create a: made%s", why(cg));
	if (!cg)
		return;
	tap_ok(!strcmp(memcg_path(cg), at("a")), "memcg_path is %s", memcg_path(cg));
	tap_ok(logged("a memory.limit_in_bytes=67108864\n"), "the limit written on v1's file");
	tap_ok(!memcg_destroy(cg) && !exists("a"), "destroy removes a");
}

static void test_refuse_existing(void)
{
	struct memcg *cg;

	fake_reset();
	errno = 0;
	cg = memcg_create("pre", 1ULL << 20);
	tap_ok(!cg && errno == EEXIST, "create of an existing memcg fails with EEXIST (errno %d)",
	       errno);
	tap_ok(said("already exists"), "and says so: %s", memcg_strerror());
	tap_ok(!fake_log[0] && exists("pre"), "and writes nothing to it%s", show_log());
	memcg_release(cg);
	tap_ok(memcg_exists("pre") == 1 && memcg_exists("nope") == 0,
	       "memcg_exists: 1 for pre, 0 for nope");
}

static void test_nested(void)
{
	struct memcg *cg;

	fake_reset();
	cg = memcg_create("x/y", 32ULL << 20);
	tap_ok(cg && exists("x") && exists("x/y"), "create x/y: both levels made%s", why(cg));
	tap_ok(logged("x/y memory.limit_in_bytes=") && !logged("x memory."),
	       "the limit on the leaf only%s", show_log());
	tap_ok(cg && !memcg_destroy(cg) && !exists("x/y") && !exists("x"),
	       "destroy removes x/y, then x, which it created");

	fake_reset();
	cg = memcg_create("pre/b", 32ULL << 20);
	tap_ok(cg && exists("pre/b"), "create pre/b under an existing pre");
	tap_ok(logged("pre/b memory.limit_in_bytes=") && !logged("pre memory."),
	       "the limit on pre/b, pre's settings untouched");
	tap_ok(cg && !memcg_destroy(cg) && !exists("pre/b") && exists("pre"),
	       "destroy removes pre/b and leaves pre, which existed");

	cg = memcg_create("x/y", 0);
	mk("x/other");		/* someone else's, made since */
	tap_ok(cg && !memcg_destroy(cg) && !exists("x/y") && exists("x/other"),
	       "destroy of x/y when x has gained another child: 0, x and x/other stay");
	rm_tree("x");

	cg = memcg_create("deep/er/still", 0);
	tap_ok(cg && exists("deep/er/still") && !memcg_destroy(cg) && !exists("deep"),
	       "three new levels made and removed");
}

static void test_adopt(void)
{
	struct memcg *cg;

	fake_reset();
	cg = memcg_adopt("pre");
	tap_ok(cg && !memcg_created(cg), "memcg_adopt(pre): a handle, not created%s", why(cg));
	tap_ok(cg && !memcg_destroy(cg) && exists("pre") && !fake_log[0],
	       "destroy of an adopted memcg releases it only: pre stays, nothing written");

	cg = memcg_adopt("/");
	tap_ok(cg && !memcg_created(cg) && !strcmp(memcg_name(cg), "/"),
	       "memcg_adopt(/): the root, not created%s", why(cg));
	tap_ok(cg && !memcg_destroy(cg) && !fake_log[0],
	       "destroy of the adopted root releases it only: nothing written or removed");

	errno = 0;
	cg = memcg_adopt("nope");
	tap_ok(!cg && errno == ENOENT && said("does not exist"),
	       "memcg_adopt of a missing memcg: ENOENT, '%s'", memcg_strerror());

	cg = memcg_create_flags("pre", 1ULL << 20, MEMCG_ADOPT);
	tap_ok(cg && !memcg_created(cg) && !fake_log[0],
	       "MEMCG_ADOPT on an existing memcg adopts it and writes no limit");
	tap_ok(cg && !memcg_destroy(cg) && exists("pre"), "and destroy leaves it");

	cg = memcg_create_flags("new", 1ULL << 20, MEMCG_ADOPT);
	tap_ok(cg && memcg_created(cg) && logged("new memory.limit_in_bytes=1048576"),
	       "MEMCG_ADOPT on a missing memcg creates it with the limit");
	tap_ok(cg && !memcg_destroy(cg) && !exists("new"), "and destroy removes it");
}

static void test_bad_names(void)
{
	static const char *const names[] = {
		"", "/a", "a/", "a//b", "..", "a/../b", ".", "a/./b", "a/..",
	};

	for (unsigned int i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		struct memcg *cg;

		errno = 0;
		cg = memcg_create(names[i], 0);
		tap_ok(!cg && errno == EINVAL && said("bad cgroup name"),
		       "name '%s' refused: %s", names[i], memcg_strerror());
	}
	tap_ok(!memcg_create(NULL, 0) && errno == EINVAL, "NULL name refused");
}

static void test_rollback(void)
{
	struct memcg *cg;

	fake_reset();
	fake_fail_value = "13";
	errno = 0;
	cg = memcg_create("r/s", 13);
	tap_ok(!cg && errno == EINVAL && !exists("r/s") && !exists("r"),
	       "a limit the kernel refuses: NULL, EINVAL, r/s and r removed again (%s)",
	       memcg_strerror());
	fake_fail_value = NULL;
}

static void test_destroy_busy(void)
{
	struct memcg *cg = memcg_create("busy", 0);

	put("busy/cgroup.events", "x");	/* rmdir fails: ENOTEMPTY here, EBUSY in the kernel */
	tap_ok(cg && memcg_destroy(cg) < 0 && said("cannot remove"),
	       "destroy that cannot rmdir fails and says so: %s", memcg_strerror());
	rm_tree("busy");
}

static void test_release_and_remove_created(void)
{
	struct memcg *kept, *g1, *g2, *f1;
	pid_t pid;
	int st;

	kept = memcg_create("kept", 0);
	memcg_release(kept);
	g1 = memcg_create("g1", 0);
	g2 = memcg_create("g2/h", 0);
	memcg_remove_created();
	tap_ok(exists("kept"), "a released memcg is not removed by memcg_remove_created()");
	tap_ok(!exists("g1") && !exists("g2"), "memcg_remove_created() removes the created ones");
	tap_ok(!memcg_destroy(g1) && !memcg_destroy(g2), "their handles still destroy cleanly");
	rm_tree("kept");

	f1 = memcg_create("f1", 0);
	pid = fork();
	if (!pid) {
		memcg_remove_created();
		_exit(0);
	}
	waitpid(pid, &st, 0);
	tap_ok(exists("f1"), "memcg_remove_created() in a forked child removes nothing");
	tap_ok(!memcg_destroy(f1) && !exists("f1"), "the parent still destroys it");
}

/* A child that creates memcgs, says so on a pipe, and waits for a signal. */
static pid_t child_with_memcgs(bool ignore_int, pid_t *grandchild)
{
	int fds[2];
	pid_t pid, gc = 0;

	if (pipe(fds))
		return -1;
	pid = fork();
	if (!pid) {
		close(fds[0]);
		if (ignore_int)
			signal(SIGINT, SIG_IGN);
		if (memcg_cleanup_on_signal() || !memcg_create("pre/s1/s2", 0) ||
		    !memcg_create("t1", 0))
			_exit(3);
		if (grandchild) {
			gc = fork();
			if (!gc) {
				for (;;)
					pause();
			}
		}
		if (write(fds[1], &gc, sizeof(gc)) != sizeof(gc))
			_exit(4);
		for (;;)
			pause();
	}
	close(fds[1]);
	if (read(fds[0], &gc, sizeof(gc)) != sizeof(gc))
		gc = -1;
	close(fds[0]);
	if (grandchild)
		*grandchild = gc;
	return pid;
}

static bool died_of(pid_t pid, int sig)
{
	int st;

	return waitpid(pid, &st, 0) == pid && WIFSIGNALED(st) && WTERMSIG(st) == sig;
}

/* PID (not our child: its parent does not reap it) has exited. */
static bool became_zombie(pid_t pid)
{
	char path[64], buf[256], *p;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	for (int i = 0; i < 200; i++) {
		FILE *f = fopen(path, "r");
		bool z = false;

		if (!f)
			return true;
		if (fgets(buf, sizeof(buf), f) && (p = strrchr(buf, ')')))
			z = p[1] == ' ' && (p[2] == 'Z' || p[2] == 'X');
		fclose(f);
		if (z)
			return true;
		usleep(10 * 1000);
	}
	return false;
}

static void test_signals(void)
{
	pid_t pid, gc;
	int st;

	pid = child_with_memcgs(false, NULL);
	tap_ok(exists("pre/s1/s2") && exists("t1"), "child made pre/s1/s2 and t1");
	kill(pid, SIGTERM);
	tap_ok(died_of(pid, SIGTERM), "SIGTERM ends it, by SIGTERM (default action)");
	tap_ok(!exists("pre/s1") && !exists("t1") && exists("pre"),
	       "and removed what it created (pre/s1/s2, pre/s1, t1), not pre");

	pid = child_with_memcgs(false, NULL);
	kill(pid, SIGINT);
	tap_ok(died_of(pid, SIGINT) && !exists("pre/s1") && !exists("t1"),
	       "SIGINT: the same");

	pid = child_with_memcgs(true, NULL);
	kill(pid, SIGINT);
	usleep(200 * 1000);
	tap_ok(waitpid(pid, &st, WNOHANG) == 0 && exists("t1"),
	       "an ignored SIGINT (nohup) stays ignored: no cleanup, still running");
	kill(pid, SIGTERM);
	tap_ok(died_of(pid, SIGTERM) && !exists("t1"), "SIGTERM then cleans up");

	pid = child_with_memcgs(false, &gc);
	kill(gc, SIGTERM);
	tap_ok(gc > 0 && became_zombie(gc), "a forked grandchild dies of SIGTERM");
	tap_ok(exists("pre/s1/s2") && exists("t1"),
	       "and leaves the memcgs of the process that created them alone");
	kill(pid, SIGTERM);
	tap_ok(died_of(pid, SIGTERM) && !exists("pre/s1") && !exists("t1"),
	       "which removes them on its own SIGTERM");
}

static void test_reads(void)
{
	struct memcg_stat *st = calloc(1, sizeof(*st));
	struct memcg *cg;
	uint64_t v = 7;
	char big[300 * 24 + 1] = "", *p = big;

	mk("rd");
	put("rd/memory.usage_in_bytes", "12345\n");
	put("rd/memory.max", "max\n");
	put("rd/memory.empty", "");
	put("rd/memory.bad", "12x\n");
	put("rd/memory.stat", "cache 4096\nrss 8192\ntotal_workingset_stale 3\n");
	cg = memcg_adopt("rd");
	if (!cg || !st) {
		tap_ok(false, "adopt the read fixture: %s", memcg_strerror());
		return;
	}
	tap_ok(!memcg_read_u64(cg, "memory.usage_in_bytes", &v) && v == 12345, "read_u64: 12345");
	tap_ok(!memcg_read_u64(cg, "memory.max", &v) && v == UINT64_MAX, "read_u64: max");
	v = 7;
	tap_ok(memcg_read_u64(cg, "memory.empty", &v) == -ENODATA && v == 7 && said("is empty"),
	       "read_u64 of an empty file: -ENODATA, '%s'", memcg_strerror());
	tap_ok(memcg_read_u64(cg, "memory.bad", &v) == -EINVAL && said("not a number: '12x'"),
	       "read_u64 of '12x': -EINVAL, '%s'", memcg_strerror());
	tap_ok(memcg_read_u64(cg, "memory.nope", &v) < 0 && said("memory.nope"),
	       "read_u64 of a missing file: '%s'", memcg_strerror());
	tap_ok(!memcg_read_stat(cg, st) && st->nr == 3 &&
	       memcg_stat_get(st, "rss") == 8192 && memcg_stat_hier(st, "workingset_stale") == 3,
	       "read_stat: 3 keys");

	for (int i = 0; i < 300; i++)
		p += sprintf(p, "key_%d %d\n", i, i);
	put("rd/memory.stat", big);
	tap_ok(memcg_read_stat(cg, st) == -E2BIG && said("more than 256 keys"),
	       "read_stat of 300 keys: -E2BIG, '%s'", memcg_strerror());
	put("rd/memory.stat", "cache 1\nthis_key_is_far_too_long_for_the_struct_memcg_stat_key 2\n");
	tap_ok(memcg_read_stat(cg, st) == -ENAMETOOLONG && said("longer than"),
	       "read_stat of a long key: -ENAMETOOLONG, '%s'", memcg_strerror());
	put("rd/memory.stat", "cache 1\nrss lots\n");
	tap_ok(memcg_read_stat(cg, st) == -EINVAL && said("rss: not a number"),
	       "read_stat of a bad value: -EINVAL, '%s'", memcg_strerror());
	put("rd/memory.stat", "");
	tap_ok(memcg_read_stat(cg, st) < 0, "read_stat of an empty file fails: '%s'",
	       memcg_strerror());

	{
		struct memcg_hist *h = calloc(1, sizeof(*h));

		tap_ok(h && memcg_read_hist(cg, h) == -ENOENT && said("no memory.refault_histogram"),
		       "read_hist without the file: -ENOENT, '%s'", memcg_strerror());
		put("rd/memory.refault_histogram",
		    "256 1\n384 2\ninf 3\ntotal_256 10\ntotal_384 20\ntotal_inf 30\n");
		tap_ok(h && !memcg_read_hist(cg, h) && h->nr == 3 && h->bound[1] == 384 &&
		       h->bound[2] == UINT64_MAX && h->local[2] == 3 && h->total[0] == 10 &&
		       h->total[2] == 30, "read_hist: 3 buckets, local and total");
		put("rd/memory.refault_histogram", "256 1\n384 2\ninf 3\ntotal_256 10\n");
		tap_ok(h && memcg_read_hist(cg, h) == -EINVAL && h->nr == 0,
		       "read_hist with total_ lines missing: -EINVAL, '%s'", memcg_strerror());
		put("rd/memory.refault_histogram", "384 1\n256 2\ninf 3\n");
		tap_ok(h && memcg_read_hist(cg, h) == -EINVAL && said("bad line '256 2'"),
		       "read_hist with bounds out of order: -EINVAL, '%s'", memcg_strerror());
		put("rd/memory.refault_histogram", "256 x\n");
		tap_ok(h && memcg_read_hist(cg, h) == -EINVAL && said("bad line '256 x'"),
		       "read_hist of a bad count: -EINVAL, '%s'", memcg_strerror());
		free(h);
	}
	memcg_destroy(cg);
	tap_ok(exists("rd/memory.stat"), "the adopted fixture stays");
	rm_tree("rd");
	free(st);
}

static void test_v2(void)
{
	struct memcg *cg;

	init(true);
	cg = memcg_create("a/b", 1ULL << 30);
	tap_ok(cg && exists("a/b"), "v2: create a/b%s", why(cg));
	tap_ok(logged("/ cgroup.subtree_control=+memory\n") &&
	       logged("a cgroup.subtree_control=+memory\n") &&
	       logged("a/b memory.max=1073741824\n") && !logged("a memory.max"),
	       "v2: memory enabled in the root and in a; memory.max on a/b only%s",
	       show_log());
	tap_ok(cg && !memcg_destroy(cg) && !exists("a"), "v2: destroy removes a/b and a");

	mk("busy2");
	put("busy2/cgroup.procs", "4242\n");
	put("busy2/cgroup.subtree_control", "");
	fake_reset();
	errno = 0;
	cg = memcg_create("busy2/x", 0);
	tap_ok(!cg && errno == EBUSY && said("processes of its own"),
	       "v2: an existing parent with processes: EBUSY, '%s'", memcg_strerror());
	tap_ok(!logged("busy2 cgroup.subtree_control") && !exists("busy2/x"),
	       "v2: nothing written to it, nothing created");

	mk("idle");
	put("idle/cgroup.procs", "");
	put("idle/cgroup.subtree_control", "");
	fake_reset();
	cg = memcg_create("idle/x", 0);
	tap_ok(cg && logged("idle cgroup.subtree_control=+memory"),
	       "v2: an existing parent without processes gets memory enabled");
	tap_ok(cg && !memcg_destroy(cg) && exists("idle") && !exists("idle/x"),
	       "v2: destroy leaves that parent");

	mk("on");
	put("on/cgroup.procs", "4242\n");
	put("on/cgroup.subtree_control", "cpu memory\n");
	fake_reset();
	cg = memcg_create("on/x", 0);
	tap_ok(cg && !logged("on cgroup.subtree_control"),
	       "v2: a parent with memory enabled already is not written%s", why(cg));
	memcg_destroy(cg);

	fake_reset();
	cg = memcg_adopt("idle");
	tap_ok(cg && !fake_log[0], "v2: adopt writes nothing, not even subtree_control");
	memcg_destroy(cg);
	init(false);
}

int main(int argc, char **argv)
{
	char tmpl[] = "/tmp/wsr-check-memcg-XXXXXX";
	const char *dir = argc > 1 ? argv[1] : mkdtemp(tmpl);

	if (!dir) {
		printf("Bail out! mkdtemp: %s\n", strerror(errno));
		return 1;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	snprintf(fake_root, sizeof(fake_root), "%s", dir);
	put("memory.limit_in_bytes", "9223372036854771712\n");
	put("cgroup.subtree_control", "");
	put("cgroup.procs", "");
	mk("pre");
	put("pre/cgroup.procs", "");

	init(false);
	test_create_destroy();
	test_refuse_existing();
	test_nested();
	test_adopt();
	test_bad_names();
	test_rollback();
	test_destroy_busy();
	test_release_and_remove_created();
	test_signals();
	test_reads();
	test_v2();

	nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	return tap_done();
}
