# pdtrace: build one static binary with its BPF objects embedded.
#   make            build/pdtrace
#   make test       host unit tests + scenarios on the real kernel in a VM
#   make check      the fast host-only suite (unit, CLI, format, fuzz corpus), no VM
#   make vmtest     the VM scenarios only
#   make servicetest  the packaged systemd unit started and stopped in a VM booted with systemd
#   make clienttest third-party clients (stress-ng, nvmetcli, targetcli, ...) under check in a VM
#   make hunt       every module of Debian's kernel that touches a tree-in-dcache fs, under trace in a VM
#   make demo       the main job on the embedded default kernel, in a VM
#   make bench      what tracing costs: benchmarks in a VM, untraced/pdtrace/floor/bpftrace
#   make floor      build/floor/pdtrace: the same hooks, every program returning at once
#   make stream-floor  build/stream-floor/pdtrace: the smallest event per persist, discard, unpin
#   make stack-floor   build/stack-floor/pdtrace: the origin marks and each kernel-made entry's stack
#                   (the floors' programs: tests/bench/floors.bpf.c)
#   make deps       install the Debian packages the build and tests need
#   make vmlinux-h  regenerate vmlinux/vmlinux.h from a packaged kernel's BTF
#   make kmod       the VM tests' fault-injection filesystem module (tests/vm/run.sh builds it as needed)
#   make kernel     KSRC=DIR: a kernel for the VM harness, from your tree (default: Debian's source)
#   make kerneltest KSRC=DIR: the VM suite on that kernel
#   make guest-tools  static helpers the VM workloads run in the guest
#   make install    PREFIX=/usr/local DESTDIR=: the binary (sbin), man pages, bash completion
#   make deb        build/pdtrace_VERSION-REV_amd64.deb, with dpkg-deb (no debhelper)
#   make ARCH=arm64 [TARGET]  the same for arm64, cross-compiled, in build/arm64 (docs/arm64.md)
#   make arm64      build/arm64/pdtrace and its guest tools (make test builds them too)
#   make vmtest-arm64  the VM scenarios on Debian's arm64 kernel, in qemu-system-aarch64

# ARCH (on the command line only, as the kernel's own ARCH in the environment must not
# switch it): x86 (the default, native) or arm64 (cross-compiled with Debian's
# gcc-aarch64-linux-gnu and the arm64 -dev libraries through multiarch, into build/arm64).
ifneq ($(origin ARCH),command line)
ARCH := x86
endif
ifeq ($(ARCH),x86)
DEB_ARCH := amd64
VMLINUX_DIR := vmlinux
else ifeq ($(ARCH),arm64)
DEB_ARCH := arm64
VMLINUX_DIR := vmlinux/arm64
OUTPUT ?= build/arm64
CROSS_COMPILE ?= aarch64-linux-gnu-
else
$(error ARCH=$(ARCH): pdtrace builds for x86 and arm64)
endif
# What runs on the build machine (unit tests, fuzzers, the x86 VM suites) is x86's:
# make test builds arm64 too, and make vmtest-arm64 boots it.
HOST_ONLY_GOALS := arm64 vmtest-arm64 hunt test check hosttest unittest stress clienttest vmtest servicetest demo bench floor stream-floor \
	kmod kernel kerneltest fuzz-smoke
ifeq ($(ARCH),arm64)
ifneq ($(filter $(HOST_ONLY_GOALS),$(MAKECMDGOALS)),)
$(error make ARCH=arm64 $(filter $(HOST_ONLY_GOALS),$(MAKECMDGOALS)): not for arm64; make test builds both, make vmtest-arm64 tests arm64 in a VM)
endif
endif
ifneq ($(CROSS_COMPILE),)
ifeq ($(origin CC),default)
CC := $(CROSS_COMPILE)gcc
endif
ifeq ($(origin AR),default)
AR := $(CROSS_COMPILE)ar
endif
STRIP ?= $(CROSS_COMPILE)strip
endif

OUTPUT ?= build
PREFIX ?= /usr/local
DESTDIR ?=
SBINDIR ?= $(PREFIX)/sbin
MANDIR ?= $(PREFIX)/share/man
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
# systemd reads units from /usr/lib/systemd/system and /usr/local/lib/systemd/system alike.
UNITDIR ?= $(PREFIX)/lib/systemd/system
CLANG ?= clang
CC ?= gcc
V ?= 0

VERSION := 0.1.0

WARN := -Wall -Wextra -Werror
CFLAGS ?= -g -O2
ALL_CFLAGS := $(CFLAGS) $(WARN) -ffile-prefix-map=$(CURDIR)=. -std=gnu11 -D_GNU_SOURCE -Iinclude -Isrc -Isrc/core -I$(OUTPUT)
# The 7.x kernels embed anonymous structs by tag (-fms-extensions); vmlinux.h mirrors that.
# BPF_PROG() declares ctx and every argument: unused ones are normal there. No build
# directory in the binaries (debug information, the embedded BPF objects): -ffile-prefix-map.
BPF_CFLAGS := -g -O2 -ffile-prefix-map=$(CURDIR)=. -target bpf -D__TARGET_ARCH_$(ARCH) $(WARN) -fms-extensions \
	-Wno-microsoft-anon-tag -Wno-unused-parameter -Iinclude -I$(VMLINUX_DIR)
# libbpf: Debian sid's source package (scripts/fetch-libbpf.sh), built in LIBBPF_DIR and
# linked statically, as libbpf-bootstrap builds its copy (Debian 12's libbpf 1.1 knows no
# kprobe session and links no kfunc). Its headers, and the kernel UAPI headers it comes
# with, are found first: -I$(LIBBPF_DIR).
LIBBPF_DIR ?= $(abspath $(OUTPUT))/libbpf
LIBBPF_OBJ := $(LIBBPF_DIR)/libbpf.a
ALL_CFLAGS += -I$(LIBBPF_DIR)
BPF_CFLAGS += -I$(LIBBPF_DIR) -mcpu=v3
STATIC_LIBS := -static $(LIBBPF_OBJ) -l:libelf.a -l:libz.a -l:libzstd.a
# bpftool: Debian sid's, built from its source for the build machine
# (scripts/build-bpftool.sh): Debian 12's cannot link objects that share a kfunc.
BPFTOOL ?= $(abspath $(OUTPUT))/bpftool/bpftool

# BPF: one object per source (bpf/*.bpf.c standalone; bpf/track/*.bpf.c one concern
# each), the tracker's linked into one by bpftool gen object, then a skeleton each.
BPF_SRCS := $(wildcard bpf/*.bpf.c)
# maps.bpf.c first: libbpf's linker places a map where its definition comes.
TRACK_SRCS := bpf/track/maps.bpf.c $(filter-out bpf/track/maps.bpf.c,$(wildcard bpf/track/*.bpf.c))
TRACK_OBJS := $(patsubst bpf/track/%.bpf.c,$(OUTPUT)/track/%.bpf.o,$(TRACK_SRCS))
ifdef FLOOR
# A floor (make floor): the tracker's maps, global functions, kallsyms lookup and
# self-check walk, and the floor's programs in place of the tracker's.
TRACK_OBJS := $(patsubst %,$(OUTPUT)/track/%.bpf.o,maps elide kstack removal path slot task resolve walk) \
	$(OUTPUT)/track/floor.bpf.o
endif
BPF_OBJS := $(patsubst bpf/%.bpf.c,$(OUTPUT)/%.bpf.o,$(BPF_SRCS)) $(TRACK_OBJS) $(OUTPUT)/track.bpf.o
SKELS := $(patsubst bpf/%.bpf.c,$(OUTPUT)/%.skel.h,$(BPF_SRCS)) $(OUTPUT)/track.skel.h
# src/core/: plain C that knows nothing of libbpf (the rules engine, the reports, the
# recording format), one static library that the binary, the unit tests and the fuzzer
# link, each built with its own flags. src/: the commands and the tracker.
CORE_SRCS := $(wildcard src/core/*.c)
APP_SRCS := $(wildcard src/*.c)
CORE_LIB := $(OUTPUT)/core/libpdtcore.a
APP_OBJS := $(patsubst src/%.c,$(OUTPUT)/%.o,$(APP_SRCS))
HEADERS := $(wildcard include/*.h src/*.h src/core/*.h)

ifeq ($(V),1)
Q :=
msg :=
else
Q := @
msg = @printf '  %-8s %s\n' "$(1)" "$(2)";
endif

.PHONY: all clean test check unittest hosttest vmtest servicetest stress clienttest hunt demo soak bench floor stream-floor stack-floor deps install deb vmlinux-h format \
	kernel kerneltest \
	check-format guest-tools kmod fuzz-smoke
.DELETE_ON_ERROR:
.SECONDARY: $(BPF_OBJS) $(SKELS)

all: $(OUTPUT)/pdtrace

$(OUTPUT):
	$(Q)mkdir -p $@

$(LIBBPF_OBJ):
	$(call msg,LIB,$@)
	$(Q)src=$$(scripts/fetch-libbpf.sh) && mkdir -p $(LIBBPF_DIR)/obj && \
		$(MAKE) -s -C "$$src/src" BUILD_STATIC_ONLY=1 OBJDIR=$(LIBBPF_DIR)/obj \
		DESTDIR=$(LIBBPF_DIR) INCLUDEDIR= LIBDIR= UAPIDIR= CC="$(CC)" AR="$(AR)" \
		install install_uapi_headers >/dev/null

$(BPFTOOL):
	$(call msg,BPFTOOL,$@)
	$(Q)scripts/build-bpftool.sh $(@D)

$(OUTPUT)/%.bpf.o: bpf/%.bpf.c include/pdtrace.h $(VMLINUX_DIR)/vmlinux.h | $(LIBBPF_OBJ)
	$(call msg,BPF,$@)
	$(Q)$(CLANG) $(BPF_CFLAGS) -c $< -o $@

$(OUTPUT)/track/%.bpf.o: bpf/track/%.bpf.c $(wildcard bpf/track/*.bpf.h) include/pdtrace.h \
		$(VMLINUX_DIR)/vmlinux.h | $(LIBBPF_OBJ)
	$(Q)mkdir -p $(@D)
	$(call msg,BPF,$@)
	$(Q)$(CLANG) $(BPF_CFLAGS) -c $< -o $@

$(OUTPUT)/track/floor.bpf.o: tests/bench/floors.bpf.c $(wildcard bpf/track/*.bpf.h) include/pdtrace.h \
		$(VMLINUX_DIR)/vmlinux.h | $(LIBBPF_OBJ)
	$(Q)mkdir -p $(@D)
	$(call msg,BPF,$@)
	$(Q)$(CLANG) $(BPF_CFLAGS) -Ibpf/track -DFLOOR_$(FLOOR) -c $< -o $@

$(OUTPUT)/track.bpf.o: $(TRACK_OBJS) | $(BPFTOOL)
	$(call msg,BPF-LINK,$@)
	$(Q)$(BPFTOOL) gen object $@ $^

$(OUTPUT)/%.skel.h: $(OUTPUT)/%.bpf.o | $(BPFTOOL)
	$(call msg,GEN-SKEL,$@)
	$(Q)$(BPFTOOL) gen skeleton $< > $@

# The core library, built three ways (DIR, compiler, flags): for the binary, for the unit
# tests under the sanitizers (OUTPUT/san) and for the fuzzers (OUTPUT/fuzz).
define core_lib
$(1)/core/%.o: src/core/%.c $$(wildcard src/core/*.h include/*.h)
	$$(Q)mkdir -p $$(@D)
	$$(call msg,CC,$$@)
	$$(Q)$(2) $(3) -DPDT_VERSION_STR='"$$(VERSION)"' -c $$< -o $$@

$(1)/core/libpdtcore.a: $$(patsubst src/core/%.c,$(1)/core/%.o,$$(CORE_SRCS))
	$$(call msg,AR,$$@)
	$$(Q)rm -f $$@ && $$(AR) rcs $$@ $$^
endef
$(eval $(call core_lib,$(OUTPUT),$$(CC),$$(ALL_CFLAGS)))

$(OUTPUT)/%.o: src/%.c $(HEADERS) $(SKELS) $(LIBBPF_OBJ) | $(OUTPUT)
	$(call msg,CC,$@)
	$(Q)$(CC) $(ALL_CFLAGS) -DPDT_VERSION_STR='"$(VERSION)"' -c $< -o $@

$(OUTPUT)/pdtrace: $(APP_OBJS) $(CORE_LIB) $(LIBBPF_OBJ)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(CFLAGS) $(APP_OBJS) $(CORE_LIB) $(STATIC_LIBS) -o $@

# ---- tests ---------------------------------------------------------------
# Static helpers copied into the VM's initramfs (tests/vm/guest-tools): what busybox lacks.
GUEST_TOOLS := $(OUTPUT)/guest-tools/pdt-fsop $(OUTPUT)/guest-tools/pdt-bpfpin \
	$(OUTPUT)/guest-tools/pdt-runas $(OUTPUT)/guest-tools/pdt-jsonck \
	$(OUTPUT)/guest-tools/pdt-recstat

# Each one C file, static; a tool's extra sources and libraries in GUEST_LIBS.
$(OUTPUT)/guest-tools/%: tests/vm/guest-tools/%.c
	$(Q)mkdir -p $(@D)
	$(call msg,CC,$@)
	$(Q)$(CC) $(ALL_CFLAGS) -static $< $(GUEST_LIBS) -o $@

# The event types' names and the file format's constants are pdtrace's own.
$(OUTPUT)/guest-tools/pdt-recstat: GUEST_LIBS = src/core/event_names.c
$(OUTPUT)/guest-tools/pdt-recstat: src/core/event_names.c src/core/event_names.h src/core/recfile.h \
	include/pdtrace.h
$(OUTPUT)/guest-tools/pdt-bpfpin: GUEST_LIBS = $(STATIC_LIBS)
$(OUTPUT)/guest-tools/pdt-bpfpin: $(LIBBPF_OBJ)

guest-tools: $(GUEST_TOOLS)

UNIT_TESTS := $(patsubst tests/unit/%.c,$(OUTPUT)/tests/%,$(wildcard tests/unit/test_*.c))

# Host-side code runs under AddressSanitizer and UndefinedBehaviorSanitizer in the tests:
# the unit tests are built with them, and so is build/san/pdtrace (dynamically linked,
# as ASan requires), which tests/host/cli.sh runs besides the static binary.
SAN_FLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
SAN_CORE_LIB := $(OUTPUT)/san/core/libpdtcore.a
SAN_OBJS := $(patsubst src/%.c,$(OUTPUT)/san/%.o,$(APP_SRCS))

$(eval $(call core_lib,$(OUTPUT)/san,$$(CC),$$(ALL_CFLAGS) $$(SAN_FLAGS)))

$(OUTPUT)/tests/%: tests/unit/%.c tests/unit/fixtures.h $(SAN_CORE_LIB) $(HEADERS)
	$(Q)mkdir -p $(@D)
	$(call msg,CC,$@)
	$(Q)$(CC) $(ALL_CFLAGS) $(SAN_FLAGS) -DPDT_SRCDIR='"$(CURDIR)"' $< $(SAN_CORE_LIB) -lcmocka -lz -o $@

# The table of hooks against the tracker's object as built (opened with libbpf).
$(OUTPUT)/tests/test_hooks: tests/unit/test_hooks.c $(SAN_CORE_LIB) $(HEADERS) $(OUTPUT)/track.bpf.o
	$(Q)mkdir -p $(@D)
	$(call msg,CC,$@)
	$(Q)$(CC) $(ALL_CFLAGS) $(SAN_FLAGS) -DPDT_TRACK_OBJ='"$(abspath $(OUTPUT))/track.bpf.o"' $< \
		$(SAN_CORE_LIB) $(LIBBPF_OBJ) -lcmocka -lelf -lz -lzstd -o $@

$(OUTPUT)/san/%.o: src/%.c $(HEADERS) $(SKELS) $(LIBBPF_OBJ)
	$(Q)mkdir -p $(@D)
	$(call msg,CC-SAN,$@)
	$(Q)$(CC) $(ALL_CFLAGS) $(SAN_FLAGS) -DPDT_VERSION_STR='"$(VERSION)"' -c $< -o $@

$(OUTPUT)/san/pdtrace: $(SAN_OBJS) $(SAN_CORE_LIB)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(SAN_FLAGS) $^ $(LIBBPF_OBJ) -lelf -lz -o $@

# The same objects linked dynamically: valgrind cannot see through a static glibc.
$(OUTPUT)/dyn/pdtrace: $(APP_OBJS) $(CORE_LIB)
	$(Q)mkdir -p $(@D)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(CFLAGS) $^ $(LIBBPF_OBJ) -lelf -lz -o $@

unittest: $(UNIT_TESTS) $(OUTPUT)/san/pdtrace $(OUTPUT)/dyn/pdtrace

# Everything: host unit tests, host CLI tests, VM scenarios; one summary line.
test: deps all unittest guest-tools arm64
	$(Q)tests/run-all.sh

# The arm64 build (cross-compiled, build/arm64 unless ARM64_OUTPUT), and its VM suite on
# Debian's arm64 kernel in qemu-system-aarch64 (make test runs a part of it).
ARM64_OUTPUT ?= $(OUTPUT)/arm64
.PHONY: arm64 vmtest-arm64
arm64: deps $(BPFTOOL)
	$(Q)$(MAKE) -s ARCH=arm64 OUTPUT=$(ARM64_OUTPUT) BPFTOOL=$(BPFTOOL) all guest-tools

vmtest-arm64: arm64
	$(Q)PDTRACE_ARCH=arm64 OUTPUT=$(abspath $(ARM64_OUTPUT)) tests/vm/run.sh $(VM_ARGS)

# The fast suite, host only (no VM): unit tests, CLI tests, formatting, the fuzzer on
# its corpus and 10 s of fuzzing. Under two minutes; make test runs all of it too.
check hosttest: DEPS = build tests
check hosttest: deps all unittest check-format
	$(Q)$(MAKE) -s $(FUZZERS)
	$(Q)FUZZ_TIME=$${FUZZ_TIME:-10} tests/run-all.sh --host

# The concurrency stress scenario alone, verbose (it is also part of make test).
stress: deps all guest-tools
	$(Q)tests/vm/run.sh -v stress

# Third-party clients (stress-ng, nvmetcli, targetcli, trace-cmd, bpftool, cp/mv/tar/rm on
# overlayfs) under pdtrace check in the VM, from the cached Debian sid root the bench uses
# too; then with pdtfaultfs faults injected as they run. Not part of make test.
clienttest: deps all guest-tools
	$(Q)tests/vm/clients.sh

# The module hunt: every module of Debian's packaged kernel that touches a tree-in-dcache
# filesystem (found by its symbols) loaded, exercised and unloaded under one pdtrace trace
# per boot in the VM, then the table (docs/hunt.md). Not part of make test.
# HUNT_ARGS: options of tests/hunt/run.sh (--only N, --modules '...', --per-boot N ...).
hunt: deps all guest-tools
	$(Q)tests/hunt/run.sh $(HUNT_ARGS)

# The exerciser: random operations chosen from a model of each tree-in-dcache interface,
# WORKERS at once, with module loads and mounts among them, under one pdtrace trace in the
# VM (docs/hunt.md). A seed repeats a run's choices; its replay.sh is a reproducer, which
# make minimize cuts down. Not part of make test.
DURATION ?= 120
SEED ?= 1
WORKERS ?= 2
.PHONY: exercise minimize
exercise: deps all guest-tools
	$(Q)tests/exercise/run.sh --duration '$(DURATION)' --seed '$(SEED)' --workers '$(WORKERS)'

# REPLAY: a run's replay.sh; SIG: the signature (signatures.txt) to keep; KEEP: an ERE,
# the lines to try first (minimize.sh --keep).
minimize: deps all guest-tools
	$(Q)tests/exercise/minimize.sh $(if $(KEEP),--keep '$(KEEP)') '$(REPLAY)' '$(SIG)'

vmtest: deps all guest-tools
	$(Q)tests/vm/run.sh

# pdtrace-watch.service under systemd as PID 1, in a VM on a cached Debian sid root with
# prometheus-node-exporter (tests/vm/service.sh). Not part of make test: its boot of
# systemd takes minutes of software emulation.
servicetest: deps all
	$(Q)tests/vm/service.sh

demo: DEPS = build vm
demo: deps all guest-tools
	$(Q)tests/vm/run.sh --demo

# A compressed week of a test machine's life under watch, trace and a check around it, in
# the VM: each one's RSS and open files per day and their slope after warm-up
# (tests/soak/soak.sh). A benchmark, not part of make test. SOAK_ARGS: run.sh's options.
soak: deps all guest-tools
	$(Q)rm -rf $(OUTPUT)/soak
	$(Q)tests/vm/run.sh --scenarios tests/soak --results $(abspath $(OUTPUT))/soak $(SOAK_ARGS); \
		rc=$$?; cat $(OUTPUT)/soak/soak.txt 2>/dev/null; exit $$rc

# The benchmark workloads: static, so that they run in any guest userland.
$(OUTPUT)/bench/pdtbench: tests/bench/pdtbench.c
	$(Q)mkdir -p $(@D)
	$(call msg,CC,$@)
	$(Q)$(CC) $(CFLAGS) $(WARN) -std=gnu11 -static $< -o $@

# The floors the bench compares with (tests/bench/floors.bpf.c): pdtrace's user space
# with a tracker object whose programs, on the same hooks, do less; each built in a
# directory of its own (FLOOR: the floor's kind).
FLOOR_KIND_floor := EMPTY
FLOOR_KIND_stream-floor := STREAM
FLOOR_KIND_stack-floor := STACKS
floor stream-floor stack-floor:
	$(Q)$(MAKE) -s OUTPUT=$(OUTPUT)/$@ LIBBPF_DIR=$(LIBBPF_DIR) BPFTOOL=$(BPFTOOL) \
		FLOOR=$(FLOOR_KIND_$@) $(OUTPUT)/$@/pdtrace

# BENCH_ARGS: options of tests/bench/run.sh (--rounds, --secs, --only ...).
bench: deps all floor stream-floor stack-floor $(OUTPUT)/bench/pdtbench
	$(Q)tests/bench/run.sh --bin floor=$(OUTPUT)/floor/pdtrace \
		--bin stream=$(OUTPUT)/stream-floor/pdtrace \
		--bin stacks=$(OUTPUT)/stack-floor/pdtrace $(BENCH_ARGS)

# DEPS: the groups of packages a target needs (scripts/install-deps.sh); all by default.
deps:
	$(Q)scripts/install-deps.sh $(DEPS)

# pdt_faultfs.ko for Debian's packaged kernel, built in a cached sid chroot.
kmod: deps
	$(Q)OUTPUT=$(OUTPUT) tests/kmod/build.sh

# A kernel the VM harness boots, from KSRC (default: Debian's linux-source-7.2):
# allnoconfig + kconfig/base.config + kconfig/pdtrace.config, built in the sid chroot,
# cached per source tree and configuration. make test never builds one.
KSRC ?=
kernel: deps
	$(Q)tests/vm/build-kernel.sh $(if $(KSRC),--ksrc '$(KSRC)')

# The whole VM suite on that kernel. Built from Debian's source, it must have every module
# of kconfig/modules.map first; from yours, a scenario whose module it lacks is skipped.
kerneltest: deps all guest-tools
	$(Q)k=$$(tests/vm/build-kernel.sh $(if $(KSRC),--ksrc '$(KSRC)')) && \
		$(if $(KSRC),,tests/host/kconfig.sh --kernel "$$k" &&) tests/vm/run.sh --kernel "$$k"

# A system administrator's tool (section 8): sbin, as Debian's package has it. The man
# pages go in as they are (the package gzips them); bash-completion loads the
# completion by the command's name, from PREFIX/share as from /usr/share.
MAN_PAGES := $(wildcard man/*.8)

install: $(OUTPUT)/pdtrace
	install -D -m 0755 $(OUTPUT)/pdtrace $(DESTDIR)$(SBINDIR)/pdtrace
	install -d -m 0755 $(DESTDIR)$(MANDIR)/man8
	install -m 0644 $(MAN_PAGES) $(DESTDIR)$(MANDIR)/man8/
	install -D -m 0644 completion/pdtrace $(DESTDIR)$(BASHCOMPDIR)/pdtrace
	install -d -m 0755 $(DESTDIR)$(UNITDIR)
	sed 's|/usr/sbin/pdtrace|$(SBINDIR)/pdtrace|' packaging/systemd/pdtrace-watch.service \
		>$(DESTDIR)$(UNITDIR)/pdtrace-watch.service
	chmod 0644 $(DESTDIR)$(UNITDIR)/pdtrace-watch.service

# The Debian package: make install into a tree of its own, then scripts/mkdeb.sh
# (packaging/deb/: control, copyright, changelog, lintian overrides).
DEB_REVISION := 1
DEB_VERSION := $(VERSION)-$(DEB_REVISION)
DEB := $(OUTPUT)/pdtrace_$(DEB_VERSION)_$(DEB_ARCH).deb

deb: $(DEB)

$(DEB): $(OUTPUT)/pdtrace $(MAN_PAGES) completion/pdtrace $(wildcard packaging/deb/*) \
	packaging/systemd/pdtrace-watch.service scripts/mkdeb.sh
	$(call msg,DEB,$@)
	$(Q)rm -rf $(OUTPUT)/deb
	$(Q)$(MAKE) -s install DESTDIR=$(abspath $(OUTPUT))/deb PREFIX=/usr SBINDIR=/usr/sbin \
		MANDIR=/usr/share/man BASHCOMPDIR=/usr/share/bash-completion/completions \
		UNITDIR=/usr/lib/systemd/system >/dev/null
	$(Q)DEB_ARCH=$(DEB_ARCH) STRIP=$(STRIP) scripts/mkdeb.sh $(OUTPUT)/deb $(DEB_VERSION) $@ >/dev/null

vmlinux-h: $(BPFTOOL)
	$(Q)BPFTOOL=$(BPFTOOL) PDTRACE_ARCH=$(DEB_ARCH) scripts/gen-vmlinux-h.sh $(VMLINUX_DIR)/vmlinux.h

FORMAT_SRCS = bpf/*.c bpf/track/*.c bpf/track/*.h src/*.c src/*.h src/core/*.c src/core/*.h include/*.h tests/unit/*.c tests/unit/*.h tests/vm/guest-tools/*.c \
	tests/fuzz/*.c tests/bench/floors.bpf.c

format:
	clang-format -i $(FORMAT_SRCS)

check-format:
	clang-format --dry-run -Werror $(FORMAT_SRCS)

clean:
	rm -rf $(OUTPUT)

# ---- fuzzing (clang's libFuzzer, ASan, UBSan) ---------------------------
# The reader, rules engine and report writers: plain C, built for the fuzzer.
FUZZ_CC ?= clang
FUZZ_CFLAGS := -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
	$(WARN) -std=gnu11 -D_GNU_SOURCE -Iinclude -Isrc -Isrc/core
FUZZ_CORE_LIB := $(OUTPUT)/fuzz/core/libpdtcore.a
FUZZ_TIME ?= 60

$(eval $(call core_lib,$(OUTPUT)/fuzz,$$(FUZZ_CC),$$(FUZZ_CFLAGS)))

# One fuzzer per input users hand us (tests/fuzz/README.md): recordings and reports
# (fuzz_report), suppression files (fuzz_suppress), --baseline reports (fuzz_baseline),
# recordings merged and gated (fuzz_merge), kernel configurations (fuzz_kconfig).
FUZZERS := $(patsubst tests/fuzz/%.c,$(OUTPUT)/fuzz/%,$(wildcard tests/fuzz/fuzz_*.c))

$(OUTPUT)/fuzz/fuzz_%: tests/fuzz/fuzz_%.c $(FUZZ_CORE_LIB) $(HEADERS)
	$(Q)mkdir -p $(@D)
	$(call msg,FUZZ-CC,$@)
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) $< $(FUZZ_CORE_LIB) -lz -o $@

# CI: the corpus as regression tests, then a bounded session (FUZZ_TIME seconds). TAP.
fuzz-smoke: $(FUZZERS)
	$(Q)tests/fuzz/smoke.sh $(FUZZ_TIME)
