/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wsload.h - file working-set workloads and the measurements around them.
 *
 * A data set is a file of deterministic content (every 8-byte word is a
 * function of its offset and the file's seed), so any pass can verify what
 * it read.  A read pass reports its hit ratio: 1 - bytes the task caused to
 * be read from storage (/proc/self/io read_bytes) / bytes read.  Residency
 * is the fraction of a file's pages in the page cache (mincore).
 */
#ifndef WSR_WSLOAD_H
#define WSR_WSLOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define WS_MiB ((uint64_t)1024 * 1024)
#define WS_GiB ((uint64_t)1024 * WS_MiB)

struct ws_pass {
	uint64_t bytes;		/* read by the pass */
	uint64_t disk_bytes;	/* of which fetched from storage */
	double hit;		/* 1 - disk_bytes / bytes */
	double secs;
	bool intact;		/* content verified (when asked) */
};

/*
 * Create PATH of BYTES (multiple of 1 MiB) unless it already holds them;
 * -ENOSPC, with PATH left as it was, if they cannot fit.
 */
int ws_dataset(const char *path, uint64_t bytes);
/*
 * Time spent creating data sets, for a watchdog that must not count it (a
 * fresh scratch disk under TCG takes minutes per set).  NULL: not kept;
 * point it at memory shared with the watchdog (cg_shared()).  SINCE is
 * nonzero (ws_now()) while a set is being written, SPENT the total.
 */
struct ws_setup_clock {
	volatile double spent, since;
};
extern struct ws_setup_clock *ws_setup_clock;
/* What ws_dataset(PATH, BYTES) would still write: BYTES less what PATH occupies. */
uint64_t ws_dataset_need(const char *path, uint64_t bytes);
/* Bytes available to users in the file system holding PATH, or -errno. */
int ws_free_space(const char *path, uint64_t *avail);
/* A + B, or UINT64_MAX if that does not fit: sums of sizes never wrap. */
static inline uint64_t ws_add_sat(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}
/* Read PATH [off, off+len) sequentially (len 0: to the end). */
int ws_read_range(const char *path, uint64_t off, uint64_t len, bool verify,
		  struct ws_pass *p);
static inline int ws_read_pass(const char *path, bool verify, struct ws_pass *p)
{
	return ws_read_range(path, 0, 0, verify, p);
}
/* Write BYTES of pattern data to PATH, fsync; then read it back verified. */
int ws_write_file(const char *path, uint64_t bytes);
/*
 * A block of PATH's content read at OFF (LEN a multiple of 8): 1 if it is
 * the data set's pattern, 0 if all zeros (a hole), -1 if anything else.
 */
int ws_check_block(const char *path, const void *buf, size_t len, uint64_t off);
/* The pattern PATH holds at [OFF, OFF+LEN). */
void ws_fill_block(const char *path, void *buf, size_t len, uint64_t off);
/*
 * Zipf-distributed page numbers over a file of PAGES pages: rank r (0 the
 * hottest) is drawn with probability ~ 1 / (r + 1)^ALPHA and stands for a
 * page of a fixed random permutation, so that hot pages are spread over
 * the file (no readahead favours them).  The sequence is a function of
 * SEED alone: every policy sees the same reads.
 */
struct ws_zipf {
	uint32_t pages;
	double *cdf;		/* cdf[r]: P(rank <= r) */
	uint32_t *perm;		/* rank -> page */
	uint64_t state;		/* xorshift64* */
};
int ws_zipf_init(struct ws_zipf *z, uint64_t pages, double alpha, uint64_t seed);
void ws_zipf_free(struct ws_zipf *z);
uint32_t ws_zipf_next(struct ws_zipf *z);
/*
 * NREADS 4 KiB preads of PATH at Zipf-drawn pages (POSIX_FADV_RANDOM: no
 * readahead), each one's content checked if VERIFY.
 */
int ws_read_zipf(const char *path, struct ws_zipf *z, uint64_t nreads, bool verify,
		 struct ws_pass *p);

/*
 * A pass through mmap: every page of PATH touched once through a shared
 * mapping with MADV_RANDOM (no fault-path readahead), in the order of a
 * random permutation of its pages drawn from ORDER_SEED (a new order per
 * seed), by a few threads; then unmapped, which marks the touched pages
 * accessed as read() would.  Hit ratio as for a read pass.
 */
int ws_read_mmap(const char *path, uint64_t order_seed, bool verify, struct ws_pass *p);

/* Fraction of PATH's pages resident in the page cache, or -1 on error. */
double ws_residency(const char *path);
/* Drop PATH's clean page cache (POSIX_FADV_DONTNEED). */
int ws_evict(const char *path);
/* sync + echo 3 > /proc/sys/vm/drop_caches */
int ws_drop_caches(void);

/* One /proc/vmstat counter; -ENOENT when this kernel has no such key. */
int ws_vmstat(const char *key, uint64_t *val);
/* Read or write a /proc/sys or /sys file; write returns -errno. */
int ws_file_read(const char *path, char *buf, int len);
int ws_file_write(const char *path, const char *val);
/*
 * "1200M" or "2G" to bytes: decimal digits, then M (MiB) or G (GiB), and
 * nothing else.  -EINVAL for anything else (empty, a sign, blanks, no or
 * another suffix, trailing characters, zero); -ERANGE if the bytes do not
 * fit in 64 bits ("17179869184G").  *BYTES is written only on success.
 */
int ws_parse_size(const char *s, uint64_t *bytes);
/* CLOCK_MONOTONIC in seconds. */
double ws_now(void);
/* The calling process's CPU time (CLOCK_PROCESS_CPUTIME_ID) in seconds. */
double ws_cpu_now(void);
/* MemTotal, MemFree etc. from /proc/meminfo, in bytes. */
int ws_meminfo(const char *key, uint64_t *bytes);

#endif
