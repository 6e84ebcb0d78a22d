#!/bin/sh
# Screenshots of a whole report.html in headless Chromium, one per window width.
#
#   scripts/report-screenshot.sh REPORT.html OUT_PREFIX [WIDTH...]   (default widths: 1200 800)
#
# Writes OUT_PREFIX-<width>.png. Headless Chromium captures only its window, so the page
# is first measured at each width (loaded in a frame of a measuring page whose script
# reads its height; report.html itself has no script) and the window made that tall.
# The browser is $CHROMIUM (default: chromium, chromium-browser or google-chrome on PATH).
set -eu
if [ "$#" -lt 2 ]; then
    echo "usage: scripts/report-screenshot.sh REPORT.html OUT_PREFIX [WIDTH...]" >&2
    exit 2
fi
html=$(realpath "$1"); prefix=$2; shift 2
[ -f "$html" ] || { echo "report-screenshot.sh: no such file: $html" >&2; exit 2; }
browser=${CHROMIUM:-$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)}
[ -n "$browser" ] || { echo "report-screenshot.sh: no chromium found (apt-get install chromium)" >&2; exit 2; }
[ "$#" -gt 0 ] || set -- 1200 800
dir=$(mktemp -d); trap 'rm -rf "$dir"' EXIT
for width in "$@"; do
    cat > "$dir/measure.html" <<PAGE
<!doctype html><html><body style="margin:0"><iframe id="f" style="width:${width}px;height:200px;border:0" src="file://$html"></iframe>
<script>document.getElementById("f").onload = function () {
  document.body.setAttribute("data-height", this.contentDocument.documentElement.scrollHeight);
};</script></body></html>
PAGE
    height=$("$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars --allow-file-access-from-files \
        --virtual-time-budget=10000 --dump-dom "file://$dir/measure.html" 2>/dev/null | sed -n 's/.*data-height="\([0-9]*\)".*/\1/p')
    [ -n "$height" ] || { echo "report-screenshot.sh: could not measure $html at $width px" >&2; exit 1; }
    "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size="$width,$height" \
        --screenshot="$(realpath "$(dirname "$prefix")")/$(basename "$prefix")-$width.png" "file://$html" 2>/dev/null
    echo "Screenshot: $prefix-$width.png ($width × $height px)"
done
