#!/usr/bin/env bash
# pgvector for Debian's postgresql-15 (the state store of `npm run start:cloud` and test/cloud).
# Debian bookworm ships no pgvector package, so its source package is taken from Debian's own
# archive (a deb-src entry for trixie: source only, no binary comes from there) and built with
# PGXS against the installed server. Needs root and apt-get; idempotent.
set -euo pipefail
PG_MAJOR="${PG_MAJOR:-15}"
SHARE="/usr/share/postgresql/${PG_MAJOR}/extension"
if [ -f "${SHARE}/vector.control" ]; then
  echo "pgvector already installed for PostgreSQL ${PG_MAJOR}"
  exit 0
fi
export DEBIAN_FRONTEND=noninteractive
SRC_LIST=/etc/apt/sources.list.d/dbops-pgvector-src.sources
if [ ! -f "$SRC_LIST" ]; then
  cat >"$SRC_LIST" <<SOURCES
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: trixie
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SOURCES
fi
apt-get update -qq
apt-get install -y -qq "postgresql-${PG_MAJOR}" "postgresql-server-dev-${PG_MAJOR}" build-essential dpkg-dev >/dev/null
work="$(mktemp -d)"
chmod 755 "$work" # apt-get source downloads as the _apt user
trap 'rm -rf "$work"' EXIT
(cd "$work" && apt-get source -qq --download-only pgvector >/dev/null && dpkg-source -x --no-check ./*.dsc src >/dev/null)
make -s -C "$work/src" PG_CONFIG="/usr/lib/postgresql/${PG_MAJOR}/bin/pg_config" OPTFLAGS="" >/dev/null
make -s -C "$work/src" PG_CONFIG="/usr/lib/postgresql/${PG_MAJOR}/bin/pg_config" install >/dev/null
echo "pgvector $(grep default_version "${SHARE}/vector.control" | cut -d"'" -f2) installed for PostgreSQL ${PG_MAJOR}"
