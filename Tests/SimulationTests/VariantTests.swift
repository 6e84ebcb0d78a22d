import Testing
import Scenario
@testable import Simulation

/// Every built variant is caught by its shipped scenario within 20 seeds, with the
/// violation kind that names its bug, and the correct logic has no violation on the
/// same seeds.
@Suite struct VariantTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var file: String
        var kind: ViolationKind
        var testDescription: String { file }
    }

    static let cases: [Case] = [
        Case(file: "scenarios/races/unguarded-completion.json", kind: .taskCompletedTwice),
        Case(file: "scenarios/races/no-synchronize.json", kind: .notifiedTwiceInWindow),
        Case(file: "scenarios/races/cadence-off-by-one.json", kind: .availableTestNotNotified),
        Case(file: "scenarios/races/local-calendar-days.json", kind: .notifiedBeforeAvailable),
        Case(file: "scenarios/races/ignores-recent-open.json", kind: .notifiedDespiteRecentOpen),
        Case(file: "scenarios/races/preferred-interval-minutes.json", kind: .refreshRequestDateWrong),
        Case(file: "scenarios/races/minimum-interval-minutes.json", kind: .refreshedTooSoon),
        Case(file: "scenarios/races/hard-stop-ignored.json", kind: .refreshPastHardStop),
        Case(file: "scenarios/races/ignores-sign-out.json", kind: .refreshWhileSignedOut),
        Case(file: "scenarios/races/ignores-offline.json", kind: .refreshRequestWhileOffline),
        Case(file: "scenarios/races/full-history.json", kind: .historyNotLimitOne),
        Case(file: "scenarios/races/ignores-permission.json", kind: .postedWithoutPermission),
        Case(file: "scenarios/races/duration-since-last-refresh.json", kind: .refreshAnalyticsWrong),
        Case(file: "scenarios/races/refresh-retry-once.json", kind: .refreshRequestRetried),
        Case(file: "scenarios/races/refresh-ignores-401.json", kind: .unauthorizedNotSignedOut),
        Case(file: "scenarios/races/refresh-always-fetch-active.json", kind: .activeSessionNotNeeded),
        Case(file: "scenarios/races/refresh-ignores-active-session.json", kind: .notifiedDuringTest),
        Case(file: "scenarios/races/badge-overwrite.json", kind: .badgeDiffersFromUnread),
        Case(file: "scenarios/races/in-memory-result.json", kind: .continuationResultLost),
        Case(file: "scenarios/races/retry-on-4xx.json", kind: .pushClientErrorRetried),
        Case(file: "scenarios/races/ignore-410.json", kind: .pushSentToUnregisteredToken),
        Case(file: "scenarios/races/ignore-quiet-hours.json", kind: .pushDisplayedInQuietHours),
        Case(file: "scenarios/races/quiet-hours-no-wrap.json", kind: .pushDisplayedInQuietHours),
        Case(file: "scenarios/races/quiet-hours-utc.json", kind: .pushHeldOutsideQuietHours),
        Case(file: "scenarios/races/normal-limit-off-by-one.json", kind: .normalDailyLimitExceeded),
        Case(file: "scenarios/races/high-limit-off-by-one.json", kind: .highWeeklyLimitExceeded),
        Case(file: "scenarios/races/retry-delay-not-advanced.json", kind: .pushRetryScheduleWrong),
        Case(file: "scenarios/races/ttl-normal-hours.json", kind: .pushExpirationWrong),
        Case(file: "scenarios/races/no-high-email-fallback.json", kind: .highEmailFallbackWrong),
        Case(file: "scenarios/races/email-ignores-setting.json", kind: .emailWithoutConsent),
        Case(file: "scenarios/races/push-low-priority-alert.json", kind: .lowPriorityAlerted),
        Case(file: "scenarios/races/push-badge-off-by-one.json", kind: .pushBadgeCountWrong),
        Case(file: "scenarios/races/push-no-badge-push-on-read.json", kind: .unreadChangeNotPushed),
        Case(file: "scenarios/races/push-release-held-individually.json", kind: .normalNotBatched),
        Case(file: "scenarios/races/push-quiet-hours-hold-blocking.json", kind: .blockingDelayed),
        Case(file: "scenarios/races/push-ignores-opt-out.json", kind: .pushToOptedOutCategory),
        Case(file: "scenarios/races/activity-window-seconds.json", kind: .normalPushWhileActive),
        Case(file: "scenarios/races/no-email-on-failure.json", kind: .failedPushNotEmailed),
        Case(file: "scenarios/races/expire-on-server-error.json", kind: .tokenExpiredWithoutCause),
        Case(file: "scenarios/races/ignores-token-refresh.json", kind: .pushSentToReplacedToken),
        Case(file: "scenarios/races/silent-high-priority.json", kind: .providerPriorityWrong),
        Case(file: "scenarios/races/validation-uses-inactive-after.json", kind: .tokenValidationLate),
        Case(file: "scenarios/races/purge-without-notice.json", kind: .registryCleanupWrong),
        Case(file: "scenarios/races/insert-not-upsert.json", kind: .duplicateStepRows),
        Case(file: "scenarios/races/advance-cursor-on-failure.json", kind: .stepsNeverSynced),
        Case(file: "scenarios/races/ignores-low-battery.json", kind: .syncedOnLowBattery),
        Case(file: "scenarios/races/retry-delays-seconds.json", kind: .stepRetryScheduleWrong),
        Case(file: "scenarios/races/stale-notice-minutes.json", kind: .staleNoticeWrong),
        Case(file: "scenarios/races/step-sync-ignores-offline.json", kind: .stepSyncWhenForbidden),
        Case(file: "scenarios/races/step-sync-interval-minutes.json", kind: .stepSyncTooSoon),
        Case(file: "scenarios/races/step-sync-open-after-48h.json", kind: .openSyncMissed),
        Case(file: "scenarios/races/step-sync-backfill-unlimited.json", kind: .stepsBackfilledTooFar),
        Case(file: "scenarios/races/local-day-ignores-dst.json", kind: .stepsNeverSynced),
        Case(file: "scenarios/races/deadline-ignored.json", kind: .continuationPastDeadline),
        Case(file: "scenarios/races/second-analysis.json", kind: .analysisStartedTwice),
        Case(file: "scenarios/races/continuation-offer-after-10ms.json", kind: .offerTimingWrong),
        Case(file: "scenarios/races/continuation-no-background-task.json", kind: .moveOnWithoutBackgroundTask),
        Case(file: "scenarios/races/continuation-never-asks-permission.json", kind: .permissionNotRequested),
        Case(file: "scenarios/races/continuation-permission-answer-ignored.json", kind: .continuationNotNotified),
        Case(file: "scenarios/races/continuation-result-not-cleared.json", kind: .continuationResultShownWrong),
    ]

    static func violations(_ scenario: Scenario) -> (total: UInt64, of: (ViolationKind) -> UInt64) {
        var world = World(scenario: scenario)
        world.runToEnd()
        let counts = world.core.oracle.counts
        return (world.core.oracle.violations, { kind in counts[ViolationKind.allCases.firstIndex(of: kind)!] })
    }

    @Test(arguments: cases) func variantIsCaughtAndCorrectLogicIsNot(_ c: Case) throws {
        let shipped = try Fixtures.scenario(c.file)
        #expect(!shipped.logic.variants.isEmpty)
        var caughtAt: UInt64?
        for seed in UInt64(1)...20 {
            var s = shipped
            s.seed = seed
            if Self.violations(s).of(c.kind) > 0 { caughtAt = seed; break }
        }
        let found = try #require(caughtAt, "\(c.file): variant not caught within 20 seeds")
        for seed in UInt64(1)...found {
            var s = shipped
            s.seed = seed
            s.logic.variants = []
            var world = World(scenario: s)
            world.runToEnd()
            ReadableFailures.expectNoViolation(world, "\(c.file) with the correct logic")
        }
    }

    /// The replay hint of a sample names the scenario file, the seed and the device.
    @Test func violationSamplesCarryAReplayCommand() throws {
        var world = World(scenario: try Fixtures.scenario("scenarios/races/unguarded-completion.json"))
        world.runToEnd()
        let sample = try #require(world.report().report.lookup("invariants.samples.0"))
        let replay = try #require(sample.lookup("replay")?.stringValue)
        let device = try #require(sample.lookup("device")?.intValue)
        #expect(replay.hasPrefix("fleetsim replay "))
        #expect(replay.contains("scenarios/races/unguarded-completion.json --seed 1 --device \(device) "))
    }
}
