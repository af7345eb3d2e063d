#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# `make demo`: set up what is missing, build, boot the 2-socket SMT guest
# on the newest kernel (Debian 13's 7.3) and run scripts/guest/demo.sh
# in it.
#   CPUMGR_DEMO_KERNEL  kernel (default 7.3; make demo KVER=6.1 sets it)
#   CPUMGR_DEMO_PRESET  topology preset (default smt8)

set -euo pipefail
. "$(dirname "$0")/common.sh"

kernel=${CPUMGR_DEMO_KERNEL:-7.3}
preset=${CPUMGR_DEMO_PRESET:-smt8}

"$CPUMGR_TOP/scripts/setup.sh"
[ "$kernel" != debug ] || "$CPUMGR_TOP/scripts/build-debug-kernel.sh"
msg "cpumgr: building"
make -s -C "$CPUMGR_TOP" build-all KERNELS="$kernel" >/dev/null
exec "$CPUMGR_TOP/scripts/guest-run.sh" -k "$kernel" -p "$preset" \
	-o "$CPUMGR_OUT/demo" -c scripts/guest/demo.sh
