#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The man pages and the operator's guide against what they document:
# every command of `cpumgrctl help` in cpumgrctl(8), its OPTIONS and
# EXAMPLES exactly as the command tables make them (`cpumgrctl help
# --scd`), every option the page names one of a table's; the guide's
# synopses and option reference exactly as the tables make them
# (`cpumgrctl help --md`, scripts/guide_check.py), every option it names
# one of a table's; every module parameter, sysfs file and netlink
# operation in cpumgr(4); every JSON name the commands print in
# doc/json-names.md.  Prints what is missing or differs; exits 1 then.
#
# Usage: scripts/doc-check.sh [--fix] [CPUMGRCTL]
#   (default build/user/cpumgrctl; --fix rewrites the generated parts of
#   doc/cpumgrctl.8.scd and doc/operator-guide.md instead of failing on
#   them)

# word splitting wanted: one name per argument to need()
# shellcheck disable=SC2046,SC2086
set -uo pipefail
. "$(dirname "$0")/common.sh"

fix=
if [ "${1:-}" = --fix ]; then
	fix=1
	shift
fi
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

# the generated part of cpumgrctl(8): between its BEGIN and END comments
page=doc/cpumgrctl.8.scd
gen=$(mktemp)
if ! "$ctl" help --scd >"$gen"; then
	echo "$ctl help --scd failed"
	status=1
elif [ -n "$fix" ]; then
	awk -v gen="$gen" '
		/^; END of what `cpumgrctl help --scd` made/ { skip = 0 }
		!skip { print }
		/^; BEGIN: made by `cpumgrctl help --scd`/ { begin = 1 }
		begin && /^; scripts\/doc-check.sh fails/ {
			print ""
			while ((getline line < gen) > 0) print line
			print ""
			skip = 1; begin = 0
		}' "$page" >"$page.new" && mv "$page.new" "$page"
elif ! diff -u <(sed -n '/^; BEGIN: made by/,/^; END of what/p' "$page" |
		sed '1,2d;$d' | sed '1d;$d') "$gen" >"$gen.diff"; then
	echo "$page: OPTIONS/EXAMPLES differ from the command tables (scripts/doc-check.sh --fix):"
	cat "$gen.diff"
	status=1
fi
rm -f "$gen" "$gen.diff"

# the operator's guide: its synopses and option reference are the
# tables' (help --md), every option it names on a cpumgrctl line is one
# of a table's
python3 scripts/guide_check.py "$ctl" doc/operator-guide.md ${fix:+--fix} || status=1

# every option the page names is one of some command's table
opts=$(for c in $cmds; do "$ctl" help --complete "$c"; done |
	awk '$1 == "opt" { print $2 }' | sort -u)
for o in $(grep -o -- '\*--[a-z][a-z-]*\*' "$page" | tr -d '*' | sort -u); do
	case $o in --help|--version|--json|--state-dir) continue ;; esac
	if ! grep -qx -- "$o" <<<"$opts"; then
		echo "$page: option '$o' is in no command's table"
		status=1
	fi
done
# every JSON member a command prints or plan reads is in doc/json-names.md
# (ctl_integration.c and ctl_containerd.c read OCI hook files and
# runtime specs, whose names are oci-hooks(5)'s and the OCI spec's)
python3 scripts/json-names-check.py doc/json-names.md \
	$(ls user/cpumgrctl/*.c | grep -Ev '/ctl_(integration|containerd)\.c$') \
	user/lib/node/node_admit.c user/lib/host/plan.c \
	user/lib/host/topology_json.c || status=1
need cpumgr.4 "module parameter" \
	$(sed -n 's/^module_param[_a-z]*(\([a-z_]*\),.*/\1/p' kmod/*.c)
need cpumgr.4 "sysfs file" \
	$(sed -n 's/.*__ATTR_RO[_A-Z]*(\([a-z_]*\).*/\1/p; s/.*BIN_ATTR_RO(\([a-z_]*\),.*/\1/p' \
		kmod/cpumgr_sysfs.c kmod/cpumgr_pods.c)
need cpumgr.4 "netlink operation" \
	$(python3 -c 'import sys, yaml
for o in yaml.safe_load(open(sys.argv[1]))["operations"]["list"]:
    if o["name"] != "unspec": print(o["name"])' include/uapi/linux/cpumgr.yaml)
exit $status
