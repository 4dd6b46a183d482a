# Shared by tools/check_pythons.sh and tools/build_manylinux.sh (sourced, not run):
# a Debian root made with debootstrap, entered with chroot, whose pip reaches
# the same package index as the host's (tools/check_aarch64.sh does the same
# for its arm64 root).
#
#   root_make ROOT SUITE PACKAGES   debootstrap SUITE (minbase + PACKAGES,
#                                   comma-separated) into ROOT, once (a marker
#                                   file says it finished; a half-made ROOT is
#                                   made again);
#   root_enter ROOT                 bind-mount /proc /dev /sys (unmounted on
#                                   exit, by root_unmount), copy the host's resolv.conf,
#                                   pip.conf (and the CA file it names) and
#                                   extra CA certificates in;
#   inside CMD...                   run CMD in ROOT with a clean environment;
#   root_install PACKAGE...         apt-get install inside, the missing ones;
#   root_put_checkout REPO DIR      the checkout's files (tracked and untracked,
#                                   not ignored: no build outputs) into a fresh
#                                   ROOT/DIR; the files of the sdist DNNL_SDIST
#                                   instead when that names one;
#   root_newest_python              the newest 3.X of the root's python3.X-dev;
#   root_unmount ROOT               unmount whatever is mounted inside ROOT (a
#                                   run cut off before its exit trap leaves its
#                                   bind mounts behind).
# DEBIAN_MIRROR overrides the mirror (default: the host's, else deb.debian.org).

step() { printf '\n=== %s\n' "$*"; }

host_mirror() {
    # the host's Debian mirror (deb822 sources or sources.list), else deb.debian.org
    local url
    url=$(grep -hs '^URIs:' /etc/apt/sources.list.d/*.sources | awk '{print $2}' \
          | grep -E '/debian/?$' | head -n1 || true)
    [ -n "$url" ] || url=$(grep -hs '^deb ' /etc/apt/sources.list | awk '{print $2}' \
          | grep -E '/debian/?$' | head -n1 || true)
    echo "${url:-http://deb.debian.org/debian}"
}

root_make() {
    local root="$1" suite="$2" packages="$3"
    [ "$(id -u)" = 0 ] || { echo "run as root (debootstrap, chroot, mounts)" >&2; exit 2; }
    if ! command -v debootstrap >/dev/null; then
        apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q debootstrap
    fi
    if [ ! -e "$root/.debootstrap-done" ]; then
        step "debootstrap $suite into $root"
        # never through a mount: a half-made root of a cut-off run may still
        # have the host's /proc, /dev or /sys bound inside it
        root_unmount "$root"
        rm -rf --one-file-system "$root"
        mkdir -p "$root"
        nice -n 10 debootstrap --variant=minbase --include="$packages,ca-certificates" \
            "$suite" "$root" "${DEBIAN_MIRROR:-$(host_mirror)}"
        touch "$root/.debootstrap-done"
        ROOT_FRESH=1
    fi
}

root_enter() {
    root="$1"       # (global: inside and the exit trap read it)
    local d cert
    for d in proc dev sys; do
        mountpoint -q "$root/$d" || mount --bind "/$d" "$root/$d"
    done
    # (the path written into the trap: it runs after the caller's locals are gone)
    trap "root_unmount '$root'" EXIT
    cp -L /etc/resolv.conf "$root/etc/resolv.conf"
    if [ -f /etc/pip.conf ]; then
        cp /etc/pip.conf "$root/etc/pip.conf"
        # a CA file pip.conf names, at the same path inside
        cert=$(sed -n 's/^ *cert *= *//p' /etc/pip.conf | head -n1)
        if [ -n "$cert" ] && [ -f "$cert" ] && [ "$cert" != /etc/ssl/certs/ca-certificates.crt ]; then
            mkdir -p "$root$(dirname "$cert")" && cp -L "$cert" "$root$cert"
        fi
    fi
    if compgen -G "/usr/local/share/ca-certificates/*" >/dev/null; then
        mkdir -p "$root/usr/local/share/ca-certificates"
        cp -r /usr/local/share/ca-certificates/. "$root/usr/local/share/ca-certificates/"
    fi
    inside update-ca-certificates >/dev/null 2>&1 || true
}

root_unmount() {
    # every mount at or below ROOT, deepest first, detached lazily
    local target
    [ -d "$1" ] || return 0
    findmnt -rn -o TARGET | awk -v r="$(realpath "$1")" 'index($0, r "/") == 1' \
        | sort -r | while read -r target; do
            umount -l "$target" 2>/dev/null || true
        done
}

root_install() {
    # apt-get install PACKAGES... inside, when one is missing
    local missing=() p
    for p in "$@"; do
        inside dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
    done
    if [ "${#missing[@]}" -gt 0 ]; then
        step "apt-get install ${missing[*]} (inside)"
        # (a mirror's snapshot may be past its Release file's Valid-Until)
        inside apt-get -o Acquire::Check-Valid-Until=false update -q
        inside env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}"
    fi
}

inside() {
    chroot "$root" /usr/bin/env -i HOME=/root LANG=C.UTF-8 \
        PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin "$@"
}

root_put_checkout() {
    local repo="$1" dest="$root$2"
    rm -rf "$dest" && mkdir -p "$dest"
    if [ -n "${DNNL_SDIST:-}" ]; then       # the sdist's files instead (.ci/run)
        tar -xzf "$DNNL_SDIST" -C "$dest" --strip-components=1
        # the suite runner, which the sdist does not carry (it runs the
        # sdist's tests, docs and examples)
        mkdir -p "$dest/.ci" && cp "$repo/.ci/suite" "$dest/.ci/suite"
        return
    fi
    (cd "$repo" && git ls-files -z --cached --others --exclude-standard \
        | xargs -0 -r sh -c 'for f; do [ -f "$f" ] && printf "%s\0" "$f"; done' sh \
        | tar --null -T - -cf -) | tar -x -C "$dest"
}

root_newest_python() {
    # the newest python3.X whose -dev package the root's suite carries
    inside apt-cache pkgnames python3. | sed -n 's/^python\(3\.[0-9]*\)-dev$/\1/p' \
        | sort -V | tail -n 1
}
