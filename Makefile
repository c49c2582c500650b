# pci-mwi: kernel series, guest harness and tests.
#   make check   build both trees and run every test: every guest on 7.2, pc and sim on 6.12
#   make run     boot the pc guest with a shell (CMD='...' runs one command; KVER=6.12 the backport)
#   make test GUEST=sim T=sim-sysfs.bats [F=REGEX]   one guest, one file (or the tests matching REGEX)
#   make check-debug   every guest test on the KASAN + lockdep kernel (of KVER)
#   make check-bisect  build and boot the kernel after every patch of the series (of KVER)
#   make check-tree    one tree (KVER): its guests and series checks; make check-host: the checks of no tree
#   make check-mutants apply each small fault of qemu/tools/mutants/ and show the test that kills it (KVER's tree)
#   make series-diff   show how the two trees' series differ, patch by patch
#   make bench   measure config accesses, command times and the build loop

# The trees: one per directory of kernel-patches/, newest first, each
# built from Debian's linux-source-<tree>: 7.2 (the primary, the series
# to post) and 6.12 (the backport). KVER picks the tree every target but
# "check" works on; "check" runs TREES, the first with MACHINES and the
# others with the guests of MACHINES that BACKPORT_MACHINES names.
KVERS       := $(shell bash -c '. qemu/lib.sh && trees')
KVER        ?= $(firstword $(KVERS))
TREES       ?= $(KVERS)
BACKPORT_MACHINES ?= pc sim
$(if $(filter-out 1,$(words $(KVER))),$(error KVER='$(KVER)': one of $(KVERS)))
$(if $(filter $(KVER),$(KVERS)),,$(error KVER='$(KVER)': one of $(KVERS)))
$(foreach t,$(TREES),$(if $(filter $(t),$(KVERS)),,$(error TREES: '$(t)' is not one of $(KVERS))))

BUILD       ?= $(CURDIR)/build
# Everything built from a tree lives under its version: both trees'
# sources, kernels, modules, initramfs, ccache and logs side by side.
TREE        := $(BUILD)/$(KVER)
KSRC        := $(TREE)/linux
KOBJ        := $(TREE)/kobj
KOBJ_NODEBUGFS := $(TREE)/kobj-nodebugfs
KOBJ_DEBUG  := $(TREE)/kobj-debug
KOBJ_STRESS := $(TREE)/kobj-stress
KOBJ_W1     := $(TREE)/kobj-w1
LOGS        := $(BUILD)/logs/$(KVER)
KERNEL      := $(KOBJ)/arch/x86/boot/bzImage
KERNEL_NODEBUGFS := $(KOBJ_NODEBUGFS)/arch/x86/boot/bzImage
KERNEL_DEBUG := $(KOBJ_DEBUG)/arch/x86/boot/bzImage
KERNEL_STRESS := $(KOBJ_STRESS)/arch/x86/boot/bzImage
INITRD_DEBUG := $(TREE)/initramfs-debug.cpio
INITRD_STRESS := $(TREE)/initramfs-stress.cpio
INITRD      := $(TREE)/initramfs.cpio
# The field guest: Debian 13's stock 6.12 kernel (qemu/field-kernel.sh),
# unpatched, whatever KVER is.
FIELD       := $(BUILD)/field
KERNEL_FIELD := $(FIELD)/vmlinuz
INITRD_FIELD := $(BUILD)/initramfs-field.cpio
# The guests: one manifest each in qemu/guests/ (QEMU's machine and
# devices, the kernel, the tests); a new guest is a new manifest.
GUESTS      := $(notdir $(wildcard qemu/guests/*))
MACHINES    ?= $(GUESTS)
# The kernels of the guests $(1): their manifests' kernel= words.
flavours     = $(shell bash -c '. qemu/lib.sh && for g in $(1); do (load_guest $$g && echo $$kernel); done')
# The targets that build the kernels $(1) (kernel= words) and their
# initramfs, beyond the patched kernel's.
kernel-targets = $(if $(filter nodebugfs,$(1)),kernel-nodebugfs) \
	$(if $(filter stress,$(1)),initramfs-stress) $(if $(filter field,$(1)),initramfs-field)
ACCEL       ?= auto
$(if $(filter tcg kvm auto,$(ACCEL)),,$(error ACCEL='$(ACCEL)': tcg, kvm or auto))
# Unset: each guest's manifest says (qemu/guests/*, timeout=).
TIMEOUT     ?=
TIMEOUT_CHECK_DEBUG ?= 3000
TESTS_EXTRA ?=
CMD         ?=

PATCHDIR    := $(CURDIR)/kernel-patches/$(KVER)

export BUILD KVER ACCEL TIMEOUT TIMEOUT_DEBUG TESTS_EXTRA KERNEL KERNEL_NODEBUGFS KERNEL_DEBUG INITRD INITRD_DEBUG KSRC PATCHDIR KOBJ_W1 \
	KOBJ KOBJ_NODEBUGFS KERNEL_STRESS INITRD_STRESS KERNEL_FIELD INITRD_FIELD

MWICTL      := userspace/mwictl
SIMDIR      := $(TREE)/pci-mwi-sim
# The emulator, and the driver for its functions that udev loads by modalias.
SIM         := $(SIMDIR)/pci-mwi-sim.ko $(SIMDIR)/pci-mwi-probe.ko
SIMDIR_DEBUG := $(TREE)/pci-mwi-sim-debug
SIM_DEBUG   := $(SIMDIR_DEBUG)/pci-mwi-sim.ko $(SIMDIR_DEBUG)/pci-mwi-probe.ko
SIMDIR_STRESS := $(TREE)/pci-mwi-sim-stress
SIM_STRESS  := $(SIMDIR_STRESS)/pci-mwi-sim.ko $(SIMDIR_STRESS)/pci-mwi-probe.ko
GUEST_FILES := qemu/init qemu/mkinitramfs.sh $(wildcard tests-bats/*.bats tests-bats/lib/*) \
	       userspace/tests/list-names.awk $(MWICTL)

.PHONY: all check check-tree check-host build-tree guests tree-checks host-checks test series-diff check-debug check-bisect check-mutants bench run deps kernel-tree kernel kernel-nodebugfs kernel-debug kernel-stress kernel-field modules modules-debug modules-stress userspace initramfs initramfs-debug initramfs-stress initramfs-field clean help

all: kernel modules userspace initramfs

help:
	@sed -n 's/^#   //p' Makefile

deps:
	@qemu/install-deps.sh

# Pristine linux-source-$(KVER) plus kernel-patches/$(KVER)/, re-applied when they change.
kernel-tree: deps
	@qemu/prepare-tree.sh $(KSRC) $(PATCHDIR)

kernel: kernel-tree
	@qemu/build-kernel.sh $(KSRC) $(KOBJ) qemu/kernel.config qemu/kernel-devices.config

# The same kernel with CONFIG_DEBUG_FS=n: the series' bookkeeping compiles out.
kernel-nodebugfs: kernel-tree
	@qemu/build-kernel.sh $(KSRC) $(KOBJ_NODEBUGFS) qemu/kernel.config qemu/kernel-devices.config \
		qemu/kernel-nodebugfs.config

# KASAN, lockdep, atomic-sleep and debugobjects, with the device drivers:
# every guest of "make check-debug".
kernel-debug: kernel-tree
	@qemu/build-kernel.sh $(KSRC) $(KOBJ_DEBUG) qemu/kernel.config qemu/kernel-devices.config \
		qemu/kernel-debug.config

# The same checks without device drivers: the stress guest's kernel, which
# only loads the emulated bus.
kernel-stress: kernel-tree
	@qemu/build-kernel.sh $(KSRC) $(KOBJ_STRESS) qemu/kernel.config qemu/kernel-debug.config

# Out-of-tree modules, built against a guest kernel outside the repo.
define build-sim
	@mkdir -p $(2)
	@cp -pu $(addprefix tests-bats/fixtures/pci-mwi-sim/,Kbuild pci-mwi-sim.c pci-mwi-probe.c) $(2)/
	@$(MAKE) -s --no-print-directory -C $(1) M=$(2) modules
endef

modules: kernel
	$(call build-sim,$(KOBJ),$(SIMDIR))

modules-debug: kernel-debug
	$(call build-sim,$(KOBJ_DEBUG),$(SIMDIR_DEBUG))

modules-stress: kernel-stress
	$(call build-sim,$(KOBJ_STRESS),$(SIMDIR_STRESS))

userspace: deps
	@$(MAKE) -s --no-print-directory -C userspace mwictl

$(INITRD): $(GUEST_FILES) $(KERNEL) $(KOBJ)/.pci-mwi-built $(SIM)
	@qemu/mkinitramfs.sh $@ $(KOBJ)/modroot tests-bats $(MWICTL) $(SIM)

initramfs: kernel modules userspace
	@$(MAKE) -s --no-print-directory $(INITRD)

$(INITRD_DEBUG): $(GUEST_FILES) $(KERNEL_DEBUG) $(KOBJ_DEBUG)/.pci-mwi-built $(SIM_DEBUG)
	@qemu/mkinitramfs.sh $@ $(KOBJ_DEBUG)/modroot tests-bats $(MWICTL) $(SIM_DEBUG)

initramfs-debug: kernel-debug modules-debug userspace
	@$(MAKE) -s --no-print-directory $(INITRD_DEBUG)

$(INITRD_STRESS): $(GUEST_FILES) $(KERNEL_STRESS) $(KOBJ_STRESS)/.pci-mwi-built $(SIM_STRESS)
	@qemu/mkinitramfs.sh $@ $(KOBJ_STRESS)/modroot tests-bats $(MWICTL) $(SIM_STRESS)

initramfs-stress: kernel-stress modules-stress userspace
	@$(MAKE) -s --no-print-directory $(INITRD_STRESS)

# Debian's own kernel and its modules for the pc machine's devices.
kernel-field: deps
	@qemu/field-kernel.sh $(FIELD)

$(INITRD_FIELD): $(GUEST_FILES) $(KERNEL_FIELD) $(FIELD)/package
	@qemu/mkinitramfs.sh $@ $(FIELD)/modroot tests-bats $(MWICTL)

initramfs-field: kernel-field userspace
	@$(MAKE) -s --no-print-directory $(INITRD_FIELD)

# Every tree of TREES in turn, and once the host checks that depend on no
# tree (qemu/check-trees.sh), then one summary of all.
check: deps
	+@MAKE='$(MAKE)' qemu/check-trees.sh $(BUILD)/logs '$(MACHINES)' '$(BACKPORT_MACHINES)' $(TREES)

# One tree (KVER): its guests (MACHINES) and its series' host checks.
check-tree: deps
	+@MAKE='$(MAKE)' qemu/check-trees.sh --no-host-checks $(BUILD)/logs '$(MACHINES)' '' $(KVER)

# The host checks that depend on no tree: mwictl's, shellcheck, the
# harness's own tests (one of which boots the pc guest of KVER).
check-host: kernel modules userspace initramfs
	@$(MAKE) -s --no-print-directory host-checks

# The steps of check-trees.sh, each one script, for one tree (KVER): what
# its guests need built (the kernels their manifests name), then, with
# nothing more to build, the guests, the series' host checks and (for the
# first tree) the host checks that depend on no tree. The struct pci_dev
# check needs the CONFIG_DEBUG_FS=n kernel, built only for a guest on it.
build-tree: kernel modules userspace initramfs $(call kernel-targets,$(call flavours,$(MACHINES)))

guests:
	@qemu/guests.sh $(LOGS) $(MACHINES)

tree-checks:
	@KOBJ_NODEBUGFS=$(if $(filter nodebugfs,$(call flavours,$(MACHINES))),$(KOBJ_NODEBUGFS)) \
		qemu/tree-checks.sh $(LOGS)/tree

host-checks:
	@qemu/host-checks.sh $(BUILD)/logs/host

# The inner loop: one guest of KVER runs the files of T (names in
# tests-bats/ or TESTS_EXTRA), and with F only the tests whose names match
# the regular expression F; judged as in make check (console included), no
# host checks. Cached by its inputs like make check's guests: FORCE=1 boots
# again.
ifneq ($(filter test,$(MAKECMDGOALS)),)
$(if $(and $(GUEST),$(T)),,$(error usage: make test GUEST=$(subst $() ,|,$(GUESTS)) T=FILE.bats [F=REGEX]))
$(if $(filter-out 1,$(words $(GUEST))),$(error GUEST='$(GUEST)': one of $(GUESTS)))
$(if $(filter $(GUEST),$(GUESTS)),,$(error GUEST='$(GUEST)': one of $(GUESTS)))
endif
test: userspace $(if $(filter patched nodebugfs,$(call flavours,$(GUEST))),initramfs) \
	$(call kernel-targets,$(call flavours,$(GUEST)))
	@TEST_FILES='$(subst ','\'',$(value T))' TEST_FILTER='$(subst ','\'',$(value F))' \
		qemu/guests.sh $(LOGS)/test $(GUEST)

series-diff:
	@qemu/checks/series-diff.sh $(addprefix $(CURDIR)/kernel-patches/,$(KVERS))

check-debug: initramfs-debug userspace
	@DEBUG_KERNEL=1 TIMEOUT_DEBUG=$(TIMEOUT_CHECK_DEBUG) qemu/guests.sh $(LOGS)/debug pc q35 sim stress

run: kernel modules userspace initramfs
	@qemu/run.sh $(LOGS) pc '$(subst ','\'',$(value CMD))'

# Every guest of KVER, and the pc guest of each other tree.
bench: kernel kernel-nodebugfs modules userspace initramfs initramfs-stress initramfs-field
	@$(foreach t,$(filter-out $(KVER),$(KVERS)),$(MAKE) -s --no-print-directory KVER=$(t) initramfs &&) true
	@KVERS='$(KVERS)' qemu/tools/bench.sh $(BUILD)

check-mutants: kernel-tree userspace
	@qemu/tools/mutants.sh $(KSRC) $(TREE)

check-bisect: kernel-tree
	@qemu/tools/bisect.sh $(KSRC) $(PATCHDIR) $(TREE)/bisect $(TREE)/kobj-bisect $(LOGS)/bisect

# Both trees' build output; the extracted sources and their ccache stay.
clean:
	rm -rf $(foreach t,$(KVERS),$(addprefix $(BUILD)/$(t)/,kobj kobj-nodebugfs kobj-debug kobj-stress \
		kobj-w1 kobj-w1-powerpc kobj-w1-sh kobj-w1-s390 kobj-bisect kobj-w1-bisect kobj-mutant \
		kobj-mutant-stress pci-mwi-sim pci-mwi-sim-debug pci-mwi-sim-stress initramfs.cpio \
		initramfs-debug.cpio initramfs-stress.cpio logs)) $(FIELD) $(INITRD_FIELD) $(BUILD)/logs
	$(MAKE) -C userspace clean
