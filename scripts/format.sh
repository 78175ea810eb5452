#!/usr/bin/env bash
# Copyright (c) 2026 The agentio developers
# Distributed under the Boost Software License, Version 1.0. (See accompanying
# file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
#
# Formats the C++ sources with clang-format 14 and the style in .clang-format.
#   scripts/format.sh                reformats in place; names the files it changed
#   scripts/format.sh --check        changes nothing; names the files that are not
#                                    formatted and fails if there is any
#   scripts/format.sh [--check] FILE...   only these files
# The sources are every *.hpp, *.ipp, *.cpp and *.h under include/,
# reference_server/, tests/, bench/ and fuzz/ that git tracks or would track
# (ignored files, such as build output and node_modules, are left alone).
# Another clang-format version formats differently, so 14 is required; it is
# installed through scripts/setup.sh when missing.
set -euo pipefail

check=0
if [ "${1:-}" = --check ]; then
  check=1
  shift
fi
case "${1:-}" in
  -h | --help) sed -n '/^# Formats/,/^set /p' "$0" | grep '^#' | sed 's/^# \{0,1\}//'; exit 0 ;;
  -*) echo "format: unknown option $1 (usage: scripts/format.sh [--check] [FILE...])" >&2; exit 2 ;;
esac
files=()
for f in "$@"; do files+=("$(realpath -- "$f")"); done # named from the caller's directory
cd "$(dirname "$0")/.."

# clang-format 14: clang-format-14, or a clang-format that is version 14.
is_14() { "$1" --version 2>/dev/null | grep -qE 'clang-format version 14\.'; }
find_clang_format() {
  local c
  for c in clang-format-14 clang-format; do
    if command -v "$c" >/dev/null && is_14 "$c"; then
      echo "$c"
      return 0
    fi
  done
  return 1
}
if ! clang_format=$(find_clang_format); then
  bash scripts/setup.sh clang-format-14
  clang_format=$(find_clang_format) || { echo "format: clang-format 14 not found after setup" >&2; exit 1; }
fi
[ -f .clang-format ] || { echo "format: .clang-format is missing" >&2; exit 1; }

if [ ${#files[@]} -eq 0 ]; then
  if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    mapfile -t files < <(git ls-files --cached --others --exclude-standard -- \
      include reference_server tests bench fuzz | grep -E '\.(hpp|ipp|cpp|h)$' | sort -u)
  else
    mapfile -t files < <(find include reference_server tests bench fuzz -type f \
      \( -name '*.hpp' -o -name '*.ipp' -o -name '*.cpp' -o -name '*.h' \) \
      -not -path '*/node_modules/*' -not -path '*/dist/*' | sort)
  fi
fi

unformatted=()
for f in "${files[@]}"; do
  [ -f "$f" ] || continue # listed by git but deleted in the working tree
  if ! "$clang_format" --style=file:.clang-format "$f" | cmp -s - "$f"; then
    unformatted+=("$f")
  fi
done

if [ $check -eq 1 ]; then
  if [ ${#unformatted[@]} -gt 0 ]; then
    printf '%s\n' "${unformatted[@]}"
    echo "format: ${#unformatted[@]} of ${#files[@]} files are not formatted; run scripts/format.sh" >&2
    exit 1
  fi
  exit 0
fi

[ ${#unformatted[@]} -eq 0 ] && exit 0
"$clang_format" --style=file:.clang-format -i "${unformatted[@]}"
printf '%s\n' "${unformatted[@]}"
echo "format: reformatted ${#unformatted[@]} of ${#files[@]} files" >&2

# Tagged regions of these tests are shown verbatim in the docs (CTest
# docs.*_snippets, tests/CMakeLists.txt): check they still are.
snippets=(
  "tests/unit/doc_first_tool_test.cpp docs/guide/01-first-tool.md"
  "tests/agent/doc_first_agent_test.cpp docs/guide/02-first-agent.md"
)
status=0
for pair in "${snippets[@]}"; do
  read -r source doc <<<"$pair"
  printf '%s\n' "${unformatted[@]}" | grep -qxF -e "$source" -e "$PWD/$source" || continue
  if ! cmake -DSOURCE="$source" -DDOC="$doc" -P tests/docs/check_snippets.cmake >/dev/null 2>&1; then
    echo "format: $doc no longer shows the code of $source as it is: update the page" \
      "(cmake -DSOURCE=$source -DDOC=$doc -P tests/docs/check_snippets.cmake says where)" >&2
    status=1
  fi
done
exit $status
