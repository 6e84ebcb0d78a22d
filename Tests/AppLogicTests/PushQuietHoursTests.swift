import Foundation
import Testing
import AppLogic

/// Quiet hours on the user's local clock (seed `001`, "Quiet Hours and Delivery
/// Scheduling", "Delivery Batching"), 8:00 PM - 7:00 AM in New York. In 2026 New York
/// moves from EST (UTC-5) to EDT (UTC-4) on Sunday 8 March at 02:00.
@Suite struct PushQuietHoursTests {
    let newYork = TimeZone(identifier: "America/New_York")!
    let evening = QuietHours(startHour: 20, endHour: 7)
    /// 2026-03-02T00:00:00Z is Sunday 1 March, 19:00 EST.
    let sunday1900 = monday

    @Test(arguments: [(Int64(0), false), (Int64(3_600), true), (Int64(11 * 3_600 + 3_599), true), (Int64(12 * 3_600), false)])
    func acrossMidnightStartIsInsideAndEndIsOutside(offsetSeconds: Int64, inside: Bool) {
        // 19:00, 20:00, 06:59:59 and 07:00 EST.
        #expect(evening.contains(sunday1900 + .seconds(offsetSeconds), in: newYork) == inside)
    }

    @Test func theEndAcrossTheSpringForwardNightIsSevenInTheMorningEDT() {
        // Saturday 7 March 22:00 EST = 2026-03-08T03:00:00Z; 07:00 EDT = 11:00Z (12:00Z without the change).
        let saturdayNight = Instant(unixSeconds: 1_772_938_800)
        #expect(evening.end(after: saturdayNight, in: newYork) == Instant(unixSeconds: 1_772_967_600))
    }

    @Test func anEndInsideTheSkippedHourIsTheFirstTimeAfterIt() {
        // 02:30 does not exist on 8 March in New York: the end is 03:00 EDT = 07:00Z.
        let quiet = QuietHours(startHour: 22, endHour: 2, endMinute: 30)
        let saturdayNight = Instant(unixSeconds: 1_772_938_800)
        #expect(quiet.end(after: saturdayNight, in: newYork) == Instant(unixSeconds: 1_772_953_200))
    }

    @Test func normalIsHeldAcrossTheDSTNightAndBatchedIntoOneSummary() {
        var store = PushStore(timeZone: "America/New_York", quietHours: evening)
        let saturdayNight = Instant(unixSeconds: 1_772_938_800)  // 22:00 EST
        let end = Instant(unixSeconds: 1_772_967_600)  // 07:00 EDT
        _ = store.send(.deviceRegistered(apns(1)), at: saturdayNight - .hours(5))
        // The count each held notification adds goes out in a badge-only silent push.
        #expect(store.send(dueSoon(1, .normal), at: saturdayNight) == [
            .held(NotificationID(1), until: end),
            .startTimer(.quietHoursEnd, at: end),
            badgeOnly(1, to: apns(1), badge: 1, bytes: 41, at: saturdayNight),
        ])
        #expect(store.send(dueSoon(2, .normal), at: saturdayNight + .hours(5)) == [
            .held(NotificationID(2), until: end),
            badgeOnly(2, to: apns(1), badge: 2, bytes: 41, at: saturdayNight + .hours(5)),
        ])
        #expect(store.send(.timerFired(.quietHoursEnd), at: end) == [
            .summarized([NotificationID(1), NotificationID(2)], into: NotificationID(2)),
            // {"aps":{"alert":{"title":"You have 2 updates","body":"Tap to view"},"badge":2,"thread-id":"summary"}}: 101 bytes.
            .send(PushSendID(3), to: apns(1), payload: PushPayload(content: .summary(NotificationID(2), count: 2), badge: 2, bytes: 101),
                  priority: .normal, platformPriority: .normal, collapseId: nil, expiration: end + .days(7)),
        ])
    }

    @Test func highIsQueuedAndSentRightAfterQuietHours() {
        var store = PushStore(timeZone: "America/New_York", quietHours: evening)
        _ = store.send(.deviceRegistered(apns(1)), at: sunday1900 - .hours(1))
        let created = sunday1900 + .hours(3)  // 22:00 EST
        let end = sunday1900 + .hours(12)  // 07:00 EST
        #expect(store.send(dueSoon(1, .high), at: created) == [
            .held(NotificationID(1), until: end),
            .startTimer(.quietHoursEnd, at: end),
            badgeOnly(1, to: apns(1), badge: 1, bytes: 41, at: created),
        ])
        #expect(store.send(.timerFired(.quietHoursEnd), at: end) == [
            .send(PushSendID(2), to: apns(1), payload: dueSoonPayload(1, badge: 1), priority: .high, platformPriority: .high, collapseId: nil, expiration: created + .hours(24)),
            .startTimer(.escalate(NotificationID(1)), at: end + .minutes(5)),
            .startTimer(.highDelayCheck(NotificationID(1)), at: end + .minutes(15) + Interval(microseconds: 1)),
        ])
    }

    @Test func blockingBypassesQuietHours() {
        var store = PushStore(timeZone: "America/New_York", quietHours: evening)
        _ = store.send(.deviceRegistered(apns(1)), at: sunday1900)
        let t = sunday1900 + .hours(5)
        #expect(store.send(dueSoon(1, .blocking), at: t) == [
            .send(PushSendID(1), to: apns(1), payload: dueSoonPayload(1, badge: 1), priority: .blocking, platformPriority: .high, collapseId: nil, expiration: t + .hours(24)),
        ])
    }

    @Test func normalAtTheLastMinuteIsHeldAndAtTheEndIsSent() {
        var store = PushStore(timeZone: "America/New_York", quietHours: evening)
        _ = store.send(.deviceRegistered(apns(1)), at: sunday1900)
        let end = sunday1900 + .hours(12)
        #expect(store.send(dueSoon(1, .normal), at: end - .seconds(1)) == [
            .held(NotificationID(1), until: end),
            .startTimer(.quietHoursEnd, at: end),
            badgeOnly(1, to: apns(1), badge: 1, bytes: 41, at: end - .seconds(1)),
        ])
        #expect(store.send(dueSoon(2, .normal), at: end) == [
            .send(PushSendID(2), to: apns(1), payload: dueSoonPayload(2, badge: 2), priority: .normal, platformPriority: .normal, collapseId: nil, expiration: end + .days(7)),
        ])
    }

    @Test func theIgnoreQuietHoursVariantSendsNormalInsideThem() {
        var store = PushStore(variants: .ignoreQuietHours, timeZone: "America/New_York", quietHours: evening)
        _ = store.send(.deviceRegistered(apns(1)), at: sunday1900)
        let t = sunday1900 + .hours(5)
        #expect(store.send(dueSoon(1, .normal), at: t) == [
            .send(PushSendID(1), to: apns(1), payload: dueSoonPayload(1, badge: 1), priority: .normal, platformPriority: .normal, collapseId: nil, expiration: t + .days(7)),
        ])
    }
}

/// Quiet hours and the daily and weekly limits over the DST nights of Europe/Berlin:
/// CEST (UTC+2) to CET (UTC+1) at 03:00 on Sunday 25 October 2026 (02:00-03:00 happens
/// twice), CET to CEST at 02:00 on Sunday 29 March 2026 (02:00-03:00 never happens).
@Suite struct PushDSTTests {
    let berlin = TimeZone(identifier: "Europe/Berlin")!
    let nightly = QuietHours(startHour: 0, startMinute: 30, endHour: 2, endMinute: 30)

    /// 02:10 CET, inside the repeated hour (the second 02:10 of the night): the end is
    /// 02:30 CET twenty minutes later (01:30Z), not a day later.
    @Test func insideTheRepeatedHourTheEndIsItsNextOccurrence() {
        let secondPass = Instant(unixSeconds: 1_792_890_600)  // 2026-10-25T01:10:00Z
        #expect(nightly.contains(secondPass, in: berlin))
        #expect(nightly.end(after: secondPass, in: berlin) == Instant(unixSeconds: 1_792_891_800))  // 01:30:00Z
    }

    /// 00:40 CEST, before the repeat: the end is the first 02:30, still CEST (00:30Z).
    @Test func beforeTheRepeatedHourTheEndIsItsFirstOccurrence() {
        let early = Instant(unixSeconds: 1_792_881_600)  // 2026-10-24T22:40:00Z, 00:40 CEST
        #expect(nightly.contains(early, in: berlin))
        #expect(nightly.end(after: early, in: berlin) == Instant(unixSeconds: 1_792_888_200))  // 2026-10-25T00:30:00Z
    }

    /// Spring forward: 02:30 never happens on 29 March; the end is 03:00 CEST (01:00Z),
    /// and a quarter-second into the night does not shift it.
    @Test func anEndInTheSkippedHourIsTheFirstInstantAfterTheGap() {
        let inside = Instant(unixMicroseconds: 1_774_741_800 * 1_000_000 + 250_000)  // 2026-03-28T23:50:00.25Z, 00:50 CET
        #expect(nightly.contains(inside, in: berlin))
        #expect(nightly.end(after: inside, in: berlin) == Instant(unixSeconds: 1_774_746_000))  // 2026-03-29T01:00:00Z
    }

    /// The 25 h fall-back Sunday is one local day for the daily limit of five: the
    /// sixth normal push in its last second (23:59:59 CET, 24 h 59 min 59 s after its
    /// midnight) is suppressed; Monday 00:00 CET starts a new count.
    @Test func theFallBackDayIsOneLocalDayForTheDailyLimit() {
        var store = PushStore(timeZone: "Europe/Berlin")
        let dayStart = Instant(unixSeconds: 1_792_879_200)  // 2026-10-24T22:00:00Z, Sunday 00:00 CEST
        _ = store.send(.deviceRegistered(apns(1)), at: dayStart - .hours(1))
        for n in 1 ... 5 {
            let t = dayStart + .hours(Int64(n))
            #expect(store.send(dueSoon(UInt64(n), .normal), at: t) == [
                .send(PushSendID(UInt32(n)), to: apns(1), payload: dueSoonPayload(UInt64(n), badge: n), priority: .normal, platformPriority: .normal, collapseId: nil, expiration: t + .days(7)),
            ])
        }
        let lastSecond = dayStart + .hours(25) - .seconds(1)
        #expect(store.send(dueSoon(6, .normal), at: lastSecond) == [
            .suppressed(NotificationID(6), .dailyLimit),
            badgeOnly(6, to: apns(1), badge: 6, bytes: 41, at: lastSecond),
        ])
        let monday = dayStart + .hours(25)
        #expect(store.send(dueSoon(7, .normal), at: monday) == [
            .send(PushSendID(7), to: apns(1), payload: dueSoonPayload(7, badge: 7), priority: .normal, platformPriority: .normal, collapseId: nil, expiration: monday + .days(7)),
        ])
    }
}

/// The weekly limit over New York's spring-forward: the week from Monday 2 March
/// 00:00 EST (05:00Z) has 167 hours and ends at Monday 9 March 00:00 EDT (04:00Z).
@Suite struct PushWeekDSTTests {
    @Test func theShortWeekEndsAtMidnightEDTNotAtTheOldOffset() {
        var store = PushStore(timeZone: "America/New_York")
        let weekStart = Instant(unixSeconds: 1_772_427_600)  // 2026-03-02T05:00:00Z
        _ = store.send(.deviceRegistered(apns(1)), at: weekStart)
        for n in 1 ... 10 {
            let t = weekStart + .hours(Int64(n))
            #expect(store.send(dueSoon(UInt64(n), .high), at: t) == [
                .send(PushSendID(UInt32(n)), to: apns(1), payload: dueSoonPayload(UInt64(n), badge: n).withBytes(n < 10 ? 101 : 102),
                      priority: .high, platformPriority: .high, collapseId: nil, expiration: t + .hours(24)),
                .startTimer(.escalate(NotificationID(UInt64(n))), at: t + .minutes(5)),
                .startTimer(.highDelayCheck(NotificationID(UInt64(n))), at: t + .minutes(15) + Interval(microseconds: 1)),
            ])
        }
        let nextMonday = Instant(unixSeconds: 1_773_028_800)  // 2026-03-09T04:00:00Z
        let lastSecond = nextMonday - .seconds(1)  // Sunday 23:59:59 EDT
        #expect(store.send(dueSoon(11, .high), at: lastSecond) == [
            .suppressed(NotificationID(11), .weeklyLimit),
            badgeOnly(11, to: apns(1), badge: 11, bytes: 42, at: lastSecond),
        ])
        #expect(store.send(dueSoon(12, .high), at: nextMonday) == [
            .send(PushSendID(12), to: apns(1), payload: dueSoonPayload(12, badge: 12).withBytes(102), priority: .high, platformPriority: .high, collapseId: nil, expiration: nextMonday + .hours(24)),
            .startTimer(.escalate(NotificationID(12)), at: nextMonday + .minutes(5)),
            .startTimer(.highDelayCheck(NotificationID(12)), at: nextMonday + .minutes(15) + Interval(microseconds: 1)),
        ])
    }
}
