#!/bin/sh
# Makes a PostgreSQL server ready for the tests and benchmarks of @memplane/service (and the engine), and
# prints its connection string on the last line of stdout. Idempotent: safe to run again, and by
# several processes at once.
#
# - MEMPLANE_TEST_POSTGRES_URL set: printed as is, nothing else is done (bring your own server).
# - Otherwise: starts the machine's cluster (PostgreSQL 15 "main", as on the development machines)
#   when it is stopped, then creates the role and database below when they are missing.
#
# Exits non-zero, with the reason on stderr, when no server can be made ready; the tests then skip
# visibly with that reason.
set -eu

if [ -n "${MEMPLANE_TEST_POSTGRES_URL:-}" ]; then
  echo "$MEMPLANE_TEST_POSTGRES_URL"
  exit 0
fi

VERSION="${MEMPLANE_POSTGRES_VERSION:-15}"
CLUSTER="${MEMPLANE_POSTGRES_CLUSTER:-main}"
ROLE="${MEMPLANE_POSTGRES_ROLE:-memplane_test}"
PASSWORD="${MEMPLANE_POSTGRES_PASSWORD:-memplane_test}"
DATABASE="${MEMPLANE_POSTGRES_DATABASE:-memplane_test}"

if ! command -v pg_ctlcluster >/dev/null 2>&1; then
  echo "pg_ctlcluster is not installed (no PostgreSQL cluster tools on this machine)" >&2
  exit 3
fi

status="$(pg_lsclusters --no-header 2>/dev/null | awk -v v="$VERSION" -v c="$CLUSTER" '$1 == v && $2 == c { print $4 }')"
if [ -z "$status" ]; then
  echo "no PostgreSQL cluster $VERSION/$CLUSTER on this machine" >&2
  exit 3
fi
port="$(pg_lsclusters --no-header | awk -v v="$VERSION" -v c="$CLUSTER" '$1 == v && $2 == c { print $3 }')"

if [ "$status" != "online" ]; then
  # Another process may be starting it at the same moment; a second start then fails harmlessly.
  pg_ctlcluster "$VERSION" "$CLUSTER" start >/dev/null 2>&1 || true
fi
if ! pg_isready -q -h 127.0.0.1 -p "$port" -t 30; then
  echo "PostgreSQL $VERSION/$CLUSTER did not accept connections on 127.0.0.1:$port (could not start it: are you root or postgres?)" >&2
  exit 4
fi

# Runs SQL (given on stdin, so nothing is quoted twice) as the cluster's superuser through the
# local socket (peer authentication).
as_superuser() {
  if [ "$(id -un)" = "postgres" ]; then
    printf '%s\n' "$1" | psql -X -q -v ON_ERROR_STOP=1 -p "$port" -tA
  elif [ "$(id -u)" = "0" ]; then
    printf '%s\n' "$1" | su postgres -c "psql -X -q -v ON_ERROR_STOP=1 -p $port -tA"
  else
    return 5
  fi
}

if ! as_superuser "SELECT 1" >/dev/null 2>&1; then
  echo "cannot reach PostgreSQL as its superuser to create the test role (run as root or postgres, or set MEMPLANE_TEST_POSTGRES_URL)" >&2
  exit 5
fi

# Role and database creation race harmlessly: a concurrent duplicate is ignored.
as_superuser "DO \$\$ BEGIN CREATE ROLE $ROLE LOGIN PASSWORD '$PASSWORD'; EXCEPTION WHEN duplicate_object THEN NULL; END \$\$" >/dev/null
if [ -z "$(as_superuser "SELECT 1 FROM pg_database WHERE datname = '$DATABASE'")" ]; then
  as_superuser "CREATE DATABASE $DATABASE OWNER $ROLE" >/dev/null 2>&1 || true
fi
if [ -z "$(as_superuser "SELECT 1 FROM pg_database WHERE datname = '$DATABASE'")" ]; then
  echo "could not create the database $DATABASE" >&2
  exit 6
fi

echo "postgres://$ROLE:$PASSWORD@127.0.0.1:$port/$DATABASE"
