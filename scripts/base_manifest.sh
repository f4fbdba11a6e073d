#!/usr/bin/env bash
# main's build manifest, to compare a pull request's build with (scripts/changes.py), into
# DEST/coursekit-manifest.json. Prints what it got, for `changes.py --based-on`:
#   same SHA       the manifest of CI's build of the pull request's base commit (BASE_SHA)
#   published SHA  main's manifest as the Pages site serves it (SHA from the publisher's
#                  pr-preview/previews.json; empty if that cannot be read): another commit, maybe
#   none           neither exists (a new repository, expired artifacts, Pages not turned on)
#
# Environment: REPO (owner/name), BASE_SHA, PAGES (main's site address, ending in /), GH_TOKEN
# (read access to Actions). Used by .github/workflows/ci.yml; never fails the build by itself.
set -uo pipefail
dest=${1:?usage: base_manifest.sh DEST}
mkdir -p "$dest"
file="$dest/coursekit-manifest.json"
rm -f "$file"

run=$(gh run list --repo "$REPO" --workflow ci.yml --branch main --event push --commit "$BASE_SHA" \
  --status success --limit 1 --json databaseId --jq '.[0].databaseId // empty' 2>/dev/null)
if [ -n "$run" ] && gh run download "$run" --repo "$REPO" --name manifest --dir "$dest" >/dev/null 2>&1 \
  && [ -f "$file" ]; then
  echo "same $BASE_SHA"
  exit 0
fi

if curl -fsSL --max-time 60 --max-filesize 50000000 -o "$file" "${PAGES}coursekit-manifest.json" 2>/dev/null; then
  sha=$(curl -fsSL --max-time 30 --max-filesize 100000 "${PAGES}pr-preview/previews.json" 2>/dev/null \
    | python3 -c 'import json, re, sys
main = json.load(sys.stdin).get("main")
print(main if isinstance(main, str) and re.fullmatch("[0-9a-f]{40}", main) else "")' 2>/dev/null)
  echo "published ${sha:-}"
  exit 0
fi

rm -f "$file"
echo none
