#!/usr/bin/env bash
# Take a fresh Raspberry Pi OS Lite (Debian) to a working courtside table, screen-only node or
# central server: packages, a virtual environment, the account, the configuration, the units.
# Safe to run again: it changes only what differs and keeps what an operator edited (the button
# map, credentials) unless told otherwise. See systemd/README.md.
set -euo pipefail

usage() {
    cat <<'EOF'
usage: install.sh --role table|display|server [options]

  --role ROLE               table (buttons + screen), display (screen-only node) or server
  --court ID                this court's id, as the tournament file names it (table, display)
  --rules NAME|FILE         ruleset (table; default: the tournament file's)
  --tournament FILE         the tournament file, copied to /var/lib/courtside/tournament.toml
  --buttons FILE            the button map (table; default: keep the installed one, else the shipped default)
  --broker URL              the broker (default mqtt://courtside-server.local:1883)
  --broker-user NAME        this node's broker account ...
  --broker-password-file F  ... and the file holding its password (stored root-only, 0600)
  --db URL                  server database (default sqlite:////var/lib/courtside/courtside.db)
  --http HOST:PORT          server web address (default 127.0.0.1:8080 behind Caddy; 0.0.0.0:8080 with --trusted-lan)
  --site NAME               server: the name the phones open, served by Caddy over HTTPS (default courtside.local)
  --tls internal|EMAIL      server: Caddy's own certificate authority (a LAN; default) or ACME with this e-mail
                            address (a public name that ports 80 and 443 reach)
  --trusted-lan             server: no Caddy; the desk over plain HTTP on --http (only on a network the
                            organisers alone can join)
  --source DIR              the courtside source tree (default: the one holding this script)
  --prefix DIR              install below DIR instead of / (also: DESTDIR=DIR); no service is started
  --read-only-root          table: make the root read-only (Raspberry Pi OS's overlay file system) at the
                            next boot; /var/lib/courtside must be its own partition (hardware.md)
  --no-apt                  do not install Debian packages
  --no-venv                 do not create or update the virtual environment
  --dry-run                 print what would change, change nothing
EOF
}

# Percent-encode a user name or password for a URL (RFC 3986 unreserved characters stay).
urlencode() {
    local text="$1" out="" c i
    for ((i = 0; i < ${#text}; i++)); do
        c="${text:i:1}"
        case "$c" in [A-Za-z0-9._~-]) out+="$c" ;; *) out+="$(printf '%%%02X' "'$c")" ;; esac
    done
    printf '%s' "$out"
}
die() { echo "install.sh: $*" >&2; exit 2; }
say() { echo "install.sh: $*"; }

ROLE="" COURT="" RULES="" TOURNAMENT="" BUTTONS="" BROKER="" BROKER_USER="" BROKER_PASSWORD_FILE=""
DB="" HTTP="" SOURCE="" PREFIX="${DESTDIR:-}" APT=1 VENV=1 DRY=0 READ_ONLY_ROOT=0
SITE="" TLS="" TRUSTED_LAN=0  # the server's front
while [ $# -gt 0 ]; do
    case "$1" in
        --role) ROLE="${2:?}"; shift ;;
        --court) COURT="${2:?}"; shift ;;
        --rules) RULES="${2:?}"; shift ;;
        --tournament) TOURNAMENT="${2:?}"; shift ;;
        --buttons) BUTTONS="${2:?}"; shift ;;
        --broker) BROKER="${2:?}"; shift ;;
        --broker-user) BROKER_USER="${2:?}"; shift ;;
        --broker-password-file) BROKER_PASSWORD_FILE="${2:?}"; shift ;;
        --db) DB="${2:?}"; shift ;;
        --http) HTTP="${2:?}"; shift ;;
        --site) SITE="${2:?}"; shift ;;
        --tls) TLS="${2:?}"; shift ;;
        --trusted-lan) TRUSTED_LAN=1 ;;
        --source) SOURCE="${2:?}"; shift ;;
        --prefix) PREFIX="${2:?}"; shift ;;
        --read-only-root) READ_ONLY_ROOT=1 ;;
        --no-apt) APT=0 ;;
        --no-venv) VENV=0 ;;
        --dry-run) DRY=1 ;;
        -h|--help) usage; exit 0 ;;
        *) usage >&2; die "unknown option: $1" ;;
    esac
    shift
done

case "$ROLE" in table|display|server) ;; *) usage >&2; die "--role must be table, display or server" ;; esac
SOURCE="${SOURCE:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}"
[ -f "$SOURCE/pyproject.toml" ] || die "--source $SOURCE: no pyproject.toml there (not a courtside tree)"
PREFIX="${PREFIX%/}"   # "" means the real root
ROOT="${PREFIX:-/}"
APP=/opt/courtside          # program: source copy and venv (may sit on a read-only root)
STATE=/var/lib/courtside    # journal and configuration: the writable data partition
UNITS=/etc/systemd/system
ACCOUNT=courtside

# Every change goes through run(): --dry-run prints it instead.
run() {
    if [ "$DRY" = 1 ]; then echo "would run: $*"; else "$@"; fi
}

# write_file PATH MODE: stdin to PATH (below the prefix) only when the content differs.
write_file() {
    local dest="$PREFIX$1" mode="$2" tmp
    tmp="$(mktemp)"
    cat >"$tmp"
    if [ -f "$dest" ] && cmp -s "$tmp" "$dest"; then
        rm -f "$tmp"
        [ "$DRY" = 1 ] || chmod "$mode" "$dest"
        return 0
    fi
    if [ "$DRY" = 1 ]; then echo "would write: $dest (mode $mode)"; rm -f "$tmp"; return 0; fi
    mkdir -p "$(dirname "$dest")"
    install -m "$mode" "$tmp" "$dest"
    rm -f "$tmp"
    say "wrote $dest"
}

# The values of an earlier run are the defaults of this one, so a re-run keeps them.
env_file="$STATE/$ROLE.env"
old() {
    [ -f "$PREFIX$env_file" ] || return 0
    sed -n "s/^$1=//p" "$PREFIX$env_file" | tail -n 1
}

# 1. Debian packages. python3-lgpio is the GPIO library of the Pi 5 (and works on older Pis);
#    the venv sees it through --system-site-packages. SDL's KMS/DRM and ALSA come with pygame-ce's wheel.
packages=(python3 python3-venv python3-pip ca-certificates)
case "$ROLE" in
    table) packages+=(python3-lgpio libgpiod2 alsa-utils fonts-dejavu-core) ;;
    display) packages+=(fonts-dejavu-core) ;;
    server) packages+=(mosquitto mosquitto-clients sqlite3 openssl caddy) ;;
esac
if [ "$APT" = 1 ]; then
    [ -z "$PREFIX" ] || die "--prefix installs no packages; add --no-apt"
    run apt-get update
    # python3-lgpio is not in plain Debian: it comes from Raspberry Pi OS's own archive
    # (archive.raspberrypi.com, configured on every Raspberry Pi OS image). Without it the rest is
    # installed and the table runs with --pins mock only (bench/arm64_check.sh installs so on Debian).
    if [ "$ROLE" = table ] && ! apt-cache policy python3-lgpio 2>/dev/null | grep -q 'Candidate: [0-9]'; then
        say "python3-lgpio is not in this system's package archives: it comes from Raspberry Pi OS's archive"
        say "  (http://archive.raspberrypi.com/debian bookworm main); add that archive for the GPIO buttons."
        say "  Installing the rest; until then the table runs with --pins mock only."
        kept=()
        for p in "${packages[@]}"; do [ "$p" = python3-lgpio ] || kept+=("$p"); done
        packages=("${kept[@]}")
    fi
    run env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${packages[@]}"
    [[ "$DB" != postgresql* ]] || run env DEBIAN_FRONTEND=noninteractive apt-get install -y postgresql
else
    say "skipping Debian packages (--no-apt): ${packages[*]}"
fi

# 2. The account: no login, no home but the state directory, in the groups of the devices it uses.
case "$ROLE" in
    table) groups=(gpio video input audio render) ;;
    display) groups=(video input render) ;;
    server) groups=() ;;
esac
if [ -z "$PREFIX" ]; then
    for g in "${groups[@]}"; do getent group "$g" >/dev/null || run groupadd --system "$g"; done
    if ! getent passwd "$ACCOUNT" >/dev/null; then
        run useradd --system --user-group --home-dir "$STATE" --no-create-home --shell /usr/sbin/nologin "$ACCOUNT"
    fi
    [ "${#groups[@]}" = 0 ] || run usermod -a -G "$(IFS=,; echo "${groups[*]}")" "$ACCOUNT"
else
    say "skipping the '$ACCOUNT' account below a prefix (groups it needs: ${groups[*]:-none})"
fi

# 3. The program: a copy of the source and a venv with the role's extra.
if [ "$DRY" = 1 ]; then
    echo "would copy: $SOURCE -> $PREFIX$APP/src"
else
    mkdir -p "$PREFIX$APP/src"
    tar -C "$SOURCE" --exclude=./.git --exclude=./.venv --exclude='*.egg-info' --exclude=__pycache__ \
        --exclude=.pytest_cache --exclude=.mypy_cache --exclude=.ruff_cache -cf - . | tar -C "$PREFIX$APP/src" -xf -
fi
extra="$ROLE"
[ "$ROLE" != display ] || extra=table
if [ "$VENV" = 1 ]; then
    [ -x "$PREFIX$APP/venv/bin/python" ] || run python3 -m venv --system-site-packages "$PREFIX$APP/venv"
    run "$PREFIX$APP/venv/bin/pip" install --quiet --upgrade "$PREFIX$APP/src[$extra]"
else
    say "skipping the virtual environment (--no-venv); it would hold courtside[$extra]"
fi

# 4. Configuration on the data partition.
run mkdir -p "$PREFIX$STATE/journal"
if [ -n "$TOURNAMENT" ]; then
    [ -f "$TOURNAMENT" ] || die "--tournament $TOURNAMENT: no such file"
    write_file "$STATE/tournament.toml" 0640 <"$TOURNAMENT"
fi
tournament_path="$STATE/tournament.toml"
COURT="${COURT:-$(old COURTSIDE_COURT)}"
RULES="${RULES:-$(old COURTSIDE_RULES)}"
BROKER="${BROKER:-$(old COURTSIDE_BROKER)}"
BROKER="${BROKER:-mqtt://courtside-server.local:1883}"
if [ -z "$RULES" ] && [ -f "$PREFIX$tournament_path" ]; then
    RULES="$(sed -n 's/^ruleset *= *"\(.*\)".*/\1/p' "$PREFIX$tournament_path" | head -n 1)"
fi
case "$ROLE" in
    table)
        [ -n "$COURT" ] || die "--court is required for a table (the court's name in the tournament file)"
        [ -n "$RULES" ] || die "--rules is required when no tournament file names the ruleset"
        # Without a tournament file the table plays friendly matches (Home v Away).
        table_tournament=""
        if [ -n "$TOURNAMENT" ] || [ -f "$PREFIX$tournament_path" ]; then
            table_tournament="--tournament $tournament_path"
        fi
        write_file "$env_file" 0640 <<EOF
# courtside table settings (systemd/install.sh); the unit reads them at start.
COURTSIDE_COURT=$COURT
COURTSIDE_RULES=$RULES
COURTSIDE_TOURNAMENT_ARGS=$table_tournament
COURTSIDE_BROKER=$BROKER
EOF
        if [ -n "$BUTTONS" ]; then
            [ -f "$BUTTONS" ] || die "--buttons $BUTTONS: no such file"
            write_file "$STATE/buttons.toml" 0640 <"$BUTTONS"
        elif [ ! -f "$PREFIX$STATE/buttons.toml" ]; then
            # The 12-button table's default map (firmware/buttons.toml), for the operator to adapt.
            [ -f "$SOURCE/firmware/buttons.toml" ] || die "no firmware/buttons.toml in $SOURCE; give a map with --buttons"
            write_file "$STATE/buttons.toml" 0640 <"$SOURCE/firmware/buttons.toml"
        fi
        ;;
    display)
        [ -n "$COURT" ] || die "--court is required for a screen-only node"
        [ -n "$TOURNAMENT" ] || [ -f "$PREFIX$tournament_path" ] || die "--tournament is required for a screen-only node (team names, language)"
        write_file "$env_file" 0640 <<EOF
# courtside screen-only node settings (systemd/install.sh).
COURTSIDE_COURT=$COURT
COURTSIDE_BROKER=$BROKER
COURTSIDE_TOURNAMENT=$tournament_path
EOF
        ;;
    server)
        [ -n "$TOURNAMENT" ] || [ -f "$PREFIX$tournament_path" ] || die "--tournament is required for the server (none installed yet)"
        DB="${DB:-$(old COURTSIDE_DB)}"
        # A re-run keeps --trusted-lan unless told a site or TLS this time.
        if [ -z "$SITE$TLS" ] && [[ "$(old COURTSIDE_SERVER_ARGS)" == *--trusted-lan* ]]; then TRUSTED_LAN=1; fi
        # The earlier address is kept when it suits the mode: loopback behind Caddy, any other without it.
        old_http="$(old COURTSIDE_HTTP)"
        if [ -z "$HTTP" ] && [ -n "$old_http" ]; then
            case "$old_http" in
                127.0.0.1:*|localhost:*|\[::1\]:*) [ "$TRUSTED_LAN" = 1 ] || HTTP="$old_http" ;;
                *) [ "$TRUSTED_LAN" = 0 ] || HTTP="$old_http" ;;
            esac
        fi
        if [ "$TRUSTED_LAN" = 1 ]; then
            HTTP="${HTTP:-0.0.0.0:8080}" server_args="--trusted-lan"
        else
            HTTP="${HTTP:-127.0.0.1:8080}" server_args="--trusted-proxy 127.0.0.1"
        fi
        # The broker account: the one given, else the one an earlier run set up.
        server_user="${BROKER_USER:-$(old COURTSIDE_SERVER_ARGS | sed -n 's/.*--broker-user \([^ ]*\).*/\1/p')}"
        [ -z "$server_user" ] || server_args+=" --broker-user $server_user"
        write_file "$env_file" 0640 <<EOF
# courtside server settings (systemd/install.sh). No password here: see courtside-server.service.
COURTSIDE_TOURNAMENT=$tournament_path
COURTSIDE_BROKER=$BROKER
COURTSIDE_DB=${DB:-sqlite:///$STATE/courtside.db}
COURTSIDE_HTTP=$HTTP
COURTSIDE_SERVER_ARGS=$server_args
EOF
        ;;
esac
# Credentials: only when given, so a re-run without them keeps the installed ones. The programs
# take them in the broker URL (mqtt://user:password@host:port); this root-only file, read by
# systemd after ROLE.env, overrides COURTSIDE_BROKER with that URL.
if [ -n "$BROKER_USER" ] && [ "$ROLE" != server ]; then  # the server: a credential, in step 5b
    [ -f "$BROKER_PASSWORD_FILE" ] || die "--broker-password-file is required with --broker-user"
    password="$(head -n 1 "$BROKER_PASSWORD_FILE")"
    scheme="${BROKER%%://*}" hostport="${BROKER#*://}"
    hostport="${hostport#*@}"
    write_file "$STATE/mqtt.env" 0600 <<EOF
# This node's broker account; read by systemd (root) only, passed to the program in the broker URL.
COURTSIDE_BROKER=$scheme://$(urlencode "$BROKER_USER"):$(urlencode "$password")@$hostport
EOF
fi
if [ -z "$PREFIX" ] && [ "$DRY" = 0 ]; then
    chown -R "$ACCOUNT:$ACCOUNT" "$STATE"
    [ ! -f "$STATE/mqtt.env" ] || chown root:root "$STATE/mqtt.env"
fi

# 5. The unit, enabled at boot (below a prefix: enabled in that tree, nothing started).
unit="courtside-$ROLE.service"
write_file "$UNITS/$unit" 0644 <"$SOURCE/systemd/$unit"
if [ -n "$PREFIX" ]; then
    run systemctl --root="$PREFIX" enable "$unit"
elif [ ! -d /run/systemd/system ]; then
    # systemd is not running here (a chroot, an image being prepared): enabled, it starts at the next boot.
    run systemctl enable "$unit"
    say "systemd is not running here: $unit is enabled and starts at the next boot"
else
    run systemctl daemon-reload
    run systemctl enable "$unit"
    run systemctl restart "$unit"
fi

# 5b. The server's broker and front (systemd/README.md, "The server"): Mosquitto's files the mosquitto
#     user's own, the service's broker password handed over by systemd (never on a command line), and
#     Caddy in front of the pages with HTTPS unless --trusted-lan.
if [ "$ROLE" = server ]; then
    if [ -n "$BROKER_USER" ]; then
        [ -f "$BROKER_PASSWORD_FILE" ] || die "--broker-password-file is required with --broker-user"
        [ "$BROKER_PASSWORD_FILE" -ef "$PREFIX/etc/courtside/broker-password" ] ||
            head -n 1 "$BROKER_PASSWORD_FILE" | write_file /etc/courtside/broker-password 0600
    fi
    mq=/etc/mosquitto/courtside
    write_file "$mq/acl" 0600 <"$SOURCE/systemd/mosquitto/acl"
    write_file /etc/mosquitto/conf.d/courtside.conf 0644 <"$SOURCE/systemd/mosquitto/mosquitto.conf"
    if [ -z "$PREFIX" ] && [ "$DRY" = 0 ]; then
        if [ ! -f "$mq/tls/server.key" ]; then
            mkdir -p "$mq/tls"
            openssl req -x509 -newkey rsa:2048 -nodes -days 825 -subj "/CN=${SITE:-courtside.local}" \
                -keyout "$mq/tls/server.key" -out "$mq/tls/server.crt" 2>/dev/null
            cp "$mq/tls/server.crt" "$mq/tls/ca.crt"
            say "made a self-signed certificate for the broker's TLS listener: give $mq/tls/ca.crt to the tables"
        fi
        if [ ! -f "$mq/passwd" ] && [ ! -x "$APP/venv/bin/courtside" ]; then
            say "no $APP/venv yet (--no-venv): make the broker's password file later with 'courtside server passwords'"
        elif [ ! -f "$mq/passwd" ]; then
            # One account per court (passwords printed once, here) and the service's own, kept for systemd.
            service_pw="$(head -c 18 /dev/urandom | base64 | tr '+/' '-_')"
            "$APP/venv/bin/courtside" server passwords "$mq/passwd" --tournament "$PREFIX$tournament_path" \
                --service "courtside-server:$service_pw"
            install -d -m 0700 /etc/courtside
            printf '%s\n' "$service_pw" >/etc/courtside/broker-password
            chmod 0600 /etc/courtside/broker-password
            [ -n "$server_user" ] || sed -i 's/^COURTSIDE_SERVER_ARGS=.*/& --broker-user courtside-server/' "$PREFIX$env_file"
            say "the courts' broker passwords are printed above, once: put each in its table's --broker-password-file"
        fi
        for secret in "$mq/passwd" "$mq/acl" "$mq/tls/server.key"; do
            [ ! -f "$secret" ] || { chown mosquitto:mosquitto "$secret"; chmod 0600 "$secret"; }
        done
        chmod 0644 "$mq/tls/server.crt" "$mq/tls/ca.crt"
        run systemctl restart mosquitto
    else
        say "not made below a prefix: the broker's password file (courtside server passwords) and TLS key"
    fi
    if [ -f "$PREFIX/etc/courtside/broker-password" ] || [ -n "$BROKER_USER" ]; then
        write_file "$UNITS/courtside-server.service.d/broker.conf" 0644 <<'EOF'
# The service's broker password (systemd/install.sh): read by systemd, given to the service in
# $CREDENTIALS_DIRECTORY/broker-password, never on its command line.
[Service]
LoadCredential=broker-password:/etc/courtside/broker-password
EOF
        [ -n "$PREFIX" ] || run systemctl daemon-reload
        [ -n "$PREFIX" ] || run systemctl restart "$unit"
    fi
    if [ "$TRUSTED_LAN" = 0 ]; then
        front=/etc/default/caddy-courtside
        SITE="${SITE:-$(sed -n 's/^COURTSIDE_SITE=//p' "$PREFIX$front" 2>/dev/null || true)}"
        TLS="${TLS:-$(sed -n 's/^COURTSIDE_TLS=//p' "$PREFIX$front" 2>/dev/null || true)}"
        write_file "$front" 0644 <<EOF
# courtside's front (systemd/Caddyfile), written by systemd/install.sh.
COURTSIDE_SITE=${SITE:-courtside.local}
COURTSIDE_TLS=${TLS:-internal}
COURTSIDE_UPSTREAM=$HTTP
EOF
        write_file /etc/caddy/Caddyfile 0644 <"$SOURCE/systemd/Caddyfile"
        write_file /etc/systemd/system/caddy.service.d/courtside.conf 0644 <"$SOURCE/systemd/caddy-courtside.conf"
        if [ -z "$PREFIX" ]; then
            run systemctl daemon-reload
            run systemctl enable caddy
            run systemctl restart caddy
            run systemctl restart "$unit"
        fi
        say "the pages: https://${SITE:-courtside.local}/ (on a LAN, trust Caddy's root once on the organiser's device: systemd/README.md)"
    else
        say "WARNING: --trusted-lan: the desk works over plain HTTP on $HTTP; anyone on this network can read its passwords"
    fi
fi

# 6. The table's Pi itself: the hardware watchdog, the boot straight to the console, and (asked for)
#    the read-only root. hardware.md, "Power cuts, read-only root, watchdog and boot".
if [ "$ROLE" = table ]; then
    # systemd pets the SoC's watchdog (bcm2835-wdt takes at most about 15 s): a hung kernel or PID 1
    # reboots the Pi by itself; a reboot that hangs is forced after RebootWatchdogSec. The unit's
    # WatchdogSec covers the table's own loop.
    write_file /etc/systemd/system.conf.d/courtside-watchdog.conf 0644 <<'EOF'
# courtside table (systemd/install.sh): systemd pets the hardware watchdog.
[Manager]
RuntimeWatchdogSec=15s
RebootWatchdogSec=2min
EOF
    # No desktop: the boot ends at the console, where the table draws through KMS/DRM on tty1.
    if [ -n "$PREFIX" ]; then
        [ -L "$PREFIX/etc/systemd/system/default.target" ] ||
            run ln -sfn /lib/systemd/system/multi-user.target "$PREFIX/etc/systemd/system/default.target"
    else
        run systemctl set-default multi-user.target
    fi
    # The journal must reach the card: a folder in RAM (the overlay's upper layer, a tmpfs) loses it.
    data_fs="$(findmnt -n -o FSTYPE --target "$PREFIX$STATE" 2>/dev/null || true)"
    case "$data_fs" in
        overlay|tmpfs|ramfs) say "WARNING: $STATE is on $data_fs: a power cut loses the journal (hardware.md)" ;;
    esac
    if [ "$READ_ONLY_ROOT" = 1 ]; then
        [ -z "$PREFIX" ] || die "--read-only-root changes this Pi's boot: not below a prefix"
        [ "$(findmnt -n -o TARGET --target "$STATE" 2>/dev/null)" = "$STATE" ] ||
            die "--read-only-root: $STATE is not its own partition; under the overlay it would live in RAM and a power cut would lose the journal (hardware.md, \"A data partition\")"
        command -v raspi-config >/dev/null || die "--read-only-root: no raspi-config (Raspberry Pi OS only; see hardware.md)"
        run raspi-config nonint enable_overlayfs
        # recurse=0: the overlay covers the root only; the data partition stays writable on the card.
        cmdline=/boot/firmware/cmdline.txt
        [ -f "$cmdline" ] || cmdline=/boot/cmdline.txt
        if grep -q 'overlayroot=tmpfs' "$cmdline" && ! grep -q 'overlayroot=tmpfs:recurse=0' "$cmdline"; then
            run sed -i 's/overlayroot=tmpfs\([^:]\|$\)/overlayroot=tmpfs:recurse=0\1/' "$cmdline"
        fi
        say "the root is read-only from the next boot; $STATE stays writable on its own partition"
    fi
fi
say "done: $ROLE installed in $ROOT"
