# SPDX-License-Identifier: GPL-2.0
#
# Count the results of a (nested) KTAP document: every leaf result once,
# and hold each (sub)document to its plan.
#
# Each indentation is a level.  A result is a parent when a deeper level
# closes at it: its children were counted already, and the parent itself
# counts only if it failed while none of its children did (a test that
# crashed or exited non-zero after its last result), or if it has no
# child result at all (a whole selftest skipped with "1..0 # SKIP").
#
# A level closes at its parent's result, at a new header at its own
# indentation once it has a plan or results, or at the end.  Then its
# results are held to its plan: each missing result is a failure, named
# after the parent ("NAME: results 3-5 of 1..5 missing"), more results
# than the plan is one, and so is a level with results but no plan.
# After "Bail out!" (itself a failure) the missing results are not
# counted again.
#
# Prints those findings as "# " lines, then "P passed, F failed,
# S skipped"; exits 1 when anything failed.  -v doc=NAME names the
# outermost document (default "the document").  With -v list=1, each
# failed result is named before the count ("# failed: PARENT: CHILD"),
# with the last diagnostics printed at its indentation since the result
# before it (for results missing, since the last one), so that a log's
# tail says what failed and why.

# Diagnostics kept per failure: the last ones say why it failed.
function diag_max() {
	return 8
}

# The diagnostics kept at indentation IND, each after "\001", for a
# failure's name; they are forgotten.
function diagnostics(ind,   s, i) {
	s = ""
	for (i = 1; i <= dn[ind]; i++) {
		if (i > dn[ind] - diag_max())
			s = s "\001" dl[ind, i]
		delete dl[ind, i]
	}
	dn[ind] = 0
	return s
}

# Remember a failed result named WHAT at level D, for -v list=1.
function name_failure(d, what) {
	failures[d] = failures[d] "\n" what
}

function note_failure(d, n,   k) {
	failed += n
	for (k = 1; k < d; k++)
		fails_below[k] += n
}

function open_level(ind) {
	depth++
	lind[depth] = ind
	plan[depth] = -1
	nres[depth] = 0
	bailed[depth] = 0
	fails_below[depth] = 0
	results_below[depth] = 0
	started[depth] = NR
	failures[depth] = ""
}

# Close the deepest level; NAME is its parent's description, or "".
function close_level(name,   d, what, n, i, parts, msg) {
	d = depth
	what = name != "" ? name : (d == 1 ? doc : "the KTAP at line " started[d])
	# the parent's name goes before its children's failures
	if (d > 1 && failures[d] != "") {
		n = split(substr(failures[d], 2), parts, "\n")
		for (i = 1; i <= n; i++)
			name_failure(d - 1, what ": " parts[i])
	}
	msg = ""
	if (plan[d] < 0) {
		if (nres[d] > 0) {
			note_failure(d, 1)
			msg = sprintf("%s: %d result(s) and no plan", what, nres[d])
		}
	} else if (nres[d] < plan[d] && !bailed[d]) {
		note_failure(d, plan[d] - nres[d])
		if (nres[d] + 1 == plan[d])
			msg = sprintf("%s: result %d of 1..%d missing", what,
				plan[d], plan[d])
		else
			msg = sprintf("%s: results %d-%d of 1..%d missing", what,
				nres[d] + 1, plan[d], plan[d])
	} else if (nres[d] > plan[d]) {
		note_failure(d, 1)
		msg = sprintf("%s: %d results for a plan of 1..%d", what,
			nres[d], plan[d])
	}
	if (msg != "") {
		printf "# %s\n", msg
		# a crash's or a timeout's last words
		name_failure(d > 1 ? d - 1 : d,
			     msg (list ? diagnostics(lind[d]) : ""))
	}
	depth--
}

# The description of result line L: after the number, before a directive.
function description(l) {
	sub(/^(not )?ok [0-9]* ?/, "", l)
	sub(/[ \t]*#.*/, "", l)
	return l
}

# The levels deeper than IND close; the level at IND is open after.
function enter(ind, name) {
	while (depth > 0 && lind[depth] > ind)
		close_level(name)
	if (depth == 0 || lind[depth] < ind)
		open_level(ind)
}

BEGIN {
	if (doc == "")
		doc = "the document"
}

{
	match($0, /^ */)
	ind = RLENGTH
	line = substr($0, ind + 1)
}

line ~ /^Bail out!/ {
	enter(ind, "")
	note_failure(depth, 1)
	name_failure(depth, line)
	bailed[depth] = 1
	next
}

line ~ /^(K)?TAP version / {
	enter(ind, "")
	# a new document's failures owe nothing to the one before
	if (list)
		diagnostics(ind)
	if (plan[depth] >= 0 || nres[depth] > 0) {
		close_level("")
		open_level(ind)
	}
	next
}

line ~ /^1\.\.[0-9]/ {
	enter(ind, "")
	if (plan[depth] >= 0) {
		note_failure(depth, 1)
		printf "# the KTAP at line %d: a second plan at line %d\n",
			started[depth], NR
	}
	plan[depth] = substr(line, 4) + 0
	next
}

# a diagnostic, kept for the next result at its indentation
list && line ~ /^#/ {
	dl[ind, ++dn[ind]] = line
	next
}

line ~ /^(not )?ok / {
	enter(ind, description(line))
	why = list ? diagnostics(ind) : ""
	# a parent with results or failures below is counted through them
	parent = results_below[depth] || fails_below[depth]
	bad = line ~ /^not ok /
	if (!parent) {
		if (bad) {
			note_failure(depth, 1)
			name_failure(depth, description(line) why)
		}
		else if (line ~ /#[ \t]*[Ss][Kk][Ii][Pp]/)
			skipped++
		else
			passed++
	} else if (bad && !fails_below[depth]) {
		note_failure(depth, 1)
		name_failure(depth, description(line) why)
	}
	fails_below[depth] = 0
	results_below[depth] = 0
	nres[depth]++
	for (k = 1; k < depth; k++)
		results_below[k]++
}

END {
	while (depth > 0) {
		if (depth == 1 && list && failures[1] != "") {
			n = split(substr(failures[1], 2), parts, "\n")
			for (i = 1; i <= n; i++) {
				m = split(parts[i], lines, "\001")
				printf "# failed: %s\n", lines[1]
				for (j = 2; j <= m; j++)
					printf "#   %s\n", lines[j]
			}
		}
		close_level("")
	}
	printf "%d passed, %d failed, %d skipped\n", passed, failed, skipped
	exit failed != 0
}
