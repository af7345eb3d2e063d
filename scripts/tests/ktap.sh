# SPDX-License-Identifier: GPL-2.0
#
# What the script tests of scripts/tests/ share, sourced: KTAP output.
#   ktap_plan N           the header and the plan
#   result STATUS NAME    "ok" when STATUS is 0, else "not ok"
#   ktap_done             the summary; its status is 0 when all passed

n=0
failed=0

ktap_plan()
{
	echo "KTAP version 1"
	echo "1..$1"
}

result()
{
	n=$((n + 1))
	if [ "$1" = 0 ]; then
		echo "ok $n $2"
	else
		echo "not ok $n $2"
		failed=$((failed + 1))
	fi
}

ktap_done()
{
	echo "# $((n - failed)) passed, $failed failed"
	[ "$failed" = 0 ]
}
