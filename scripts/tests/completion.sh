#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# contrib/bash-completion/cpumgrctl against the cpumgrctl of the build:
# commands, global options, a command's options, the values of options
# and arguments that take a few (checkpoint's verbs, oci-hook's stages,
# --enforce, --hotplug, --cpu-manager-policy, --mode), file and
# directory names where an option or argument takes one.
# Usage: scripts/tests/completion.sh CPUMGRCTL_DIR

. /usr/share/bash-completion/bash_completion
. "$(dirname "$0")/../../contrib/bash-completion/cpumgrctl"
PATH=$1:$PATH
fail=0

# expect "WORDS..." "COMPREPLY": complete the last word of WORDS
expect()
{
	local want=$2 got
	# shellcheck disable=SC2206
	COMP_WORDS=($1 "")
	[[ $1 == *' ' ]] || COMP_WORDS=($1)
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	COMP_LINE=$1
	COMP_POINT=${#COMP_LINE}
	COMPREPLY=()
	_cpumgrctl cpumgrctl "${COMP_WORDS[COMP_CWORD]}" \
		"${COMP_WORDS[COMP_CWORD - 1]}"
	got="${COMPREPLY[*]}"
	if [ "$got" != "$want" ]; then
		echo "# '$1': got '$got', want '$want'"
		fail=1
	fi
}

expect "cpumgrctl ad" "admit"
expect "cpumgrctl -j st" "status"
expect "cpumgrctl ta" "table"
expect "cpumgrctl --state-dir /tmp re" "reconcile remove reset resize release"
expect "cpumgrctl --j" "--json"
expect "cpumgrctl resize --" "--json --state-dir --help"
expect "cpumgrctl daemon --" "--once --pods --reconcile-period --state-dir --help"
expect "cpumgrctl checkpoint " "export verify import"
expect "cpumgrctl help to" "topology"
# the values an option or an argument takes, from the command tables
expect "cpumgrctl init --enforce " "off audit enforce"
expect "cpumgrctl configure --hotplug " "protect release"
expect "cpumgrctl init --cpu-manager-policy " "none static"
expect "cpumgrctl nri --mode " "decide guard follow"
expect "cpumgrctl init --integration nri" "nri-decide nri-guard nri-follow"
expect "cpumgrctl init --int" "--integration"
expect "cpumgrctl oci-hook -m " "decide guard"
expect "cpumgrctl oci-hook --verbose " "createRuntime prestart poststop"
expect "cpumgrctl oci-hook --mode guard p" "prestart poststop"
expect "cpumgrctl checkpoint -j v" "verify"
# init's options, those kubelet flags that were in no help before included
expect "cpumgrctl init --c" "--cgroup-mount --cgroup-root --config --cpu-cfs-quota --cpu-manager-policy --cpu-manager-policy-options --cpu-manager-reconcile-period"
# file names where a file goes, directories where a directory goes
tmp=$(mktemp -d)
mkdir "$tmp/sub"
touch "$tmp/kubelet.yaml"
expect "cpumgrctl init --config $tmp/k" "$tmp/kubelet.yaml"
expect "cpumgrctl admit $tmp/k" "$tmp/kubelet.yaml"
expect "cpumgrctl --state-dir $tmp/" "$tmp/sub"
expect "cpumgrctl topology --sysfs $tmp/" "$tmp/sub"
expect "cpumgrctl checkpoint verify $tmp/k" "$tmp/kubelet.yaml"
# no file names where none go
expect "cpumgrctl remove $tmp/k" ""
rm -r "$tmp"
# every command of the table is offered
expect "cpumgrctl " "help $(cpumgrctl help |
	sed -n 's/^  cpumgrctl \([a-z-]*\).*/\1/p' | tr '\n' ' ' | sed 's/ $//')"
exit $fail
