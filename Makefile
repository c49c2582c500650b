# pci-mwi: kernel series, guest harness and tests.
#   make check   build everything needed and run every test in both guests
#   make run     boot the pc guest with a shell (CMD='...' runs one command)
#   make check-debug   every guest test on the KASAN + lockdep kernel
#   make check-bisect  build and boot the kernel after every patch of the series
#   make check-mutants apply each one-line fault of qemu/mutants/ and show the test that kills it
#   make bench   measure config accesses, command times and the build loop

BUILD       ?= $(CURDIR)/build
KSRC        := $(BUILD)/linux
KOBJ        := $(BUILD)/kobj
KOBJ_NODEBUGFS := $(BUILD)/kobj-nodebugfs
KOBJ_DEBUG  := $(BUILD)/kobj-debug
KOBJ_W1     := $(BUILD)/kobj-w1
LOGS        := $(BUILD)/logs
KERNEL      := $(KOBJ)/arch/x86/boot/bzImage
KERNEL_NODEBUGFS := $(KOBJ_NODEBUGFS)/arch/x86/boot/bzImage
KERNEL_DEBUG := $(KOBJ_DEBUG)/arch/x86/boot/bzImage
INITRD_DEBUG := $(BUILD)/initramfs-debug.cpio
INITRD      := $(BUILD)/initramfs.cpio
MACHINES    ?= pc q35 sim nodebugfs stress
ACCEL       ?= tcg
TIMEOUT     ?= 900
TIMEOUT_DEBUG ?= 900
TESTS_EXTRA ?=
CMD         ?=

PATCHDIR    := $(CURDIR)/kernel-patches

export ACCEL TIMEOUT TIMEOUT_DEBUG TESTS_EXTRA KERNEL KERNEL_NODEBUGFS KERNEL_DEBUG INITRD INITRD_DEBUG KSRC PATCHDIR KOBJ_W1 \
	KOBJ KOBJ_NODEBUGFS

MWICTL      := userspace/mwictl
SIMDIR      := $(BUILD)/pci-mwi-sim
SIM         := $(SIMDIR)/pci-mwi-sim.ko
SIMDIR_DEBUG := $(BUILD)/pci-mwi-sim-debug
SIM_DEBUG   := $(SIMDIR_DEBUG)/pci-mwi-sim.ko
GUEST_FILES := qemu/init qemu/mkinitramfs.sh $(wildcard tests-bats/*.bats) \
	       tests-bats/helpers.bash userspace/tests/list-names.awk $(MWICTL)

.PHONY: all check check-debug check-bisect check-mutants bench run deps kernel-tree kernel kernel-nodebugfs kernel-debug modules modules-debug userspace initramfs initramfs-debug clean help

all: kernel modules userspace initramfs

help:
	@sed -n 's/^#   //p' Makefile

deps:
	@qemu/install-deps.sh

# Pristine linux-source-6.1 plus kernel-patches/, re-applied when they change.
kernel-tree: deps
	@qemu/prepare-tree.sh $(KSRC) $(PATCHDIR)

kernel: kernel-tree
	@qemu/build-kernel.sh $(KSRC) $(KOBJ) qemu/kernel.config

# The same kernel with CONFIG_DEBUG_FS=n: the series' bookkeeping compiles out.
kernel-nodebugfs: kernel-tree
	@qemu/build-kernel.sh $(KSRC) $(KOBJ_NODEBUGFS) qemu/kernel.config qemu/kernel-nodebugfs.config

# KASAN, lockdep, atomic-sleep and debugobjects: the stress guest's kernel.
kernel-debug: kernel-tree
	@qemu/build-kernel.sh $(KSRC) $(KOBJ_DEBUG) qemu/kernel.config qemu/kernel-debug.config

# Out-of-tree modules, built against a guest kernel outside the repo.
define build-sim
	@mkdir -p $(2)
	@cp -pu qemu/pci-mwi-sim/Kbuild qemu/pci-mwi-sim/pci-mwi-sim.c $(2)/
	@$(MAKE) -s --no-print-directory -C $(1) M=$(2) modules
endef

modules: kernel
	$(call build-sim,$(KOBJ),$(SIMDIR))

modules-debug: kernel-debug
	$(call build-sim,$(KOBJ_DEBUG),$(SIMDIR_DEBUG))

userspace: deps
	@$(MAKE) -s --no-print-directory -C userspace mwictl

$(INITRD): $(GUEST_FILES) $(KERNEL) $(SIM)
	@qemu/mkinitramfs.sh $@ $(KOBJ)/modroot tests-bats $(MWICTL) $(SIM)

initramfs: kernel modules userspace
	@$(MAKE) -s --no-print-directory $(INITRD)

$(INITRD_DEBUG): $(GUEST_FILES) $(KERNEL_DEBUG) $(SIM_DEBUG)
	@qemu/mkinitramfs.sh $@ $(KOBJ_DEBUG)/modroot tests-bats $(MWICTL) $(SIM_DEBUG)

initramfs-debug: kernel-debug modules-debug userspace
	@$(MAKE) -s --no-print-directory $(INITRD_DEBUG)

check: kernel kernel-nodebugfs modules userspace initramfs initramfs-debug
	@qemu/check.sh $(LOGS) $(MACHINES)

check-debug: initramfs-debug userspace
	@DEBUG_KERNEL=1 qemu/check.sh $(LOGS)/debug pc q35 sim stress

run: kernel modules userspace initramfs
	@qemu/run.sh $(LOGS) pc '$(subst ','\'',$(value CMD))'

bench: kernel kernel-nodebugfs modules userspace initramfs initramfs-debug
	@qemu/bench.sh $(BUILD)

check-mutants: kernel-tree userspace
	@qemu/mutants.sh $(KSRC) $(BUILD)

check-bisect: kernel-tree
	@qemu/bisect.sh $(KSRC) $(PATCHDIR) $(BUILD)/bisect $(BUILD)/kobj-bisect $(LOGS)/bisect

clean:
	rm -rf $(KOBJ) $(KOBJ_NODEBUGFS) $(KOBJ_DEBUG) $(KOBJ_W1) $(BUILD)/kobj-bisect $(BUILD)/kobj-w1-bisect \
		$(BUILD)/kobj-mutant $(SIMDIR) $(SIMDIR_DEBUG) \
		$(INITRD) $(INITRD_DEBUG) $(LOGS)
	$(MAKE) -C userspace clean
