/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tap.h - the few TAP helpers the host checks' C tests use.
 */
#ifndef WSR_TAP_H
#define WSR_TAP_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

static int tap_n, tap_failed;

static bool __attribute__((format(printf, 2, 3))) tap_ok(bool cond, const char *fmt, ...)
{
	va_list ap;

	printf("%sok %d - ", cond ? "" : "not ", ++tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	tap_failed += !cond;
	return cond;
}

/* The plan at the end; 1 if anything failed. */
static int tap_done(void)
{
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}

#endif
