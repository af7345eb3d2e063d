#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The man pages against what they document: every command of
# `cpumgrctl help` in cpumgrctl(8); every module parameter, sysfs file
# and netlink operation in cpumgr(4).  Prints what is missing; exits 1
# then.
#
# Usage: scripts/doc-check.sh [CPUMGRCTL]   (default build/user/cpumgrctl)

# word splitting wanted: one name per argument to need()
# shellcheck disable=SC2046,SC2086
set -uo pipefail
. "$(dirname "$0")/common.sh"

ctl=${1:-$CPUMGR_OUT/user/cpumgrctl}
cd "$CPUMGR_TOP" || exit 1
status=0

# need PAGE WHAT NAME...: each NAME as a bold term (*NAME*) in PAGE
need()
{
	local page=$1 what=$2 name
	shift 2

	for name in "$@"; do
		if ! grep -qF -- "*$name*" "doc/$page.scd"; then
			echo "doc/$page.scd: $what '$name' is not documented"
			status=1
		fi
	done
}

cmds=$("$ctl" help | sed -n 's/^  cpumgrctl \([a-z][a-z-]*\).*/\1/p')
[ -n "$cmds" ] || { echo "$ctl help: no commands"; exit 1; }
need cpumgrctl.8 command $cmds
need cpumgr.4 "module parameter" \
	$(sed -n 's/^module_param[_a-z]*(\([a-z_]*\),.*/\1/p' kmod/*.c)
need cpumgr.4 "sysfs file" \
	$(sed -n 's/.*__ATTR_RO[_A-Z]*(\([a-z_]*\).*/\1/p; s/.*BIN_ATTR_RO(\([a-z_]*\),.*/\1/p' \
		kmod/cpumgr_sysfs.c)
need cpumgr.4 "netlink operation" \
	$(python3 -c 'import sys, yaml
for o in yaml.safe_load(open(sys.argv[1]))["operations"]["list"]:
    if o["name"] != "unspec": print(o["name"])' include/uapi/linux/cpumgr.yaml)
exit $status
