#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The demo, inside the 2-socket SMT guest (scripts/demo.sh boots it): load
# cpumgr.ko and show what it sees next to what the kernel itself says.

step()
{
	printf '\n\033[1m$ %s\033[0m\n' "$*"
	"$@"
}

echo "== cpumgr demo: Linux $(uname -r), $(nproc) CPUs, $CPUMGR_PRESET preset"
step insmod "$CPUMGR_MODULE" || exit 1
step cat /sys/kernel/cpumgr/version
step cat /sys/kernel/cpumgr/topology
step lscpu --extended=CPU,NODE,SOCKET,CORE,CACHE,ONLINE
step rmmod cpumgr
