#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The host-only checks of the node integration, as KTAP (make check runs
# them after the unit tests; `make check-host` alone):
#   - contrib/systemd/cpumgr.service passes `systemd-analyze verify`;
#   - the man pages build and document every command, module parameter,
#     sysfs file and netlink operation (scripts/doc-check.sh);
#   - the bash completion offers the command table;
#   - `make deb` builds cpumgr and cpumgr-dkms, lintian-clean;
#   - `dkms build` of cpumgr-dkms's source against the cached 6.1 and
#     6.12 kernels, in a private DKMS tree.
# The sd_notify protocol is a unit test (test_sd_notify).  Needs the
# userspace built.  Ends with "# N passed, N failed".

set -uo pipefail
. "$(dirname "$0")/common.sh"

logs=$CPUMGR_OUT/check-host
num=0
failed=0

# run NAME COMMAND...: one KTAP result, the log's tail on failure
run()
{
	local name=$1 t0=$SECONDS
	shift

	num=$((num + 1))
	if "$@" >"$logs/$name.log" 2>&1; then
		echo "# time: $name $((SECONDS - t0))s"
		echo "ok $num $name"
	else
		tail -n 30 "$logs/$name.log" | sed 's/^/# /'
		echo "# time: $name $((SECONDS - t0))s"
		echo "not ok $num $name"
		failed=$((failed + 1))
	fi
}

systemd_unit()
{
	local dir=$logs/unit

	rm -rf "$dir"
	mkdir -p "$dir"
	# the unit as installed names /usr/sbin/cpumgrctl: verify needs a
	# binary there, so point it at the build's; the man pages are not
	# installed on the build host
	sed "s|/usr/sbin/cpumgrctl|$CPUMGR_OUT/user/cpumgrctl|" \
		"$CPUMGR_TOP/contrib/systemd/cpumgr.service" >"$dir/cpumgr.service"
	systemd-analyze verify --man=no "$dir/cpumgr.service" || return 1
	grep -qx 'Type=notify' "$dir/cpumgr.service"
}

man_pages()
{
	make -s -C "$CPUMGR_TOP" man &&
		"$CPUMGR_TOP/scripts/doc-check.sh" &&
		MANWIDTH=80 man -l "$CPUMGR_OUT/doc/cpumgrctl.8" | grep -q '^NAME' &&
		MANWIDTH=80 man -l "$CPUMGR_OUT/doc/cpumgr.4" | grep -q '^NAME'
}

completion()
{
	bash "$CPUMGR_TOP/scripts/tests/completion.sh" "$CPUMGR_OUT/user"
}

main()
{
	rm -rf "$logs"
	mkdir -p "$logs"
	echo "TAP version 13"
	run systemd-unit systemd_unit
	run man-pages man_pages
	run completion completion
	echo "1..$num"
	echo "# $((num - failed)) passed, $failed failed"
	[ $failed = 0 ]
}

main
