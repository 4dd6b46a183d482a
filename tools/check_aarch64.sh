#!/usr/bin/env bash
# Build and test dnnl on AArch64 under emulation: a Debian arm64 root made with
# debootstrap, run through qemu-aarch64 (Debian's qemu-user-static, binfmt_misc).
#
#     sudo bash tools/check_aarch64.sh [ROOT]     # ROOT default /var/tmp/dnnl-aarch64-root
#
# Run by hand, as root, on a Debian (or Ubuntu) x86-64 machine; slow, not a CI step:
# about 8 minutes for debootstrap (once), 15-35 for the build of the extensions
# (one compile job, nice 19; 34 on a busy 2-core machine), 15 for the tests. Steps:
#  1. apt-get installs debootstrap, qemu-user-static and binfmt-support if missing;
#     binfmt_misc is mounted and qemu-aarch64 enabled;
#  2. ROOT is made once (debootstrap --arch=arm64, the host's Debian release and
#     mirror, or DEBIAN_SUITE / DEBIAN_MIRROR) with python3, python3-dev,
#     python3-venv and gcc; /proc, /dev and /sys are bind-mounted into it (and
#     unmounted on exit); the host's resolv.conf, pip.conf and extra CA
#     certificates (/usr/local/share/ca-certificates) are copied in, so that
#     pip inside reaches the same index;
#  3. a virtual environment in ROOT (/opt/venv) gets numpy, Cython, setuptools,
#     pytest, hypothesis and ml_dtypes from the index (aarch64 wheels);
#  4. the committed tree (git archive HEAD) is put in ROOT/src/dnnl (files whose
#     content changed replace the old ones, so a second run rebuilds only what
#     changed) and built in place there: `setup.py build_ext --inplace --parallel 1`;
#  5. inside: the build must have no x86 level; the ISA queries and the verbose
#     header are printed (for qemu's default CPU, and for QEMU_CPU=cortex-a72 and
#     a64fx); the kernel tests (the files marked kernels), tests/_platform/test_isa.py
#     and tests/primitives/reorder/test_reorder.py, in one process, and every example run; tests/_platform/test_isa.py
#     compares the digests of its fixed reorders and resamplings with the ones
#     pinned in tests/data/isa_digests.json (measured on x86-64 at every level).
# CHECK_TESTS overrides the pytest arguments of step 5 (e.g. "tests/_platform/test_isa.py").
# Nothing is written to the repository; ROOT can be removed with rm -rf once
# nothing is mounted in it (the script unmounts on exit).
set -euo pipefail

main() {   # (all in a function: bash reads a script as it runs, an edit would derail it)
case "${1:-}" in
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
esac
[ "$(id -u)" = 0 ] || { echo "check_aarch64.sh: run as root (debootstrap, mounts)" >&2; exit 2; }
repo="$(cd "$(dirname "$0")/.." && pwd)"
root="${1:-/var/tmp/dnnl-aarch64-root}"
case "$root" in "$repo"|"$repo"/*) echo "check_aarch64.sh: ROOT must be outside the repository" >&2; exit 2 ;; esac
. /etc/os-release
suite="${DEBIAN_SUITE:-${VERSION_CODENAME:?no VERSION_CODENAME in /etc/os-release}}"
mirror="${DEBIAN_MIRROR:-$(host_mirror)}"
tests="${CHECK_TESTS:-tests/_platform/test_isa.py tests/primitives/reorder/test_reorder_paths.py tests/primitives/resampling/test_resampling.py tests/primitives/resampling/test_resampling_paths.py tests/primitives/reorder/test_quant_runs.py tests/_kernels/test_data_types.py tests/attr/test_post_ops.py tests/primitives/reorder/test_reorder.py}"
heavy=(nice -n 19)       # other work on the machine goes first

step "tools: debootstrap, qemu-user-static, binfmt-support"
local missing=()
command -v debootstrap >/dev/null || missing+=(debootstrap)
[ -e /usr/bin/qemu-aarch64-static ] || missing+=(qemu-user-static)
command -v update-binfmts >/dev/null || missing+=(binfmt-support)
if [ "${#missing[@]}" -gt 0 ]; then
    apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}"
fi
mountpoint -q /proc/sys/fs/binfmt_misc || mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
update-binfmts --enable qemu-aarch64 2>/dev/null || true
grep -q enabled /proc/sys/fs/binfmt_misc/qemu-aarch64

if [ ! -e "$root/.debootstrap-done" ]; then
    step "debootstrap arm64 $suite from $mirror into $root"
    mkdir -p "$root"
    "${heavy[@]}" debootstrap --arch=arm64 --variant=minbase \
        --include=python3,python3-dev,python3-venv,gcc,libc6-dev,ca-certificates \
        "$suite" "$root" "$mirror"
    touch "$root/.debootstrap-done"
fi

step "mounts, name resolution, pip configuration and CA certificates"
for d in proc dev sys; do
    mountpoint -q "$root/$d" || mount --bind "/$d" "$root/$d"
done
trap 'for d in sys dev proc; do umount -l "$root/$d" 2>/dev/null || true; done' EXIT
cp -L /etc/resolv.conf "$root/etc/resolv.conf"
[ -f /etc/pip.conf ] && cp /etc/pip.conf "$root/etc/pip.conf"
if compgen -G "/usr/local/share/ca-certificates/*" >/dev/null; then
    mkdir -p "$root/usr/local/share/ca-certificates"
    cp -r /usr/local/share/ca-certificates/. "$root/usr/local/share/ca-certificates/"
fi
inside update-ca-certificates >/dev/null
inside uname -m
inside python3 --version

if [ ! -x "$root/opt/venv/bin/python" ] || ! inside /opt/venv/bin/python -c "import numpy, Cython, pytest, hypothesis, ml_dtypes" 2>/dev/null; then
    step "virtual environment /opt/venv (numpy, Cython, setuptools, pytest, hypothesis, ml_dtypes)"
    inside python3 -m venv /opt/venv
    inside "${heavy[@]}" /opt/venv/bin/pip install -q "numpy>=2.0" "Cython>=3.0" "setuptools>=77" \
        "pytest>=7" "hypothesis>=6" "ml_dtypes>=0.4"
fi
inside /opt/venv/bin/python -c "import numpy, Cython; print('numpy', numpy.__version__, 'Cython', Cython.__version__)"

step "the committed tree ($(git -C "$repo" rev-parse --short HEAD)) into $root/src/dnnl"
rm -rf "$root/src/new"
mkdir -p "$root/src/new" "$root/src/dnnl"
git -C "$repo" archive HEAD | tar -x -C "$root/src/new"
# replace what changed only (time stamps decide what build_ext rebuilds)
(cd "$root/src/new" && find . -type f) | while read -r f; do
    cmp -s "$root/src/new/$f" "$root/src/dnnl/$f" 2>/dev/null && continue
    mkdir -p "$(dirname "$root/src/dnnl/$f")"
    cp "$root/src/new/$f" "$root/src/dnnl/$f"
done
rm -rf "$root/src/new"

step "build (one job, nice 19)"
local t0=$SECONDS
inside sh -c 'cd /src/dnnl && '"${heavy[*]}"' /opt/venv/bin/python setup.py -q build_ext --inplace --parallel 1'
echo "build: $((SECONDS - t0)) s under emulation"

step "what was built, and what the ISA queries say"
inside sh -c 'cd /src/dnnl && /opt/venv/bin/python - <<PY
import glob, platform
import dnnl, dnnl._platform.isa as I, dnnl._platform.cpuid as C, dnnl.verbose as V
so = sorted(glob.glob("dnnl/**/*.so", recursive=True))
print(platform.machine(), "| helper built for", C.ARCH, "|", len(so), "extensions")
assert C.ARCH == "aarch64" and not [s for s in so if "x86_64_v" in s], so
print("HWCAP, HWCAP2:", [hex(x) for x in C.hwcap()], "SVE bytes:", C.sve_vector_length())
print("features:", sorted(I.features()), "| kernel levels:", I.kernel_levels())
print("get_effective_cpu_isa():", repr(dnnl.get_effective_cpu_isa()))
print("set_max_cpu_isa(sse41):", repr(dnnl.set_max_cpu_isa(dnnl.cpu_isa.sse41)))
print("get_cpu_isa_hints():", repr(dnnl.get_cpu_isa_hints()))
print(*[l for l in V.header_lines() if ",isa:" in l])
PY'
# qemu's default CPU ("max") has SVE and SME; other emulated CPUs show the
# other answers (QEMU_CPU is read by qemu-aarch64 itself)
for cpu in cortex-a72 a64fx; do
    inside env QEMU_CPU="$cpu" PYTHONPATH=/src/dnnl /opt/venv/bin/python -c 'import os, dnnl, dnnl._platform.isa as I, dnnl.verbose as V
print("QEMU_CPU=%s:" % os.environ["QEMU_CPU"], sorted(I.features()), repr(dnnl.get_effective_cpu_isa()),
      *[l.split(",isa:")[1] for l in V.header_lines() if ",isa:" in l])' || true
done

step "tests: $tests"
local t1=$SECONDS
inside sh -c "cd /src/dnnl && ${heavy[*]} /opt/venv/bin/python -m pytest -q -p no:cacheprovider -o addopts=--strict-markers $tests"
echo "tests: $((SECONDS - t1)) s under emulation"

step "every example"
inside sh -c 'cd /src/dnnl && for e in examples/*.py; do
    [ "$(basename "$e")" = example_utils.py ] && continue
    echo "--- $e"; PYTHONPATH=/src/dnnl /opt/venv/bin/python "$e" >/dev/null || exit 1
done'

step "done"
}

step() { printf '\n=== %s\n' "$*"; }

inside() { chroot "$root" /usr/bin/env -i HOME=/root PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 "$@"; }

host_mirror() {
    # the host's Debian mirror (deb822 sources or sources.list), else deb.debian.org
    local url
    url=$(grep -hs '^URIs:' /etc/apt/sources.list.d/*.sources | awk '{print $2}' \
          | grep -E '/debian/?$' | head -n1 || true)
    [ -n "$url" ] || url=$(grep -hs '^deb ' /etc/apt/sources.list | awk '{print $2}' \
          | grep -E '/debian/?$' | head -n1 || true)
    echo "${url:-http://deb.debian.org/debian}"
}

main "$@"
