#!/bin/sh
# Runs one scenario as N shards in parallel local processes, then merges them.
#
#   scripts/run-sharded.sh N SCENARIO [run options...]
#
# Shard K runs `fleetsim run SCENARIO --shard K/N --out OUT/shard-K [run options]`;
# then `fleetsim merge OUT/shard-*/report.json --out OUT/merged`. OUT is
# $FLEETSIM_OUT (default reports/sharded). The binary is $FLEETSIM (default
# .build/release/fleetsim). The exit code is the merge's: 0 pass, 1 a violation or a
# failed expectation, 2 bad input; a shard that exits 2 stops the script with 2.
set -u
if [ "$#" -lt 2 ]; then
    echo "usage: scripts/run-sharded.sh N SCENARIO [run options...]" >&2
    exit 2
fi
n=$1; scenario=$2; shift 2
case "$n" in ''|*[!0-9]*|0) echo "run-sharded.sh: N must be a positive integer, found '$n'" >&2; exit 2 ;; esac
bin=${FLEETSIM:-.build/release/fleetsim}
out=${FLEETSIM_OUT:-reports/sharded}
if [ ! -x "$bin" ]; then
    echo "run-sharded.sh: no fleetsim at $bin (build it: swift build -c release --product fleetsim, or set FLEETSIM)" >&2
    exit 2
fi

mkdir -p "$out" || exit 2
pids=""
k=0
while [ "$k" -lt "$n" ]; do
    "$bin" run "$scenario" --shard "$k/$n" --out "$out/shard-$k" --quiet "$@" > "$out/shard-$k.log" 2>&1 &
    pids="$pids $!"
    k=$((k + 1))
done

status=0
k=0
for pid in $pids; do
    wait "$pid"; code=$?
    # 1 (a violation) is the merged report's verdict; anything else is a broken shard.
    if [ "$code" -gt 1 ]; then
        echo "run-sharded.sh: shard $k/$n exited $code:" >&2
        cat "$out/shard-$k.log" >&2
        status=2
    fi
    k=$((k + 1))
done
[ "$status" -eq 0 ] || exit "$status"

# The run options are no longer needed: the positional list now holds the reports.
set --
k=0
while [ "$k" -lt "$n" ]; do set -- "$@" "$out/shard-$k/report.json"; k=$((k + 1)); done
"$bin" merge "$@" --out "$out/merged"
