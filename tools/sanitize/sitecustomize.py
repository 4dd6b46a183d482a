"""Run at the start of every Python process of tools/sanitize.sh (this folder is
on its PYTHONPATH): UBSan's reports go to the file UBSAN_OPTIONS names.

With ASan and UBSan in one process (gcc's -fsanitize=address,undefined), the
UBSan runtime (libubsan, its own copy of the sanitizer common code) ignores
``log_path`` in UBSAN_OPTIONS and writes to stderr, which pytest captures and
drops for a passing test. Setting the path through libubsan's own
``__sanitizer_set_report_path`` makes it write ``<log_path>.<pid>`` as it
does on its own. tools/sanitize.sh checks that it works (its UBSan canary
goes through here). Does nothing where no UBSan runtime is loaded.
"""
import ctypes
import os


def _ubsan_log_path():
    for item in os.environ.get("UBSAN_OPTIONS", "").split(":"):
        key, _, value = item.partition("=")
        if key == "log_path" and value:
            return value
    return None


def _set_ubsan_report_path():
    path = _ubsan_log_path()
    if not path:
        return
    try:
        # already loaded (LD_PRELOAD): RTLD_NOLOAD hands back that copy, loads nothing
        lib = ctypes.CDLL("libubsan.so.1", mode=os.RTLD_NOLOAD | os.RTLD_NOW)
    except OSError:
        return
    lib.__sanitizer_set_report_path.argtypes = [ctypes.c_char_p]
    lib.__sanitizer_set_report_path(os.fsencode(path))


_set_ubsan_report_path()
