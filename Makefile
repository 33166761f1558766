# wsrefault: refault-distance file cache sizing on Linux 6.1, and the
# cgroup-v1 test harness that measures it in a QEMU guest.
#
# Build outputs live under $(CACHE), keyed by hashes of their inputs.

CACHE ?= /var/cache/wsrefault
MEM ?= 2G
# vCPUs per guest; empty: 2, or 1 when make run boots J > 1 guests at once
SMP ?=
NUMA ?= 0
TIMEOUT ?= 4200
SCRATCH_SIZE ?= 40G
T ?=
# make run's matrix: SCEN=switch,zipf POL=all|adaptive,activate,...
# SCOPE=global,memcg REPS=3; CGROUP=2 boots cgroup v2 (memcg then means v2)
CGROUP ?= 1
SCEN ?=
POL ?=
SCOPE ?=
REPS ?=
# make run: J=N guests at once (one per cell), FRESH=1 not to resume
J ?=
FRESH ?=
comma := ,
RUN_MATRIX = $(strip $(subst $(comma), ,$(SCOPE)) \
	$(if $(SCEN),scen=$(subst $(comma),:,$(SCEN))) \
	$(if $(filter-out all,$(POL)),pol=$(subst $(comma),:,$(POL))) \
	$(if $(REPS),reps=$(REPS)))

export WSR_CACHE := $(CACHE)
export MEM SMP NUMA TIMEOUT SCRATCH_SIZE CGROUP J FRESH

.DEFAULT_GOAL := help

help: ## list the targets
	@echo "usage: make TARGET [VAR=value...]"
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | \
		sed 's/:.*## /\t/' | awk -F'\t' '{ printf "  %-14s %s\n", $$1, $$2 }'
	@echo "variables: CACHE=$(CACHE) MEM=$(MEM) SMP=$(or $(SMP),2) NUMA=$(NUMA)"
	@echo "           TIMEOUT=$(TIMEOUT) SCRATCH_SIZE=$(SCRATCH_SIZE) T=<test>"
	@echo "           make run: SCEN=switch,bigger,stream,zipf,mswitch POL=all|<policies>"
	@echo "           SCOPE=setup,global,memcg,sizing,overhead REPS=<1-20> CGROUP=1|2"
	@echo "           J=<guests at once> FRESH=1 (do not resume an interrupted run)"
	@echo "           make bench: ICOUNT=1 (the guest's clock counts instructions)"
	@echo "           make build-matrix: CONFIGS=<names> REV=<commit of the tree, e.g. HEAD~2>"
	@echo "           WSR_TESTED_POLICY=<policy run in place of distance and adaptive: the"
	@echo "           experiment that shows what the tests catch> CGT_SCALE=<percent>"

kernel: ## build the 6.1 kernel with patches/series (cached by input hash)
	@kernel/build.sh

kernel-debug: ## build the debug kernel (KASAN, lockdep, DEBUG_VM...; cached)
	@FLAVOR=debug kernel/build.sh

kernel-pristine: ## build stock 6.1 with the test config, no series (cached)
	@FLAVOR=pristine kernel/build.sh

build-matrix: ## build-test the series: SYSCTL/MEMCG/NUMA/SWAP/LRU_GEN off, i386, W=1
	@REV=$(REV) kernel/build-matrix.sh $(CONFIGS)

kernel-tree: ## build the kernel tree in $(CACHE)/linux as it is (dev loop)
	@kernel/build.sh --tree

patches: ## export the tree's commits back into patches/
	@kernel/build.sh --export

image: ## build the bookworm guest image (cached by input hash)
	@guest-image/build.sh

programs: ## build memcg/ and cgtests/ into build/share
	@$(MAKE) -s -C cgtests O=$(CURDIR)/build/share KSRC=$(CACHE)/linux
	@$(MAKE) -s -C memcg O=$(CURDIR)/build/share

check: ## host-side checks in seconds, no guest: tools, library, report.sh
	@BUILD=$(CURDIR)/build/check KSRC=$(CACHE)/linux check/run

test: ## build what is missing, boot, run the cgtests (T=name for one)
	@guest-image/job.sh test $(T)

run: ## build what is missing, boot, run the experiments, print results
	@guest-image/job.sh run $(or $(T),$(RUN_MATRIX))

bench: ## the overhead benchmark: each policy against activate, interleaved, one boot (ICOUNT=1: instruction clock)
	@WSR_ICOUNT=$(or $(ICOUNT),0) guest-image/job.sh run setup overhead

profile: ## the refault path per function, each policy against activate: /proc/profile, instruction clock, one boot
	@WSR_ICOUNT=$(or $(ICOUNT),1) guest-image/job.sh run setup profile

shell: ## boot the guest interactively (scratch at /scratch, tools in PATH)
	@guest-image/job.sh shell

test-long: ## tests too long for make test (global mmap switch, global zipf); not CI
	@CGT_TIMEOUT=$(or $(CGT_TIMEOUT),3000) TIMEOUT=$(or $(filter-out 4200,$(TIMEOUT)),7200) guest-image/job.sh test $(or $(T),test_global_mswitch test_global_zipf)

test-debug: ## the suite (or T=) on the debug kernel, CGT_SCALE=25; not CI
	@KERNEL=debug CGT_SCALE=$(or $(CGT_SCALE),25) OUT=$(CURDIR)/build/out-debug \
		guest-image/job.sh test $(T)

test-pristine: ## the suite (or T=) on stock 6.1: it must fail (not CI)
	@KERNEL=pristine OUT=$(CURDIR)/build/out-pristine guest-image/job.sh test $(T)

compare: ## two make run directories cell by cell: make compare A=dir B=dir
	@[ -n "$(A)" ] && [ -n "$(B)" ] || { echo "usage: make compare A=RUNDIR B=RUNDIR" >&2; exit 2; }
	@memcg/wsr-report --compare "$(A)" "$(B)"

dev-test: ## rebuild the tree as it is, boot, run T (edit-build-test loop)
	@KERNEL=$$(kernel/build.sh --tree) guest-image/job.sh test $(T)

checkpatch: ## run checkpatch.pl --strict on every patch in patches/
	@kernel/checkpatch.sh

clean: ## remove build/ (the cache in $(CACHE) stays)
	rm -rf build

distclean: clean ## also remove $(CACHE)
	rm -rf $(CACHE)

.PHONY: compare help bench profile test-long kernel kernel-debug kernel-pristine test-pristine build-matrix test-debug kernel-tree patches image programs check test run shell dev-test checkpatch clean distclean
