#!/usr/bin/env bash
# Starts a throwaway PostgreSQL 15 server on 127.0.0.1 for the tests of `mock --state postgres://…`, installing
# it from Debian's packages when missing, and prints the URL the tests read from UNDERSTUDY_TEST_POSTGRES.
#
#   export UNDERSTUDY_TEST_POSTGRES=$(scripts/test-postgres.sh start)
#   swift test --filter SharedState
#   scripts/test-postgres.sh stop
#
# The server trusts local connections, keeps its data under $TMPDIR, and listens on port 54329 (override with
# UNDERSTUDY_TEST_POSTGRES_PORT); nothing of the system's own clusters is touched.
set -euo pipefail
port=${UNDERSTUDY_TEST_POSTGRES_PORT:-54329}
data=${TMPDIR:-/tmp}/understudy-test-postgres-$port
sudo=$(if [ "$(id -u)" -ne 0 ]; then echo sudo; fi)

bin=$(ls -d /usr/lib/postgresql/*/bin 2> /dev/null | sort -V | tail -n 1 || true)
if [ -z "$bin" ]; then
    echo "== apt-get install postgresql" >&2
    $sudo apt-get update -qq >&2 && $sudo apt-get install -y -qq postgresql > /dev/null
    bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
fi

# PostgreSQL refuses to run as root: as root, the server runs as the `postgres` user the package created.
as_owner() {
    if [ "$(id -u)" -eq 0 ]; then su postgres -s /bin/sh -c "$*"; else sh -c "$*"; fi
}

case "${1:-start}" in
start)
    if [ ! -f "$data/PG_VERSION" ]; then
        mkdir -p "$data"
        if [ "$(id -u)" -eq 0 ]; then chown postgres "$data"; fi
        as_owner "'$bin/initdb' -D '$data' -A trust -U understudy --no-sync" > /dev/null
    fi
    if ! as_owner "'$bin/pg_ctl' -D '$data' status" > /dev/null 2>&1; then
        as_owner "'$bin/pg_ctl' -D '$data' -l '$data/server.log' -w \
            -o \"-p $port -c listen_addresses=127.0.0.1 -k '$data' -c fsync=off\" start" > /dev/null
    fi
    echo "postgres://understudy@127.0.0.1:$port/postgres"
    ;;
stop)
    as_owner "'$bin/pg_ctl' -D '$data' -m fast stop" > /dev/null 2>&1 || true
    rm -rf "$data"
    ;;
*)
    echo "usage: $0 start|stop" >&2
    exit 64
    ;;
esac
