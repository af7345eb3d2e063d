# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Sourced by enforce_matrix.sh: how one row runs (its fields are described
# at the top of enforce_matrix.sh).  Not a selftest itself.

# The action, in a subshell whose pid is the actor's.
do_action()
{
	local a=$1 f v

	echo "$BASHPID" >"$WORK/pid"
	case $a in
	C*)	f=$T_DIR/cpuset.cpus; cl_set "${a#C}"; v=$CL ;;
	X*)	f=$T_DIR/cpuset.cpus.exclusive; cl_set "${a#X}"; v=$CL ;;
	P*)	f=$T_DIR/cpuset.cpus.partition; v=${a#P} ;;
	T)	f=$T_DIR/$PROCS; v=$SLEEPER ;;
	F)	exec "$CLONE" "$T_DIR" ;;
	O*)	v=${a#O}; f=$CPUDIR/cpu${v%=*}/online; v=${v#*=} ;;
	H*)	v=${a#H}; f=$CPUDIR/cpu${v%=*}/hotplug/target; v=${v#*=}
		if [ "$v" = on ]; then v=$ONLINE_STATE; else v=0; fi ;;
	S*)	f=$CPUDIR/smt/control; v=${a#S} ;;
	U*)	f=$T_DIR/cgroup.subtree_control; v=${a#U} ;;
	*)	echo "unknown action $a"; return 1 ;;
	esac
	echo "$v" >"$f"
}

# ERRNO= the errno name of a failed write, from its message.
errno_of()
{
	case $1 in
	"") ERRNO=0 ;;
	*"Device or resource busy"*) ERRNO=EBUSY ;;
	*"Invalid argument"*) ERRNO=EINVAL ;;
	*"No space left on device"*) ERRNO=ENOSPC ;;
	*"Permission denied"*) ERRNO=EACCES ;;
	*"Operation not supported"*) ERRNO=EOPNOTSUPP ;;
	*) ERRNO="other($1)" ;;
	esac
}

# Insertion sort of the words of TOKENS, in place.
sort_tokens()
{
	local i j t

	for ((i = 1; i < ${#TOKENS[@]}; i++)); do
		t=${TOKENS[i]}
		for ((j = i - 1; j >= 0; j--)); do
			[[ ${TOKENS[j]} > $t ]] || break
			TOKENS[j + 1]=${TOKENS[j]}
		done
		TOKENS[j + 1]=$t
	done
}

# TOKENS= the events between marker lines $1 and $2, sorted.  What
# violations and refused offlines say of the actor and the cgroup is
# checked against $3 (pid), $4 (comm), $5 (cgroup path).
event_tokens()
{
	local from=$1 to=$2 line
	local -a w lines

	TOKENS=()
	((to - from > 1)) || return 0
	mapfile -t -s "$from" -n $((to - from - 1)) lines <"$EVF"
	for line in "${lines[@]}"; do
		read -r -a w <<<"$line"
		case ${w[0]} in
		violation)
			# violation generation G kind K verdict V cgroup P pid N
			#	comm C file F cpus L
			cl_set "${w[16]/(none)/}"
			TOKENS+=("${w[4]}:${w[6]}:${w[14]}:$CL")
			[ "${w[8]}" = "$5" ] || TOKENS+=("cgroup:${w[8]}!=$5")
			[ "${w[10]}" = "$3" ] || TOKENS+=("pid:${w[10]}!=$3")
			[ "${w[12]}" = "$4" ] || TOKENS+=("comm:${w[12]}!=$4")
			;;
		offline-refused)
			# offline-refused generation G cpu C pid N comm C
			TOKENS+=("${w[0]}:${w[4]}")
			[ "${w[6]}" = "$3" ] || TOKENS+=("pid:${w[6]}!=$3")
			;;
		cpu-offline|cpu-online)
			TOKENS+=("${w[0]}:${w[4]}")
			;;
		degraded)
			# degraded generation G cpu C POD CONTAINER cpus L
			cl_set "${w[8]/(none)/}"
			TOKENS+=("${w[0]}:${w[4]}:$CL")
			;;
		*)
			TOKENS+=("${w[0]}")
			;;
		esac
	done
	sort_tokens
}

# TOKENS= the events column, expanded and sorted.
expected_tokens()
{
	local tok c

	TOKENS=()
	[ "$1" = . ] && return 0
	for tok in ${1//,/ }; do
		case $tok in
		*:SMT)
			for c in $SMT; do TOKENS+=("${tok%:SMT}:$c"); done
			;;
		*:*:*:*|degraded:*:*)
			cl_set "${tok##*:}"
			TOKENS+=("${tok%:*}:$CL")
			;;
		*)
			TOKENS+=("$tok")
			;;
		esac
	done
	sort_tokens
}

# One condition of the checks column; prints what is wrong.
check_one()
{
	local key=${1%%=*} want=${1#*=} got='' f

	case $key in
	eff:*)		f=$BASE/${key#eff:}/$EFF_FILE ;;
	on:*)		# The online list: cpuN/online does not follow
			# hotplug/target.
			rd got "$CPUDIR/online"
			cl_words "$got"
			got=0
			[[ " $CL " == *" ${key#on:} "* ]] && got=1 ;;
	cpus:*)		f=$SYSFS/pods/${key#cpus:}/cpus ;;
	flags:*)	f=$SYSFS/pods/${key#flags:}/flags ;;
	shared)		f=$SYSFS/shared_cpus ;;
	excl)		f=$SYSFS/exclusive_cpus ;;
	smt)		f=$CPUDIR/smt/control ;;
	part)		f=$T_DIR/cpuset.cpus.partition ;;
	allowed)	got=$(allowed "$BUSY")
			# seen once on 6.1 (v1 group): say why it is empty
			[ -n "$got" ] || echo "# busy task '$BUSY': $(head -c 120 "/proc/$BUSY/stat" 2>&1)" ;;
	pin)		got="$(allowed "$BUSY")/$(last_cpu "$BUSY")"
			want="$want/$want" ;;
	moved)		got=$(allowed "$BUSY")
			cl_words "$got"
			if [ -n "$got" ] && [ "$(last_cpu "$BUSY")" != "$want" ] &&
			   [[ " $CL " != *" $want "* ]]; then
				return 0
			fi
			echo "moved: the busy task ($got) is still on $want"
			return 0 ;;
	*)		echo "unknown check $1"; return 0 ;;
	esac
	[ -z "$f" ] || rd got "$f" || got="(unreadable)"
	[ "$want" = - ] && want=
	case $key in
	eff:*|cpus:*|shared|excl|allowed) cl_set "$want"; want=$CL ;;
	part) got=${got%% *} ;;
	esac
	[ "$got" = "$want" ] || echo "$1: got '$got'"
}

# The cgroup a target names: "." is $BASE, "../x" a sibling of it.
target_dir()
{
	case $1 in
	-)	T_DIR= ;;
	.)	T_DIR=$BASE ;;
	../*)	T_DIR=${BASE%/*}/${1#../} ;;
	*)	T_DIR=$BASE/$1 ;;
	esac
}

# Run steps (pre, post) in this shell; false with their output in STEPS.
steps()
{
	[ "$1" = . ] && return 0
	local out

	eval "$1" >"$WORK/steps.out" 2>&1 && return 0
	mapfile -t out <"$WORK/steps.out"
	STEPS="${out[*]}"
	return 1
}

# run_row LINE: one row, one KTAP line.
run_row()
{
	local name mode target pre action errno eff counters events checks post
	local bad=() got want v0 o0 m0 pid comm err c v t0=$SECONDS

	IFS='|' read -r name mode target pre action errno eff counters events \
		checks post <<<"$1"
	for v in name mode target pre action errno eff counters events checks post; do
		read -r "$v" <<<"${!v}"
	done
	if [ -z "$SMT" ] && { [ "${action:0:1}" = S ] || [[ $pre == *smt* ]]; }; then
		ktap ok "$name # SKIP no SMT control"
		return
	fi
	if { [ "${action:0:1}" = X ] || [[ $pre == *xw* ]]; } &&
	   [ ! -e "$BASE/cpuset.cpus.exclusive" ]; then
		ktap ok "$name # SKIP no cpuset.cpus.exclusive in this kernel"
		return
	fi
	target_dir "$target"

	# A new start marker unless nothing happened since the last one.
	if [ "$mode" != "$CUR_MODE" ] || [ "$pre" != . ] || [ -n "$DIRTY" ]; then
		set_mode "$mode" || bad+=("mode $mode not set")
		steps "$pre" || bad+=("pre failed: $STEPS")
		ev_mark || bad+=("no start marker")
	fi
	m0=$MARK
	rd v0 "$SYSFS/violations"
	rd o0 "$SYSFS/offlines_refused"

	(do_action "$action") 2>"$WORK/err"
	err=
	while IFS= read -r c; do err=$c; done <"$WORK/err"
	rd pid "$WORK/pid"
	errno_of "$err"
	[ "$ERRNO" = "$errno" ] || bad+=("errno: got $ERRNO, want $errno")

	rd got "$SYSFS/violations"
	rd c "$SYSFS/offlines_refused"
	got="$((got - v0)) $((c - o0))"
	[ "$got" = "$counters" ] || bad+=("counters: got '$got', want '$counters'")
	if [ "$eff" != . ]; then
		rd got "$T_DIR/$EFF_FILE" || got="(unreadable)"
		cl_set "$eff"
		[ "$got" = "$CL" ] || bad+=("effective: got '$got', want '$CL'")
	fi
	if [ "$checks" != . ]; then
		for c in ${checks//,/ }; do
			got=$(check_one "$c")
			[ -z "$got" ] || bad+=("$got")
		done
	fi

	ev_mark || bad+=("no end marker")
	comm=bash
	[ "$action" = F ] && { comm=${CLONE##*/}; comm=${comm:0:15}; }
	event_tokens "$m0" "$MARK" "$pid" "$comm" "${T_DIR#"$HROOT"}"
	got="${TOKENS[*]}"
	expected_tokens "$events"
	want="${TOKENS[*]}"
	if [ "$got" != "$want" ]; then
		bad+=("events: got '$got', want '$want'")
	fi

	DIRTY=
	if [ "$post" != . ]; then
		DIRTY=1
		steps "$post" || echo "# $name: clean-up failed: $STEPS"
	fi
	[ -z "${MATRIX_TIME:-}" ] || echo "# $name: $((SECONDS - t0)) s"
	if [ ${#bad[@]} = 0 ]; then
		ktap ok "$name"
	else
		printf '# %s\n' "$name: $action on $target" "${bad[@]}"
		ktap "not ok" "$name"
	fi
}
