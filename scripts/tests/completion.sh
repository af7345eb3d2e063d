#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# contrib/bash-completion/cpumgrctl against the cpumgrctl of the build:
# commands, global options, a command's options, checkpoint's verbs.
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
expect "cpumgrctl --state-dir /tmp re" "reconcile remove reset release"
expect "cpumgrctl --j" "--json"
expect "cpumgrctl daemon --" "--once --pods --reconcile-period --state-dir --help"
expect "cpumgrctl checkpoint " "export verify import"
expect "cpumgrctl help to" "topology"
expect "cpumgrctl init --integration nri" "nri-decide nri-guard"
expect "cpumgrctl init --int" "--integration"
# every command of the table is offered
expect "cpumgrctl " "help $(cpumgrctl help |
	sed -n 's/^  cpumgrctl \([a-z-]*\).*/\1/p' | tr '\n' ' ' | sed 's/ $//')"
exit $fail
