#!/bin/sh
# Runs one scenario as N shards in local processes, at most J at a time, then merges them.
#
#   scripts/run-sharded.sh [--jobs J] N SCENARIO [run options...]
#
# Shard K runs `fleetsim run SCENARIO --shard K/N --out OUT/shard-K [run options]`;
# then `fleetsim merge OUT/shard-*/report.json --out OUT/merged`. J (default: the
# machine's online cores, as getconf reports them) caps the shards running at once, so
# N may exceed the cores: one world runs on one core, and more processes than cores
# only share them. OUT is $FLEETSIM_OUT (default reports/sharded). The binary is
# $FLEETSIM (default .build/release/fleetsim). The exit code is the merge's: 0 pass,
# 1 a violation or a failed expectation, 2 bad input; a shard that exits 2 stops the
# script with 2.
set -u
usage="usage: scripts/run-sharded.sh [--jobs J] N SCENARIO [run options...]"
jobs=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
if [ "${1:-}" = "--jobs" ]; then
    if [ "$#" -lt 2 ]; then echo "$usage" >&2; exit 2; fi
    jobs=$2; shift 2
    case "$jobs" in ''|*[!0-9]*|0) echo "run-sharded.sh: --jobs must be a positive integer, found '$jobs'" >&2; exit 2 ;; esac
fi
if [ "$#" -lt 2 ]; then
    echo "$usage" >&2
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
k=0
while [ "$k" -lt "$n" ]; do rm -f "$out/shard-$k.status"; k=$((k + 1)); done
echo "run-sharded.sh: $n shards, at most $jobs at a time"
# xargs -P keeps J shards running: each line is a shard index, each shard one `sh -c`
# that leaves its exit code in OUT/shard-K.status (xargs itself only says "some failed").
k=0
while [ "$k" -lt "$n" ]; do echo "$k"; k=$((k + 1)); done |
    xargs -P "$jobs" -I @K@ sh -c '
        bin=$1; scenario=$2; n=$3; out=$4; k=$5; shift 5
        "$bin" run "$scenario" --shard "$k/$n" --out "$out/shard-$k" --quiet "$@" > "$out/shard-$k.log" 2>&1
        echo $? > "$out/shard-$k.status"' sh "$bin" "$scenario" "$n" "$out" @K@ "$@"

status=0
k=0
while [ "$k" -lt "$n" ]; do
    code=$(cat "$out/shard-$k.status" 2>/dev/null || echo 127)
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
