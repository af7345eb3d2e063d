#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A container's start time, from the runtime's invocation (`run -d`)
# until its program has printed its first line, per runtime: with cpumgr
# managing it (module loaded, enforce mode, `cpumgrctl oci-hook --mode
# decide` as its createRuntime hook, a Guaranteed 1-CPU container in a
# pod cgroup narrowed to the shared pool) against the same container
# with the module not loaded and no hook.  CPUMGR_BENCH_REPS starts each
# (default 10); medians, and their ratio.  Under TCG the figures compare
# runs on the same machine, not hardware.

. "$CPUMGR_TOP/selftests/runtime_lib.sh"

REPS=${CPUMGR_BENCH_REPS:-10}
RUNTIMES="runc crun"

cleanup()
{
	rt_cleanup
	# run-tests.sh unloads the module after us
	grep -q '^cpumgr ' /proc/modules || insmod "$CPUMGR_MODULE"
}
trap cleanup EXIT

rt_need runc crun

ktap_plan 2

# one start: milliseconds until the first line, on stdout
start_ms()
{
	local rt=$1 id=$2 bundle=$3 t0 t1 line

	t0=$EPOCHREALTIME
	rt_run "$rt" "$id" "$bundle" || { diag <"$RT/$id.err"; return 1; }
	while ! read -r line <"$RT/$id.out" || [ -z "$line" ]; do
		sleep 0.005
	done
	t1=$EPOCHREALTIME
	echo $(( (${t1/./} - ${t0/./}) / 1000 ))
}

# series NAME RUNTIME POD_PREFIX: REPS starts, times in $RT/NAME
series()
{
	local name=$1 rt=$2 i id ms

	: >"$RT/$name"
	for i in $(seq "$REPS"); do
		id=$name-$i
		rt_pod "pod$id" || return 1
		rt_bundle "$RT/b-$id" "$id" app "/kubepods/pod$id/$id" 1024 100000
		ms=$(start_ms "$rt" "$id" "$RT/b-$id") || return 1
		echo "$ms" >>"$RT/$name"
		rt_stop "$rt" "$id"
		rmdir "$CG/pod$id" 2>/dev/null
	done
}

median()
{
	sort -n "$1" | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

rt_rootfs || exit 1
ok=ok
# with cpumgr
if rt_init enforce && rt_template decide; then
	for rt in $RUNTIMES; do
		series "with-$rt" "$rt" || ok=not-ok
	done
else
	ok=not-ok
fi
ktap_result $ok "starts with cpumgr managing them"

# without: module not loaded, no hook
ok=ok
ctl reset --force >/dev/null 2>&1
rmmod cpumgr || ok=not-ok
rt_template decide && /usr/bin/python3 - "$RT/config.tmpl" <<-'EOF' || ok=not-ok
import json, sys
spec = json.load(open(sys.argv[1]))
del spec["hooks"]
json.dump(spec, open(sys.argv[1], "w"), indent=1)
EOF
RT_NARROW=0
for rt in $RUNTIMES; do
	[ $ok = ok ] && { series "without-$rt" "$rt" || ok=not-ok; }
done
ktap_result $ok "starts without cpumgr"

echo "# container start, runtime invoked until its program runs ($REPS starts, median ms)"
printf '# %-8s %12s %12s %8s\n' runtime with without ratio
for rt in $RUNTIMES; do
	[ -s "$RT/with-$rt" ] && [ -s "$RT/without-$rt" ] || continue
	w=$(median "$RT/with-$rt")
	wo=$(median "$RT/without-$rt")
	printf '# %-8s %12s %12s %8s\n' "$rt" "$w" "$wo" \
		"$(awk -v a="$w" -v b="$wo" 'BEGIN { printf "%.2f", b ? a / b : 0 }')"
done

ktap_exit
