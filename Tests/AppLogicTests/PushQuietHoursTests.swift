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
                  priority: .normal, collapseId: nil, expiration: end + .days(7)),
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
            .send(PushSendID(2), to: apns(1), payload: dueSoonPayload(1, badge: 1), priority: .high, collapseId: nil, expiration: created + .hours(24)),
            .startTimer(.escalate(NotificationID(1)), at: end + .minutes(5)),
            .startTimer(.highDelayCheck(NotificationID(1)), at: end + .minutes(15) + Interval(microseconds: 1)),
        ])
    }

    @Test func blockingBypassesQuietHours() {
        var store = PushStore(timeZone: "America/New_York", quietHours: evening)
        _ = store.send(.deviceRegistered(apns(1)), at: sunday1900)
        let t = sunday1900 + .hours(5)
        #expect(store.send(dueSoon(1, .blocking), at: t) == [
            .send(PushSendID(1), to: apns(1), payload: dueSoonPayload(1, badge: 1), priority: .blocking, collapseId: nil, expiration: t + .hours(24)),
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
            .send(PushSendID(2), to: apns(1), payload: dueSoonPayload(2, badge: 2), priority: .normal, collapseId: nil, expiration: end + .days(7)),
        ])
    }

    @Test func theIgnoreQuietHoursVariantSendsNormalInsideThem() {
        var store = PushStore(variants: .ignoreQuietHours, timeZone: "America/New_York", quietHours: evening)
        _ = store.send(.deviceRegistered(apns(1)), at: sunday1900)
        let t = sunday1900 + .hours(5)
        #expect(store.send(dueSoon(1, .normal), at: t) == [
            .send(PushSendID(1), to: apns(1), payload: dueSoonPayload(1, badge: 1), priority: .normal, collapseId: nil, expiration: t + .days(7)),
        ])
    }
}
