# SPDX-License-Identifier: GPL-2.0
#
# Count the results of a (nested) KTAP document: every leaf result once.
# A result is a parent when the structural line before it (header, plan,
# result) is indented deeper: its children were counted already, and the
# parent itself counts only if it failed while none of its children did
# (a test that crashed or exited non-zero after its last result).
# Prints "P passed, F failed" and, before it, the skips if there were any.

function note_failure(ind,   k) {
	failed++
	for (k = 0; k < ind; k++)
		fails_below[k]++
}

{
	match($0, /^ */)
	ind = RLENGTH
	line = substr($0, ind + 1)
}

line ~ /^Bail out!/ {
	note_failure(ind)
	next
}

line ~ /^((K)?TAP version |1\.\.[0-9])/ {
	last_ind = ind
	next
}

line ~ /^(not )?ok / {
	parent = last_ind > ind
	bad = line ~ /^not ok /
	if (!parent) {
		if (bad)
			note_failure(ind)
		else if (line ~ /#[ \t]*[Ss][Kk][Ii][Pp]/)
			skipped++
		else
			passed++
	} else if (bad && !fails_below[ind]) {
		note_failure(ind)
	}
	fails_below[ind] = 0
	last_ind = ind
}

END {
	if (skipped)
		printf "# %d skipped\n", skipped
	printf "%d passed, %d failed\n", passed, failed
	exit failed != 0
}
