#!/usr/bin/env bash
# Copyright (c) 2026 The agentio developers
# Distributed under the Boost Software License, Version 1.0. (See accompanying
# file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
#
# The sample data the applications, their tests and benchmarks run on; it is
# public data, never committed, put under DEST (default: data/ in this checkout):
#   scripts/data.sh chinook|estatuto|all [DEST]
#     chinook   DEST/chinook/Chinook_Sqlite.sql and its LICENSE.md: the Chinook
#               sample database, version 1.4.5, as a SQL script for SQLite
#               (github.com/lerocha/chinook-database, MIT licence)
#     estatuto  DEST/normativa/estatuto-trabajadores/: articulo_1.txt to
#               articulo_92.txt and intro.txt, the BOE text of the Estatuto de
#               los Trabajadores (as collected in github.com/pmchozas/estatuto_goldstandard)
# With AGENTIO_DATA_DIR set to a local copy with that same layout, the files are
# copied from there; otherwise they are downloaded from the commits pinned
# below. Either way each file must match its SHA-256 in scripts/data.sha256
# before it is put in place (through a temporary folder inside DEST: nothing
# half-written is left), and a data set already in place and intact is left
# alone. DEST/chinook and DEST/normativa/estatuto-trabajadores hold only what
# this script puts there.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
manifest=$here/data.sha256

# Where each file is published: raw files of the public repositories at a
# pinned commit (the manifest's checksums are of these very files).
chinook_commit=c14389e4466cb2dac9fe97782b8dfc6113ed3ae2     # lerocha/chinook-database, Chinook 1.4.5, LF line ends
estatuto_commit=695120dc64f9df696c1bc78588e087f0d8919250    # pmchozas/estatuto_goldstandard
url_of() {
  local raw=https://raw.githubusercontent.com
  case $1 in
    chinook/Chinook_Sqlite.sql)
      echo "$raw/lerocha/chinook-database/$chinook_commit/ChinookDatabase/DataSources/Chinook_Sqlite.sql" ;;
    chinook/LICENSE.md) echo "$raw/lerocha/chinook-database/$chinook_commit/LICENSE.md" ;;
    normativa/estatuto-trabajadores/*)
      echo "$raw/pmchozas/estatuto_goldstandard/$estatuto_commit/data/old/old_articles/${1##*/}" ;;
    *) echo "data: no source known for $1" >&2; exit 1 ;;
  esac
}

usage() {
  echo "usage: scripts/data.sh chinook|estatuto|all [DEST]   (DEST: data/ in the checkout)" >&2
  exit 2
}
case $# in 1 | 2) ;; *) usage ;; esac
case $1 in
  chinook | estatuto) sets=("$1") ;;
  all) sets=(chinook estatuto) ;;
  *) usage ;;
esac
dest=$(realpath -m "${2:-$here/../data}")

# Each line of stdin, indented and prefixed with $1.
indent() {
  local line
  while IFS= read -r line; do
    echo "  $1$line"
  done
}

# The folder of a data set under DEST.
folder() {
  case $1 in
    chinook) echo chinook ;;
    estatuto) echo normativa/estatuto-trabajadores ;;
  esac
}

# The manifest: sha256sum's format, paths relative to DEST.
declare -A sum
while read -r hash rel; do
  [ -n "$hash" ] && sum[$rel]=$hash
done <"$manifest"

# The files of a data set, as the manifest names them.
files_of() {
  local prefix rel
  prefix=$(folder "$1")/
  for rel in "${!sum[@]}"; do
    [[ $rel == "$prefix"* ]] && echo "$rel"
  done | sort -V
}

# What is wrong with data set $2 under folder $1: one line per file, nothing
# when every file is there with its checksum. With a third argument, files in
# the set's folder that the manifest does not name are wrong too.
problems() {
  local root=$1 set=$2 exact=${3:-} rel actual
  while read -r rel; do
    if ! [ -f "$root/$rel" ]; then
      echo "$rel: missing"
    else
      actual=$(sha256sum "$root/$rel" | cut -d' ' -f1)
      [ "$actual" = "${sum[$rel]}" ] || echo "$rel: SHA-256 $actual, expected ${sum[$rel]} (scripts/data.sha256)"
    fi
  done < <(files_of "$set")
  if [ -n "$exact" ] && [ -d "$root/$(folder "$set")" ]; then
    while read -r rel; do
      [ -n "${sum[$rel]+x}" ] || echo "$rel: not part of the data set (remove it)"
    done < <(cd "$root" && find "$(folder "$set")" -type f | sort)
  fi
}

mkdir -p "$dest"
exec 9>"$dest/.data.lock"
flock 9 # two runs into one DEST take turns
work=$(mktemp -d "$dest/.data.XXXXXX")
trap 'rm -rf "$work"' EXIT

for set in "${sets[@]}"; do
  dir=$(folder "$set")
  bad=$(problems "$dest" "$set" exact)
  if [ -z "$bad" ]; then
    echo "data: $set already in $dest/$dir"
    continue
  fi
  if grep -q ': not part of the data set' <<<"$bad"; then
    echo "data: $dest/$dir holds files that are not part of the $set data set:" >&2
    grep ': not part of the data set' <<<"$bad" | indent "$dest/" >&2
    exit 1
  fi
  mapfile -t files < <(files_of "$set")

  if [ -n "${AGENTIO_DATA_DIR:-}" ]; then
    from=$(realpath -m "$AGENTIO_DATA_DIR")
    for rel in "${files[@]}"; do
      if [ -f "$from/$rel" ]; then
        mkdir -p "$work/$(dirname "$rel")"
        cp "$from/$rel" "$work/$rel"
      fi
    done
  else
    from="the public sources"
    if ! command -v curl >/dev/null; then
      bash "$here/setup.sh" curl || {
        echo "data: curl is needed to download the $set data set (or set AGENTIO_DATA_DIR to a local copy)" >&2
        exit 1
      }
    fi
    args=()
    for rel in "${files[@]}"; do
      args+=(-o "$work/$rel" "$(url_of "$rel")")
    done
    echo "data: downloading $set (${#files[@]} files) from $(url_of "${files[0]}" | cut -d/ -f4,5) at its pinned commit"
    if ! curl -fsSL --fail-early --create-dirs --proto '=https' --retry 3 --connect-timeout 20 --max-time 900 \
      "${args[@]}"; then
      echo "data: could not download the $set data set (first file: $(url_of "${files[0]}"))." >&2
      echo "data: without network, point AGENTIO_DATA_DIR at a local copy of the data, laid out as" >&2
      echo "      chinook/Chinook_Sqlite.sql, chinook/LICENSE.md, normativa/estatuto-trabajadores/*.txt," >&2
      echo "      and run again: AGENTIO_DATA_DIR=/path/to/data bash scripts/data.sh $*" >&2
      exit 1
    fi
  fi

  bad=$(problems "$work" "$set")
  if [ -n "$bad" ]; then
    if [ -n "${AGENTIO_DATA_DIR:-}" ]; then
      echo "data: AGENTIO_DATA_DIR ($from) does not hold the $set data set as published; refused:" >&2
      indent "$from/" <<<"$bad" >&2
    else
      echo "data: the downloaded $set data set is not as published (did the source change?); refused:" >&2
      indent "" <<<"$bad" >&2
    fi
    exit 1
  fi
  # Every file is complete and checked: each is renamed into place (same file system).
  for rel in "${files[@]}"; do
    mkdir -p "$dest/$(dirname "$rel")"
    mv -f "$work/$rel" "$dest/$rel"
  done
  echo "data: $set (${#files[@]} files) from $from in $dest/$dir"
done
