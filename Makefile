# Makefile - build the benchmark image, run it, test it.
#
#   make run     install what is missing, build, boot under QEMU (serial on stdio)
#   make check   install what is missing, build, run every test
#   make iso     build/bench.iso: hybrid ISO for CD or USB stick, BIOS and UEFI
#   make kernel  build/bench.elf (multiboot2, GRUB) and build/bench32.elf
#                (multiboot1, QEMU -kernel)
#   make report  the table and the paper's figures of the last `make run`
#   make netboot build/netboot/: GRUB network-boot directory for a TFTP server
#                (iso/netboot.mk; docs/LAB.md "Network boot for a lab")

SHELL   := /bin/bash
BUILD   := build
CC      := gcc
NASM    := nasm
LD      := ld
OBJCOPY := objcopy
# Debian's own python3 sees Debian's python3-* packages (matplotlib).
PYTHON  := $(shell test -x /usr/bin/python3 && echo /usr/bin/python3 || echo python3)
QEMU    := qemu-system-x86_64

# -mgeneral-regs-only: the kernel's C code uses no x87, MMX or SSE register
# (as Linux and kvm-unit-tests build theirs), so the compiler cannot put
# vector code into the set-up or change what a workload measures; the
# workloads that measure vector instructions write them in inline asm
# (bench/wl_goossens.c; tests/boot/t_regs.py checks the image).
KERNEL_CFLAGS := -std=gnu11 -O2 -g -Wall -Wextra -Werror \
	-ffreestanding -fno-builtin -fno-stack-protector -fno-pic -fno-pie \
	-fno-asynchronous-unwind-tables -fno-omit-frame-pointer \
	-mno-red-zone -mcmodel=small -m64 -march=x86-64 -mgeneral-regs-only \
	-fno-tree-loop-distribute-patterns
# FAKE_PMU=1: the fake PMU test build (kernel/pmu.h BENCH_FAKE_PMU: CPUID
# leaf 0AH faked, the PMU MSRs in memory, RDPMC read as RDTSC), in its own
# directory: make BUILD=build/fakepmu FAKE_PMU=1 kernel iso. Never for a real run.
ifeq ($(FAKE_PMU),1)
KERNEL_CFLAGS += -DBENCH_FAKE_PMU
endif
HOST_CFLAGS := -std=gnu11 -O1 -g -Wall -Wextra -Werror -fsanitize=address,undefined -iquote $(BUILD)/gen

ASM_SRC := boot/entry.asm boot/efi.asm boot/vectors.asm boot/trampoline.asm
# EXTRA_SRC: more workload files, e.g. a test's (tests/boot/t_workloads.py).
C_SRC   := $(wildcard kernel/*.c) $(wildcard lib/*.c) $(wildcard bench/*.c) $(EXTRA_SRC)
OBJ     := $(ASM_SRC:%.asm=$(BUILD)/%.o) $(C_SRC:%.c=$(BUILD)/%.o)
HEADERS := $(wildcard kernel/*.h) $(wildcard lib/*.h) $(wildcard bench/*.h)
# The QR code encoder (Project Nayuki's QR Code generator, MIT; Debian
# libqrcodegen-dev, tools/deps.sh): its static archive is linked into the
# kernel as it is (kernel/qr.c says why that is sound and what it provides).
QRCODEGEN_A := /usr/lib/x86_64-linux-gnu/libqrcodegen.a
QRCODEGEN_H := /usr/include/qrcodegen/qrcodegen.h

# Boot parameters for `make run` (README "Boot parameters"), and your own
# code (README "Measuring your own code"): CODE and INIT as assembly text
# (nasm, Intel syntax, ';' between instructions), UNROLL, LOOPS, CODE_NAME.
ARGS ?=
CODE ?=
export CODE INIT UNROLL LOOPS CODE_NAME
QEMU_CPU ?= max
# More QEMU flags for make run and run-iso, after the defaults (a later -m
# or -machine wins): QEMU_ARGS='-smp 4' with ARGS='cpus=all', or
# QEMU_ARGS='-icount shift=0,align=off,sleep=off' for exact figures.
QEMU_ARGS ?=
QEMU_RUN := $(QEMU) -machine q35 -cpu $(QEMU_CPU) -m 256M -display none \
	-serial stdio -no-reboot -device isa-debug-exit,iobase=0xf4,iosize=0x04 $(QEMU_ARGS)

.PHONY: all kernel iso run run-iso check unit fuzz boot-tests bochs-tests tools-tests benchmarks report deps clean structure
all: kernel iso

kernel: $(BUILD)/bench.elf $(BUILD)/bench32.elf

deps:
	@bash tools/deps.sh

$(BUILD)/%.o: %.asm
	@mkdir -p $(dir $@)
	@echo "  NASM  $<"
	@$(NASM) -f elf64 -g -o $@ $<

$(BUILD)/%.o: %.c $(HEADERS) Makefile
	@mkdir -p $(dir $@)
	@echo "  CC    $<"
	@$(CC) $(KERNEL_CFLAGS) -c -o $@ $<

# The performance-event tables (lib/evtables.h), generated from the extract
# of intel/perfmon and libpfm4 in tools/events/ (tools/events/README.md);
# lib/evdata.c includes them from build/gen.
EVENTS_DATA := $(wildcard tools/events/*.tsv tools/events/*/*.tsv)
$(BUILD)/gen/events_data.c: tools/mkevents.py $(EVENTS_DATA)
	@mkdir -p $(dir $@)
	@echo "  GEN   $@"
	@$(PYTHON) tools/mkevents.py --c $@
$(BUILD)/lib/evdata.o: $(BUILD)/gen/events_data.c
$(BUILD)/lib/evdata.o: KERNEL_CFLAGS += -iquote $(BUILD)/gen

$(QRCODEGEN_A) $(QRCODEGEN_H):
	@echo "make: $@ is missing: install Debian's libqrcodegen-dev (make deps)"; exit 1

$(BUILD)/kernel/qr.o: $(QRCODEGEN_H)

$(BUILD)/bench.elf: $(OBJ) linker.ld $(QRCODEGEN_A)
	@echo "  LD    $@"
	@$(LD) -n -nostdlib -z max-page-size=0x1000 -z noexecstack --no-warn-rwx-segments -T linker.ld -o $@ \
		$(OBJ) $(QRCODEGEN_A)

# QEMU's multiboot loader refuses ELF64; the same image as ELF32.
$(BUILD)/bench32.elf: $(BUILD)/bench.elf
	@echo "  ELF32 $@"
	@$(OBJCOPY) -O elf32-i386 $< $@

$(BUILD)/bench.iso: $(BUILD)/bench.elf iso/grub.cfg iso/xorriso_esp.py
	@rm -rf $(BUILD)/isoroot && mkdir -p $(BUILD)/isoroot/boot/grub
	@cp $(BUILD)/bench.elf $(BUILD)/isoroot/boot/bench.elf
	@cp iso/grub.cfg $(BUILD)/isoroot/boot/grub/grub.cfg
	@echo "  ISO   $@"
	@grub-mkrescue --xorriso=$(CURDIR)/iso/xorriso_esp.py -o $@ $(BUILD)/isoroot 2> $(BUILD)/grub-mkrescue.log || \
		{ cat $(BUILD)/grub-mkrescue.log; exit 1; }

iso: $(BUILD)/bench.iso

# Boot the multiboot1 image directly: the quickest smoke test. QEMU's exit
# status 33 is the kernel's success code (kernel/exit.h). The log goes to
# RUN_LOG (tests that run `make run` side by side give each its own).
RUN_LOG ?= $(BUILD)/logs/run.log
run: deps kernel
	@args="$(ARGS)"; if [ -n "$$CODE" ]; then \
		code=$$($(PYTHON) tools/bench.py asm "$$CODE" --init "$$INIT" --unroll "$$UNROLL" \
			--loops "$$LOOPS" --name "$$CODE_NAME") || { echo "make run: CODE could not be assembled"; exit 1; }; \
		args="$$args $$code"; fi; \
	echo "make run: booting $(BUILD)/bench32.elf under QEMU (TCG, -cpu $(QEMU_CPU)$(if $(QEMU_ARGS), $(QEMU_ARGS))); boot parameters: '$$args'"; \
	mkdir -p $(dir $(RUN_LOG)); \
	set -o pipefail; timeout 300 $(QEMU_RUN) -kernel $(BUILD)/bench32.elf -append "$$args" \
		| tee $(RUN_LOG); rc=$$?; \
	if [ $$rc -eq 33 ]; then \
		tr -d '\r' < $(RUN_LOG) | awk '/^your code: /{on=1; print "make run: run complete (log: $(RUN_LOG)); your code:"} \
			on && (/^[{]/ || /^END / || /^$$/){on=0} on'; \
		if grep -q '^bench: run complete: .*your code FAULTED' $(RUN_LOG); then \
			echo "make run: your code faulted (the FAULT rows above; QEMU exit status 33)"; exit 1; fi; \
		grep -q '^your code: ' $(RUN_LOG) || echo "make run: run complete (log: $(RUN_LOG))"; exit 0; \
	elif [ $$rc -eq 124 ]; then echo "make run: QEMU timed out after 300 s"; exit 1; \
	else echo "make run: the run did not complete (QEMU exit status $$rc; 35 = kernel aborted)"; exit 1; fi

# The same through GRUB from the ISO (BIOS, CD-ROM).
run-iso: deps iso
	@set -o pipefail; timeout 300 $(QEMU_RUN) -cdrom $(BUILD)/bench.iso | tee $(BUILD)/logs/run-iso.log; \
	rc=$$?; [ $$rc -eq 33 ] || { echo "make run-iso: QEMU exit status $$rc"; exit 1; }

# Every tests/unit/test_X.c is one binary, linked with all of lib/ (but
# lib/string.c, whose names would clash with the C library's: test_string
# links it alone, renamed).
UNIT_TESTS := $(basename $(notdir $(wildcard tests/unit/test_*.c)))
UNIT_BINS  := $(UNIT_TESTS:%=$(BUILD)/host/%)
# lib/evdata.c (the generated event tables, lib/evtables.h) is compiled for
# the host once, as build/host/evdata.o, and linked into every test.
LIB_HOST   := $(filter-out lib/string.c lib/evdata.c,$(wildcard lib/*.c)) $(BUILD)/host/evdata.o

$(BUILD)/host/evdata.o: lib/evdata.c lib/evtables.h $(BUILD)/gen/events_data.c
	@mkdir -p $(dir $@)
	$(CC) $(HOST_CFLAGS) -c -o $@ lib/evdata.c

$(BUILD)/host/test_string: tests/unit/test_string.c lib/string.c lib/string.h tests/unit/check.h
	@mkdir -p $(dir $@)
	$(CC) $(HOST_CFLAGS) -fno-builtin -Dmemcpy=lk_memcpy -Dmemmove=lk_memmove \
		-Dmemset=lk_memset -Dmemcmp=lk_memcmp -Dstrlen=lk_strlen -Dstrchr=lk_strchr \
		-o $@ tests/unit/test_string.c lib/string.c

# test_qrtext also checks the part size against the encoder itself.
$(BUILD)/host/test_qrtext: tests/unit/test_qrtext.c $(LIB_HOST) $(wildcard lib/*.h) tests/unit/check.h $(QRCODEGEN_A)
	@mkdir -p $(dir $@)
	$(CC) $(HOST_CFLAGS) -o $@ $< $(LIB_HOST) $(QRCODEGEN_A) -lm

# test_results also links bench/results.c: the run's derived figures, pure C.
$(BUILD)/host/test_results: tests/unit/test_results.c bench/results.c bench/results.h bench/methods.h \
		bench/workload.h $(LIB_HOST) $(wildcard lib/*.h) tests/unit/check.h
	@mkdir -p $(dir $@)
	$(CC) $(HOST_CFLAGS) -o $@ $< bench/results.c $(LIB_HOST) -lm

$(BUILD)/host/test_%: tests/unit/test_%.c $(LIB_HOST) $(wildcard lib/*.h) tests/unit/check.h tests/unit/xorshift.h
	@mkdir -p $(dir $@)
	$(CC) $(HOST_CFLAGS) -o $@ $< $(LIB_HOST) -lm

# test_cpuid_corpus reads the real CPUs' CPUID dumps (tests/corpus/cpuid/),
# decompressed here with Python's lzma.
$(BUILD)/host/cpuid_corpus.txt: tests/corpus/cpuid/dumps.txt.xz
	@mkdir -p $(dir $@)
	@$(PYTHON) -c 'import lzma, sys; sys.stdout.buffer.write(lzma.open(sys.argv[1]).read())' $< > $@.tmp
	@mv $@.tmp $@
$(BUILD)/host/test_cpuid_corpus: $(BUILD)/host/cpuid_corpus.txt tests/unit/cpuid_dump.h
$(BUILD)/host/test_xcr0: $(BUILD)/host/cpuid_corpus.txt tests/unit/cpuid_dump.h
$(BUILD)/host/test_pmugp: $(BUILD)/host/cpuid_corpus.txt tests/unit/cpuid_dump.h
$(BUILD)/host/test_prefetch: $(BUILD)/host/cpuid_corpus.txt tests/unit/cpuid_dump.h
$(BUILD)/host/test_clockctl: $(BUILD)/host/cpuid_corpus.txt tests/unit/cpuid_dump.h
$(BUILD)/host/test_cachelist: $(BUILD)/host/cpuid_corpus.txt tests/unit/cpuid_dump.h

# test_events also reads every event's expected encoding, which
# tools/mkevents.py --expect computes from the extract on its own.
$(BUILD)/host/events_expect.txt: tools/mkevents.py $(EVENTS_DATA)
	@mkdir -p $(dir $@)
	@$(PYTHON) tools/mkevents.py --expect $@
$(BUILD)/host/test_events: $(BUILD)/host/events_expect.txt $(BUILD)/host/cpuid_corpus.txt tests/unit/cpuid_dump.h

unit: $(UNIT_BINS)
	@BENCH_BUILD=$(abspath $(BUILD)) $(PYTHON) tests/run_unit.py $(UNIT_BINS)

# libFuzzer on the command-line parser, then on the plan file's parser
# (FUZZ_PLAN_SECONDS), when clang is here.
FUZZ_SECONDS ?= 20
FUZZ_PLAN_SECONDS ?= 10
fuzz:
	@mkdir -p $(BUILD)/host $(BUILD)/results $(BUILD)/fuzz-corpus $(BUILD)/fuzz-plan-corpus
	@if ! command -v clang >/dev/null 2>&1; then \
		echo "fuzz: SKIP: clang is not installed (Debian package clang)"; echo "0 0 1" > $(BUILD)/results/fuzz.txt; exit 0; fi; \
	if ! echo 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { return 0; }' | \
		clang -fsanitize=fuzzer -x c - -o $(BUILD)/host/fuzz_probe 2>/dev/null; then \
		echo "fuzz: SKIP: clang cannot link libFuzzer here (Debian package libclang-rt-14-dev)"; \
		echo "0 0 1" > $(BUILD)/results/fuzz.txt; exit 0; fi; \
	clang -g -O1 -fsanitize=fuzzer,address,undefined -o $(BUILD)/host/fuzz_cmdline \
		tests/unit/fuzz_cmdline.c lib/cmdline.c lib/nearest.c lib/fmt.c || { echo "0 1 0" > $(BUILD)/results/fuzz.txt; exit 1; }; \
	clang -g -O1 -fsanitize=fuzzer,address,undefined -o $(BUILD)/host/fuzz_plan \
		tests/unit/fuzz_plan.c lib/plan.c lib/fmt.c || { echo "0 1 0" > $(BUILD)/results/fuzz.txt; exit 1; }; \
	passed=0; failed=0; \
	if $(BUILD)/host/fuzz_cmdline -max_total_time=$(FUZZ_SECONDS) -max_len=2048 \
		$(BUILD)/fuzz-corpus > $(BUILD)/fuzz.log 2>&1; then \
		echo "fuzz: cmdline: $$(grep -c . $(BUILD)/fuzz.log) log lines, $$(tail -1 $(BUILD)/fuzz.log)"; passed=$$((passed + 1)); \
	else tail -30 $(BUILD)/fuzz.log; failed=$$((failed + 1)); fi; \
	if $(BUILD)/host/fuzz_plan -max_total_time=$(FUZZ_PLAN_SECONDS) -max_len=4096 -artifact_prefix=$(BUILD)/fuzz-plan- \
		$(BUILD)/fuzz-plan-corpus > $(BUILD)/fuzz-plan.log 2>&1; then \
		echo "fuzz: plan: $$(grep -c . $(BUILD)/fuzz-plan.log) log lines, $$(tail -1 $(BUILD)/fuzz-plan.log)"; passed=$$((passed + 1)); \
	else tail -30 $(BUILD)/fuzz-plan.log; failed=$$((failed + 1)); fi; \
	echo "fuzz: $$passed passed, $$failed failed"; echo "$$passed $$failed 0" > $(BUILD)/results/fuzz.txt; \
	[ $$failed -eq 0 ]

# As many tests at a time as -jN, or the CPUs when make has no -jN; BOOT_JOBS=N
# to choose (tests/boot/run_boot_tests.py).
boot-tests: kernel iso
	@BENCH_BUILD=$(abspath $(BUILD)) $(PYTHON) tests/boot/run_boot_tests.py

# The image under Bochs, the second emulator: one run at a time, after QEMU's
# (tests/boot/bochs_tests.py; its machines in tests/boot/bochs.py).
bochs-tests: kernel iso
	@BENCH_BUILD=$(abspath $(BUILD)) $(PYTHON) tests/boot/bochs_tests.py

# The statistics and the paper's figures of the last `make run` (README "Host tools").
report:
	@test -f $(RUN_LOG) || { echo "make report: no $(RUN_LOG): run 'make run' first"; exit 1; }
	@$(PYTHON) tools/bench.py report $(RUN_LOG) -o $(BUILD)/logs/run-report

# The C code's include/call graph: no loop, each folder in its layer
# (tests/structure/check_structure.py: the rule's table, the exceptions).
structure: kernel
	@BENCH_BUILD=$(abspath $(BUILD)) $(PYTHON) tests/structure/check_structure.py

tools-tests: kernel
	@BENCH_BUILD=$(abspath $(BUILD)) $(PYTHON) tests/tools/run_tool_tests.py

# Benchmarks: figures against the goals, printed, not timed pass/fail
# (tests/bench/run_benchmarks.py: the serial log's size and time).
benchmarks: kernel
	@BENCH_BUILD=$(abspath $(BUILD)) $(PYTHON) tests/bench/run_benchmarks.py

# Every suite runs even if an earlier one failed; the last line adds them up.
check: deps
	@rm -rf $(BUILD)/results && mkdir -p $(BUILD)/results && date +%s > $(BUILD)/results/started
	@$(MAKE) --no-print-directory unit || true
	@$(MAKE) --no-print-directory structure || true
	@$(MAKE) --no-print-directory fuzz || true
	@$(MAKE) --no-print-directory boot-tests || true
	@$(MAKE) --no-print-directory bochs-tests || true
	@$(MAKE) --no-print-directory tools-tests || true
	@$(MAKE) --no-print-directory benchmarks || true
	@BENCH_BUILD=$(abspath $(BUILD)) $(PYTHON) tests/total.py unit structure fuzz boot bochs tools bench

# Network boot and the other boot paths (iso/netboot.mk, when present).
-include iso/netboot.mk

clean:
	rm -rf $(BUILD)
