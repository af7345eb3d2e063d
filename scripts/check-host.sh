#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The host-only checks of the node integration, as KTAP (make check runs
# them after the unit tests; `make check-host` alone):
#   - contrib/systemd/cpumgr.service and cpumgr-nri@.service (both
#     instances) pass `systemd-analyze verify`, and want
#     systemd-modules-load.service rather than require it;
#   - the man pages build and document every command, module parameter,
#     sysfs file and netlink operation (scripts/doc-check.sh);
#   - the bash completion offers the command table;
#   - the README is short, its links resolve, its kernel table is the tree's;
#   - a node guest refuses packages built before a change of the
#     checkout (scripts/tests/stale-build.sh);
#   - cpumgr's NRI and ttrpc messages (user/lib/nri/*.proto) agree with
#     the .proto files Debian ships, sid's newest and Debian 13's
#     (scripts/tests/nri-proto.sh);
#   - `make deb` builds cpumgr, cpumgr-dev and cpumgr-dkms, lintian-clean
#     (+pedantic): the hook file and the units name the packaged
#     cpumgrctl, no live hooks.d file, the postinst only restarts the NRI
#     unit that runs, the prerm turns the integrations off on removal,
#     the postrm's purge says what it keeps, `pkg-config --libs cpumgr`
#     links a program; a second build of cpumgr, VERSION+upgrade1, for
#     the packages guest's upgrade (build/deb-upgrade);
#   - the packages build from a clone of HEAD in a Debian 12 chroot with
#     only the Build-Depends and no network, unit tests included, and
#     hold what make deb's hold (scripts/deb-chroot.sh);
#   - `dkms build` of cpumgr-dkms's source against the cached 6.1, 6.12
#     and 6.12-rt kernels (built with the host's gcc-12 as Debian built
#     them), and 7.3 and 7.3-rt by Debian 13's dkms and gcc-14 in its
#     build root, in private DKMS trees, each module checked for the
#     kernel's vermagic and compiler, kept as binaries-only DKMS
#     tarballs (build/check-host/dkms-binaries-SERIES.tar.gz);
#   - cpumgr-dkms's dkms.conf builds on the series of the module's table
#     only, and on kernels with what it needs: DKMS skips (exit 77)
#     another series, or a kernel without cpusets;
#   - `make image` builds the DaemonSet's image, an OCI archive whose
#     entrypoint is cpumgrctl, and contrib/kubernetes/ passes an offline
#     `kubectl create --dry-run=client` (scripts/manifest-check.sh);
#   - `make install` into a DESTDIR installs what the packages hold; with
#     the default PREFIX=/usr/local and no kernel tree, the userspace
#     naming /usr/local/sbin/cpumgrctl and a message for the module.
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
	"$CPUMGR_TOP/scripts/subst.sh" "$dir/rendered" /usr || return 1
	# the units as installed name /usr/sbin/cpumgrctl: verify needs a
	# binary there, so point them at the build's; the man pages are not
	# installed on the build host; the template as each instance
	for u in cpumgr.service cpumgr-nri@decide.service cpumgr-nri@guard.service; do
		sed "s|/usr/sbin/cpumgrctl|$CPUMGR_OUT/user/cpumgrctl|" \
			"$dir/rendered/systemd/${u/@*./@.}" >"$dir/$u"
		systemd-analyze verify --man=no "$dir/$u" 2>&1 | tee "$dir/$u.verify"
		[ "${PIPESTATUS[0]}" = 0 ] && [ ! -s "$dir/$u.verify" ] || return 1
		# another module failing to load must not stop cpumgr
		grep -qx 'Wants=systemd-modules-load.service.*' "$dir/$u" &&
			! grep -q '^Requires=' "$dir/$u" || { echo "$u: Requires="; return 1; }
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
	# the unit tests ran in make check's unit phase, and run in the
	# network-less chroot's build (deb-chroot below)
	DEB_BUILD_OPTIONS="nocheck parallel=1" "$CPUMGR_TOP/scripts/deb.sh" || return 1
	cat "$CPUMGR_OUT/deb/lintian.txt"
	lintian --pedantic --fail-on error,warning,info,pedantic \
		"$CPUMGR_OUT"/deb/*.changes || return 1
	# what each package must hold
	local p status=0 f
	for p in cpumgr cpumgr-dev cpumgr-dkms; do
		dpkg-deb -c "$CPUMGR_OUT"/deb/${p}_*.deb >"$logs/$p.list" || return 1
	done
	for f in ./usr/sbin/cpumgrctl ./lib/systemd/system/cpumgr.service \
		./lib/systemd/system/cpumgr-nri@.service \
		./usr/share/cpumgr/oci-hooks.d/cpumgr.json \
		./usr/share/cpumgr/containerd/cpumgr-hooks.json \
		./usr/share/man/man8/cpumgrctl.8.gz ./usr/share/man/man4/cpumgr.4.gz \
		./usr/share/bash-completion/completions/cpumgrctl; do
		grep -q " $f\$" "$logs/cpumgr.list" || { echo "cpumgr lacks $f"; status=1; }
	done
	# the guides of doc/, whichever the tree has
	for f in "$CPUMGR_TOP"/doc/*.md; do
		[ ! -e "$f" ] || grep -Eq " ./usr/share/doc/cpumgr/${f##*/}(\.gz)?\$" "$logs/cpumgr.list" ||
			{ echo "cpumgr lacks /usr/share/doc/cpumgr/${f##*/}"; status=1; }
	done
	for f in ./usr/lib/x86_64-linux-gnu/libcpumgr.a \
		./usr/lib/x86_64-linux-gnu/pkgconfig/cpumgr.pc \
		./usr/include/cpumgr/cpumgr_nl.h ./usr/include/cpumgr/linux/cpumgr.h; do
		grep -q " $f\$" "$logs/cpumgr-dev.list" || { echo "cpumgr-dev lacks $f"; status=1; }
		! grep -q " $f\$" "$logs/cpumgr.list" || { echo "cpumgr has $f"; status=1; }
	done
	for f in dkms.conf kmod/Kbuild kmod/cpumgr_main.c include/uapi/linux/cpumgr.h; do
		grep -q " ./usr/src/cpumgr-$version/$f\$" "$logs/cpumgr-dkms.list" ||
			{ echo "cpumgr-dkms lacks $f"; status=1; }
	done
	for f in ./usr/lib/modules-load.d/cpumgr.conf ./etc/modprobe.d/cpumgr.conf; do
		grep -q " $f\$" "$logs/cpumgr-dkms.list" || { echo "cpumgr-dkms lacks $f"; status=1; }
	done
	# the modules-load.d file cpumgr(4) names is the one shipped
	grep -q '^_/usr/lib/modules-load.d/cpumgr.conf_$' "$CPUMGR_TOP/doc/cpumgr.4.scd" ||
		{ echo "cpumgr(4) does not name /usr/lib/modules-load.d/cpumgr.conf"; status=1; }
	[ $status = 0 ] && safe_defaults && pc_consumer
}

# A second build of cpumgr, VERSION+upgrade1, for the packages guest's
# upgrade (scripts/guest/packages-boot.sh): make deb's source with a
# changelog entry on top, built again where make deb built it (its
# objects are up to date: seconds), the arch-dependent packages alone,
# its unit tests already run.
upgrade_package()
{
	local dir=$CPUMGR_OUT/deb-upgrade up=$version+upgrade1 src who

	rm -rf "$dir"
	mkdir -p "$dir/src"
	src=$dir/src/cpumgr-$version
	cp -a "$CPUMGR_OUT/deb/src/cpumgr-$version" "$src" || return 1
	rm -f "$src/debian/debhelper-build-stamp"
	who=$(dpkg-parsechangelog -l "$src/debian/changelog" -S Maintainer)
	{
		printf 'cpumgr (%s) unstable; urgency=medium\n\n' "$up"
		printf '  * A build of a higher version, for the upgrade test.\n\n'
		printf ' -- %s  %s\n\n' "$who" "$(date -R)"
		cat "$CPUMGR_TOP/debian/changelog"
	} >"$src/debian/changelog.new" && mv "$src/debian/changelog.new" "$src/debian/changelog"
	(cd "$src" && DEB_BUILD_OPTIONS="nocheck parallel=1" \
		dpkg-buildpackage -B -nc -us -uc) >"$logs/deb-upgrade.log" 2>&1 ||
		{ tail -n 30 "$logs/deb-upgrade.log"; return 1; }
	mv "$dir"/src/*.deb "$dir/" && ls "$dir"/cpumgr_"$up"_*.deb
}

# The package changes nothing a runtime reads: no live hooks.d file, no
# NRI unit enabled or started by its scripts; what its hook file and
# units run is the cpumgrctl it ships.
safe_defaults()
{
	local root=$logs/cpumgr-root f ctl

	rm -rf "$root"
	dpkg-deb -x "$CPUMGR_OUT"/deb/cpumgr_*.deb "$root" &&
		dpkg-deb -e "$CPUMGR_OUT"/deb/cpumgr_*.deb "$logs/cpumgr-control" || return 1
	if grep -h ' ./.*hooks\.d/' "$logs"/cpumgr*.list | grep -v ' ./usr/share/cpumgr/'; then
		echo "a live hooks.d file"
		return 1
	fi
	# the NRI plugin: never enabled or started by the package, only
	# restarted by an upgrade when it runs; removal turns every
	# integration off; purge keeps the state, saying so
	if grep -hv '^[[:space:]]*#' "$logs/cpumgr-control"/p*{inst,rm} | grep 'cpumgr-nri' |
		grep -v "try-restart 'cpumgr-nri@\*.service'"; then
		echo "a maintainer script does more to the NRI unit than restart it"
		return 1
	fi
	grep -q '^if \[ "$1" = remove \] && command -v cpumgrctl >/dev/null; then' \
		"$logs/cpumgr-control/prerm" &&
		grep -q 'cpumgrctl integration off' "$logs/cpumgr-control/prerm" ||
		{ echo "the prerm does not turn the integrations off on removal"; return 1; }
	grep -q 'kept /var/lib/cpumgr' "$logs/cpumgr-control/postrm" ||
		{ echo "the postrm's purge does not say what it keeps"; return 1; }
	grep -q "enable 'cpumgr.service'" "$logs/cpumgr-control/postinst" || return 1
	for f in usr/share/cpumgr/oci-hooks.d/cpumgr.json \
		usr/share/cpumgr/containerd/cpumgr-hooks.json; do
		for ctl in $(python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
hooks = [d["hook"]] if "hook" in d else [h for s in d["hooks"].values() for h in s]
print("\n".join(h["path"] for h in hooks))' "$root/$f"); do
			[ -x "$root$ctl" ] || { echo "$f runs $ctl: not in the package"; return 1; }
		done
	done
	for f in cpumgr.service cpumgr-nri@.service; do
		ctl=$(sed -n 's/^ExecStart=\([^ ]*\).*/\1/p' "$root/lib/systemd/system/$f")
		[ -x "$root$ctl" ] || { echo "$f runs $ctl: not in the package"; return 1; }
	done
}

# A program built against the packaged library alone (cpumgr-dev
# unpacked, with its pkg-config file's prefix pointed there): header,
# cpumgr.pc, libcpumgr.a, linked with what `pkg-config --libs` says, not
# --static; it calls the netlink code (argc > 1), so libnl must come.
pc_consumer()
{
	local root=$logs/cpumgr-dev-root

	rm -rf "$root"
	dpkg-deb -x "$CPUMGR_OUT"/deb/cpumgr-dev_*.deb "$root" || return 1
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
		pkg-config --define-variable=prefix="$root/usr" --cflags --libs cpumgr) &&
		[ "$("$logs/consumer")" = "static audit" ]
}

# dkms add + build of the packaged source for one cached kernel, in a
# private DKMS tree: nothing under /var/lib/dkms or /lib/modules, and no
# signing (sign_file points nowhere, so no MOK key is made).  A kernel
# Debian built on another release (7.3: Debian 13, gcc-14) is built for
# by that release's DKMS in its build root (scripts/build-root.sh), as a
# node of that release builds it, in a tree of its own; the module must
# then name the kernel's compiler.
dkms_build()
{
	local series=$1 tree=$logs/dkms kdir krel suite ko cc
	local -a dkms=(env sign_file=/nonexistent dkms)

	kdir=$(kernel_dir "$series") && krel=$(cat "$kdir/release") || return 1
	suite=$(kernel_root_suite "$kdir")
	if [ -n "$suite" ]; then
		"$CPUMGR_TOP/scripts/build-root.sh" make "$suite" || return 1
		tree=$logs/dkms-$suite
		mkdir -p "$tree"
		dkms=("$CPUMGR_TOP/scripts/build-root.sh" run "$suite" "$logs" "$kdir" -- "${dkms[@]}")
	fi
	if [ ! -e "$tree/root" ]; then
		mkdir -p "$tree/root" "$tree/dkms" "$tree/install"
		dpkg-deb -x "$CPUMGR_OUT"/deb/cpumgr-dkms_*.deb "$tree/root" &&
		"${dkms[@]}" add -m cpumgr -v "$version" \
			--dkmstree "$tree/dkms" --sourcetree "$tree/root/usr/src" \
			--installtree "$tree/install" || return 1
	fi
	"${dkms[@]}" --version
	"${dkms[@]}" build -j 1 -m cpumgr -v "$version" -k "$krel" \
		--kernelsourcedir "$kdir/build" \
		--dkmstree "$tree/dkms" --sourcetree "$tree/root/usr/src" \
		--installtree "$tree/install" || return 1
	ko=$tree/dkms/cpumgr/$version/$krel/x86_64/module/cpumgr.ko
	[ "$(modinfo -F vermagic "$ko" | cut -d' ' -f1)" = "$krel" ] || return 1
	# the compiler the kernel was built with (its CONFIG_CC_VERSION_TEXT,
	# "x86_64-linux-gnu-gcc-14 (Debian 14.2.0-19) 14.2.0") built the module
	cc=$(sed -n 's/^CONFIG_CC_VERSION_TEXT="[^ ]* \(.*\)"$/GCC: \1/p' "$kdir/build/.config")
	echo "kernel: $cc"
	[ "$(readelf -p .comment "$ko" | grep -o 'GCC: .*' | sort -u)" = "$cc" ] ||
		{ readelf -p .comment "$ko"; echo "$ko: not all built by $cc"; return 1; }
	# the build as DKMS ships prebuilt modules, for make check's packages
	# guest (scripts/guest/packages.sh prebuilt)
	"${dkms[@]}" mktarball -m cpumgr -v "$version" -k "$krel" \
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
	cat "$logs/cpumgr.list" "$logs/cpumgr-dev.list" "$logs/cpumgr-dkms.list" |
		awk '$1 !~ /^d/ { print $6 }' |
		grep -v '^\./usr/share/\(doc\|lintian\)/' | sort >"$logs/packages.list"
	diff -u "$logs/packages.list" "$logs/install.list" || return 1
	dpkg-deb -x "$CPUMGR_OUT"/deb/cpumgr-dkms_*.deb "$logs/cpumgr-dkms-root" || return 1
	cmp "$d/usr/lib/x86_64-linux-gnu/pkgconfig/cpumgr.pc" \
		"$logs/cpumgr-dev-root/usr/lib/x86_64-linux-gnu/pkgconfig/cpumgr.pc" || return 1
	for f in lib/systemd/system/cpumgr.service lib/systemd/system/cpumgr-nri@.service \
		usr/share/cpumgr/oci-hooks.d/cpumgr.json \
		usr/share/cpumgr/containerd/cpumgr-hooks.json; do
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

# make install as from a checkout on a node: the default PREFIX
# (/usr/local) and no kernel build tree (KVER of no cached kernel).  The
# userspace is installed, the units and hook files run
# /usr/local/sbin/cpumgrctl, which looks for its hook file in
# /usr/local/share/cpumgr; the module is skipped with a message saying
# so; nothing goes where a runtime reads hooks.  install-user: no DKMS
# source either.
install_local()
{
	local d=$logs/install-local u=$logs/install-user f ctl

	rm -rf "$d" "$u"
	make -s -C "$CPUMGR_TOP" install DESTDIR="$d" KVER=none 2>"$logs/install-local.err" ||
		{ cat "$logs/install-local.err"; return 1; }
	grep -q "^cpumgr: no kernel build tree at .*/none/build: cpumgr.ko not built" \
		"$logs/install-local.err" || return 1
	for f in cpumgr.service cpumgr-nri@.service; do
		ctl=$(sed -n 's/^ExecStart=\([^ ]*\).*/\1/p' "$d/usr/local/lib/systemd/system/$f")
		[ "$ctl" = /usr/local/sbin/cpumgrctl ] && [ -x "$d$ctl" ] ||
			{ echo "$f runs '$ctl'"; return 1; }
	done
	for f in oci-hooks.d/cpumgr.json containerd/cpumgr-hooks.json; do
		grep -q '"path": "/usr/local/sbin/cpumgrctl"' "$d/usr/local/share/cpumgr/$f" &&
			! grep -q '"path": "/usr/sbin' "$d/usr/local/share/cpumgr/$f" ||
			{ echo "$f: $(grep '"path"' "$d/usr/local/share/cpumgr/$f")"; return 1; }
	done
	grep -aq '^/usr/local/share/cpumgr/oci-hooks.d/cpumgr.json$' \
		<(strings "$d/usr/local/sbin/cpumgrctl") || { echo "cpumgrctl looks elsewhere"; return 1; }
	[ -z "$(find "$d" -path '*hooks.d/*' ! -path "$d/usr/local/share/cpumgr/*")" ] &&
		[ ! -e "$d/lib/modules" ] && [ -e "$d/usr/src/cpumgr-$version/dkms.conf" ] || return 1
	make -s -C "$CPUMGR_TOP" install-user DESTDIR="$u" KVER=none || return 1
	[ -x "$u/usr/local/sbin/cpumgrctl" ] && [ ! -e "$u/usr/src" ] && [ ! -e "$u/etc" ]
}

main()
{
	rm -rf "$logs"
	mkdir -p "$logs"
	echo "TAP version 13"
	run systemd-unit systemd_unit
	run man-pages man_pages
	run completion completion
	run readme bash "$CPUMGR_TOP/scripts/tests/readme.sh"
	run plan-check bash "$CPUMGR_TOP/scripts/tests/plan-check.sh"
	run stale-build bash "$CPUMGR_TOP/scripts/tests/stale-build.sh"
	run nri-proto bash "$CPUMGR_TOP/scripts/tests/nri-proto.sh"
	version=$(sed -n 's/^#define CPUMGR_VERSION "\(.*\)"/\1/p' "$CPUMGR_TOP/kmod/cpumgr.h")
	run packages packages
	run deb-upgrade upgrade_package
	run deb-chroot "$CPUMGR_TOP/scripts/deb-chroot.sh"
	run dkms-6.1 dkms_build 6.1
	run dkms-6.12 dkms_build 6.12
	run dkms-6.12-rt dkms_build 6.12-rt
	run dkms-7.3 dkms_build 7.3
	run dkms-7.3-rt dkms_build 7.3-rt
	run dkms-exclusive dkms_exclusive
	run install install_like_packages
	run install-local install_local
	run image image
	run kubernetes-manifest "$CPUMGR_TOP/scripts/manifest-check.sh"
	echo "1..$num"
	echo "# $((num - failed)) passed, $failed failed"
	[ $failed = 0 ]
}

main
