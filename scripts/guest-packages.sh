#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# `make check-packages`: the packages of `make deb` on a node, in two
# guests whose root is an overlay in RAM over the host root
# (guest-run.sh -O), one KTAP document each:
#   1. 6.1: dpkg -i both packages; DKMS builds the module for the running
#      kernel; cpumgrctl init; the 6.12 kernel is installed and DKMS's
#      kernel hook builds the module for it; the root's upper layer is
#      saved; then systemd boots that root: modules-load.d loads the
#      module, cpumgr.service starts (guest/packages-boot.sh).
#   2. 6.12, the upper layer restored (the same node after the upgrade):
#      systemd boots; the module DKMS built for 6.12 loads and the daemon
#      runs.
# Each DKMS build takes 9 to 15 minutes in a TCG guest (534 and 605 s
# with the host quiet, 886 and 850 s with it busy).
# Needs make deb, the module and the initramfs (make build-all).
#
# Usage: scripts/guest-packages.sh [-1]   (-1: the first guest alone, no upgrade)

set -uo pipefail
. "$(dirname "$0")/common.sh"

run=$CPUMGR_TOP/scripts/guest-run.sh
out1=$CPUMGR_OUT/guest/packages-6.1
out2=$CPUMGR_OUT/guest/packages-6.12
status=0

if [ "${1:-}" = -1 ]; then
	"$run" -k 6.1 -O -i /lib/systemd/systemd -o "$out1" \
		-c scripts/guest/packages.sh install
	exit
fi
rm -f "$out1/upper.tar"
"$run" -k 6.1 -O -w -i /lib/systemd/systemd -o "$out1" \
	-c scripts/guest/packages.sh install 6.12 "$out1" || status=1
[ -e "$out1/upper.tar" ] || die "the 6.1 guest saved no upper layer"
"$run" -k 6.12 -O -U "$out1/upper.tar" -i /lib/systemd/systemd -o "$out2" \
	-c scripts/guest/packages.sh restored || status=1
exit $status
