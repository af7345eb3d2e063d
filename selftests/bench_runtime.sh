#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A container's start time, from the runtime's invocation (`run -d`)
# until its program has printed its first line, per runtime: with cpumgr
# managing it (module loaded, enforce mode, `cpumgrctl oci-hook --mode
# decide` as its createRuntime and poststop hook, a Guaranteed 1-CPU
# container in a pod cgroup narrowed to the shared pool) against the
# same container with the module not loaded and no hook, and with a
# no-op hook (/bin/true: what running any hook costs).  The three take
# turns (the module is loaded and unloaded between them) so that a
# change of the host's load hits them alike.  CPUMGR_BENCH_REPS turns
# (default 10); medians, and the ratios.  Under TCG the figures compare
# runs on the same machine, not hardware.

# no daemon: the module is unloaded between turns
RT_DAEMON=0
. "$CPUMGR_TOP/selftests/runtime_lib.sh"

REPS=${CPUMGR_BENCH_REPS:-10}
RUNTIMES="runc crun"

cleanup()
{
	grep -q '^cpumgr ' /proc/modules || insmod "$CPUMGR_MODULE"
	rt_cleanup
}
trap cleanup EXIT

rt_need runc crun

ktap_plan 1

# one start: milliseconds until the first line, on stdout
start_ms()
{
	local rt=$1 id=$2 bundle=$3 t0 t1 line

	t0=$EPOCHREALTIME
	rt_run "$rt" "$id" "$bundle" || { diag <"$RT/$id.err" >&2; return 1; }
	while ! read -r line <"$RT/$id.out" || [ -z "$line" ]; do
		sleep 0.005
	done
	t1=$EPOCHREALTIME
	echo $(( (${t1/./} - ${t0/./}) / 1000 ))
}

# one NAME RUNTIME TEMPLATE I: one start, its time appended to $RT/NAME
one()
{
	local name=$1 rt=$2 i=$4 id=$1-$4 ms

	rt_pod "pod$id" || return 1
	RT_TMPL=$3 rt_bundle "$RT/b-$id" "$id" app "/kubepods/pod$id/$id" \
		1024 100000
	ms=$(start_ms "$rt" "$id" "$RT/b-$id") || return 1
	echo "$ms" >>"$RT/$name"
	rt_stop "$rt" "$id"
	rmdir "$CG/pod$id" 2>/dev/null
}

median()
{
	sort -n "$1" | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

ratio()
{
	awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b ? a / b : 0 }'
}

# the three templates: the hook, none, a no-op one
tmpl_edit()
{
	/usr/bin/python3 - "$RT/config.tmpl" "$1" "$2" <<-'EOF'
	import json, sys
	spec = json.load(open(sys.argv[1]))
	if sys.argv[2] == "none":
	    del spec["hooks"]
	else:
	    for stage in spec["hooks"].values():
	        for h in stage:
	            h["path"], h["args"] = "/bin/true", ["true"]
	json.dump(spec, open(sys.argv[3], "w"), indent=1)
	EOF
}

ok=ok
rt_rootfs && rt_init enforce && rt_template decide &&
	cp "$RT/config.tmpl" "$RT/with.tmpl" &&
	tmpl_edit none "$RT/without.tmpl" && tmpl_edit noop "$RT/noop.tmpl" ||
	ok=not-ok
for i in $(seq "$REPS"); do
	[ $ok = ok ] || break
	grep -q '^cpumgr ' /proc/modules || insmod "$CPUMGR_MODULE" || ok=not-ok
	# the next cpumgrctl configures the reloaded module from config.json
	RT_NARROW=1
	for rt in $RUNTIMES; do
		one "with-$rt" "$rt" "$RT/with.tmpl" "$i" || ok=not-ok
	done
	rmmod cpumgr || ok=not-ok
	RT_NARROW=0
	for rt in $RUNTIMES; do
		one "without-$rt" "$rt" "$RT/without.tmpl" "$i" || ok=not-ok
		one "noop-$rt" "$rt" "$RT/noop.tmpl" "$i" || ok=not-ok
	done
done
ktap_result $ok "$REPS turns of starts with cpumgr, without, with a no-op hook"

echo "# container start, runtime invoked until its program runs ($REPS starts each, median ms)"
printf '# %-8s %8s %8s %8s %10s %10s\n' runtime with without noop-hook \
	with/without with/noop
for rt in $RUNTIMES; do
	[ -s "$RT/with-$rt" ] && [ -s "$RT/without-$rt" ] &&
		[ -s "$RT/noop-$rt" ] || continue
	w=$(median "$RT/with-$rt")
	wo=$(median "$RT/without-$rt")
	n=$(median "$RT/noop-$rt")
	printf '# %-8s %8s %8s %8s %10s %10s\n' "$rt" "$w" "$wo" "$n" \
		"$(ratio "$w" "$wo")" "$(ratio "$w" "$n")"
done

ktap_exit
