#!/usr/bin/env bash
# Build dnnl and run the whole suite on the newest CPythons, in a Debian root:
# by default Debian's unstable suite (sid), which carries python3.14 and
# python3.15 with their -dev and -venv packages.
#
#     sudo bash tools/check_pythons.sh [ROOT]    # ROOT default /var/tmp/dnnl-sid-root
#
# Run as root on a Debian (or Ubuntu) x86-64 machine (debootstrap, chroot):
#  1. ROOT is made once with debootstrap (DEBIAN_SUITE, default sid) with gcc
#     and libc6-dev, and reused; python3.X, python3.X-dev, python3.X-venv for
#     each X of PYTHONS are apt-get installed in it when missing;
#  2. /proc, /dev and /sys are bind-mounted into it (unmounted on exit); the
#     host's resolv.conf, /etc/pip.conf (and the CA file it names) and extra
#     CA certificates (/usr/local/share/ca-certificates) are copied in, so that
#     pip inside reaches the same index as the host's;
#  3. the checkout (its tracked and untracked files, not the ignored build
#     outputs), or the files of the sdist DNNL_SDIST names, is copied to
#     ROOT/src/dnnl;
#  4. for each Python: `pip wheel` builds the package from that copy (its own
#     build environment from pyproject.toml: Cython, numpy, setuptools from
#     the index; the time printed is this build's), the wheel is installed
#     with its test extras into a fresh virtual environment, and .ci/suite
#     runs the whole suite against it from a directory outside the tree.
# PYTHONS (default "3.14 3.15") names the versions, or is "newest": the newest
# python3.X-dev of the suite (what .ci/run tests); PYTEST_ARGS (default -q)
# is passed to .ci/suite (--subset: the tests of what can differ there).
# ROOT_ONLY=1 makes the root and installs the Pythons, then stops (.ci/run
# does so while other steps run). Each build is about a minute on 2 cores,
# each whole suite run 3-4 minutes. Exits non-zero if a build or a suite fails. Nothing is written to
# the repository; ROOT can be removed with rm -rf once nothing is mounted in
# it (the script unmounts on exit).
set -euo pipefail

main() {   # (all in a function: bash reads a script as it runs, an edit would derail it)
case "${1:-}" in
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
esac
local repo suite versions v pkgs=() t0     # (root: global, as tools/debian_root.sh uses it)
repo="$(cd "$(dirname "$0")/.." && pwd)"
. "$repo/tools/debian_root.sh"
root="${1:-/var/tmp/dnnl-sid-root}"
case "$root" in "$repo"|"$repo"/*) echo "check_pythons.sh: ROOT must be outside the repository" >&2; exit 2 ;; esac
suite="${DEBIAN_SUITE:-sid}"
versions="${PYTHONS:-3.14 3.15}"

root_make "$root" "$suite" gcc,libc6-dev
root_enter "$root"
if [ "$versions" = newest ]; then
    versions=$(root_newest_python)
    [ -n "$versions" ] || { echo "check_pythons.sh: no python3.X-dev in $suite" >&2; exit 1; }
    echo "the newest CPython of $suite: $versions"
fi
for v in $versions; do
    pkgs+=("python$v" "python$v-dev" "python$v-venv")
done
root_install "${pkgs[@]}" gcc libc6-dev
[ "${ROOT_ONLY:-0}" = 1 ] && { step "the root is ready (ROOT_ONLY=1)"; return; }

step "${DNNL_SDIST:-the checkout} into $root/src/dnnl"
root_put_checkout "$repo" /src/dnnl

local summary=()
for v in $versions; do
    step "Python $v: build (pip wheel), install, the suite from outside the tree"
    inside "python$v" --version
    inside rm -rf "/opt/venv$v" "/tmp/wheels$v" "/tmp/run$v"
    inside "python$v" -m venv "/opt/venv$v"
    t0=$SECONDS
    inside sh -c "cd /src/dnnl && /opt/venv$v/bin/pip wheel -q --no-deps -w /tmp/wheels$v ."
    local build=$((SECONDS - t0))
    echo "Python $v: build $build s"
    local wheel
    wheel=$(cd "$root/tmp/wheels$v" && ls dnnl_python-*.whl)
    inside "/opt/venv$v/bin/pip" install -q "/tmp/wheels$v/$wheel[test]"
    # the suite's last line (pytest's summary) kept for the table below
    inside bash /src/dnnl/.ci/suite "/opt/venv$v/bin/python" "/tmp/run$v" ${PYTEST_ARGS:--q} \
        | tee "$root/tmp/suite$v.log"
    summary+=("Python $v | build ${build} s | $(tail -n 1 "$root/tmp/suite$v.log")")
done

step "done"
printf '%s\n' "${summary[@]}"
}

main "$@"
