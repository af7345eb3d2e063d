# SPDX-License-Identifier: GPL-2.0
#
# cpumgr: kernel module (kmod/), userspace (user/), selftests (selftests/).
#
#   make                 module for KVER (or KDIR) and the userspace
#   make check           everything, tests in QEMU guests; ends "N passed, N failed, N skipped"
#   make soak            the long runs make check shortens (selftests/plan.soak)
#   make test            the userspace unit tests alone, on the host (no root)
#   make check-host      host-only checks: systemd unit, man pages, completion, packages
#   make demo            the QEMU guest demo
#   make guest           one guest: KVER=6.1 PRESET=smt8 TESTS="topology"
#   make shell           a shell in a guest (KVER, PRESET)
#   make lint            checkpatch --strict (kmod/, include/), cppcheck (user/)
#   make bench           benchmarks
#   make fuzz            libFuzzer targets, 10M executions each (FUZZ_RUNS)
#   make install         what the packages install (DESTDIR, PREFIX, UNITDIR, ...)
#   make install-user    the userspace alone: no kernel tree needed
#   make man             cpumgrctl(8) and cpumgr(4) from doc/*.scd (scdoc)
#   make deb             packages cpumgr and cpumgr-dkms in build/deb
#   make deb-deps        install their Build-Depends (apt-get build-dep ./, root)
#   make image           the DaemonSet's container image, an OCI archive (buildah)
#   make check-packages  the packages in guests: DKMS, boot, a kernel upgrade
#   make clean
#
# KVER is a kernel set up by scripts/setup.sh: 6.1, 6.12, 6.12-rt, 7.3,
# 7.3-rt, or debug (scripts/build-debug-kernel.sh).  KDIR builds the module against any
# kernel build tree instead, e.g. KDIR=/lib/modules/$(uname -r)/build.

KVER ?= 6.1
PRESET ?= smt8
TESTS ?= topology
KERNELS ?= 6.1 6.12 6.12-rt 7.3 7.3-rt debug
OUT := $(CURDIR)/build
CPUMGR_CACHE ?= $(HOME)/.cache/cpumgr
export CPUMGR_CACHE

PREFIX ?= /usr/local
DESTDIR ?=

KVER_DIR = $(CPUMGR_CACHE)/kernels/$(1)
MODULE_SRCS := $(wildcard kmod/*.c kmod/*.h include/uapi/linux/*.h) kmod/Kbuild

all: module user

# The module is built in a copy of kmod/ and include/ per kernel: kbuild
# writes its objects next to the sources.
ifdef KDIR
MODULE_NAME := custom
MODULE_KDIR := $(KDIR)
else
MODULE_NAME := $(KVER)
MODULE_KDIR = $(call KVER_DIR,$(KVER))/build
endif

# "+": the kbuild make inside joins this make's jobserver.
module:
	+@scripts/build-module.sh $(MODULE_NAME) $(MODULE_KDIR)

modules:
	+@for k in $(KERNELS); do scripts/build-module.sh $$k \
		$(call KVER_DIR,$$k)/build || exit 1; done

user:
	$(MAKE) -C user OUT=$(OUT)/user PREFIX=$(PREFIX)

# The unit tests again with ASan and UBSan, and the fuzz targets
# (clang's libFuzzer, ASan, UBSan), each in its own output directory.
SAN_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=undefined \
	-fno-omit-frame-pointer
FUZZ_CC ?= clang-14

user-san:
	$(MAKE) -C user OUT=$(OUT)/user-san SAN="$(SAN_FLAGS)" \
		$(OUT)/user-san/cpumgrctl tests

fuzzers:
	$(MAKE) -C user OUT=$(OUT)/fuzz CC=$(FUZZ_CC) \
		SAN="-fsanitize=fuzzer-no-link $(SAN_FLAGS)" fuzzers

fuzz:
	@scripts/fuzz.sh

selftests: user
	$(MAKE) -C selftests OUT=$(OUT)/selftests USER_OUT=$(OUT)/user

$(OUT)/guest/initramfs-%.cpio.gz: scripts/mkinitramfs.sh scripts/guest/init \
		$(CPUMGR_CACHE)/kernels/%/ready
	scripts/mkinitramfs.sh $* $@

initramfs:
	@for k in $(KERNELS); do \
		$(MAKE) -s $(OUT)/guest/initramfs-$$k.cpio.gz || exit 1; done

# What the guests need, for every kernel of KERNELS.
build-all: user selftests modules initramfs

guest: user selftests module $(OUT)/guest/initramfs-$(KVER).cpio.gz
	scripts/guest-run.sh -k $(KVER) -p $(PRESET) $(TESTS)

shell: user selftests module $(OUT)/guest/initramfs-$(KVER).cpio.gz
	scripts/guest-run.sh -s -k $(KVER) -p $(PRESET)

# The host-only unit tests, KTAP; they read their data relative to the
# checkout, so they run there whatever the caller's directory
# (make -C /path/to/cpumgr test).
test: user
	@cd $(CURDIR) && mkdir -p $(OUT)/user/test-logs && n=0 failed=0; \
	echo "TAP version 13"; \
	for t in $(OUT)/user/tests/test_*; do \
		n=$$((n + 1)); log=$(OUT)/user/test-logs/$${t##*/}.log; \
		if "$$t" >"$$log" 2>&1; then echo "ok $$n $${t##*/}"; \
		else echo "not ok $$n $${t##*/}"; sed 's/^/# /' "$$log"; \
			failed=$$((failed + 1)); fi; \
	done; \
	echo "1..$$n"; echo "# $$((n - failed)) passed, $$failed failed"; \
	[ $$failed = 0 ]

setup:
	scripts/setup.sh

check:
	@scripts/check.sh

# the repetitions, storms and fuzzing make check runs short, at length
soak:
	@CPUMGR_PLAN=selftests/plan.soak CPUMGR_NO_UNIT=1 CPUMGR_NO_SAN=1 \
		CPUMGR_NO_HOST=1 scripts/check.sh

# the host-only part of make check: unit file, man pages, completion, packages
check-host: user
	@scripts/check-host.sh

# the newest kernel, or the one KVER names on the command line
demo:
	@$(if $(filter command line,$(origin KVER)),CPUMGR_DEMO_KERNEL=$(KVER)) scripts/demo.sh

bench:
	@scripts/bench.sh

lint:
	@scripts/lint.sh

# Debian packages cpumgr and cpumgr-dkms in build/deb (debhelper, dh-dkms)
deb:
	@scripts/deb.sh

# what make deb (dpkg-buildpackage) needs: debian/control's Build-Depends,
# through apt (as root)
deb-deps:
	apt-get build-dep -y ./

# the container image of contrib/kubernetes/, build/image/cpumgr-VERSION.oci.tar
image: deb
	@scripts/image.sh

# the packages installed in a 6.1 guest, booted with systemd, upgraded to
# 6.12 through DKMS and booted again (21 to 31 minutes: TCG builds the
# module twice); make check runs the first guest's short form
check-packages: deb
	+@$(MAKE) -s modules initramfs KERNELS="6.1 6.12"
	@scripts/guest-packages.sh

MAN_PAGES := $(OUT)/doc/cpumgrctl.8 $(OUT)/doc/cpumgr.4

man: $(MAN_PAGES)

$(OUT)/doc/%: doc/%.scd
	@mkdir -p $(dir $@)
	scdoc <$< >$@

# what the packages install (scripts/install.sh): install-user the
# userspace alone (cpumgrctl, the units, man pages, completion, the inert
# OCI hook files, and -dev's library, headers and .pc), with no kernel
# tree; install adds the DKMS source, modules-load.d and modprobe.d, and
# the module of KVER/KDIR when that kernel's build tree is there, only
# into a kernel installed in DESTDIR/lib/modules
USER_BINS := $(addprefix $(OUT)/user/,cpumgrctl libcpumgr.a cpumgr.pc)

install-user: man
	$(MAKE) -C user OUT=$(OUT)/user PREFIX=$(PREFIX) $(USER_BINS)
	@DESTDIR="$(DESTDIR)" PREFIX="$(PREFIX)" scripts/install.sh user

install: install-user
	@DESTDIR="$(DESTDIR)" PREFIX="$(PREFIX)" scripts/install.sh dkms
	+@if [ -d "$(MODULE_KDIR)" ]; then \
		$(MAKE) -s module && DESTDIR="$(DESTDIR)" PREFIX="$(PREFIX)" \
		MODULE_BUILD="$(OUT)/kmod/$(MODULE_NAME)" scripts/install.sh module; \
	else \
		echo "cpumgr: no kernel build tree at $(MODULE_KDIR): cpumgr.ko not built;" \
			"DKMS builds it from the installed source (dkms install cpumgr/$$(sed -n \
			's/^#define CPUMGR_VERSION "\(.*\)"/\1/p' kmod/cpumgr.h))," \
			"or: make install KDIR=/lib/modules/$$(uname -r)/build" >&2; \
	fi

clean:
	rm -rf $(OUT)

.PHONY: all module modules user user-san fuzzers fuzz soak selftests initramfs build-all \
	guest shell test setup check check-host check-packages demo bench lint man deb deb-deps \
	image install install-user clean
