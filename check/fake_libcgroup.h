/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fake_libcgroup.h - knobs of the fake libcgroup the host checks link
 * memcg.c against (see fake_libcgroup.c).
 */
#ifndef WSR_FAKE_LIBCGROUP_H
#define WSR_FAKE_LIBCGROUP_H

#include <stdbool.h>

extern char fake_root[256];	/* the memory controller's "mount" */
extern bool fake_v2;		/* statfs() says cgroup2 */
extern const char *fake_fail_value;	/* a write of this value fails (EINVAL) */
extern char fake_log[8192];	/* "NAME FILE=VALUE" and "NAME attach PID" lines */

/* Forget writes and the log. */
void fake_reset(void);

#endif
