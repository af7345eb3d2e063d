#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The host-only checks of the node integration, as KTAP (make check runs
# them after the unit tests; `make check-host` alone):
#   - contrib/systemd/cpumgr.service and cpumgr-nri.service pass
#     `systemd-analyze verify`;
#   - the man pages build and document every command, module parameter,
#     sysfs file and netlink operation (scripts/doc-check.sh);
#   - the bash completion offers the command table;
#   - `make deb` builds cpumgr and cpumgr-dkms, lintian-clean;
#   - `dkms build` of cpumgr-dkms's source against the cached 6.1 and
#     6.12 kernels, in a private DKMS tree, kept as binaries-only DKMS
#     tarballs (build/check-host/dkms-binaries-SERIES.tar.gz);
#   - cpumgr-dkms's dkms.conf builds on the series of the module's table
#     only, and on kernels with what it needs: DKMS skips (exit 77)
#     another series, or a kernel without cpusets;
#   - `make image` builds the DaemonSet's image, an OCI archive whose
#     entrypoint is cpumgrctl, and contrib/kubernetes/ passes an offline
#     `kubectl create --dry-run=client` (scripts/manifest-check.sh);
#   - `make install` into a DESTDIR installs what the packages hold.
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
	local dir=$logs/unit u

	rm -rf "$dir"
	mkdir -p "$dir"
	# the unit as installed names /usr/sbin/cpumgrctl: verify needs a
	# binary there, so point it at the build's; the man pages are not
	# installed on the build host
	for u in cpumgr.service cpumgr-nri.service; do
		sed "s|/usr/sbin/cpumgrctl|$CPUMGR_OUT/user/cpumgrctl|" \
			"$CPUMGR_TOP/contrib/systemd/$u" >"$dir/$u"
		systemd-analyze verify --man=no "$dir/$u" || return 1
	done
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

packages()
{
	"$CPUMGR_TOP/scripts/deb.sh" || return 1
	cat "$CPUMGR_OUT/deb/lintian.txt"
	# what each package must hold
	dpkg-deb -c "$CPUMGR_OUT"/deb/cpumgr_*.deb >"$logs/cpumgr.list" &&
	dpkg-deb -c "$CPUMGR_OUT"/deb/cpumgr-dkms_*.deb >"$logs/cpumgr-dkms.list" || return 1
	local f status=0
	for f in ./usr/sbin/cpumgrctl ./lib/systemd/system/cpumgr.service \
		./lib/systemd/system/cpumgr-nri.service \
		./usr/lib/x86_64-linux-gnu/libcpumgr.a \
		./usr/lib/x86_64-linux-gnu/pkgconfig/cpumgr.pc \
		./usr/include/cpumgr/cpumgr_nl.h ./usr/include/cpumgr/linux/cpumgr.h \
		./usr/share/man/man8/cpumgrctl.8.gz ./usr/share/man/man4/cpumgr.4.gz \
		./usr/share/bash-completion/completions/cpumgrctl; do
		grep -q " $f\$" "$logs/cpumgr.list" || { echo "cpumgr lacks $f"; status=1; }
	done
	for f in dkms.conf kmod/Kbuild kmod/cpumgr_main.c include/uapi/linux/cpumgr.h; do
		grep -q " ./usr/src/cpumgr-$version/$f\$" "$logs/cpumgr-dkms.list" ||
			{ echo "cpumgr-dkms lacks $f"; status=1; }
	done
	for f in ./usr/lib/modules-load.d/cpumgr.conf ./etc/modprobe.d/cpumgr.conf; do
		grep -q " $f\$" "$logs/cpumgr-dkms.list" || { echo "cpumgr-dkms lacks $f"; status=1; }
	done
	[ $status = 0 ] && pc_consumer
}

# A program built against the packaged library alone (unpacked, with its
# pkg-config file's prefix pointed there): header, cpumgr.pc, libcpumgr.a.
pc_consumer()
{
	local root=$logs/cpumgr-root

	rm -rf "$root"
	dpkg-deb -x "$CPUMGR_OUT"/deb/cpumgr_*.deb "$root" || return 1
	cat >"$logs/consumer.c" <<-'EOC'
	#include <stdio.h>
	#include <cpumgr_nl.h>

	/* names need no kernel; opening the family links the netlink code */
	int main(int argc, char **argv)
	{
		if (argc > 1)
			cpumgr_nl_close(cpumgr_nl_open(NULL, NULL));
		printf("%s %s\n", cpumgr_policy_name(CPUMGR_POLICY_STATIC),
		       cpumgr_enforce_name(CPUMGR_ENFORCE_AUDIT));
		return 0;
	}
	EOC
	# shellcheck disable=SC2046
	cc -o "$logs/consumer" "$logs/consumer.c" $(PKG_CONFIG_PATH=$root/usr/lib/x86_64-linux-gnu/pkgconfig \
		pkg-config --define-variable=prefix="$root/usr" --cflags --libs --static cpumgr) &&
		[ "$("$logs/consumer")" = "static audit" ]
}

# dkms add + build of the packaged source for one cached kernel, in a
# private DKMS tree: nothing under /var/lib/dkms or /lib/modules, and no
# signing (sign_file points nowhere, so no MOK key is made).
dkms_build()
{
	local series=$1 tree=$logs/dkms krel

	krel=$(cat "$CPUMGR_CACHE/kernels/$series/release") || return 1
	if [ ! -e "$tree/root" ]; then
		mkdir -p "$tree/root" "$tree/dkms" "$tree/install"
		dpkg-deb -x "$CPUMGR_OUT"/deb/cpumgr-dkms_*.deb "$tree/root" &&
		sign_file=/nonexistent dkms add -m cpumgr -v "$version" \
			--dkmstree "$tree/dkms" --sourcetree "$tree/root/usr/src" \
			--installtree "$tree/install" || return 1
	fi
	sign_file=/nonexistent dkms build -j 1 -m cpumgr -v "$version" -k "$krel" \
		--kernelsourcedir "$CPUMGR_CACHE/kernels/$series/build" \
		--dkmstree "$tree/dkms" --sourcetree "$tree/root/usr/src" \
		--installtree "$tree/install" || return 1
	[ "$(modinfo -F vermagic "$tree/dkms/cpumgr/$version/$krel/x86_64/module/cpumgr.ko" |
		cut -d' ' -f1)" = "$krel" ] || return 1
	# the build as DKMS ships prebuilt modules, for make check's packages
	# guest (scripts/guest/packages.sh prebuilt)
	sign_file=/nonexistent dkms mktarball -m cpumgr -v "$version" -k "$krel" \
		--binaries-only --dkmstree "$tree/dkms" --sourcetree "$tree/root/usr/src" \
		--installtree "$tree/install" --archive "$logs/dkms-binaries-$series.tar.gz"
}

# BUILD_EXCLUSIVE_KERNEL matches the releases of the series of
# kmod/cpumgr_series.c's table, any flavour, and no other series;
# BUILD_EXCLUSIVE_CONFIG needs cpusets and kprobes, which every cached
# Debian kernel has; and DKMS itself skips (77) a kernel of another
# series, and one without CONFIG_CPUSETS, rather than fail the build.
dkms_exclusive()
{
	local tree=$logs/dkms-exclusive src conf re cfg names s rel k
	local major minor

	rm -rf "$tree"
	src=$tree/src/cpumgr-$version
	mkdir -p "$src/kmod" "$src/include/uapi/linux" "$tree/dkms" "$tree/fake"
	conf=$src/dkms.conf
	sed "s/#MODULE_VERSION#/$version/" "$CPUMGR_TOP/debian/cpumgr-dkms.dkms" >"$conf"
	cp "$CPUMGR_TOP"/kmod/Kbuild "$CPUMGR_TOP"/kmod/Makefile "$CPUMGR_TOP"/kmod/*.[ch] "$src/kmod/"
	cp "$CPUMGR_TOP"/include/uapi/linux/cpumgr.h "$src/include/uapi/linux/"
	re=$(set +u && . "$conf" && echo "${BUILD_EXCLUSIVE_KERNEL:-}")
	cfg=$(set +u && . "$conf" && echo "${BUILD_EXCLUSIVE_CONFIG:-}")
	[ -n "$re" ] || { echo "no BUILD_EXCLUSIVE_KERNEL"; return 1; }
	names=$(sed -n 's/^[[:space:]]*\.name = "\([0-9.]*\)",$/\1/p' \
		"$CPUMGR_TOP/kmod/cpumgr_series.c")
	[ -n "$names" ] || { echo "no series in kmod/cpumgr_series.c"; return 1; }
	for s in $names; do
		major=${s%.*} minor=${s#*.}
		for rel in "$s.0-56-amd64" "$s.117+deb12-rt-amd64" "$s.4+deb13-amd64"; do
			[[ $rel =~ $re ]] || { echo "$rel: not built"; return 1; }
		done
		for rel in "$major.$((minor + 1)).0-1-amd64" "$major.$((minor - 1)).9-amd64" \
			   "${s}0.1+deb13-amd64" "1$s.2-amd64"; do
			[[ $rel =~ $re ]] && { echo "$rel: built"; return 1; }
		done
		echo "series $s: built, its neighbours skipped"
	done
	for s in CONFIG_CPUSETS CONFIG_KPROBES; do
		[[ " $cfg " == *" $s "* ]] || { echo "BUILD_EXCLUSIVE_CONFIG lacks $s"; return 1; }
	done
	for k in $CPUMGR_DEBIAN_KERNELS; do
		[ -e "$CPUMGR_CACHE/kernels/$k/build/.config" ] || continue
		for s in $cfg; do
			grep -q "^$s=[ym]" "$CPUMGR_CACHE/kernels/$k/build/.config" ||
				{ echo "kernel $k lacks $s"; return 1; }
		done
	done
	sign_file=/nonexistent dkms add -m cpumgr -v "$version" \
		--dkmstree "$tree/dkms" --sourcetree "$tree/src" || return 1
	# a series the table has not, and a known one without cpusets
	grep -v '^CONFIG_CPUSETS=' "$CPUMGR_CACHE/kernels/6.12/build/.config" \
		>"$tree/fake/.config" || return 1
	for k in "7.2.12+deb13-amd64 $CPUMGR_CACHE/kernels/6.12/build" \
		 "6.12.999+deb12-amd64 $tree/fake"; do
		set -- $k
		sign_file=/nonexistent dkms build -m cpumgr -v "$version" -k "$1" \
			--kernelsourcedir "$2" --dkmstree "$tree/dkms" \
			--sourcetree "$tree/src"
		s=$?
		echo "dkms build -k $1: exit $s"
		[ $s = 77 ] || return 1
	done
}

# The OCI archive names localhost/cpumgr:VERSION, and its configuration
# runs cpumgrctl (make image also ran it in the image's root).
image()
{
	local archive

	archive=$("$CPUMGR_TOP/scripts/image.sh") || return 1
	python3 - "$archive" "$version" <<-'P'
	import json, sys, tarfile
	archive, version = sys.argv[1:]
	t = tarfile.open(archive)
	blob = lambda d: json.load(t.extractfile("blobs/" + d.replace(":", "/")))
	index = json.load(t.extractfile("index.json"))
	m = index["manifests"][0]
	assert m["annotations"]["org.opencontainers.image.ref.name"] == "localhost/cpumgr:" + version, m
	config = blob(blob(m["digest"])["config"]["digest"])["config"]
	assert config["Entrypoint"] == ["/usr/sbin/cpumgrctl"], config
	print(archive, "localhost/cpumgr:" + version, config["Entrypoint"], config["Cmd"])
	P
}

# make install (PREFIX=/usr, the units where Debian's go) installs the
# packages' files, less their doc directories; the .pc and dkms.conf as
# theirs.  The module goes to a kernel installed in DESTDIR alone, and
# depmod runs there.
install_like_packages()
{
	local d=$logs/install k=$logs/install-kernel krel f

	rm -rf "$d" "$k"
	make -s -C "$CPUMGR_TOP" install DESTDIR="$d" PREFIX=/usr \
		UNITDIR=/lib/systemd/system || return 1
	(cd "$d" && find . ! -type d | sort) >"$logs/install.list"
	cat "$logs/cpumgr.list" "$logs/cpumgr-dkms.list" | awk '$1 !~ /^d/ { print $6 }' |
		grep -v '^\./usr/share/\(doc\|lintian\)/' | sort >"$logs/packages.list"
	diff -u "$logs/packages.list" "$logs/install.list" || return 1
	dpkg-deb -x "$CPUMGR_OUT"/deb/cpumgr-dkms_*.deb "$logs/cpumgr-dkms-root" || return 1
	for f in usr/lib/x86_64-linux-gnu/pkgconfig/cpumgr.pc; do
		cmp "$d/$f" "$logs/cpumgr-root/$f" || return 1
	done
	cmp "$d/usr/src/cpumgr-$version/dkms.conf" \
		"$logs/cpumgr-dkms-root/usr/src/cpumgr-$version/dkms.conf" || return 1
	# a kernel installed in the DESTDIR: the module for it, depmod
	krel=$(cat "$CPUMGR_CACHE/kernels/6.1/release") || return 1
	mkdir -p "$k/lib/modules/$krel"
	cp "$CPUMGR_CACHE/kernels/6.1/modules"/modules.{order,builtin,builtin.modinfo} \
		"$k/lib/modules/$krel/" || return 1
	make -s -C "$CPUMGR_TOP" install KVER=6.1 DESTDIR="$k" || return 1
	grep -q "^updates/cpumgr.ko:" "$k/lib/modules/$krel/modules.dep" &&
		[ "$(ls "$k/lib/modules")" = "$krel" ] && [ ! -e "$d/lib/modules" ]
}

main()
{
	rm -rf "$logs"
	mkdir -p "$logs"
	echo "TAP version 13"
	run systemd-unit systemd_unit
	run man-pages man_pages
	run completion completion
	version=$(sed -n 's/^#define CPUMGR_VERSION "\(.*\)"/\1/p' "$CPUMGR_TOP/kmod/cpumgr.h")
	run packages packages
	run dkms-6.1 dkms_build 6.1
	run dkms-6.12 dkms_build 6.12
	run dkms-exclusive dkms_exclusive
	run install install_like_packages
	run image image
	run kubernetes-manifest "$CPUMGR_TOP/scripts/manifest-check.sh"
	echo "1..$num"
	echo "# $((num - failed)) passed, $failed failed"
	[ $failed = 0 ]
}

main
