import Foundation

/// The quiet hours' rules, as the reference router reads them.
extension QuietHours {
    /// Whether `now` is inside the quiet hours on the local clock of `timeZone`.
    /// `variants` plants the known bugs ``PushVariants/quietHoursUTC`` and ``PushVariants/quietHoursNoWrap``.
    public func contains(_ now: Instant, in timeZone: TimeZone, variants: PushVariants = []) -> Bool {
        let second = LocalTime.secondOfDay(now, variants.contains(.quietHoursUTC) ? LocalTime.utc : timeZone)
        let start = Int64(startMinute) * 60, end = Int64(endMinute) * 60
        if start < end || (start > end && variants.contains(.quietHoursNoWrap)) { return second >= start && second < end }
        if start > end { return second >= start || second < end }
        return false
    }

    /// The first instant after `now` at which the local clock reads the end time. On a
    /// day when a DST change skips that time, the first time after the gap; when it
    /// repeats it, its next occurrence (inside a repeated hour, the second one).
    ///
    /// Computed from the zone's UTC offsets, not with `Calendar.nextDate(after:matching:)`:
    /// on Linux that returns nil for a `now` inside the repeated hour of a fall-back night
    /// (Europe/Berlin 2026-10-25, 02:00-03:00 CET), and the old fallback of "a day later"
    /// released held pushes inside the next night's quiet hours (found by
    /// `scenarios/clocks/dst-fall-berlin.json`, every seed).
    public func end(after now: Instant, in timeZone: TimeZone) -> Instant {
        let base = LocalTime.wholeSecond(now)
        var delta = Int64(endMinute) * 60 - LocalTime.secondOfDay(now, timeZone)
        if delta <= 0 { delta += 86_400 }
        // On a day without an offset change the local clock advances with true time.
        let naive = base + .seconds(delta)
        let shift = LocalTime.offset(naive, timeZone) - LocalTime.offset(base, timeZone)
        if shift == 0 { return naive }
        // Across a change, a fall-back adds the repeated hour, a spring-forward takes the skipped one.
        let adjusted = naive - .seconds(shift)
        if adjusted > now, LocalTime.secondOfDay(adjusted, timeZone) == Int64(endMinute) * 60 { return adjusted }
        // The end time falls in the skipped hour: the first instant on the new offset.
        var lo = min(adjusted, naive), hi = max(adjusted, naive)
        let after = LocalTime.offset(naive, timeZone)
        while (hi - lo).microseconds > 1 {
            let mid = lo + Interval(microseconds: (hi - lo).microseconds / 2)
            if LocalTime.offset(mid, timeZone) == after { hi = mid } else { lo = mid }
        }
        return hi
    }
}
