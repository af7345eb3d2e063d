# SPDX-License-Identifier: GPL-2.0
# Sourced by the guest scripts that install cpumgr's packages
# (guest/packages.sh on the host root, guest/node.sh on the node root):
# the kernel as its packages leave it, DKMS's result, logged commands,
# and after the boot, units and the module systemd loaded.
# After selftests/sftest_lib.sh.

krel=$(uname -r)
version=$(sed -n 's/^#define CPUMGR_VERSION "\(.*\)"/\1/p' "$CPUMGR_TOP/kmod/cpumgr.h")
logs=/var/log/cpumgr-guest

# SERIES: that cached kernel appears installed as linux-image and
# linux-headers leave one: /lib/modules/RELEASE (written through the
# overlay, e.g. by depmod) and /usr/src/linux-headers-RELEASE, which
# /lib/modules/RELEASE/build names.  Where fetch-kernel.sh's modules and
# build links lead: /lib/modules in Debian 12's packages, /usr/lib/modules
# in Debian 13's.
kernel_appears()
{
	local dir rel

	dir=$(readlink -f "$CPUMGR_CACHE/kernels/$1") || return 1
	rel=$(cat "$dir/release") || return 1
	mkdir -p /lib/modules /usr/src
	ln -sfn "$(readlink -f "$dir/modules")" "/lib/modules/$rel" &&
		ln -sfn "$(readlink -f "$dir/build")" "/usr/src/linux-headers-$rel" &&
		[ -e "/lib/modules/$rel/modules.dep" ] && [ -e "/usr/src/linux-headers-$rel/Makefile" ]
}

# RELEASE: DKMS built and installed cpumgr for it, in updates/dkms,
# and depmod knows it there.
dkms_installed()
{
	local rel=$1 path

	dkms status -m cpumgr -v "$version" -k "$rel" 2>/dev/null | grep -q ': installed' || {
		dkms status | diag
		return 1
	}
	path=$(modinfo -k "$rel" -n cpumgr) || return 1
	echo "module for $rel: $path" | diag
	case $path in
	"/lib/modules/$rel/updates/dkms/cpumgr.ko"*) ;;
	*) return 1 ;;
	esac
	[ "$(modinfo -k "$rel" -F vermagic cpumgr | cut -d' ' -f1)" = "$rel" ]
}

# LOG COMMAND...: run it with its output in $logs/LOG, the tail shown
# when it fails, and its time.
logged()
{
	local log=$logs/$1 t0=$SECONDS status=0
	shift

	"$@" >"$log" 2>&1 || status=$?
	echo "# time: $* $((SECONDS - t0))s"
	[ $status = 0 ] || tail -n 30 "$log" | diag
	return $status
}

# UNIT PROPERTY VALUE
unit_is()
{
	local value

	value=$(systemctl show -P "$2" "$1")
	[ "$value" = "$3" ] || {
		echo "$1 $2=$value, expected $3" | diag
		return 1
	}
}

from_dkms()
{
	local path

	path=$(modinfo -n cpumgr) || return 1
	echo "cpumgr: $path, srcversion $(cat /sys/module/cpumgr/srcversion)" | diag
	case $path in
	"/lib/modules/$krel/updates/dkms/cpumgr.ko"*) ;;
	*) return 1 ;;
	esac
	[ "$(modinfo -F srcversion cpumgr)" = "$(cat /sys/module/cpumgr/srcversion)" ]
}
