// SPDX-License-Identifier: GPL-2.0
/*
 * wsload.c - file working-set workloads and the measurements around them.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#include "wsload.h"

#define CHUNK (1024 * 1024)

static uint64_t seed_of(const char *path)
{
	const char *base = strrchr(path, '/');
	uint64_t h = 1469598103934665603ULL;

	for (base = base ? base + 1 : path; *base; base++)
		h = (h ^ (unsigned char)*base) * 1099511628211ULL;
	return h;
}

static inline uint64_t word_at(uint64_t seed, uint64_t off)
{
	uint64_t x = seed ^ (off * 0x9e3779b97f4a7c15ULL);

	x ^= x >> 31;
	return x * 0xbf58476d1ce4e5b9ULL;
}

static void fill(uint64_t *buf, uint64_t seed, uint64_t off)
{
	for (size_t i = 0; i < CHUNK / 8; i++)
		buf[i] = word_at(seed, off + i * 8);
}

static bool check(const uint64_t *buf, size_t len, uint64_t seed, uint64_t off)
{
	for (size_t i = 0; i < len / 8; i++)
		if (buf[i] != word_at(seed, off + i * 8))
			return false;
	return true;
}

int ws_check_block(const char *path, const void *buf, size_t len, uint64_t off)
{
	const uint64_t *w = buf;
	size_t i;

	if (check(buf, len, seed_of(path), off))
		return 1;
	for (i = 0; i < len / 8 && !w[i]; i++)
		;
	return i == len / 8 ? 0 : -1;
}

void ws_fill_block(const char *path, void *buf, size_t len, uint64_t off)
{
	uint64_t seed = seed_of(path), *w = buf;

	for (size_t i = 0; i < len / 8; i++)
		w[i] = word_at(seed, off + i * 8);
}

static double clock_secs(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

double ws_now(void)
{
	return clock_secs(CLOCK_MONOTONIC);
}

double ws_cpu_now(void)
{
	return clock_secs(CLOCK_PROCESS_CPUTIME_ID);
}

static int io_read_bytes(uint64_t *val)
{
	char line[128];
	FILE *f = fopen("/proc/self/io", "r");
	int ret = -ENOENT;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "read_bytes: %" SCNu64, val) == 1) {
			ret = 0;
			break;
		}
	fclose(f);
	return ret;
}

/*
 * Write the pattern; data sets of several GiB take minutes under TCG, so
 * say every 15 s how far it got ("# progress:" lines, which the host
 * shows while the guest runs).
 */
struct ws_setup_clock *ws_setup_clock;

static int write_pattern(int fd, const char *path, uint64_t seed, uint64_t bytes)
{
	uint64_t *buf = malloc(CHUNK);
	double t0 = ws_now(), next = t0 + 15;
	int ret = 0;

	if (!buf)
		return -ENOMEM;
	for (uint64_t off = 0; off < bytes; off += CHUNK) {
		fill(buf, seed, off);
		if (pwrite(fd, buf, CHUNK, off) != CHUNK) {
			ret = -errno ?: -EIO;
			break;
		}
		if (ws_now() >= next && off) {
			double rate = off / (ws_now() - t0);

			fprintf(stderr, "# progress: writing %s: %" PRIu64 " of %" PRIu64
				" MiB, %.0f MiB/s, %.0f s to go\n", path, off >> 20, bytes >> 20,
				rate / WS_MiB, (bytes - off) / rate);
			next = ws_now() + 15;
		}
	}
	free(buf);
	if (!ret && fsync(fd))
		ret = -errno;
	return ret;
}

/* A data set is reusable when its size and its first and last words match. */
static bool dataset_ok(int fd, uint64_t seed, uint64_t bytes)
{
	struct stat st;
	uint64_t w;

	if (fstat(fd, &st) || (uint64_t)st.st_size != bytes)
		return false;
	if (pread(fd, &w, 8, 0) != 8 || w != word_at(seed, 0))
		return false;
	return pread(fd, &w, 8, bytes - 8) == 8 && w == word_at(seed, bytes - 8);
}

uint64_t ws_dataset_need(const char *path, uint64_t bytes)
{
	struct stat st;
	uint64_t have = 0;

	if (!stat(path, &st) && S_ISREG(st.st_mode))
		have = (uint64_t)st.st_blocks * 512;
	return have < bytes ? bytes - have : 0;
}

int ws_free_space(const char *path, uint64_t *avail)
{
	struct statvfs vfs;

	if (statvfs(path, &vfs))
		return -errno;
	/* what df calls available: not the blocks reserved for root */
	*avail = (uint64_t)vfs.f_bavail * vfs.f_frsize;
	return 0;
}

int ws_dataset(const char *path, uint64_t bytes)
{
	uint64_t seed = seed_of(path), need, avail = 0;
	int fd, ret;

	if (!bytes || bytes % CHUNK)
		return -EINVAL;
	fd = open(path, O_RDWR | O_CREAT, 0644);
	if (fd < 0)
		return -errno;
	if (dataset_ok(fd, seed, bytes)) {
		close(fd);
		return 0;
	}
	/* refuse before truncating: what is there stays if the set cannot fit */
	need = ws_dataset_need(path, bytes);
	ret = ws_free_space(path, &avail);
	if (!ret && need > avail) {
		fprintf(stderr, "%s: a data set of %" PRIu64 " MiB needs %" PRIu64
			" MiB more, the file system has %" PRIu64 " MiB free\n",
			path, bytes >> 20, need >> 20, avail >> 20);
		ret = -ENOSPC;
	}
	if (ret) {
		close(fd);
		return ret;
	}
	fprintf(stderr, "# progress: creating data set %s, %" PRIu64 " MiB\n", path, bytes >> 20);
	if (ws_setup_clock)
		ws_setup_clock->since = ws_now();
	ret = ftruncate(fd, 0) ? -errno : write_pattern(fd, path, seed, bytes);
	if (!ret)
		posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	close(fd);
	if (ws_setup_clock) {
		ws_setup_clock->spent += ws_now() - ws_setup_clock->since;
		ws_setup_clock->since = 0;
	}
	return ret;
}

int ws_write_file(const char *path, uint64_t bytes)
{
	int fd, ret;

	if (!bytes || bytes % CHUNK)
		return -EINVAL;
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		return -errno;
	ret = write_pattern(fd, path, seed_of(path), bytes);
	close(fd);
	return ret;
}

/* A pass's time, its bytes from storage since IO0, and its hit ratio. */
static int pass_end(struct ws_pass *p, uint64_t io0, double t0)
{
	uint64_t io1;
	int ret;

	p->secs = ws_now() - t0;
	ret = io_read_bytes(&io1);
	if (ret)
		return ret;
	p->disk_bytes = io1 - io0;
	p->hit = p->bytes ? 1.0 - (double)p->disk_bytes / p->bytes : 0;
	if (p->hit < 0)
		p->hit = 0;
	return 0;
}

int ws_read_range(const char *path, uint64_t off, uint64_t len, bool verify,
		  struct ws_pass *p)
{
	uint64_t seed = seed_of(path), io0, end;
	uint64_t *buf;
	struct stat st;
	double t0;
	int fd, ret = 0;

	memset(p, 0, sizeof(*p));
	p->intact = true;
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -errno;
	buf = malloc(CHUNK);
	if (!buf || fstat(fd, &st)) {
		ret = buf ? -errno : -ENOMEM;
		goto out;
	}
	end = len ? off + len : (uint64_t)st.st_size;
	if (end > (uint64_t)st.st_size)
		end = st.st_size;
	ret = io_read_bytes(&io0);
	if (ret)
		goto out;
	t0 = ws_now();
	for (uint64_t pos = off; pos < end; pos += CHUNK) {
		size_t want = end - pos < CHUNK ? end - pos : CHUNK;
		ssize_t got = pread(fd, buf, want, pos);

		if (got < 0) {
			ret = -errno;
			goto out;
		}
		if ((size_t)got != want) {
			ret = -EIO;
			goto out;
		}
		if (verify && !check(buf, got, seed, pos))
			p->intact = false;
		p->bytes += got;
	}
	ret = pass_end(p, io0, t0);
out:
	free(buf);
	close(fd);
	return ret;
}

static uint64_t xorshift(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545F4914F6CDD1DULL;
}

int ws_zipf_init(struct ws_zipf *z, uint64_t pages, double alpha, uint64_t seed)
{
	double sum = 0, acc = 0;

	memset(z, 0, sizeof(*z));
	if (!pages || pages > UINT32_MAX || alpha <= 0)
		return -EINVAL;
	z->pages = pages;
	z->cdf = malloc(pages * sizeof(*z->cdf));
	z->perm = malloc(pages * sizeof(*z->perm));
	if (!z->cdf || !z->perm) {
		ws_zipf_free(z);
		return -ENOMEM;
	}
	z->state = seed ? seed : 1;
	for (uint64_t r = 0; r < pages; r++)
		sum += pow((double)(r + 1), -alpha);
	for (uint64_t r = 0; r < pages; r++) {
		acc += pow((double)(r + 1), -alpha);
		z->cdf[r] = acc / sum;
	}
	z->cdf[pages - 1] = 1.0;
	/* Fisher-Yates */
	for (uint64_t i = 0; i < pages; i++)
		z->perm[i] = i;
	for (uint64_t i = pages - 1; i > 0; i--) {
		uint64_t j = xorshift(&z->state) % (i + 1);
		uint32_t t = z->perm[i];

		z->perm[i] = z->perm[j];
		z->perm[j] = t;
	}
	return 0;
}

void ws_zipf_free(struct ws_zipf *z)
{
	free(z->cdf);
	free(z->perm);
	z->cdf = NULL;
	z->perm = NULL;
}

uint32_t ws_zipf_next(struct ws_zipf *z)
{
	double u = (double)(xorshift(&z->state) >> 11) * 0x1.0p-53;
	uint32_t lo = 0, hi = z->pages - 1;

	/* the first rank whose cdf reaches u */
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (z->cdf[mid] < u)
			lo = mid + 1;
		else
			hi = mid;
	}
	return z->perm[lo];
}

int ws_read_zipf(const char *path, struct ws_zipf *z, uint64_t nreads, bool verify,
		 struct ws_pass *p)
{
	uint64_t seed = seed_of(path), io0, buf[4096 / 8];
	double t0;
	int fd, ret;

	memset(p, 0, sizeof(*p));
	p->intact = true;
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -errno;
	posix_fadvise(fd, 0, 0, POSIX_FADV_RANDOM);
	ret = io_read_bytes(&io0);
	if (ret)
		goto out;
	t0 = ws_now();
	for (uint64_t i = 0; i < nreads; i++) {
		uint64_t off = (uint64_t)ws_zipf_next(z) * sizeof(buf);
		ssize_t got = pread(fd, buf, sizeof(buf), off);

		if (got != (ssize_t)sizeof(buf)) {
			ret = got < 0 ? -errno : -EIO;
			goto out;
		}
		if (verify && !check(buf, got, seed, off))
			p->intact = false;
		p->bytes += got;
	}
	ret = pass_end(p, io0, t0);
out:
	close(fd);
	return ret;
}

/*
 * The mmap pass: WS_MMAP_THREADS threads touch the pages of one mapping
 * in the order of a random permutation, thread t taking every t-th
 * entry, so that several synchronous page-in faults are in flight (under
 * TCG one 4 KiB fault at a time reads at a few MB/s) and the order
 * stays shuffled.
 */
#define WS_MMAP_THREADS 4

struct mmap_pass {
	const unsigned char *map;
	const uint32_t *perm;
	uint64_t pages, seed;
	bool verify;
	int t;
	volatile bool bad;
	volatile uint64_t sum;
};

static void *mmap_touch(void *arg)
{
	struct mmap_pass *m = arg;
	uint64_t sum = 0;

	for (uint64_t i = m->t; i < m->pages; i += WS_MMAP_THREADS) {
		uint64_t off = (uint64_t)m->perm[i] * 4096;
		const uint64_t *w = (const uint64_t *)(m->map + off);

		if (m->verify && !check(w, 4096, m->seed, off))
			m->bad = true;
		sum += w[0];
	}
	m->sum = sum;
	return NULL;
}

int ws_read_mmap(const char *path, uint64_t order_seed, bool verify, struct ws_pass *p)
{
	struct mmap_pass m[WS_MMAP_THREADS];
	pthread_t th[WS_MMAP_THREADS];
	uint64_t pages, io0, state = order_seed ?: 1;
	uint32_t *perm = NULL;
	struct stat st;
	void *map = MAP_FAILED;
	double t0;
	int fd, ret, started = 0;

	memset(p, 0, sizeof(*p));
	p->intact = true;
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st)) {
		ret = -errno;
		goto out;
	}
	pages = st.st_size / 4096;
	if (!pages || pages > UINT32_MAX) {
		ret = -EINVAL;
		goto out;
	}
	perm = malloc(pages * sizeof(*perm));
	map = mmap(NULL, pages * 4096, PROT_READ, MAP_SHARED, fd, 0);
	if (!perm || map == MAP_FAILED) {
		ret = perm ? -errno : -ENOMEM;
		goto out;
	}
	if (madvise(map, pages * 4096, MADV_RANDOM)) {
		ret = -errno;
		goto out;
	}
	for (uint64_t i = 0; i < pages; i++)
		perm[i] = i;
	for (uint64_t i = pages - 1; i > 0; i--) {
		uint64_t j = xorshift(&state) % (i + 1);
		uint32_t t = perm[i];

		perm[i] = perm[j];
		perm[j] = t;
	}
	ret = io_read_bytes(&io0);
	if (ret)
		goto out;
	t0 = ws_now();
	for (int t = 0; t < WS_MMAP_THREADS; t++) {
		m[t] = (struct mmap_pass){ .map = map, .perm = perm, .pages = pages,
					   .seed = seed_of(path), .verify = verify, .t = t };
		ret = -pthread_create(&th[t], NULL, mmap_touch, &m[t]);
		if (ret)
			break;
		started++;
	}
	for (int t = 0; t < started; t++) {
		pthread_join(th[t], NULL);
		if (m[t].bad)
			p->intact = false;
	}
	if (ret)
		goto out;
	/* unmap before the pass ends: zapping marks the young pages accessed */
	munmap(map, pages * 4096);
	map = MAP_FAILED;
	p->bytes = pages * 4096;
	ret = pass_end(p, io0, t0);
out:
	if (map != MAP_FAILED)
		munmap(map, pages * 4096);
	free(perm);
	close(fd);
	return ret;
}

double ws_residency(const char *path)
{
	long pg = sysconf(_SC_PAGESIZE);
	uint64_t resident = 0, pages;
	unsigned char *vec;
	struct stat st;
	void *map;
	int fd;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) || !st.st_size) {
		close(fd);
		return -1;
	}
	pages = (st.st_size + pg - 1) / pg;
	map = mmap(NULL, st.st_size, PROT_READ, MAP_SHARED, fd, 0);
	close(fd);
	if (map == MAP_FAILED)
		return -1;
	vec = malloc(pages);
	if (!vec || mincore(map, st.st_size, vec)) {
		free(vec);
		munmap(map, st.st_size);
		return -1;
	}
	for (uint64_t i = 0; i < pages; i++)
		resident += vec[i] & 1;
	free(vec);
	munmap(map, st.st_size);
	return (double)resident / pages;
}

int ws_evict(const char *path)
{
	int fd = open(path, O_RDONLY), ret;

	if (fd < 0)
		return -errno;
	ret = -posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	close(fd);
	return ret;
}

int ws_file_read(const char *path, char *buf, int len)
{
	int fd = open(path, O_RDONLY), n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = 0;
	while (n > 0 && buf[n - 1] == '\n')
		buf[--n] = 0;
	return n;
}

int ws_file_write(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY), ret = 0;
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, val, strlen(val));
	if (n < 0)
		ret = -errno;
	else if ((size_t)n != strlen(val))
		ret = -EIO;
	close(fd);
	return ret;
}

int ws_drop_caches(void)
{
	sync();
	return ws_file_write("/proc/sys/vm/drop_caches", "3");
}

static int read_keyed(const char *file, const char *key, const char *fmt,
		      uint64_t *val)
{
	char line[256], name[128];
	FILE *f = fopen(file, "r");
	int ret = -ENOENT;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		uint64_t v;

		if (sscanf(line, fmt, name, &v) == 2 && !strcmp(name, key)) {
			*val = v;
			ret = 0;
			break;
		}
	}
	fclose(f);
	return ret;
}

int ws_vmstat(const char *key, uint64_t *val)
{
	return read_keyed("/proc/vmstat", key, "%127s %" SCNu64, val);
}

int ws_meminfo(const char *key, uint64_t *bytes)
{
	int ret = read_keyed("/proc/meminfo", key, "%127[^:]: %" SCNu64, bytes);

	if (!ret)
		*bytes *= 1024;
	return ret;
}

int ws_parse_size(const char *s, uint64_t *bytes)
{
	uint64_t v = 0, unit;
	const char *p = s;

	/* digits only: no sign, no blanks, no 0x (strtoull takes all three) */
	if (!s || *p < '0' || *p > '9')
		return -EINVAL;
	for (; *p >= '0' && *p <= '9'; p++) {
		if (v > (UINT64_MAX - (*p - '0')) / 10)
			return -ERANGE;
		v = v * 10 + (*p - '0');
	}
	if (p[0] == 'M')
		unit = WS_MiB;
	else if (p[0] == 'G')
		unit = WS_GiB;
	else
		return -EINVAL;
	if (p[1] || !v)
		return -EINVAL;
	if (v > UINT64_MAX / unit)
		return -ERANGE;
	*bytes = v * unit;
	return 0;
}
