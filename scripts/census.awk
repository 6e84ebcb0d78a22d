# Events per simulated device-day by kind and platform, from the lines
# `fleetsim run --record-events FILE` writes ('MICROSECONDS DEVICE HASH DESCRIPTION').
# Read the file twice: the first pass finds the Android phones (a phone with an
# `android(...)` event), the second counts. Days are the last event's, rounded up.
# Usage: awk -f scripts/census.awk FILE FILE (make census; docs/performance.md, "Events by kind").
NR == FNR {
  if ($4 ~ /^android\(/) android[$2] = 1
  if ($2 != "-") seen[$2] = 1
  if ($1 + 0 > last) last = $1 + 0
  next
}
{
  kind = $4
  sub(/\((device|job|index|slot|message):.*/, "", kind)
  if (match($0, /timer: [A-Za-z]+Timer\.[A-Za-z]+(\(WorkID\.[A-Za-z]+\))?/)) kind = kind "." substr($0, RSTART + 7, RLENGTH - 7)
  platform = ($2 == "-") ? "fleet" : (($2 in android) ? "Android" : "iOS")
  n[kind "\t" platform]++
}
END {
  days = int((last + 86399999999) / 86400000000)
  for (d in seen) { if (d in android) a++; else i++ }
  for (k in n) {
    split(k, f, "\t")
    per = f[2] == "Android" ? a * days : (f[2] == "iOS" ? i * days : 1)
    printf "%s\t%s\t%.2f\n", f[1], f[2], n[k] / per
  }
}
