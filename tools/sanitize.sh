#!/usr/bin/env bash
# Build the extensions with AddressSanitizer + UndefinedBehaviorSanitizer and
# run the kernel, special-value and bad-input fuzz tests under them.
#
#     bash tools/sanitize.sh            # everything (10-12 minutes on 2 cores)
#     bash tools/sanitize.sh --quick    # 2 kernel levels, fewer fuzz cases (about 8 minutes)
#
# What it does (docs/internals/sanitizers.md has the why):
#
# 1. copies the checkout's tracked files (git ls-files, as they are on disk, so
#    uncommitted edits are included) to $SANITIZE_DIR/src (default
#    build/sanitize/src), and the generated sources an earlier build left
#    there (so Cython need not run again): the in-place build of the
#    checkout is not touched;
# 2. makes a virtual environment $SANITIZE_DIR/venv with the build and test
#    requirements from PyPI (kept between runs);
# 3. builds the extensions in the copy with gcc's
#    -fsanitize=address,undefined,float-cast-overflow -fno-omit-frame-pointer and
#    DNNL_PY_DEBUG=lines (line tables, -g1: file and line in the reports; no
#    stripping), all three kernel levels;
# 4. runs pytest from the copy with libasan and libubsan preloaded into the
#    interpreter (paths from `gcc -print-file-name`), PYTHONMALLOC=malloc
#    and the plugin tools/sanitize/sanitize_alloc.py (buffers that dnnl allocates end
#    at their last byte, so a one-element overrun hits ASan's red zone):
#      - at the best level, on both cores (pytest-xdist): the tests marked
#        kernels or compiled but not package (docs/internals/testing.md): the
#        kernels, the reorder API and plans, the array functions on every view
#        kind, byte order and odd address, edge cases, bad input, special
#        values against the numpy references of dnnl.testing (real oneDNN,
#        the oracle of tests/conformance, does not load under ASan), the ISA
#        dispatch, the thread pool, metadata, and the bad-input fuzzer with
#        DNNL_FUZZ_CASES (default 100000);
#      - the tests marked kernels at each other kernel level the CPU runs,
#        chosen with ONEDNN_MAX_CPU_ISA=avx2 (x86_64_v3) and sse41
#        (baseline), with the quick hypothesis profile;
#    Before the tests, two canaries (a planted overread, a planted signed
#    overflow and NaN -> int) must be reported, or the run stops;
# 5. fails if a test fails or if any sanitizer wrote a report: ASan and UBSan
#    write to $SANITIZE_DIR/logs/{asan,ubsan}.<pid> (pytest would capture their
#    stderr), and every such file is printed.
#
# --quick: the kernel tests at the best level and at the baseline
# only, the other tests as above, and 20000 fuzz cases.
#
# Needs: git, gcc with libasan and libubsan, python3 with venv, PyPI.
# Environment: SANITIZE_DIR, DNNL_FUZZ_CASES, SANITIZE_JOBS (build jobs, 2),
# PYTEST_ADDOPTS (passed on, e.g. "-x -k name").
set -euo pipefail

main() {   # (all in a function: bash reads a script as it runs, an edit would derail it)
quick=0
for arg in "$@"; do
    case "$arg" in
        --quick) quick=1 ;;
        -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) echo "sanitize.sh: unknown argument $arg" >&2; exit 2 ;;
    esac
done

repo="$(cd "$(dirname "$0")/.." && pwd)"
dir="${SANITIZE_DIR:-$repo/build/sanitize}"
mkdir -p "$dir"
dir="$(cd "$dir" && pwd)"
src="$dir/src" venv="$dir/venv" logs="$dir/logs"
jobs="${SANITIZE_JOBS:-2}"
fuzz_cases="${DNNL_FUZZ_CASES:-$([ "$quick" = 1 ] && echo 20000 || echo 100000)}"
start=$SECONDS

step() { printf '\n=== [%4ds] %s\n' "$((SECONDS - start))" "$*"; }

step "copy of the tracked files -> $src"
mkdir -p "$src"
# tar keeps the files' times, so an unchanged file does not rebuild next time
(cd "$repo" && git ls-files -z | while IFS= read -r -d '' f; do
     [ -f "$f" ] && printf '%s\0' "$f"; done | tar --null -T - -cf -) | tar -xf - -C "$src"
step "virtual environment $venv"
if ! "$venv/bin/python" -c "import numpy, Cython, setuptools, pytest, xdist, hypothesis, ml_dtypes" 2>/dev/null; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q --upgrade pip
    "$venv/bin/pip" install -q "setuptools>=77" "Cython>=3.1" "numpy>=2.0" \
        "pytest>=7" "pytest-xdist>=3" "hypothesis>=6" "ml_dtypes>=0.4"
fi
py="$venv/bin/python"

# the generated sources an earlier build left in the checkout (the
# templates' .pyx / .pxd, Cython's C; CI's editable install makes them), when
# every one is newer than every source it can come from: Cython need not run
# again. They are touched, so that the environment's Cython and numpy
# includes (dependencies too) do not look newer.
(cd "$repo" && python3 - "$src" <<'PY'
import os, shutil, subprocess, sys, time
def files(*args):
    out = subprocess.run(["git", "ls-files", "-z"] + list(args), capture_output=True, check=True).stdout
    return [f for f in out.decode().split("\0") if f and os.path.isfile(f)]
generated = files("--others", "--ignored", "--exclude-standard", "--", "dnnl/*.c", "dnnl/*.pyx", "dnnl/*.pxd")
sources = files("--", "dnnl/*.pyx", "dnnl/*.pxd", "dnnl/*.pxi", "dnnl/*.in", "dnnl/*.h",
                "include/dnnl_types.h", "setup.py")
newest = max(os.path.getmtime(f) for f in sources)
if generated and min(os.path.getmtime(f) for f in generated) > newest:
    now = time.time()
    for f in generated:
        dest = os.path.join(sys.argv[1], f)
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        shutil.copy2(f, dest)
        t = now if f.endswith(".c") else now - 2     # the C after what it is made from
        os.utime(dest, (t, t))
    print("%d generated sources of the checkout's last build reused" % len(generated))
else:
    print("the checkout has no up-to-date generated sources: Cython runs")
PY
)

libasan="$(gcc -print-file-name=libasan.so)"
libubsan="$(gcc -print-file-name=libubsan.so)"
for lib in "$libasan" "$libubsan"; do
    # -print-file-name echoes the bare name when it finds nothing
    [ -f "$lib" ] || { echo "sanitize.sh: gcc has no $(basename "$lib")" >&2; exit 1; }
done

# float-cast-overflow (a float -> int conversion out of range or of NaN) is
# undefined behaviour that gcc's "undefined" group leaves out
san="-fsanitize=address,undefined,float-cast-overflow -fno-omit-frame-pointer"
step "build with $san (jobs: $jobs)"
# setuptools rebuilds on changed sources only: other flags need --force
force=""
[ "$(cat "$src/.sanitize-flags" 2>/dev/null)" = "$san -g1" ] || force=--force
rm -f "$src/.sanitize-flags"
(cd "$src" && CC=gcc CFLAGS="$san" LDFLAGS="$san" DNNL_PY_DEBUG=lines \
    "$py" setup.py -q build_ext --inplace --parallel "$jobs" $force)
echo "$san -g1" > "$src/.sanitize-flags"

rm -rf "$logs"
mkdir -p "$logs"
export LD_PRELOAD="$libasan $libubsan"
# detect_leaks: CPython frees little at exit; allocator_may_return_null: the
# fuzzer asks for absurd sizes, which must be a MemoryError, not an ASan abort
asan="detect_leaks=0:allocator_may_return_null=1:strict_string_checks=1:detect_stack_use_after_return=1:check_initialization_order=1"
ubsan="print_stacktrace=1:halt_on_error=0"
export ASAN_OPTIONS="$asan:log_path=$logs/asan"
export UBSAN_OPTIONS="$ubsan:log_path=$logs/ubsan"
export PYTHONMALLOC=malloc
# the plugin sanitize_alloc and sitecustomize (UBSan log file); dnnl comes from $src
export PYTHONPATH="$repo/tools/sanitize"
export PYTHONDONTWRITEBYTECODE=1
unset ONEDNN_MAX_CPU_ISA DNNL_MAX_CPU_ISA DNNL_ORACLE_VENV

cd "$src"
"$py" - "$src" <<'PY'
import os, sys
import dnnl
assert os.path.dirname(dnnl.__file__) == os.path.join(sys.argv[1], "dnnl"), dnnl.__file__
print("dnnl from", os.path.dirname(dnnl.__file__))
PY

step "canaries: the tools see a planted error and write their logs"
# ASan: one byte read past a buffer that dnnl allocated (through the plugin's
# allocator), with libc's memmove (intercepted by ASan)
mkdir -p "$logs/canary"
ASAN_OPTIONS="$asan:log_path=$logs/canary/asan" "$py" - <<'PY' && canary=missed || canary=caught
import ctypes
import dnnl, sanitize_alloc
sanitize_alloc.install()
m = dnnl.memory(dnnl.memory.desc([3, 5], "f32", "ab"), dnnl.engine(dnnl.engine.kind.cpu, 0))
libc = ctypes.CDLL(None)
libc.memmove.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t]
out = ctypes.create_string_buffer(64)
libc.memmove(out, m.get_data_handle(), 60)      # the whole buffer: fine
libc.memmove(out, m.get_data_handle(), 61)      # one byte more: ASan aborts here
PY
grep -qs "heap-buffer-overflow" "$logs"/canary/asan.* || canary="$canary, no report"
[ "$canary" = caught ] || { echo "sanitize.sh: ASan canary $canary" >&2; exit 1; }
# UBSan: a signed overflow and a NaN converted to int, in a small shared
# library built with the same flags and called from Python as the kernels are
printf '%s\n' '#include <math.h>' \
    'int canary(int c) {' \
    '    volatile int x = 2147483647; volatile float f = NAN;' \
    '    x = x + c; return x == (int)f; }' > "$logs/canary/ub.c"
gcc $san -shared -fPIC "$logs/canary/ub.c" -o "$logs/canary/ub.so"
UBSAN_OPTIONS="$ubsan:log_path=$logs/canary/ubsan" "$py" -c \
    "import ctypes, sys; ctypes.CDLL(sys.argv[1]).canary(1)" "$logs/canary/ub.so"
for what in "signed integer overflow" "outside the range of representable values"; do
    grep -qs "$what" "$logs"/canary/ubsan.* \
        || { echo "sanitize.sh: UBSan canary missed ($what)" >&2; exit 1; }
done
echo "ASan and UBSan canaries caught"
rm -rf "$logs/canary"

# level name -> the cap that selects it (tests/_platform/test_isa.py LEVEL_CAPS); "" = no cap
levels=$("$py" - <<'PY'
import dnnl._platform.isa as I, dnnl._kernels as K
built = [l for l in I.kernel_levels() if not l or K.level_file(l, "dnnl.primitives.reorder.kernel")]
print(" ".join(l or "baseline" for l in built))
PY
)
echo "kernel levels this CPU runs: $levels"
best=${levels%% *}

failed=0
run() {   # run <what> <cap or ""> pytest-args...
    local what="$1" cap="$2"; shift 2
    step "$what${cap:+ (ONEDNN_MAX_CPU_ISA=$cap)}"
    local level
    level=$(ONEDNN_MAX_CPU_ISA="$cap" "$py" -c "import dnnl._kernels as K; K.load('dnnl.primitives.reorder.kernel'); print(K.level or 'baseline')")
    echo "kernel level: $level"
    # both cores (pytest-xdist): each worker loads the plugin and inherits the
    # preloaded runtimes and their log paths
    ONEDNN_MAX_CPU_ISA="$cap" "$py" -m pytest -q -p sanitize_alloc -p no:cacheprovider \
        -o addopts="--strict-markers" -n "$jobs" --durations=10 "$@" tests || failed=1
}

declare -A cap_of=([baseline]=sse41 [x86_64_v3]=avx2 [x86_64_v4]="")
# the best level: every test of the compiled code (the kernels, the reorder
# API and plans, the array functions on every view, edge cases, bad input,
# special values against the numpy references, the bad-input fuzzer); the
# lower levels are run by this script, not by test_isa's subprocesses
# (not the package's own tests: benchdnn's driver, the installed files)
DNNL_FUZZ_CASES="$fuzz_cases" run "kernels and compiled code, best level; the fuzzer's $fuzz_cases cases" "" \
    -m "(kernels or compiled) and not package" \
    --deselect tests/_platform/test_isa.py::test_kernel_tests_pass_at_lower_levels
# the lower levels differ in vector width (loop tails, vectorised loops): the
# same kernel tests, the hypothesis ones with the quick profile (their
# examples searched at the best level)
for level in $levels; do
    [ "$level" = "$best" ] && continue
    [ "$quick" = 1 ] && [ "$level" != baseline ] && continue
    DNNL_TEST_PROFILE=quick run "kernel tests, level $level" "${cap_of[$level]}" -m kernels
done

step "sanitizer reports"
unset LD_PRELOAD
# allocator_may_return_null=1 still logs each refused allocation (the fuzzer's
# absurd sizes, which dnnl reports as out_of_memory): a warning, not a report
refused="WARNING: AddressSanitizer failed to allocate 0x[0-9a-f]* bytes"
n_refused=$(cat "$logs"/* 2>/dev/null | grep -c "$refused" || true)
echo "refused allocations (expected, from the bad-input tests): $n_refused"
reports=""
for f in $(find "$logs" -type f | sort); do
    grep -v -e "^==[0-9]*==$refused\$" -e '^$' "$f" | grep -q . && reports="$reports $f"
done
if [ -n "$reports" ]; then
    for f in $reports; do printf '\n--- %s\n' "$f"; cat "$f"; done
    echo "sanitize.sh: $(echo $reports | wc -w) sanitizer report file(s)" >&2
    failed=1
else
    echo "no sanitizer report"
fi
[ "$failed" = 0 ] && step "passed" || step "FAILED"
exit "$failed"
}

main "$@"
