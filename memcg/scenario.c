// SPDX-License-Identifier: GPL-2.0
/*
 * scenario.c - working-set scenarios under each workingset_policy.
 *
 * A run starts from an empty page cache (drop_caches) and, for memcg runs,
 * a fresh memcg; the workload runs in a child process (inside the memcg if
 * there is one) that records every pass into shared memory, so the parent
 * keeps its own memory out of the measurement.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cgrun.h"
#include "memcg.h"
#include "opt.h"
#include "scenario.h"
#include "wsload.h"

#define POLICY_FILE "/proc/sys/vm/workingset_policy"
#define LRU_GEN "/sys/kernel/mm/lru_gen/enabled"

uint64_t scn_set_unit = SCN_SET_UNIT;
bool scn_progress;

/* set by scn_run_any() around an "mglru" run */
static bool mglru_run;

/* MGLRU enabled (any of its bits), as far as this kernel has it */
static bool mglru_on(void)
{
	char buf[32];

	return ws_file_read(LRU_GEN, buf, sizeof(buf)) > 0 && strtoul(buf, NULL, 0) != 0;
}

const char *const scn_policies[SCN_NPOLICIES] = {
	"distance", "adaptive", "activate", "classic",
};
const int scn_npolicies = SCN_NPOLICIES;

static const char *datadir = "/scratch/wsr";

void scn_set_datadir(const char *dir)
{
	datadir = dir;
}

static void scn_msg(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "# ");
	vfprintf(stderr, fmt, ap);
	va_end(ap);
}

/*
 * WSR_TESTED_POLICY=activate (say) runs that policy wherever "distance"
 * or "adaptive", the policies under test, are asked for: the experiment
 * that shows which tests fail on a kernel whose series does nothing.
 */
const char *scn_tested_policy(void)
{
	const char *p = getenv("WSR_TESTED_POLICY");

	return p && *p ? p : NULL;
}

/* The policy that runs when POLICY is asked for. */
const char *scn_policy_run(const char *policy)
{
	const char *t = scn_tested_policy();

	if (t && (!strcmp(policy, "distance") || !strcmp(policy, "adaptive")))
		return t;
	return policy;
}

int scn_set_policy(const char *policy)
{
	static bool said;

	if (strcmp(scn_policy_run(policy), policy)) {
		if (!said)
			scn_msg("WSR_TESTED_POLICY: '%s' runs where 'distance' or 'adaptive' is asked for\n",
				scn_tested_policy());
		said = true;
	}
	return ws_file_write(POLICY_FILE, scn_policy_run(policy));
}

uint64_t scn_global_mem(void)
{
	uint64_t avail = 0;

	ws_drop_caches();
	ws_meminfo("MemAvailable", &avail);
	return avail;
}

int scn_add_set(struct scn_env *env, char name, uint64_t bytes)
{
	int i = env->nsets, err;

	if (i == SCN_MAX_SETS)
		return -ENOSPC;
	bytes -= bytes % scn_set_unit;
	if (!bytes) {
		scn_msg("set %c: under %" PRIu64 " MiB\n", name, scn_set_unit / WS_MiB);
		return -EINVAL;
	}
	env->names[i] = name;
	env->sizes[i] = bytes;
	if (mkdir(datadir, 0755) && errno != EEXIST) {
		scn_msg("%s: %s\n", datadir, strerror(errno));
		return -errno;
	}
	snprintf(env->paths[i], sizeof(env->paths[i]), "%s/%s-%c", datadir,
		 env->tag ? env->tag : "set", name);
	err = ws_dataset(env->paths[i], bytes);
	if (err) {
		scn_msg("%s: %s\n", env->paths[i], strerror(-err));
		return err;
	}
	env->nsets++;
	return 0;
}

static void record(const struct scn_env *env, struct scn_run *run, int i,
		   const struct ws_pass *p)
{
	struct scn_pass *r;
	int n = 0;

	if (run->npass == SCN_MAX_PASSES)
		return;
	for (int k = 0; k < run->npass; k++)
		n += run->p[k].set == env->names[i];
	r = &run->p[run->npass++];
	r->set = env->names[i];
	r->pass = n + 1;
	r->hit = p->hit;
	for (int k = 0; k < env->nsets; k++)
		r->res[k] = ws_residency(env->paths[k]);
	if (scn_progress)
		fprintf(stderr, "# progress: %s, %s: %c pass %d, hit %.1f%%\n",
			env->tag ? env->tag : "run", mglru_run ? "mglru" : run->asked,
			r->set, r->pass, 100 * r->hit);
}

int scn_read_part(const struct scn_env *env, struct scn_run *run, int i,
		  uint64_t off, uint64_t len, bool rec)
{
	struct ws_pass p;
	int err = ws_read_range(env->paths[i], off, len, false, &p);

	if (err) {
		fprintf(stderr, "%s: %s\n", env->paths[i], strerror(-err));
		return err;
	}
	if (rec)
		record(env, run, i, &p);
	return 0;
}

int scn_read(const struct scn_env *env, struct scn_run *run, int i)
{
	return scn_read_part(env, run, i, 0, 0, true);
}

/*
 * /proc/vmstat after vm.stat_refresh folded the per-cpu deltas in, so
 * that it can be compared with memory.stat; every key must be there.
 */
static int counters_global(struct scn_counters *c)
{
	static const char *const keys[] = {
		"workingset_refault_file", "workingset_activate_file",
		"workingset_stale", "workingset_stale_force",
		"workingset_skip", "workingset_alloc", "workingset_dropbehind",
	};
	uint64_t *vals[] = { &c->refault, &c->activate, &c->stale,
			     &c->stale_force, &c->skip, &c->alloc, &c->dropbehind };
	int err;

	memset(c, 0, sizeof(*c));
	ws_file_write("/proc/sys/vm/stat_refresh", "1");
	for (unsigned int i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		err = ws_vmstat(keys[i], vals[i]);
		if (err) {
			scn_msg("/proc/vmstat %s: %s\n", keys[i], strerror(-err));
			return err;
		}
	}
	return 0;
}

static int counters_memcg(const struct memcg *cg, struct scn_counters *c)
{
	static const char *const keys[] = {
		"workingset_refault_file", "workingset_activate_file",
		"workingset_stale", "workingset_stale_force", "workingset_dropbehind",
	};
	uint64_t *vals[] = { &c->refault, &c->activate, &c->stale, &c->stale_force,
			     &c->dropbehind };
	struct memcg_stat st;
	int err;

	memset(c, 0, sizeof(*c));
	err = memcg_read_stat(cg, &st);
	if (err) {
		scn_msg("%s\n", memcg_strerror());
		return err;
	}
	for (unsigned int i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		char key[64];

		snprintf(key, sizeof(key), "%s%s", memcg_is_v2() ? "" : "total_", keys[i]);
		if (!memcg_stat_has(&st, key)) {
			scn_msg("%s/memory.stat has no %s\n", memcg_path(cg), key);
			return -ENOENT;
		}
		*vals[i] = memcg_stat_get(&st, key);
	}
	return 0;
}

static void counters_sub(struct scn_counters *a, const struct scn_counters *b)
{
	a->refault -= b->refault;
	a->activate -= b->activate;
	a->stale -= b->stale;
	a->stale_force -= b->stale_force;
	a->skip -= b->skip;
	a->alloc -= b->alloc;
	a->dropbehind -= b->dropbehind;
}

struct scn_child {
	const struct scn_env *env;
	scn_fn fn;
	struct scn_run *run;
};

static int scn_child(void *arg)
{
	struct scn_child *c = arg;

	return c->fn(c->env, c->run);
}

int scn_run(const struct scn_env *env, const char *policy, scn_fn fn,
	    struct scn_run *out)
{
	struct memcg *parent = NULL, *cg = NULL;
	uint64_t limit = env->high ? 0 : env->limit;
	struct scn_counters g0 = { 0 };
	struct scn_child child;
	struct scn_run *run;
	int ret = -1, err;
	char name[256];

	memset(out, 0, sizeof(*out));
	out->failed = true;
	snprintf(out->policy, sizeof(out->policy), "%s", policy);
	snprintf(out->asked, sizeof(out->asked), "%s", policy);
	run = cg_shared(sizeof(*run));
	if (!run)
		return -1;
	/* the policy that really runs (see WSR_TESTED_POLICY) */
	snprintf(run->policy, sizeof(run->policy), "%s", scn_policy_run(policy));
	snprintf(run->asked, sizeof(run->asked), "%s", policy);
	run->mem = env->mem;
	memcpy(run->sizes, env->sizes, sizeof(run->sizes));
	err = scn_set_policy(policy);
	if (err) {
		scn_msg("%s=%s: %s\n", POLICY_FILE, policy, strerror(-err));
		goto out;
	}
	if (!mglru_run && mglru_on()) {
		/* an mglru run killed or failed before it could turn it off */
		scn_msg("MGLRU was left on: turning it off for this run\n");
		if (ws_file_write(LRU_GEN, "n")) {
			scn_msg("cannot disable MGLRU (%s)\n", LRU_GEN);
			goto out;
		}
	}
	ws_drop_caches();
	if (env->memcg) {
		if (memcg_lib_init())
			goto cgerr;
		if (env->parent) {
			parent = memcg_create(env->parent, limit);
			if (!parent)
				goto cgerr;
			snprintf(name, sizeof(name), "%s/%s", env->parent, env->memcg);
			cg = memcg_create(name, 0);
		} else {
			cg = memcg_create(env->memcg, limit);
		}
		if (!cg)
			goto cgerr;
		/* v2: memory.high instead of the hard limit, which stays "max" */
		if (env->high && (memcg_set_high(parent ?: cg, env->limit) ||
				  memcg_set_limit(parent ?: cg, UINT64_MAX)))
			goto cgerr;
	}
	if (counters_global(&g0))
		goto out;
	child = (struct scn_child){ .env = env, .fn = fn, .run = run };
	if (cg_run(cg, scn_child, &child)) {
		scn_msg("%s: the workload failed\n", policy);
		goto out;
	}
	if (counters_global(&run->global))
		goto out;
	counters_sub(&run->global, &g0);
	if ((cg && counters_memcg(cg, &run->memcg)) ||
	    (parent && counters_memcg(parent, &run->parent)))
		goto out;
	ret = 0;
	goto out;
cgerr:
	scn_msg("%s\n", memcg_strerror());
out:
	run->failed = ret != 0;
	*out = *run;
	cg_unshare(run, sizeof(*run));
	if (cg && memcg_destroy(cg))
		scn_msg("%s\n", memcg_strerror());
	if (parent && memcg_destroy(parent))
		scn_msg("%s\n", memcg_strerror());
	return ret;
}

void scn_print(FILE *f, const char *pfx, const struct scn_env *env,
	       const struct scn_run *run)
{
	fprintf(f, "%spolicy %s%s\n", pfx, run->policy, run->failed ? " (FAILED)" : "");
	fprintf(f, "%s  %-4s %-4s %7s", pfx, "set", "pass", "hit%");
	for (int k = 0; k < env->nsets; k++)
		fprintf(f, "   res%%%c", env->names[k]);
	fprintf(f, "\n");
	for (int i = 0; i < run->npass; i++) {
		const struct scn_pass *p = &run->p[i];

		fprintf(f, "%s  %-4c %-4d %7.1f", pfx, p->set, p->pass, 100 * p->hit);
		for (int k = 0; k < env->nsets; k++)
			fprintf(f, " %7.1f", 100 * p->res[k]);
		fprintf(f, "\n");
	}
	fprintf(f, "%s  vmstat: refault %" PRIu64 " activate %" PRIu64 " stale %" PRIu64
		" stale_force %" PRIu64 " dropbehind %" PRIu64 " skip %" PRIu64 " alloc %" PRIu64
		"\n", pfx, run->global.refault, run->global.activate, run->global.stale,
		run->global.stale_force, run->global.dropbehind, run->global.skip,
		run->global.alloc);
	if (env->memcg)
		fprintf(f, "%s  memory.stat: %sworkingset_refault_file %" PRIu64
			" activate_file %" PRIu64 " stale %" PRIu64 " stale_force %" PRIu64
			" dropbehind %" PRIu64 "\n",
			pfx, memcg_is_v2() ? "" : "total_", run->memcg.refault,
			run->memcg.activate, run->memcg.stale, run->memcg.stale_force,
			run->memcg.dropbehind);
}

int scn_first_pass_at(const struct scn_run *run, char c, double min)
{
	for (int i = 0; i < run->npass; i++)
		if (run->p[i].set == c && run->p[i].hit >= min)
			return run->p[i].pass;
	return 0;
}

const struct scn_pass *scn_last(const struct scn_run *run, char c)
{
	const struct scn_pass *last = NULL;

	for (int i = 0; i < run->npass; i++)
		if (run->p[i].set == c)
			last = &run->p[i];
	return last;
}

double scn_min_hit(const struct scn_run *run, char c, int from)
{
	double min = 1.0;

	for (int i = 0; i < run->npass; i++)
		if (run->p[i].set == c && run->p[i].pass >= from && run->p[i].hit < min)
			min = run->p[i].hit;
	return min;
}

static int read_times(const struct scn_env *env, struct scn_run *run, int i,
		      int times)
{
	for (int k = 0; k < times; k++)
		if (scn_read(env, run, i))
			return -1;
	return 0;
}

/*
 * The cover letter's case: a fully activated set A, then a set B of equal
 * size read 6 times (the tests' bounds are by pass 3 and 5, and every
 * pass after).  Sets: A, B.
 */
int scn_switch(const struct scn_env *env, struct scn_run *run)
{
	return read_times(env, run, 0, 3) ?: read_times(env, run, 1, 6);
}

/* Touch set I once through mmap, shuffled (ws_read_mmap()), and record it. */
static int scn_read_mmap(const struct scn_env *env, struct scn_run *run, int i)
{
	struct ws_pass p;
	int err;

	/* a new order every pass, the same for every policy */
	err = ws_read_mmap(env->paths[i], 0x6d6d6170ULL + 977 * run->npass, false, &p);
	if (err) {
		fprintf(stderr, "%s: mmap pass: %s\n", env->paths[i], strerror(-err));
		return err;
	}
	record(env, run, i, &p);
	return 0;
}

/*
 * The switch case through mmap: both sets are touched page by page in a
 * shuffled order with MADV_RANDOM, so that every page-in is a fault of
 * its own (filemap_fault() without readahead), not a read().  Sets: A, B.
 */
int scn_mswitch(const struct scn_env *env, struct scn_run *run)
{
	for (int k = 0; k < 3; k++)
		if (scn_read_mmap(env, run, 0))
			return -1;
	for (int k = 0; k < 6; k++)
		if (scn_read_mmap(env, run, 1))
			return -1;
	return 0;
}

/*
 * A activated, then B bigger than memory read 4 times, a loop: what of
 * B fits beside A can be served from the 2nd pass on.  Sets: A, B.
 */
int scn_bigger(const struct scn_env *env, struct scn_run *run)
{
	return read_times(env, run, 0, 3) ?: read_times(env, run, 1, 4);
}

/*
 * A hot set H read between the chunks of a stream S of twice memory.  H
 * is read twice first so it is active.  S is read twice, so that its
 * second pass refaults at distances beyond memory: those refaults must
 * neither activate nor deactivate anything.  Each chunk of S is recorded
 * as a pass of S (1-4 the first read, 5-8 the second), so that what a
 * policy serves of the second read, a loop longer than memory, shows.
 * Sets: H, S.
 */
int scn_stream(const struct scn_env *env, struct scn_run *run)
{
	uint64_t chunk = env->sizes[1] / SCN_STREAM_CHUNKS;

	if (read_times(env, run, 0, 2))
		return -1;
	for (int pass = 0; pass < 2; pass++) {
		for (uint64_t off = 0; off < env->sizes[1]; off += chunk) {
			if (scn_read_part(env, run, 1, off, chunk, true) ||
			    scn_read(env, run, 0))
				return -1;
		}
	}
	return 0;
}

/* The scenarios' sets, as fractions of the memory they are sized on. */
/*
 * Zipf (alpha 0.9) 4 KiB random reads over a set Z of 1.5x memory, the
 * cache pre-filled by one sequential pass of Z: SCN_ZIPF_ROUNDS rounds,
 * each of a quarter of Z's pages in reads, recorded as Z's passes.  The
 * best static choice keeps the hottest pages that fit: at alpha 0.9 the
 * hottest 2/3 of the pages draw ~94% of the reads.  Sets: Z.
 */
int scn_zipf(const struct scn_env *env, struct scn_run *run)
{
	uint64_t pages = env->sizes[0] / 4096;
	struct ws_zipf z;
	int err;

	err = ws_zipf_init(&z, pages, SCN_ZIPF_ALPHA, 0x5eedULL);
	if (err) {
		fprintf(stderr, "zipf over %" PRIu64 " pages: %s\n", pages, strerror(-err));
		return -1;
	}
	err = scn_read_part(env, run, 0, 0, 0, false);
	for (int r = 0; !err && r < SCN_ZIPF_ROUNDS; r++) {
		struct ws_pass p;

		err = ws_read_zipf(env->paths[0], &z, pages / 4, false, &p);
		if (err)
			fprintf(stderr, "%s: %s\n", env->paths[0], strerror(-err));
		else
			record(env, run, 0, &p);
	}
	ws_zipf_free(&z);
	return err ? -1 : 0;
}

const struct scn_plan scn_plans[] = {
	{ "switch", scn_switch, { { 'A', 7, 10 }, { 'B', 7, 10 } } },
	{ "bigger", scn_bigger, { { 'A', 7, 10 }, { 'B', 3, 2 } } },
	{ "stream", scn_stream, { { 'H', 4, 10 }, { 'S', 2, 1 } } },
	{ "zipf", scn_zipf, { { 'Z', 3, 2 } } },
	{ "mswitch", scn_mswitch, { { 'A', 7, 10 }, { 'B', 7, 10 } } },
};
const int scn_nplans = sizeof(scn_plans) / sizeof(scn_plans[0]);

const struct scn_plan *scn_plan_of(const char *scenario)
{
	for (int i = 0; i < scn_nplans; i++)
		if (!strcmp(scn_plans[i].name, scenario))
			return &scn_plans[i];
	return NULL;
}

uint64_t scn_plan_bytes(const struct scn_plan *p, int k, uint64_t mem)
{
	uint64_t q, b;

	if (!p->sets[k].set)
		return 0;
	q = mem / p->sets[k].den;

	/* a memory size from the command line can be near 2^64: saturate */
	if (q > (UINT64_MAX - p->sets[k].den) / p->sets[k].num)
		return UINT64_MAX - UINT64_MAX % scn_set_unit;
	b = q * p->sets[k].num + mem % p->sets[k].den * p->sets[k].num / p->sets[k].den;

	return b - b % scn_set_unit;
}

int scn_setup(struct scn_env *env, const char *scenario, scn_fn *fn)
{
	const struct scn_plan *p = scn_plan_of(scenario);
	int err = 0;

	if (!p)
		return -EINVAL;
	*fn = p->fn;
	for (int k = 0; k < 2 && p->sets[k].set && !err; k++) {
		if (!scn_plan_bytes(p, k, env->mem)) {
			scn_msg("%s: set %c would be %u/%u of %" PRIu64 " MiB, under %" PRIu64
				" MiB: size the scenario on more memory\n", scenario, p->sets[k].set,
				p->sets[k].num, p->sets[k].den, env->mem / WS_MiB,
				scn_set_unit / WS_MiB);
			return -EINVAL;
		}
		err = scn_add_set(env, p->sets[k].set, scn_plan_bytes(p, k, env->mem));
	}
	return err;
}

void scn_run_policies(const struct scn_env *env, scn_fn fn, struct scn_run *runs,
		      int n, const char *pfx)
{
	for (int i = 0; i < n; i++) {
		scn_run(env, scn_policies[i], fn, &runs[i]);
		if (pfx)
			scn_print(stdout, pfx, env, &runs[i]);
	}
	scn_set_policy("distance");
}

int scn_run_any(const struct scn_env *env, const char *policy, scn_fn fn,
		struct scn_run *run)
{
	int ret;

	if (strcmp(policy, "mglru"))
		return scn_run(env, policy, fn, run);
	memset(run, 0, sizeof(*run));
	snprintf(run->policy, sizeof(run->policy), "mglru");
	snprintf(run->asked, sizeof(run->asked), "mglru");
	run->failed = true;
	if (ws_file_write(LRU_GEN, "y")) {
		scn_msg("cannot enable MGLRU (%s)\n", LRU_GEN);
		return -1;
	}
	/* the multi-gen LRU bypasses the policies: "distance" is the default */
	mglru_run = true;
	ret = scn_run(env, "distance", fn, run);
	mglru_run = false;
	snprintf(run->policy, sizeof(run->policy), "mglru");
	snprintf(run->asked, sizeof(run->asked), "mglru");
	if (ws_file_write(LRU_GEN, "n")) {
		scn_msg("cannot disable MGLRU (%s)\n", LRU_GEN);
		run->failed = true;
		ret = -1;
	}
	return ret;
}

void scn_run_named(const struct scn_env *env, scn_fn fn, struct scn_run *runs,
		   const char *const *policies, int n, const char *pfx)
{
	for (int i = 0; i < n; i++) {
		scn_run_any(env, policies[i], fn, &runs[i]);
		if (pfx)
			scn_print(stdout, pfx, env, &runs[i]);
	}
	scn_set_policy("distance");
}

/* A reference string and where its recorded passes start and end. */
struct refs {
	uint32_t *r;
	size_t n, cap;
	size_t from[SCN_MAX_PASSES], to[SCN_MAX_PASSES];
	int npass;
};

static int refs_add(struct refs *x, uint32_t first, uint64_t count)
{
	if (x->n + count > x->cap) {
		size_t cap = (x->n + count) * 2;
		uint32_t *r = realloc(x->r, cap * sizeof(*r));

		if (!r)
			return -ENOMEM;
		x->r = r;
		x->cap = cap;
	}
	for (uint64_t i = 0; i < count; i++)
		x->r[x->n++] = first + (uint32_t)i;
	return 0;
}

/* The references from FROM to the end are a recorded pass. */
static void refs_record(struct refs *x, size_t from)
{
	if (x->npass < SCN_MAX_PASSES) {
		x->from[x->npass] = from;
		x->to[x->npass++] = x->n;
	}
}

/* Set pages [FIRST, FIRST + COUNT) read once, recorded as a pass if REC. */
static int refs_pass(struct refs *x, uint32_t first, uint64_t count, bool rec)
{
	size_t from = x->n;
	int err = refs_add(x, first, count);

	if (!err && rec)
		refs_record(x, from);
	return err;
}

/* Per recorded pass, the share of its references that HIT marks. */
static void refs_ratios(const struct refs *x, const uint8_t *hit, double *ratio)
{
	for (int i = 0; i < x->npass; i++) {
		size_t n = 0;

		for (size_t j = x->from[i]; j < x->to[i]; j++)
			n += hit[j];
		ratio[i] = x->to[i] > x->from[i] ? (double)n / (double)(x->to[i] - x->from[i]) : 0;
	}
}

int scn_opt(const char *scenario, const uint64_t *sizes, uint64_t cache,
	    double *opt, double *lfu, int *npass)
{
	uint64_t a = sizes[0] / 4096, b = sizes[1] / 4096;
	struct refs x = { 0 };
	uint8_t *hit = NULL;
	int err = 0;
	long h;

	if (!strcmp(scenario, "switch")) {
		for (int k = 0; !err && k < 3; k++)
			err = refs_pass(&x, 0, a, true);
		for (int k = 0; !err && k < 6; k++)
			err = refs_pass(&x, a, b, true);
	} else if (!strcmp(scenario, "bigger")) {
		for (int k = 0; !err && k < 3; k++)
			err = refs_pass(&x, 0, a, true);
		for (int k = 0; !err && k < 4; k++)
			err = refs_pass(&x, a, b, true);
	} else if (!strcmp(scenario, "stream")) {
		uint64_t chunk = b / SCN_STREAM_CHUNKS;

		for (int k = 0; !err && k < 2; k++)
			err = refs_pass(&x, 0, a, true);
		for (int pass = 0; !err && pass < 2; pass++) {
			for (uint64_t off = 0; !err && off + chunk <= b; off += chunk) {
				err = refs_pass(&x, a + off, chunk, true) ?:
				      refs_pass(&x, 0, a, true);
			}
		}
	} else if (!strcmp(scenario, "zipf")) {
		struct ws_zipf z;
		bool zinit;

		b = 0;
		err = ws_zipf_init(&z, a, SCN_ZIPF_ALPHA, 0x5eedULL);
		zinit = !err;
		if (!err)
			err = refs_pass(&x, 0, a, false);
		for (int r = 0; !err && r < SCN_ZIPF_ROUNDS; r++) {
			size_t from = x.n;

			err = refs_add(&x, 0, a / 4);
			for (size_t i = from; !err && i < x.n; i++)
				x.r[i] = ws_zipf_next(&z);
			if (!err)
				refs_record(&x, from);
		}
		if (zinit)
			ws_zipf_free(&z);
	} else {
		return -EINVAL;
	}
	if (!err) {
		hit = malloc(x.n ? x.n : 1);
		if (!hit)
			err = -ENOMEM;
	}
	if (!err) {
		h = opt_hits(x.r, x.n, (uint32_t)(a + b), cache / 4096 ? cache / 4096 : 1, hit);
		if (h < 0)
			err = -errno;
	}
	if (!err)
		refs_ratios(&x, hit, opt);
	if (!err && lfu) {
		h = lfu_hits(x.r, x.n, (uint32_t)(a + b), cache / 4096 ? cache / 4096 : 1, hit);
		if (h < 0)
			err = -errno;
		else
			refs_ratios(&x, hit, lfu);
	}
	if (!err)
		*npass = x.npass;
	free(hit);
	free(x.r);
	return err;
}
