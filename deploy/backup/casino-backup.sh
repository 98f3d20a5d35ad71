#!/usr/bin/env bash
# Nightly PostgreSQL backup for the casino table-games audit backend.
#
# Writes $BACKUP_DIR/casino-YYYYmmddTHHMMSSZ.dump (pg_dump custom format, -Fc),
# checks that pg_restore can read it, then deletes dumps older than
# $BACKUP_KEEP_DAYS days. Exits non-zero on any failure (the systemd unit then
# shows as failed; see `journalctl -u casino-backup`).
#
# Connection: DATABASE_URL (postgres://user:password@host:port/dbname), taken
# from the environment or from /etc/casino/casino.env. The password is passed
# to pg_dump via PGPASSWORD, not on the command line, so it does not show in `ps`.
set -euo pipefail

BACKUP_DIR="${BACKUP_DIR:-/var/backups/casino}"
BACKUP_KEEP_DAYS="${BACKUP_KEEP_DAYS:-30}"
ENV_FILE="${CASINO_ENV_FILE:-/etc/casino/casino.env}"

if [[ -z "${DATABASE_URL:-}" && -r "$ENV_FILE" ]]; then
    DATABASE_URL="$(sed -n 's/^DATABASE_URL=//p' "$ENV_FILE" | tail -n 1)"
fi
if [[ -z "${DATABASE_URL:-}" ]]; then
    echo "casino-backup: DATABASE_URL is not set" >&2
    exit 2
fi
if ! [[ "$BACKUP_KEEP_DAYS" =~ ^[0-9]+$ ]] || (( BACKUP_KEEP_DAYS < 1 )); then
    echo "casino-backup: BACKUP_KEEP_DAYS must be a positive integer" >&2
    exit 2
fi

# Split the password out of the URL (percent-decoded) into PGPASSWORD.
conninfo="$DATABASE_URL"
url_re='^(postgres(ql)?://)([^:@/]+):([^@]*)@(.+)$'
if [[ "$DATABASE_URL" =~ $url_re ]]; then
    password="${BASH_REMATCH[4]}"
    password="${password//\\/\\\\}"
    printf -v PGPASSWORD '%b' "${password//%/\\x}"
    export PGPASSWORD
    conninfo="${BASH_REMATCH[1]}${BASH_REMATCH[3]}@${BASH_REMATCH[5]}"
fi

umask 077
mkdir -p "$BACKUP_DIR"

stamp="$(date -u +%Y%m%dT%H%M%SZ)"
target="$BACKUP_DIR/casino-$stamp.dump"
partial="$target.partial"
trap 'rm -f "$partial"' EXIT

pg_dump --format=custom --no-password --dbname="$conninfo" --file="$partial"
# A dump pg_restore cannot list is not a backup.
pg_restore --list "$partial" >/dev/null
mv "$partial" "$target"

echo "casino-backup: wrote $target ($(du -h "$target" | cut -f1))"

# Retention: only after a successful dump, and only our own files.
find "$BACKUP_DIR" -maxdepth 1 -type f -name 'casino-*.dump' -mtime "+$BACKUP_KEEP_DAYS" -print -delete
