# pci-mwi: kernel series, guest harness and tests.
#   make check   build everything needed and run every test in both guests
#   make run     boot the pc guest with a shell (CMD='...' runs one command)
#   make check-bisect  build and boot the kernel after every patch of the series

BUILD       ?= $(CURDIR)/build
KSRC        := $(BUILD)/linux
KOBJ        := $(BUILD)/kobj
KOBJ_NODEBUGFS := $(BUILD)/kobj-nodebugfs
LOGS        := $(BUILD)/logs
KERNEL      := $(KOBJ)/arch/x86/boot/bzImage
KERNEL_NODEBUGFS := $(KOBJ_NODEBUGFS)/arch/x86/boot/bzImage
INITRD      := $(BUILD)/initramfs.cpio
MACHINES    ?= pc q35 sim nodebugfs
ACCEL       ?= tcg
TIMEOUT     ?= 120
TESTS_EXTRA ?=
CMD         ?=

PATCHDIR    := $(CURDIR)/kernel-patches

export ACCEL TIMEOUT TESTS_EXTRA KERNEL KERNEL_NODEBUGFS INITRD KSRC PATCHDIR

MWICTL      := userspace/mwictl
SIMDIR      := $(BUILD)/pci-mwi-sim
SIM         := $(SIMDIR)/pci-mwi-sim.ko
GUEST_FILES := qemu/init qemu/mkinitramfs.sh $(wildcard tests-bats/*.bats) \
	       tests-bats/helpers.bash $(MWICTL) $(SIM)

.PHONY: all check check-bisect run deps kernel-tree kernel kernel-nodebugfs modules userspace initramfs clean help

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

# Out-of-tree modules, built against the guest kernel outside the repo.
modules: kernel
	@mkdir -p $(SIMDIR)
	@cp -pu qemu/pci-mwi-sim/Kbuild qemu/pci-mwi-sim/pci-mwi-sim.c $(SIMDIR)/
	@$(MAKE) -s --no-print-directory -C $(KOBJ) M=$(SIMDIR) modules

userspace: deps
	@$(MAKE) -s --no-print-directory -C userspace mwictl

$(INITRD): $(GUEST_FILES) $(KERNEL)
	@qemu/mkinitramfs.sh $@ $(KOBJ)/modroot tests-bats $(MWICTL) $(SIM)

initramfs: kernel modules userspace
	@$(MAKE) -s --no-print-directory $(INITRD)

check: kernel kernel-nodebugfs modules userspace initramfs
	@qemu/check.sh $(LOGS) $(MACHINES)

run: kernel modules userspace initramfs
	@qemu/run.sh $(LOGS) pc '$(subst ','\'',$(value CMD))'

check-bisect: kernel-tree
	@qemu/bisect.sh $(KSRC) $(PATCHDIR) $(BUILD)/bisect $(BUILD)/kobj-bisect $(LOGS)/bisect

clean:
	rm -rf $(KOBJ) $(KOBJ_NODEBUGFS) $(BUILD)/kobj-bisect $(SIMDIR) $(INITRD) $(LOGS)
	$(MAKE) -C userspace clean
