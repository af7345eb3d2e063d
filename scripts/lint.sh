#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# `make lint`: checkpatch.pl --strict (from Debian's linux-source-6.1) over
# the kernel module, the selftests' test module and the uAPI header,
# cppcheck over the userspace and the selftests, user/lib's layering
# (scripts/layers-check.sh: includes; scripts/calls-check.py: calls, no
# circle of files in a folder; both with their tests in scripts/tests/),
# no circle of files in kmod/'s calls or includes (calls-check.py
# --kmod, on the module built for KVER 6.1; tested in scripts/tests/calls.sh),
# the YNL spec against the kernel's genetlink
# schema, the files generated from the spec (scripts/ynl-gen.sh) against
# the tree. The man pages against the
# command table, the module parameters, sysfs and the YNL spec.  The
# plans against the kernels (scripts/plan-check.sh).

set -uo pipefail
. "$(dirname "$0")/common.sh"

"$CPUMGR_TOP/scripts/setup.sh" --no-kernels || exit 1
cd "$CPUMGR_TOP" || exit 1
status=0

checkpatch=$CPUMGR_CACHE/src/6.1/scripts/checkpatch.pl
# --no-tree: we are not in a kernel tree.  Ignored, and why:
#   FILE_PATH_CHANGES, SPDX_LICENSE_TAG placement rules are for patches;
#   LINUX_VERSION_CODE: an out-of-tree module supporting 6.1 and 6.12
#   has to ask.
if ! perl "$checkpatch" --strict --no-tree --quiet --show-types \
	--ignore FILE_PATH_CHANGES,LINUX_VERSION_CODE \
	-f kmod/*.c kmod/*.h selftests/kmod/*.c selftests/kmod/*.h \
	$(ls include/uapi/linux/*.h 2>/dev/null); then
	status=1
fi

# user/lib's layers include downwards only
if ! "$CPUMGR_TOP/scripts/layers-check.sh"; then
	status=1
fi

if ! cppcheck --quiet --error-exitcode=1 --inline-suppr \
	--enable=warning,performance,portability \
	--suppress=missingIncludeSystem --suppress="*:*/kselftest*.h" \
	-D__GNUC__ \
	-I include/uapi $(for l in user/lib/*/; do printf -- '-I %s ' "$l"; done) \
	-I "$CPUMGR_CACHE/src/6.1/tools/testing/selftests" user selftests; then
	status=1
fi

# the generated uAPI header, policies, split ops and names are the spec's
gen=$(mktemp -d)
if ! "$CPUMGR_TOP/scripts/ynl-gen.sh" "$gen"; then
	status=1
else
	for f in include/uapi/linux/cpumgr.h kmod/cpumgr_nl_gen.h \
		 kmod/cpumgr_nl_gen.c user/lib/libcpumgr/cpumgr_nl_names_gen.c; do
		if ! diff -u "$f" "$gen/$f"; then
			echo "lint: $f differs from what scripts/ynl-gen.sh generates from the spec"
			status=1
		fi
	done
fi
rm -rf "$gen"

for spec in include/uapi/linux/*.yaml; do
	[ -e "$spec" ] || continue
	if ! python3 "$CPUMGR_TOP/scripts/ynl-check.py" "$spec"; then
		status=1
	fi
done

# every kernel of the README's table runs every selftest (make check or
# make soak)
if ! "$CPUMGR_TOP/scripts/plan-check.sh"; then
	status=1
fi

# the man pages document every command, parameter, sysfs file, operation
if ! make -s -C "$CPUMGR_TOP" user >/dev/null ||
   ! "$CPUMGR_TOP/scripts/doc-check.sh"; then
	status=1
fi

# user/lib's files call downwards, and no circle of files in a folder
# (the objects just built); the two checks of user/lib on trees that
# break them
if ! python3 "$CPUMGR_TOP/scripts/calls-check.py"; then
	status=1
fi
# kmod/'s files call and include one way, no circle of files (the
# objects of the module for the default kernel, built here)
if ! make -s -C "$CPUMGR_TOP" module KVER=6.1 >/dev/null ||
   ! python3 "$CPUMGR_TOP/scripts/calls-check.py" --kmod; then
	status=1
fi
for t in layers calls; do
	if ! bash "$CPUMGR_TOP/scripts/tests/$t.sh" >"$CPUMGR_OUT/lint-$t.log"; then
		cat "$CPUMGR_OUT/lint-$t.log"
		echo "lint: scripts/tests/$t.sh failed"
		status=1
	fi
done

[ $status = 0 ] && echo "lint: clean"
exit $status
