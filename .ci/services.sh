# Throwaway PostgreSQL and Redis servers on free loopback ports, for the integration suite.
#
#   source .ci/services.sh && start_services     # exports DATABASE_URL and REDIS_URL
#   stop_services                                 # the caller runs it (e.g. in its EXIT trap)
#
# Installs Debian's postgresql and redis-server when they are missing. Everything lives in one
# temporary folder, so nothing is left behind and a server already on the machine is never touched.

PG_BIN=""
SERVICES_DIR=""

_free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

install_services() {
    local missing=()
    command -v redis-server >/dev/null || missing+=(redis-server)
    ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing+=(postgresql)
    if [ ${#missing[@]} -gt 0 ]; then
        local sudo=""
        [ "$(id -u)" = 0 ] || sudo=sudo
        echo "installing ${missing[*]} from Debian"
        $sudo apt-get update -q >/dev/null
        DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
    fi
    PG_BIN="$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)"
}

# Run a PostgreSQL command as the postgres user when we are root (PostgreSQL refuses to run as root).
_as_pg() {
    if [ "$(id -u)" = 0 ]; then
        su postgres -s /bin/sh -c "$*"
    else
        sh -c "$*"
    fi
}

start_services() {
    install_services
    SERVICES_DIR="$(mktemp -d /tmp/courchevel-ci.XXXXXX)"
    chmod 755 "$SERVICES_DIR"

    local pg_port redis_port
    pg_port="$(_free_port)"
    redis_port="$(_free_port)"

    mkdir -p "$SERVICES_DIR/pg"
    [ "$(id -u)" = 0 ] && chown postgres:postgres "$SERVICES_DIR/pg"
    _as_pg "'$PG_BIN/initdb' -D '$SERVICES_DIR/pg/data' -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 >'$SERVICES_DIR/pg/initdb.log' 2>&1"
    # Durability off: a test database is thrown away, speed matters more.
    _as_pg "'$PG_BIN/pg_ctl' -D '$SERVICES_DIR/pg/data' -l '$SERVICES_DIR/pg/server.log' -w -t 60 start \
        -o \"-p $pg_port -k '$SERVICES_DIR/pg' -c listen_addresses=127.0.0.1 -c fsync=off \
        -c synchronous_commit=off -c full_page_writes=off -c max_connections=200 ${PG_EXTRA_OPTS:-}\"" >/dev/null
    "$PG_BIN/psql" -h 127.0.0.1 -p "$pg_port" -U postgres -q -v ON_ERROR_STOP=1 \
        -c "CREATE ROLE courchevel LOGIN SUPERUSER PASSWORD 'courchevel'" \
        -c "CREATE DATABASE courchevel OWNER courchevel" >/dev/null

    redis-server --port "$redis_port" --bind 127.0.0.1 --daemonize yes --save '' --appendonly no \
        --dir "$SERVICES_DIR" --pidfile "$SERVICES_DIR/redis.pid" --logfile "$SERVICES_DIR/redis.log"
    for _ in $(seq 50); do
        redis-cli -p "$redis_port" ping >/dev/null 2>&1 && break
        sleep 0.1
    done
    redis-cli -p "$redis_port" ping >/dev/null

    export DATABASE_URL="postgres://courchevel:courchevel@127.0.0.1:$pg_port/courchevel"
    export REDIS_URL="redis://127.0.0.1:$redis_port/0"
    echo "PostgreSQL on 127.0.0.1:$pg_port, Redis on 127.0.0.1:$redis_port"
}

stop_services() {
    [ -n "$SERVICES_DIR" ] && [ -d "$SERVICES_DIR" ] || return 0
    if [ -f "$SERVICES_DIR/redis.pid" ]; then
        kill "$(cat "$SERVICES_DIR/redis.pid")" 2>/dev/null || true
    fi
    if [ -f "$SERVICES_DIR/pg/data/postmaster.pid" ]; then
        _as_pg "'$PG_BIN/pg_ctl' -D '$SERVICES_DIR/pg/data' -m immediate -w stop" >/dev/null 2>&1 || true
    fi
    rm -rf "$SERVICES_DIR"
    SERVICES_DIR=""
}
