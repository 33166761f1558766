/* SPDX-License-Identifier: GPL-2.0 */
/*
 * scenario.h - the cover letter's working-set scenarios, run under each
 * workingset_policy, globally or inside a memcg (cgroup v1 or v2), with
 * per-pass hit ratio and residency recorded for the tests and `make run`.
 */
#ifndef WSR_SCENARIO_H
#define WSR_SCENARIO_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define SCN_MAX_PASSES	48
#define SCN_MAX_SETS	3

struct scn_pass {
	char set;			/* 'A', 'B', 'H', 'S' ... */
	int pass;			/* 1-based, per set */
	double hit;			/* of this pass */
	double res[SCN_MAX_SETS];	/* residency of each set after it */
};

/* Counters a run moved: /proc/vmstat deltas, and the memcg's own. */
struct scn_counters {
	uint64_t refault, activate, stale, stale_force, skip, alloc, dropbehind;
};

struct scn_run {
	char policy[16];		/* the policy that ran */
	char asked[16];			/* the one asked for (see scn_set_policy()) */
	int npass;
	struct scn_pass p[SCN_MAX_PASSES];
	struct scn_counters global;
	struct scn_counters memcg;	/* the memcg's, hierarchical, if any */
	struct scn_counters parent;	/* its parent's, hierarchical, if any */
	uint64_t mem;			/* the memory the sets were sized on */
	uint64_t sizes[SCN_MAX_SETS];	/* the sets, as in the scn_env */
	bool failed;
};

struct scn_env {
	const char *tag;	/* names the data sets: "<tag>-<set>" */
	const char *memcg;	/* NULL: global reclaim; else run inside it */
	const char *parent;	/* limit on this parent, workload in memcg */
	uint64_t limit;		/* hard limit (memcg runs): v1 memory.limit_in_bytes, v2 memory.max */
	bool high;		/* v2: LIMIT goes to memory.high, memory.max stays "max" */
	uint64_t mem;		/* memory the scenario is sized on */
	int nsets;
	char names[SCN_MAX_SETS];
	char paths[SCN_MAX_SETS][256];
	uint64_t sizes[SCN_MAX_SETS];
};

typedef int (*scn_fn)(const struct scn_env *env, struct scn_run *run);

/*
 * The policies the tests compare, the tested ones first: "distance"
 * (the default), "adaptive", then the controls "activate" (6.1) and
 * "classic" (before 3.15).
 */
#define SCN_NPOLICIES	4
extern const char *const scn_policies[SCN_NPOLICIES];
extern const int scn_npolicies;

/* Where data sets live (default /scratch/wsr). */
void scn_set_datadir(const char *dir);
/* Say each pass on stderr as it is recorded, "# progress: ..." (wsr-bench). */
extern bool scn_progress;
/* Memory global scenarios are sized on: the file LRU's potential. */
uint64_t scn_global_mem(void);
/*
 * Add a data set (created on the scratch disk if missing).  Its size is
 * rounded down to 64 MiB and its file named by env->tag and NAME, so
 * that a rerun on a guest of about the same memory reuses it and a
 * changed size rewrites the file rather than adding one.
 */
int scn_add_set(struct scn_env *env, char name, uint64_t bytes);
/* Run FN under POLICY: fresh caches, fresh memcg, counters around it. */
int scn_run(const struct scn_env *env, const char *policy, scn_fn fn,
	    struct scn_run *run);
/* Read set I fully once and record the pass. */
int scn_read(const struct scn_env *env, struct scn_run *run, int i);
/* Read [off, off+len) of set I and record it as a pass. */
int scn_read_part(const struct scn_env *env, struct scn_run *run, int i,
		  uint64_t off, uint64_t len, bool record);
void scn_print(FILE *f, const char *prefix, const struct scn_env *env,
	       const struct scn_run *run);
/*
 * Write vm.workingset_policy.  "distance" and "adaptive" are the
 * policies under test; with WSR_TESTED_POLICY set in the environment,
 * that policy runs in the place of either (scn_tested_policy() says
 * which), to show what the tests catch.
 */
int scn_set_policy(const char *policy);
/* WSR_TESTED_POLICY, or NULL when it is not set. */
const char *scn_tested_policy(void);
/* The policy that runs when POLICY is asked for. */
const char *scn_policy_run(const char *policy);

/* Sets are whole multiples of this (scn_add_set() rounds down). */
#define SCN_SET_UNIT	((uint64_t)64 << 20)
/*
 * The unit in use: SCN_SET_UNIT unless a caller that scales its limits
 * down (the cgtests' CGT_SCALE) scales the unit with them, so that a
 * set at 25% is not rounded down to fit beside the other whole.
 */
extern uint64_t scn_set_unit;

/*
 * A scenario: its workload and its two sets, each NUM/DEN of the memory
 * it is sized on.  Tools check sizes and disk space against these before
 * anything is written; scn_setup() makes the sets from them.
 */
struct scn_plan {
	const char *name;
	scn_fn fn;
	struct { char set; unsigned int num, den; } sets[2];
};
extern const struct scn_plan scn_plans[];
extern const int scn_nplans;
/* The plan of SCENARIO, or NULL for an unknown name. */
const struct scn_plan *scn_plan_of(const char *scenario);
/*
 * Set K of plan P sized on MEM, as scn_add_set() rounds it (0: too small,
 * or no set K: a plan's second set may be absent, its .set 0).
 */
uint64_t scn_plan_bytes(const struct scn_plan *p, int k, uint64_t mem);

/*
 * Size the sets of SCENARIO ("switch", "bigger", "stream", "zipf" or "mswitch",
 * the switch through mmap) on env->mem,
 * add them, and set *FN; -EINVAL for another name.  Tests and wsr-bench
 * run the same scenarios this way.
 */
int scn_setup(struct scn_env *env, const char *scenario, scn_fn *fn);
/*
 * Run FN under the first N of scn_policies, printing each run with
 * prefix PFX unless it is NULL; the "distance" policy is restored.
 */
void scn_run_policies(const struct scn_env *env, scn_fn fn, struct scn_run *runs,
		      int n, const char *pfx);
/*
 * scn_run(), and for POLICY "mglru" the multi-gen LRU enabled for the
 * run (and disabled after), recorded as policy "mglru".
 */
int scn_run_any(const struct scn_env *env, const char *policy, scn_fn fn,
		struct scn_run *run);
/* scn_run_any() for the N POLICIES named, in that order, printed as above. */
void scn_run_named(const struct scn_env *env, scn_fn fn, struct scn_run *runs,
		   const char *const *policies, int n, const char *pfx);

/* The scenarios */
int scn_switch(const struct scn_env *env, struct scn_run *run);
int scn_bigger(const struct scn_env *env, struct scn_run *run);
int scn_stream(const struct scn_env *env, struct scn_run *run);
#define SCN_ZIPF_ALPHA	0.9
#define SCN_ZIPF_ROUNDS	6
/* The stream is read in this many chunks, each recorded as a pass of S. */
#define SCN_STREAM_CHUNKS	4

/*
 * Belady's optimal hit ratio (memcg/opt.c) for each recorded pass of
 * SCENARIO with sets of SIZES[] bytes and a cache of CACHE bytes: the
 * same page references in the same order (the sequential passes, the
 * stream's chunks, the Zipf draws), one OPT[i] per pass the scenario
 * records, *NPASS of them; and if LFU is not NULL, perfect LFU's (an
 * online policy with a count of every past use: what can be learned from
 * the past).  -EINVAL for a scenario whose order it cannot reproduce
 * ("mswitch"), -ENOMEM.
 */
int scn_opt(const char *scenario, const uint64_t *sizes, uint64_t cache,
	    double *opt, double *lfu, int *npass);
int scn_zipf(const struct scn_env *env, struct scn_run *run);
int scn_mswitch(const struct scn_env *env, struct scn_run *run);

/* First pass (1-based) of set C with hit >= MIN, or 0 if none. */
int scn_first_pass_at(const struct scn_run *run, char c, double min);
/* The last recorded pass of set C, or NULL. */
const struct scn_pass *scn_last(const struct scn_run *run, char c);
/* Lowest hit ratio over passes of set C from pass FROM on. */
double scn_min_hit(const struct scn_run *run, char c, int from);

#endif
