# pdtrace: build one static binary with its BPF objects embedded.
#   make            build/pdtrace
#   make test       host unit tests + scenarios on the real kernel in a VM
#   make vmtest     the VM scenarios only
#   make demo       the main job on the embedded default kernel, in a VM
#   make deps       install the Debian packages the build and tests need
#   make vmlinux-h  regenerate vmlinux/vmlinux.h from a packaged kernel's BTF
#   make guest-tools  static helpers the VM workloads run in the guest
#   make install    PREFIX=/usr/local DESTDIR=

OUTPUT ?= build
PREFIX ?= /usr/local
DESTDIR ?=
CLANG ?= clang
BPFTOOL ?= bpftool
CC ?= gcc
V ?= 0

VERSION := 0.1.0
ARCH := x86

WARN := -Wall -Wextra -Werror
CFLAGS ?= -g -O2
ALL_CFLAGS := $(CFLAGS) $(WARN) -std=gnu11 -D_GNU_SOURCE -Iinclude -Isrc -I$(OUTPUT)
# The 7.x kernels embed anonymous structs by tag (-fms-extensions); vmlinux.h mirrors that.
# BPF_PROG() declares ctx and every argument: unused ones are normal there.
BPF_CFLAGS := -g -O2 -target bpf -D__TARGET_ARCH_$(ARCH) $(WARN) -fms-extensions \
	-Wno-microsoft-anon-tag -Wno-unused-parameter -Iinclude -Ivmlinux
STATIC_LIBS := -static -l:libbpf.a -l:libelf.a -l:libz.a -l:libzstd.a

BPF_SRCS := $(wildcard bpf/*.bpf.c)
BPF_OBJS := $(patsubst bpf/%.bpf.c,$(OUTPUT)/%.bpf.o,$(BPF_SRCS))
SKELS := $(patsubst bpf/%.bpf.c,$(OUTPUT)/%.skel.h,$(BPF_SRCS))
# Plain C that knows nothing of libbpf: linked into the unit tests too.
CORE_SRCS := src/requirements.c src/hooks.c
APP_SRCS := $(filter-out $(CORE_SRCS),$(wildcard src/*.c))
CORE_OBJS := $(patsubst src/%.c,$(OUTPUT)/%.o,$(CORE_SRCS))
APP_OBJS := $(patsubst src/%.c,$(OUTPUT)/%.o,$(APP_SRCS))
HEADERS := $(wildcard include/*.h src/*.h)

ifeq ($(V),1)
Q :=
msg :=
else
Q := @
msg = @printf '  %-8s %s\n' "$(1)" "$(2)";
endif

.PHONY: all clean test unittest hosttest vmtest demo deps install vmlinux-h format check-format \
	guest-tools
.DELETE_ON_ERROR:
.SECONDARY: $(BPF_OBJS) $(SKELS)

all: $(OUTPUT)/pdtrace

$(OUTPUT):
	$(Q)mkdir -p $@

$(OUTPUT)/%.bpf.o: bpf/%.bpf.c include/pdtrace.h vmlinux/vmlinux.h | $(OUTPUT)
	$(call msg,BPF,$@)
	$(Q)$(CLANG) $(BPF_CFLAGS) -c $< -o $@

$(OUTPUT)/%.skel.h: $(OUTPUT)/%.bpf.o
	$(call msg,GEN-SKEL,$@)
	$(Q)$(BPFTOOL) gen skeleton $< > $@

$(OUTPUT)/%.o: src/%.c $(HEADERS) $(SKELS) | $(OUTPUT)
	$(call msg,CC,$@)
	$(Q)$(CC) $(ALL_CFLAGS) -DPDT_VERSION_STR='"$(VERSION)"' -c $< -o $@

$(OUTPUT)/pdtrace: $(APP_OBJS) $(CORE_OBJS)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(CFLAGS) $^ $(STATIC_LIBS) -o $@

# ---- tests ---------------------------------------------------------------
# Static helpers copied into the VM's initramfs (tests/vm/guest-tools): what busybox lacks.
GUEST_TOOLS := $(OUTPUT)/guest-tools/pdt-fsop $(OUTPUT)/guest-tools/pdt-bpfpin

$(OUTPUT)/guest-tools/pdt-fsop: tests/vm/guest-tools/pdt-fsop.c
	$(Q)mkdir -p $(@D)
	$(call msg,CC,$@)
	$(Q)$(CC) $(ALL_CFLAGS) -static $< -o $@

$(OUTPUT)/guest-tools/pdt-bpfpin: tests/vm/guest-tools/pdt-bpfpin.c
	$(Q)mkdir -p $(@D)
	$(call msg,CC,$@)
	$(Q)$(CC) $(ALL_CFLAGS) $< $(STATIC_LIBS) -o $@

guest-tools: $(GUEST_TOOLS)

UNIT_TESTS := $(patsubst tests/unit/%.c,$(OUTPUT)/tests/%,$(wildcard tests/unit/test_*.c))

$(OUTPUT)/tests/%: tests/unit/%.c $(CORE_OBJS) $(HEADERS)
	$(Q)mkdir -p $(@D)
	$(call msg,CC,$@)
	$(Q)$(CC) $(ALL_CFLAGS) $< $(CORE_OBJS) -lcmocka -o $@

unittest: $(UNIT_TESTS)

# Everything: host unit tests, host CLI tests, VM scenarios; one summary line.
test: deps all unittest guest-tools
	$(Q)tests/run-all.sh

vmtest: deps all guest-tools
	$(Q)tests/vm/run.sh

demo: deps all guest-tools
	$(Q)tests/vm/run.sh --demo

deps:
	$(Q)scripts/install-deps.sh

install: $(OUTPUT)/pdtrace
	install -D -m 0755 $(OUTPUT)/pdtrace $(DESTDIR)$(PREFIX)/bin/pdtrace

vmlinux-h:
	$(Q)scripts/gen-vmlinux-h.sh vmlinux/vmlinux.h

FORMAT_SRCS = bpf/*.c src/*.c src/*.h include/*.h tests/unit/*.c tests/vm/guest-tools/*.c

format:
	clang-format -i $(FORMAT_SRCS)

check-format:
	clang-format --dry-run -Werror $(FORMAT_SRCS)

clean:
	rm -rf $(OUTPUT)
