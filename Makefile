# Linux 6.1 with the 2012 Android scheduler idle notifier series, on an
# emulated Versatile Express V2P-CA9.  See README.md.
#
#   make run      build what is stale, boot the board, show LEDs and cpufreq
#   make check    build, boot the test image, run every test, report
#   make check-debug  the same on the debug kernel (lockdep, KASAN, kmemleak)
#   make test-host  the host tools' unit tests (KTAP reader, log scan,
#                 energy model, LED verdict) on recorded samples; check
#                 runs them first
#   make bench    the governors on the same workloads, one boot: table and
#                 plots in build/bench/ (BENCH_ARGS: options of ci/bench.py)
#   make soak     DURATION seconds of governor switches, tunable writes, CPU
#                 hotplug, module reloads, bursts and idle at once (VARIANT,
#                 default module here), then the governor must still ramp
#   make fit      a U-Boot FIT image + boot.scr for a real board (build/fit/)
#   make lava-job  LAVA v2 jobs for the built images (build/lava/: QEMU, and
#                 a lab's board through U-Boot), checked with LAVA's schema
#   make lava-run  the QEMU job run here by Debian's lava-dispatcher; its
#                 results must be make check's for the same image (TESTS)
#   make lava-deps install lava-dispatcher (apt-get, as root)
#   make fit-check  list the FIT, extract each part, compare with the build
#   make fit-boot   boot it through U-Boot on QEMU, from SD card and TFTP
#   make deps     install the build and board dependencies (apt-get)
#   make patches  export the kernel tree's commits back to kernel-patches/
#   make series-check  the series on a pristine tree: checkpatch, git am,
#                 a build after every patch
#   make all      build what is stale (kernel, DTB, initramfs) for VARIANT
#   make kernel / dtb / initramfs / tree   one step of that
#   make shell    boot VARIANT to a shell on the console (no demo)
#   make clean    remove the built images; distclean: all of build/
#   make help     this text
#
# Variables (make VAR=value), with their defaults:
#   VARIANT=builtin   the kernel of run/all/shell/bench: builtin, module,
#                     module-debug (arm/VARIANT.config fragments)
#   VARIANTS="builtin module"  the kernels make check builds and tests
#   TESTS=            a,b: only the in-guest tests with these names
#   ARGS=             more kernel command line for the test boots
#                     (suspend_cycles=N, ks_budget=S, fuzz_seed=N,
#                     cluster_trials=N, cluster_cycles=N, test_timeout=S)
#   EXTRA_TESTS=      a folder of your own tests, run after ours
#   DEMO=builtin      the variant whose demo make check boots (empty: none)
#   CHECK_OUT=build/check  where make check keeps consoles and results
#   TIMEOUT=1500      seconds a test boot may take (check-debug: 5400)
#   DURATION=180      seconds of make soak; AUTOLOAD=1 (see soak.sh)
#   BENCH_ARGS=       options of ci/bench.py (--reps, --govs, --workloads,
#                     --parts, --out, --analyse)
#   LAVA_URL=         where a LAVA lab fetches build/'s files (make lava-job;
#                     default file:// URLs for a local lava-run)
#   SMP=4 MEM=512     the emulated board's CPUs and memory (MiB)
#   BOARD=cpufreq     the board DT, dts/vexpress-v2p-ca9-BOARD.dts
#                     (2cluster: two cpufreq policies, see doc/testing.md)
#   BUILD=build       the build folder (kernel tree, objects, images)

BUILD       ?= build
VARIANT     ?= builtin
# The kernel variants "make check" builds and tests: the governor built in
# (the boot default) and as a module.
VARIANTS    ?= builtin module
SMP         ?= 4
# The board's device tree, dts/vexpress-v2p-ca9-$(BOARD).dts: cpufreq (one
# policy for CPUs 0-3, the default) or 2cluster (two policies, CPUs 0-1
# and 2-3, asymmetric capacities: see doc/testing.md; make bench there
# runs the clusters part, into build/bench-2cluster).
BOARD       ?= cpufreq
MEM         ?= 512
EXTRA_TESTS ?=
TIMEOUT     ?= 1500
# TESTS=a,b: run only the in-guest tests matching these names (see
# initramfs/run-tests.sh); empty runs them all.
TESTS       ?=
# ARGS="k=v ...": more kernel command line for the test boots, read by the
# tests: suspend_cycles=N (25-suspend, 200), ks_budget=S (50-kselftest,
# 60), fuzz_seed=N (51-fuzz-tunables), cluster_trials=N and cluster_cycles=N
# (26-two-clusters, 20 and 200), test_timeout=S (seconds each test may take,
# 900).
ARGS        ?=
# make check also boots this variant's demo (make run) and checks what it
# shows (ci/demo.py); empty: no demo.  Not with TESTS=.
DEMO        ?= $(firstword $(VARIANTS))
# Where make check keeps the consoles and results of its boots.
CHECK_OUT   ?= $(BUILD)/check
# make soak: seconds of soak; the variant is module unless VARIANT is given.
DURATION    ?= 180
# AUTOLOAD=0: the soak never has "echo interactive" load the module (see
# initramfs/soak.sh: stock 6.1 deadlocked there against CPU hotplug, which
# patch 6 of the series fixes).
AUTOLOAD    ?= 1
SOAK_VARIANT := $(if $(filter file,$(origin VARIANT)),module,$(VARIANT))

KSRC   := $(BUILD)/linux
KOBJ   := $(BUILD)/obj-$(VARIANT)
ZIMAGE := $(KOBJ)/arch/arm/boot/zImage
DTS    := dts/vexpress-v2p-ca9-$(BOARD).dts
DTB    := $(BUILD)/vexpress-v2p-ca9-$(BOARD).dtb
INITRD := $(BUILD)/initramfs-$(VARIANT).cpio.gz
QEMU   := python3 boot/qemu.py --kernel $(ZIMAGE) --dtb $(DTB) \
          --initrd $(INITRD) --smp $(SMP) --mem $(MEM)

.PHONY: all deps tree kernel dtb initramfs run check check-debug soak bench patches \
	fit fit-check fit-boot series-check shell clean distclean help test-host \
	lava-job lava-deps lava-run

all: kernel dtb initramfs

help:
	@sed -n '1,/^$$/p' Makefile | sed 's/^# \{0,1\}//'

# Install what is missing; quiet when everything is there.
deps:
	@sh ci/deps.sh $(BUILD)

tree: deps
	@sh ci/tree.sh $(BUILD)

kernel: tree
	@sh ci/kernel.sh $(BUILD) $(VARIANT)

dtb: tree
	@test -f $(DTS) || { echo "no board $(BOARD): $(DTS) is missing" >&2; exit 1; }
	@sh ci/dtb.sh $(BUILD) $(DTS) $(DTB)

initramfs: kernel
	@sh ci/initramfs.sh $(BUILD) $(VARIANT) $(EXTRA_TESTS)

# The demo: a shell is left on the console when stdin is a terminal.
# The guest's timeline and the host's LED samples then make a picture,
# build/run/demo.png, and a text rendering (ci/demo.py).
run: all
	@if [ -t 0 ]; then \
		$(QEMU) --log $(BUILD)/run/console.log --interactive --led-show \
			--led-report $(BUILD)/run/leds.json \
			--timeout 86400 --append "console=ttyAMA0 mode=demo shell=1"; \
	else \
		$(QEMU) --log $(BUILD)/run/console.log --led-show --timeout 300 \
			--led-report $(BUILD)/run/leds.json \
			--append "console=ttyAMA0 mode=demo"; \
	fi
	@python3 ci/demo.py --console $(BUILD)/run/console.log \
		--leds $(BUILD)/run/leds.json --smp $(SMP) --out $(BUILD)/run/demo.png

shell: all
	$(QEMU) --log $(BUILD)/run/console.log --interactive --timeout 86400 \
		--append "console=ttyAMA0 mode=shell"

# Build every variant of VARIANTS, boot each with the test image, run all
# the tests, print one table and "N passed, N failed".
# The host tools' own unit tests (ci/test_host.py): seconds, no boot.
test-host:
	@python3 -m unittest discover -s ci -p 'test_*.py'

# LAVA v2 jobs for the built images (ci/lava.py): the qemu device type and
# a lab's Versatile Express through U-Boot (the FIT image), validated with
# LAVA's own schema; LAVA_URL: where a lab fetches the files of build/
# (default: file:// URLs, for a local lava-run).
LAVA_URL ?=
# The test boot's arguments (tests=..., ARGS): make check's and the jobs'.
TEST_APPEND = $(strip $(if $(TESTS),tests=$(TESTS)) $(ARGS))
lava-job: all fit
	@python3 ci/lava.py jobs --build $(BUILD) --variant $(VARIANT) \
		--dtb $(DTB) --append "$(TEST_APPEND)" --out $(BUILD)/lava \
		$(if $(LAVA_URL),--base-url $(LAVA_URL))
	@python3 ci/lava.py validate $(BUILD)/lava/*-$(VARIANT).yaml

# Debian's lava-dispatcher, for make lava-run (as root; not in make deps:
# about 150 packages, which make check does not need).
lava-deps:
	@command -v lava-run >/dev/null || { apt-get update -q && \
		apt-get install -y -q --no-install-recommends lava-dispatcher; }

# The QEMU job run here by lava-run (no LAVA server), its test cases held
# against make check's for the same image (make check VARIANTS=VARIANT
# first, with the same TESTS and ARGS: it is run when its results are
# missing or of another image).
lava-run: lava-deps
	@$(MAKE) --no-print-directory all
	@python3 ci/lava.py run --build $(BUILD) --variant $(VARIANT) \
		--dtb $(DTB) --append "$(TEST_APPEND)" --out $(BUILD)/lava \
		--check-out $(CHECK_OUT) --have-check || \
		$(MAKE) --no-print-directory check VARIANTS=$(VARIANT) DEMO= || :
	@$(MAKE) --no-print-directory lava-job LAVA_URL=
	@python3 ci/lava.py run --build $(BUILD) --variant $(VARIANT) \
		--dtb $(DTB) --append "$(TEST_APPEND)" --out $(BUILD)/lava \
		--check-out $(CHECK_OUT)

check: deps tree test-host
	@set -e; for v in $(VARIANTS); do \
		$(MAKE) --no-print-directory VARIANT=$$v all; done
	@python3 ci/check.py --build $(BUILD) --dtb $(DTB) \
		--smp $(SMP) --mem $(MEM) --timeout $(TIMEOUT) \
		--out $(CHECK_OUT) $(foreach v,$(VARIANTS),--variant $(v)) \
		--append "$(TEST_APPEND)" \
		$(if $(TESTS),,$(if $(DEMO),--demo $(DEMO)))

# The whole suite on the debug kernel: the module variant with
# arm/debug.config (lockdep, atomic-sleep, debug objects, kmemleak, KASAN).
check-debug: deps
	@$(MAKE) --no-print-directory check VARIANTS=module-debug TIMEOUT=5400 DEMO=

# The soak (initramfs/soak.sh): counts, a table, "N passed, N failed".
soak: deps
	@$(MAKE) --no-print-directory VARIANT=$(SOAK_VARIANT) all
	@python3 ci/soak.py --build $(BUILD) --dtb $(DTB) --smp $(SMP) \
		--mem $(MEM) --variant $(SOAK_VARIANT) --duration $(DURATION) \
		--autoload $(AUTOLOAD) --out $(BUILD)/soak

# The governor benchmark (ci/bench.py, initramfs/bench.sh): never part of
# check; its numbers never fail.  See doc/benchmark.md.
BENCH_ARGS ?=
bench: deps
	@$(MAKE) --no-print-directory VARIANT=builtin all
	@python3 ci/bench.py --build $(BUILD) --variant builtin --dtb $(DTB) \
		--dts $(DTS) --smp $(SMP) --mem $(MEM) \
		$(if $(filter cpufreq,$(BOARD)),--out $(BUILD)/bench,--out $(BUILD)/bench-$(BOARD) --parts clusters) \
		$(BENCH_ARGS)

patches:
	@sh ci/patches.sh $(BUILD)

# The series as a submission: on a pristine linux-source-6.1 tree each
# patch is checkpatch --strict clean, applies with git am and builds.
series-check: deps
	@sh ci/series-check.sh $(BUILD)

# Real boards: the FIT image (zImage, board DT, initramfs, with hashes) and
# the U-Boot script boot.scr, in $(BUILD)/fit/; see doc/boards.md.
fit: all
	@sh ci/fit.sh $(BUILD) $(VARIANT)

fit-check: fit
	@sh ci/fit-test.sh $(BUILD) $(VARIANT)

# U-Boot vexpress_ca9x4 from Debian's u-boot source, then two boots.
fit-boot: fit
	@sh ci/uboot.sh $(BUILD)
	@SMP=$(SMP) MEM=$(MEM) sh ci/fit-boot.sh $(BUILD) $(VARIANT) sd
	@SMP=$(SMP) MEM=$(MEM) sh ci/fit-boot.sh $(BUILD) $(VARIANT) tftp

clean:
	rm -rf $(BUILD)/obj-* $(BUILD)/initramfs-* $(BUILD)/check $(BUILD)/run \
		$(BUILD)/guest-bin $(BUILD)/modules-* $(BUILD)/*.dtb $(BUILD)/fit

distclean:
	rm -rf $(BUILD)
