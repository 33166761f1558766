// SPDX-License-Identifier: GPL-2.0
/*
 * cgrun.c - fork, attach to a memcg, run, wait (see cgrun.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cgrun.h"
#include "memcg.h"

pid_t cg_fork(void)
{
	pid_t parent = getpid(), pid;

	fflush(NULL);
	pid = fork();
	/* a child outlives no parent: a killed test takes its workload along */
	if (pid == 0 && (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() != parent))
		_exit(1);
	return pid;
}

pid_t cg_run_nowait(struct memcg *cg, cg_fn fn, void *arg)
{
	pid_t pid = cg_fork();

	if (pid < 0)
		return -errno;
	if (pid)
		return pid;
	if (cg && memcg_attach_self(cg)) {
		fprintf(stderr, "# %s\n", memcg_strerror());
		_exit(1);
	}
	_exit(fn(arg) ? 1 : 0);
}

int cg_wait(pid_t pid)
{
	int status;

	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	if (WIFEXITED(status))
		return WEXITSTATUS(status) ? -EIO : 0;
	if (WIFSIGNALED(status))
		fprintf(stderr, "# child %d killed by signal %d (%s)\n", (int)pid,
			WTERMSIG(status), strsignal(WTERMSIG(status)));
	return -EIO;
}

int cg_run(struct memcg *cg, cg_fn fn, void *arg)
{
	pid_t pid = cg_run_nowait(cg, fn, arg);

	return pid < 0 ? pid : cg_wait(pid);
}

void *cg_shared(size_t size)
{
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

void cg_unshare(void *p, size_t size)
{
	if (p)
		munmap(p, size);
}
