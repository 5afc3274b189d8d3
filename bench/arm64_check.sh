#!/usr/bin/env bash
# The table on the Pi's OS and processor, checked on an x86-64 machine: a Debian bookworm arm64 root
# (debootstrap, run through qemu-user-static and binfmt_misc), the table role installed in it exactly
# as systemd/install.sh does it on a Pi, then the table's tests and a whole press script through the
# mock pins with SDL's dummy drivers, all as arm64 code. Every wheel must install without compiling.
#
#   sudo bench/arm64_check.sh [--fresh] [--work DIR] [--mirror URL] [--quick]
#
# --fresh rebuilds the base root (debootstrap, a few minutes); otherwise a base root left by an
# earlier run is copied. --quick runs the install and the press script, not the tests. Needs root
# (debootstrap, chroot, binfmt_misc). Figures and the last result: docs/reliability.md,
# "The table on arm64".
set -euo pipefail

SRC="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
WORK=/var/tmp/courtside-arm64
MIRROR="$(sed -n 's/^URIs: *\(http[^ ]*debian\)$/\1/p' /etc/apt/sources.list.d/debian.sources 2>/dev/null | head -n 1)"
MIRROR="${MIRROR:-http://deb.debian.org/debian}"
FRESH=0 QUICK=0
while [ $# -gt 0 ]; do
    case "$1" in
        --fresh) FRESH=1 ;;
        --quick) QUICK=1 ;;
        --work) WORK="${2:?}"; shift ;;
        --mirror) MIRROR="${2:?}"; shift ;;
        -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
        *) echo "arm64_check: unknown option $1" >&2; exit 2 ;;
    esac
    shift
done
[ "$(id -u)" = 0 ] || { echo "arm64_check: needs root (debootstrap, chroot, binfmt_misc)" >&2; exit 2; }

BASE="$WORK/base" ROOTFS="$WORK/root" LOG="$WORK/log"
mkdir -p "$WORK" "$LOG"
began=$(date +%s)
step_began=$began
step() {
    local now; now=$(date +%s)
    [ -z "${STEP:-}" ] || echo "arm64_check: $STEP: $((now - step_began)) s" | tee -a "$LOG/steps"
    STEP="$1" step_began=$now
    echo "arm64_check: -- $1"
}
fail() { echo "arm64_check: FAILED at $STEP: $*" | tee -a "$LOG/steps" >&2; exit 1; }
: >"$LOG/steps"

step "host tools (debootstrap, qemu-user-static, binfmt-support)"
need=()
for pkg in debootstrap qemu-user-static binfmt-support; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || need+=("$pkg")
done
if [ ${#need[@]} -gt 0 ]; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}"
fi

step "binfmt_misc runs arm64 binaries through qemu"
[ -e /proc/sys/fs/binfmt_misc/status ] || mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc ||
    fail "cannot mount binfmt_misc (a container without the privilege to: run on a VM or the host)"
update-binfmts --enable qemu-aarch64 >/dev/null 2>&1 || true
grep -q '^enabled' /proc/sys/fs/binfmt_misc/qemu-aarch64 2>/dev/null ||
    fail "qemu-aarch64 is not registered in binfmt_misc (update-binfmts --enable qemu-aarch64)"
# F (fix binary): the kernel holds the interpreter open, so it works inside the chroot without a copy.
grep -q '^flags: .*F' /proc/sys/fs/binfmt_misc/qemu-aarch64 || fail "qemu-aarch64 lacks binfmt's F flag"

if [ "$FRESH" = 1 ] || [ ! -f "$BASE/.complete" ]; then
    step "debootstrap bookworm arm64 from $MIRROR, and systemd in it"
    rm -rf "$BASE"
    debootstrap --arch=arm64 --variant=minbase bookworm "$BASE" "$MIRROR" >"$LOG/debootstrap" 2>&1 ||
        fail "debootstrap (see $LOG/debootstrap)"
    # What Raspberry Pi OS Lite has before install.sh and a minimal Debian lacks: systemd.
    for m in proc sys dev; do mount --bind "/$m" "$BASE/$m"; done
    cp /etc/resolv.conf "$BASE/etc/resolv.conf"
    { chroot "$BASE" apt-get update -qq &&
        chroot "$BASE" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends systemd &&
        chroot "$BASE" apt-get clean; } >"$LOG/apt-base" 2>&1 || { umount -l "$BASE"/{proc,sys,dev}; fail "systemd in the base (see $LOG/apt-base)"; }
    umount -l "$BASE"/{proc,sys,dev}
    touch "$BASE/.complete"
fi

cleanup() {
    for m in dev/shm dev/pts dev sys proc; do mountpoint -q "$ROOTFS/$m" && umount -l "$ROOTFS/$m"; done
    return 0
}
trap cleanup EXIT
step "a fresh copy of the base root"
cleanup
rm -rf "$ROOTFS"
cp -a "$BASE" "$ROOTFS"
[ "$(chroot "$ROOTFS" uname -m)" = aarch64 ] || fail "the chroot does not run as aarch64"
mount -t proc proc "$ROOTFS/proc"
mount -t sysfs sys "$ROOTFS/sys"
mount --bind /dev "$ROOTFS/dev"
mount --bind /dev/pts "$ROOTFS/dev/pts"
mount --bind /dev/shm "$ROOTFS/dev/shm"  # a tmpfs, as on a Pi (the table's RAM heartbeat; a test of it)
cp /etc/resolv.conf "$ROOTFS/etc/resolv.conf"
# The host's own extra certificate authorities (a network that inspects TLS has one): the chroot's
# ca-certificates takes them in when install.sh installs it, so pip reaches PyPI as the host's pip does.
if compgen -G "/usr/local/share/ca-certificates/*.crt" >/dev/null; then
    mkdir -p "$ROOTFS/usr/local/share/ca-certificates"
    cp /usr/local/share/ca-certificates/*.crt "$ROOTFS/usr/local/share/ca-certificates/"
fi
# No daemon starts inside the chroot (mosquitto, systemd's own); apt still configures them.
printf '#!/bin/sh\nexit 101\n' >"$ROOTFS/usr/sbin/policy-rc.d"
chmod 755 "$ROOTFS/usr/sbin/policy-rc.d"
in_root() { chroot "$ROOTFS" /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    HOME=/root LANG=C.UTF-8 "$@"; }

step "the source, as a clone holds it"
mkdir -p "$ROOTFS/tmp/courtside-src"
if git -C "$SRC" rev-parse --git-dir >/dev/null 2>&1; then
    # What is committed and what is changed, nothing untracked-and-ignored (no venv, no caches).
    git -C "$SRC" ls-files -z --cached --others --exclude-standard |
        (cd "$SRC" && xargs -0 tar --ignore-failed-read -cf - 2>/dev/null) | tar -C "$ROOTFS/tmp/courtside-src" -xf -
else
    tar -C "$SRC" --exclude=./.venv --exclude=__pycache__ -cf - . | tar -C "$ROOTFS/tmp/courtside-src" -xf -
fi

step "systemd/install.sh --role table (apt, account, venv with courtside[table], units)"
# PIP_ONLY_BINARY: a package without an arm64 wheel fails here instead of compiling for minutes on a Pi.
in_root env PIP_ONLY_BINARY=:all: PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_CERT=/etc/ssl/certs/ca-certificates.crt \
    bash /tmp/courtside-src/systemd/install.sh --role table --court 1 --rules indoor-hockey \
    >"$LOG/install" 2>&1 || fail "install.sh (see $LOG/install)"
grep -q "python3-lgpio is not in this system's package archives" "$LOG/install" ||
    in_root dpkg-query -W python3-lgpio >/dev/null 2>&1 || fail "python3-lgpio neither installed nor reported missing"
[ "$(in_root systemctl is-enabled courtside-table.service)" = enabled ] || fail "the table's unit is not enabled"
[ "$(in_root systemctl get-default)" = multi-user.target ] || fail "the boot does not end at the console"
in_root test -f /etc/systemd/system.conf.d/courtside-watchdog.conf || fail "no hardware watchdog setting"
in_root systemd-analyze verify /etc/systemd/system/courtside-table.service >"$LOG/verify" 2>&1 ||
    fail "systemd-analyze verify of the installed unit (see $LOG/verify)"
wheels="$(in_root /opt/courtside/venv/bin/pip list --format=freeze 2>/dev/null | tr '\n' ' ')"
echo "arm64_check: venv: $wheels" | tee -a "$LOG/steps"
in_root /opt/courtside/venv/bin/python -c 'import pygame, gpiozero, paho.mqtt, platform; print(platform.machine(), pygame.version.ver)' |
    tee -a "$LOG/steps"

step "a whole press script through the mock pins, drawn by pygame with SDL's dummy drivers"
script=/opt/courtside/src/firmware/scripts/indoor-hockey.txt
in_root env SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy /opt/courtside/venv/bin/courtside table \
    --rules indoor-hockey --court 1 --pins mock --journal /tmp/press-journal --script "$script" --format json \
    >"$LOG/press.json" 2>"$LOG/press.log" || fail "the press script (see $LOG/press.log)"
grep -q "no screen" "$LOG/press.log" && fail "pygame did not draw (see $LOG/press.log)"
if [ -x "$SRC/.venv/bin/courtside" ]; then
    # The same script on this machine's x86-64 build must end in the very same state.
    tmp="$(mktemp -d)"
    (cd "$SRC" && .venv/bin/courtside table --rules indoor-hockey --court 1 --pins mock --headless \
        --journal "$tmp/j" --script firmware/scripts/indoor-hockey.txt --format json >"$LOG/press-x86.json" 2>/dev/null)
    rm -rf "$tmp"
    cmp -s "$LOG/press.json" "$LOG/press-x86.json" || fail "arm64 and x86-64 end the script differently"
    echo "arm64_check: the press script ends as on x86-64" | tee -a "$LOG/steps"
fi

step "the table's start-up under emulation (courtside table, a one-line script, dummy SDL)"
printf '0 wait\n' >"$ROOTFS/tmp/one-line.txt"
# Wall time on a shared machine is mostly the load; the CPU time (qemu's, the process's children) compares.
TIMEFORMAT='%R s wall, %U+%S s CPU'
for i in 1 2 3 4; do
    figure="$( { time in_root env SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy /opt/courtside/venv/bin/courtside \
        table --rules indoor-hockey --court 1 --pins mock --journal "/tmp/startup-$i" --script /tmp/one-line.txt \
        >/dev/null 2>&1 || fail "start-up run $i"; } 2>&1 )"
    echo "arm64_check: start-up run $i: $figure (load $(cut -d' ' -f1 /proc/loadavg))" | tee -a "$LOG/steps"
done

if [ "$QUICK" = 0 ]; then
    step "the table's tests (pytest in the arm64 venv)"
    # faketime: the tests that start the table with its wall clock years off (Debian's, arm64 too).
    in_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends faketime \
        >"$LOG/pytest-install" 2>&1 || fail "installing faketime (see $LOG/pytest-install)"
    in_root env PIP_ONLY_BINARY=:all: PIP_CERT=/etc/ssl/certs/ca-certificates.crt /opt/courtside/venv/bin/pip install --quiet pytest==9.0.3 pytest-benchmark==5.2.3 \
        >>"$LOG/pytest-install" 2>&1 || fail "installing pytest (see $LOG/pytest-install)"
    # Not here: link and nodelay (they start the standings service: the server role), the kill and power-cut
    # campaigns (long; strace cannot trace under qemu-user, which has no ptrace).
    tests="$(cd "$ROOTFS/opt/courtside/src" && ls tests/test_firmware_*.py | grep -v -e _link -e _nodelay -e _kill -e _power_cut | tr '\n' ' ')"
    in_root bash -c "cd /opt/courtside/src && /opt/courtside/venv/bin/python -m pytest -q -p no:cacheprovider $tests" \
        >"$LOG/pytest" 2>&1 || { tail -n 30 "$LOG/pytest"; fail "the table's tests (see $LOG/pytest)"; }
    tail -n 1 "$LOG/pytest" | tee -a "$LOG/steps"
fi

step "done"
echo "arm64_check: PASSED in $(( $(date +%s) - began )) s; steps in $LOG/steps" | tee -a "$LOG/steps"
