#!/usr/bin/env bash
# Make the README's pictures from real output: a printed roster, a rules card, the web builder.
# Needs listbuilder installed and pdftoppm (Debian's poppler-utils).
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
listbuilder render examples/might-skirmish-windblade-elves.legal.yaml -o "$tmp/roster.pdf"
listbuilder render examples/might-skirmish-monster-mash.illegal.yaml -o "$tmp/illegal.pdf" 2>/dev/null
listbuilder card deathmelt -o "$tmp/card.pdf"
listbuilder render examples/might-skirmish-windblade-elves.legal.yaml --vs examples/might-skirmish-zombie-family.legal.yaml \
  --only reference -o "$tmp/vs.pdf"
pdftoppm -r 80 -png -f 1 -l 1 -singlefile "$tmp/roster.pdf" docs/roster
pdftoppm -r 80 -png -f 2 -l 2 -singlefile "$tmp/roster.pdf" docs/reference
pdftoppm -r 80 -png -f 1 -l 1 -singlefile "$tmp/illegal.pdf" docs/not-legal
pdftoppm -r 80 -png -f 1 -l 1 -singlefile "$tmp/card.pdf" docs/card
pdftoppm -r 80 -png -f 1 -l 1 -singlefile "$tmp/vs.pdf" docs/odds
# the web builder, from a real 'listbuilder serve' in Chromium (needs the playwright package)
python docs/web_pictures.py
# what the builder says of a unit: leaders, a mixed loadout, its rules (the same way)
python docs/unit_pictures.py
# the play page of each rule set (the same way)
python docs/play_pictures.py
# the compare page: two armies as opponents (the same way)
python docs/compare_pictures.py
# the player's guide, from an empty folder to a list printed and played (the same way)
python docs/guide_pictures.py
ls -l docs/*.png
