// SPDX-License-Identifier: GPL-2.0
/*
 * test_stress.c - races around refaults, each case bounded in time.
 *
 * Every case checks that every byte read back is what the file holds
 * (the data sets' pattern, or zeros where a hole was punched) and that
 * the workload made progress; the harness fails the run if the kernel
 * log has a report (BUG, WARNING, lockdep, KASAN, hung task...).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cgtest.h"
#include "../memcg/scenario.h"

#define SECS		20
#define GRACE		90	/* seconds a case may overrun before it counts as hung */
#define BLK		(64 * 1024)
#define MAX_KIDS	16

static void msleep(int ms)
{
	usleep(ms * 1000);
}

/*
 * Check what one pread() returned: every 4 KiB page must hold the data
 * set's pattern, or (if HOLES) be all zeros.  The page is the unit, not
 * the read: a pread() is not atomic against a hole punch, so one read can
 * copy some pages from the cache before the punch and read the rest as
 * the hole after it (the CI run of 2026-12-03 saw exactly that).  A page
 * is copied whole from a folio the read holds, and the punches are page
 * aligned, so a page mixing pattern and zeros, or holding anything else,
 * is corruption.  Returns the offset of the first bad page, or -1.
 */
static int64_t bad_page(const char *path, const char *buf, size_t len,
			uint64_t off, bool holes)
{
	for (size_t p = 0; p < len; p += 4096) {
		size_t n = len - p < 4096 ? len - p : 4096;
		int ok = ws_check_block(path, buf + p, n, off + p);

		if (ok < 0 || (!ok && !holes))
			return off + p;
	}
	return -1;
}

/*
 * Read PATH from start to end again and again until DEADLINE, checking
 * every page (holes allowed if HOLES).  Exit status: 0 after at least
 * 16 MiB read (eight readers under KASAN and TCG manage ~30 MiB each in
 * ten seconds), 1 on corruption or a read error, 2 without that progress.
 */
static void reader(const char *path, double deadline, bool holes)
{
	char *buf = aligned_alloc(4096, BLK);
	int fd = open(path, O_RDONLY);
	uint64_t total = 0;

	if (!buf || fd < 0)
		_exit(1);
	while (ws_now() < deadline) {
		uint64_t off = 0;
		ssize_t n;

		while ((n = pread(fd, buf, BLK, off)) > 0) {
			int64_t bad = bad_page(path, buf, n - n % 8, off, holes);

			if (bad >= 0) {
				fprintf(stderr, "%s: wrong data in the page at %" PRId64
					" (read of %zd at %" PRIu64 ")\n", path, bad, n, off);
				_exit(1);
			}
			off += n;
			total += n;
			if (ws_now() >= deadline)
				break;
		}
		if (n < 0) {
			fprintf(stderr, "%s: read: %s\n", path, strerror(errno));
			_exit(1);
		}
	}
	_exit(total >= 16 * WS_MiB ? 0 : 2);
}

struct kids {
	pid_t pid[MAX_KIDS];
	int n;
};

struct reader_arg {
	const char *path;
	double deadline;
	bool holes;
};

static int reader_fn(void *arg)
{
	const struct reader_arg *a = arg;

	reader(a->path, a->deadline, a->holes);	/* exits with its status */
	return 1;
}

static int spawn_reader(struct kids *k, struct memcg *cg, const char *path,
			double deadline, bool holes)
{
	struct reader_arg a = { .path = path, .deadline = deadline, .holes = holes };
	pid_t pid;

	if (k->n == MAX_KIDS)
		return -ENOSPC;
	pid = cg_run_nowait(cg, reader_fn, &a);
	if (pid < 0)
		return pid;
	k->pid[k->n++] = pid;
	return 0;
}

/*
 * The kernel's view of a hang, into its log: blocked tasks and every
 * CPU's backtrace (the harness prints the log's reports).
 */
static void dump_hang(const char *what)
{
	ksft_print_msg("%s: still running %d s after its deadline: sysrq w and l into the kernel log\n",
		       what, GRACE);
	ws_file_write("/proc/sysrq-trigger", "w");
	ws_file_write("/proc/sysrq-trigger", "l");
}

/*
 * Wait for all, at most until GRACE seconds after DEADLINE: then dump
 * what the kernel is doing and kill them.  False if any failed.
 */
static bool reap_by(struct kids *k, const char *what, double deadline)
{
	bool ok = true, dumped = false;

	for (int i = 0; i < k->n; i++) {
		int st = 0;
		pid_t r;

		while ((r = waitpid(k->pid[i], &st, WNOHANG)) == 0) {
			if (ws_now() > deadline + GRACE) {
				if (!dumped)
					dump_hang(what);
				dumped = true;
				for (int j = i; j < k->n; j++)
					kill(k->pid[j], SIGKILL);
				r = waitpid(k->pid[i], &st, 0);
				break;
			}
			msleep(100);
		}
		if (r != k->pid[i] || !WIFEXITED(st) || WEXITSTATUS(st)) {
			ksft_print_msg("%s: reader %d failed (%s %d)\n", what, i,
				       WIFEXITED(st) ? "exit" : "signal",
				       WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
			ok = false;
		}
	}
	k->n = 0;
	return ok && !dumped;
}

static bool reap(struct kids *k, const char *what)
{
	return reap_by(k, what, ws_now());
}

static int dataset(char *buf, int len, const char *name, uint64_t bytes)
{
	cgt_path(buf, len, name);
	return ws_dataset(buf, bytes);
}

/* Under QEMU's TCG (no KVM), systemd-detect-virt says "qemu". */
static bool emulated(void)
{
	char buf[32] = "";
	FILE *f = popen("systemd-detect-virt 2>/dev/null", "r");

	if (!f)
		return false;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = 0;
	pclose(f);
	return !strncmp(buf, "qemu", 4);
}

/*
 * One phase of the switch case: eight readers in the four memcgs, two per
 * memcg on the same file (so both race to refault the same pages), and a
 * switcher that writes drop_caches every half second and, if SWITCH, the
 * policy every second and the multi-gen LRU every four seconds.
 */
static bool switch_phase(struct memcg **cg, char path[][512], double secs,
			 bool sw)
{
	static const char *const pol[] = { "distance", "adaptive", "activate", "classic" };
	double deadline = ws_now() + secs;
	struct kids k = { 0 };
	int tick = 0;

	for (int i = 0; i < 4; i++) {
		if (spawn_reader(&k, cg[i], path[i], deadline, false) ||
		    spawn_reader(&k, cg[i], path[i], deadline, false)) {
			reap(&k, "switch");
			return false;
		}
	}
	/* the switcher is a child too, so that a hang in it is caught */
	k.pid[k.n] = cg_fork();
	if (k.pid[k.n] == 0) {
		while (ws_now() < deadline) {
			if (sw && tick % 4 == 0 && scn_set_policy(pol[tick / 4 % ARRAY_SIZE(pol)]))
				_exit(1);
			if (sw && tick % 16 == 10)
				ws_file_write("/sys/kernel/mm/lru_gen/enabled",
					      tick % 32 == 10 ? "y" : "n");
			if (tick % 2 == 1)
				ws_file_write("/proc/sys/vm/drop_caches", "3");
			tick++;
			msleep(250);
		}
		_exit(0);
	}
	if (k.pid[k.n] > 0)
		k.n++;
	return reap_by(&k, "switch", deadline);
}

/*
 * Eight readers refault in four memcgs at 192 MiB while drop_caches runs,
 * under the multi-gen LRU and then under each policy, so that refaults of
 * shadows written under one LRU and policy meet every other.  With KVM
 * the policy is also switched every second and the multi-gen LRU every
 * four seconds while the readers run.  Under TCG the policy switches
 * between the phases and the multi-gen LRU is left off: switching it on
 * wedged both vCPUs in the int3 handler of text_poke_bp() (seen with gdb
 * on QEMU's gdbstub: patching lru_gen_caps sites), also with the policy
 * fixed at "activate", so with no code of the series on the path, and
 * also once with the readers stopped.  The emulator's cross-modifying
 * code is the suspect; a wedged guest only ends at the boot timeout.
 */
static int test_stress_switch(void)
{
	static const char *const pol[] = { "distance", "adaptive", "activate", "classic" };
	struct memcg *cg[4] = { NULL };
	char path[4][512], name[32];
	bool mglru, tcg, ok = false;
	int i;

	mglru = access("/sys/kernel/mm/lru_gen/enabled", W_OK) == 0;
	tcg = emulated();
	if (memcg_lib_init())
		return KSFT_FAIL;
	for (i = 0; i < 4; i++) {
		snprintf(name, sizeof(name), "stress-switch-%d", i);
		if (dataset(path[i], sizeof(path[i]), name, 256 * WS_MiB))
			return KSFT_FAIL;
	}
	ws_drop_caches();
	for (i = 0; i < 4; i++) {
		snprintf(name, sizeof(name), "stress_%d", i);
		cg[i] = cgt_memcg(name, 192 * WS_MiB);
		if (!cg[i]) {
			ksft_print_msg("%s\n", memcg_strerror());
			goto out;
		}
	}
	ok = true;
	if (mglru && !tcg) {
		ok &= !ws_file_write("/sys/kernel/mm/lru_gen/enabled", "y");
		ok &= CGT_CHECK(switch_phase(cg, path, SECS / 2, !tcg),
				"multi-gen LRU: 8 readers read intact data");
		ok &= !ws_file_write("/sys/kernel/mm/lru_gen/enabled", "n");
	}
	for (i = 0; i < (int)ARRAY_SIZE(pol) && ok; i++) {
		ok &= !scn_set_policy(pol[i]);
		ok &= CGT_CHECK(switch_phase(cg, path, SECS / 2, !tcg),
				"%s: 8 readers read intact data%s", pol[i],
				tcg ? " (TCG: switches between phases)" :
				" while the policy and MGLRU switched");
	}
out:
	if (mglru)
		ws_file_write("/sys/kernel/mm/lru_gen/enabled", "n");
	scn_set_policy("distance");
	for (i = 0; i < 4; i++)
		memcg_destroy(cg[i]);
	return ok ? KSFT_PASS : KSFT_FAIL;
}

/*
 * Two readers refault a 384 MiB file through a 128 MiB memcg while it
 * is hole-punched, truncated and written back: the folios allocated for
 * refaults carry a shadow in ->private while the truncation removes
 * shadows.  Readers accept the pattern or zeros, nothing else.
 */
static int test_stress_truncate(void)
{
	const uint64_t size = 384 * WS_MiB;
	char path[512], *buf = NULL;
	struct memcg *cg = NULL;
	struct kids k = { 0 };
	int fd = -1, punches = 0, truncs = 0;
	double deadline;
	bool ok = false;

	if (memcg_lib_init() || dataset(path, sizeof(path), "stress-truncate", size))
		return KSFT_FAIL;
	buf = aligned_alloc(4096, WS_MiB);
	fd = open(path, O_RDWR);
	cg = cgt_memcg("stress_trunc", 128 * WS_MiB);
	if (!buf || fd < 0 || !cg) {
		ksft_print_msg("setup: %s\n", cg ? strerror(errno) : memcg_strerror());
		goto out;
	}
	ws_drop_caches();
	deadline = ws_now() + SECS;
	if (spawn_reader(&k, cg, path, deadline, true) ||
	    spawn_reader(&k, cg, path, deadline, true))
		goto out;
	srandom(7);
	while (ws_now() < deadline) {
		uint64_t off = (random() % (size / WS_MiB)) * WS_MiB;

		if (fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
			      off, WS_MiB) == 0)
			punches++;
		if (punches % 16 == 15) {
			/* cut the tail off and write it back */
			uint64_t cut = size / 2 + (random() % 64) * WS_MiB;

			if (ftruncate(fd, cut))
				break;
			for (uint64_t o = cut; o < size; o += WS_MiB) {
				ws_fill_block(path, buf, WS_MiB, o);
				if (pwrite(fd, buf, WS_MiB, o) != (ssize_t)WS_MiB)
					break;
			}
			truncs++;
		}
		msleep(20);
	}
	ok = reap_by(&k, "truncate", deadline);
	ok = CGT_CHECK(ok, "readers saw only data or holes: %d punches, %d truncations",
		       punches, truncs) && ok;
	/* put the data set back for the next run */
	for (uint64_t o = 0; o < size; o += WS_MiB) {
		ws_fill_block(path, buf, WS_MiB, o);
		if (pwrite(fd, buf, WS_MiB, o) != (ssize_t)WS_MiB)
			ok = false;
	}
	fsync(fd);
out:
	reap(&k, "truncate");
	if (fd >= 0)
		close(fd);
	free(buf);
	memcg_destroy(cg);
	return ok ? KSFT_PASS : KSFT_FAIL;
}

/*
 * A memcg's limit evicts a file; the memcg is removed while readers in
 * another memcg refault the file with shadows that name it.  Repeated.
 */
static int test_stress_rmdir(void)
{
	char path[512];
	double end = ws_now() + SECS;
	int rounds = 0;
	bool ok = true;

	if (memcg_lib_init() || dataset(path, sizeof(path), "stress-rmdir", 256 * WS_MiB))
		return KSFT_FAIL;
	while (ok && ws_now() < end) {
		struct memcg *a = cgt_memcg("stress_rm_a", 96 * WS_MiB);
		struct memcg *b = cgt_memcg("stress_rm_b", 160 * WS_MiB);
		struct kids k = { 0 };

		ws_drop_caches();
		ok = a && b && !cgt_read_in(a, path, 1, true, NULL);
		if (ok)
			ok = !spawn_reader(&k, b, path, ws_now() + 3, false) &&
			     !spawn_reader(&k, b, path, ws_now() + 3, false);
		/* the readers refault what a's limit evicted; a goes */
		ok &= !memcg_destroy(a);
		a = NULL;
		ok &= reap_by(&k, "rmdir", ws_now() + 3);
		memcg_destroy(a);
		memcg_destroy(b);
		rounds++;
	}
	return CGT_CHECK(ok && rounds >= 2, "%d rounds of refaults into a new memcg while the evicting one was removed",
			 rounds) ? KSFT_PASS : KSFT_FAIL;
}

/*
 * A 32 MiB memcg: a task that touches 96 MiB of anonymous memory while
 * reading a file is OOM-killed (the log's "Memory cgroup out of memory"
 * is expected here); a reader of a 256 MiB file alone gets intact data.
 */
static int test_stress_oom(void)
{
	struct memcg *cg;
	char path[512];
	uint64_t fails = 0;
	int st = 0;
	pid_t pid;
	bool ok;

	if (memcg_lib_init() || dataset(path, sizeof(path), "stress-oom", 256 * WS_MiB))
		return KSFT_FAIL;
	cg = cgt_memcg("stress_oom", 32 * WS_MiB);
	if (!cg) {
		ksft_print_msg("%s\n", memcg_strerror());
		return KSFT_FAIL;
	}
	/* the harness's log scan takes this OOM as expected */
	ws_file_write("/dev/kmsg", "wsr-test: expect Memory cgroup out of memory");
	pid = cg_fork();
	if (pid == 0) {
		char *anon;

		if (memcg_attach_self(cg))
			_exit(1);
		anon = mmap(NULL, 96 * WS_MiB, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (anon == MAP_FAILED)
			_exit(1);
		for (int round = 0; round < 4; round++) {
			struct ws_pass p;

			memset(anon, round + 1, 96 * WS_MiB);
			ws_read_pass(path, false, &p);
		}
		_exit(3);	/* should not get here: no swap in the guest */
	}
	ok = CGT_CHECK(pid > 0 && waitpid(pid, &st, 0) == pid && WIFSIGNALED(st) &&
		       WTERMSIG(st) == SIGKILL,
		       "anon + file task over a 32 MiB limit was OOM-killed (status %#x)", st);
	ok &= CGT_CHECK(!cgt_read_in(cg, path, 2, true, NULL),
			"file-only reader in the same memcg read intact data");
	memcg_read_u64(cg, "memory.failcnt", &fails);
	ok &= CGT_CHECK(fails > 0, "memory.failcnt %" PRIu64, fails);
	memcg_destroy(cg);
	return ok ? KSFT_PASS : KSFT_FAIL;
}

/*
 * Readers refault in two memcgs while memory is compacted every 200 ms
 * and, on a guest with two nodes, their pages are migrated from node to
 * node (migrate_pages(2), what migratepages(8) does).
 */
static int test_stress_migrate(void)
{
	struct memcg *cg[2] = { NULL };
	char path[2][512];
	struct kids k = { 0 };
	int nodes = 0, moves = 0, compactions = 0;
	double deadline;
	bool ok = false;

	for (int n = 0; n < 64; n++) {
		char p[64];

		snprintf(p, sizeof(p), "/sys/devices/system/node/node%d", n);
		nodes += access(p, F_OK) == 0;
	}
	if (memcg_lib_init() ||
	    dataset(path[0], sizeof(path[0]), "stress-migrate-0", 256 * WS_MiB) ||
	    dataset(path[1], sizeof(path[1]), "stress-migrate-1", 256 * WS_MiB))
		return KSFT_FAIL;
	ws_drop_caches();
	deadline = ws_now() + SECS;
	for (int i = 0; i < 2; i++) {
		char name[32];

		snprintf(name, sizeof(name), "stress_mig_%d", i);
		cg[i] = cgt_memcg(name, 160 * WS_MiB);
		if (!cg[i] || spawn_reader(&k, cg[i], path[i], deadline, false) ||
		    spawn_reader(&k, cg[i], path[i], deadline, false))
			goto out;
	}
	while (ws_now() < deadline) {
		if (!ws_file_write("/proc/sys/vm/compact_memory", "1"))
			compactions++;
		if (nodes >= 2) {
			unsigned long from = 1UL << (moves & 1), to = 1UL << !(moves & 1);

			for (int i = 0; i < k.n; i++)
				syscall(SYS_migrate_pages, k.pid[i], 8 * sizeof(long),
					&from, &to);
			moves++;
		}
		msleep(200);
	}
	ok = reap_by(&k, "migrate", deadline);
	ok = CGT_CHECK(ok, "4 readers read intact data through %d compactions, %d migrations (%d nodes)",
		       compactions, moves, nodes) && ok;
	ok &= CGT_CHECK(compactions > 0, "compact_memory was written");
out:
	reap(&k, "migrate");
	for (int i = 0; i < 2; i++)
		memcg_destroy(cg[i]);
	return ok ? KSFT_PASS : KSFT_FAIL;
}

static const struct cgtest tests[] = {
	CGTEST(test_stress_switch),
	CGTEST(test_stress_truncate),
	CGTEST(test_stress_rmdir),
	CGTEST(test_stress_oom),
	CGTEST(test_stress_migrate),
};

int main(int argc, char **argv)
{
	/* a case runs 20 s and may overrun by GRACE: a hang shows in minutes */
	setenv("CGT_TIMEOUT", "240", 0);
	return cgtest_main(argc, argv, tests, ARRAY_SIZE(tests));
}
