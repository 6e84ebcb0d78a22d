import Foundation
import SimKernel

/// When iOS grants a pending `BGAppRefreshTask` a launch: an explicit model of a policy
/// Apple does not document (`docs/platform-facts.md` F: the task "won't begin sooner" than
/// `earliestBeginDate`, and no more is promised). Every parameter is a named
/// **assumption**, overridable.
///
/// Hard rules (`docs/platform-facts.md` F):
/// - Background App Refresh off: `submit` fails as `unavailable`
///   (``BGTaskSchedulerModel/submit(earliestBegin:now:backgroundAppRefresh:rng:)``), and
///   a request pending when it is switched off is not launched.
/// - Low Power Mode: "Background App Refresh is disabled automatically": no launches.
/// - Force-quit by the user: no background launches until the next open.
///
/// The policy (Apple's WWDC 2019/2020 background-execution talks describe its inputs,
/// not its numbers): from `earliestBeginDate` on, the system looks at the pending
/// request at *opportunities*, a Poisson process of mean gap ``opportunityGap``. At each
/// it grants the launch with probability
/// `min(1, baseAcceptance × affinity × charging × wifi)`:
/// - `affinity`: how much the user opens the app in the local hour ``usageLead`` ahead
///   (the system launches apps shortly before their predicted use), 1 for an average
///   hour, from the device's own history of opens by local hour;
/// - ``chargingFactor`` while plugged in, ``wifiFactor`` on Wi-Fi;
/// - within a daily budget of `min(budgetMax, budgetBase + budgetPerDailyOpen × opens a
///   day)`, where "opens a day" is a moving average over about a week of days.
public struct LaunchPolicyModel: Sendable {
    /// **Assumption**: mean gap between the system's looks at a pending request.
    public var opportunityGap: SimDuration = .minutes(30)
    /// **Assumption**: grant probability at an average hour, on cellular, unplugged.
    public var baseAcceptance = 0.2
    /// **Assumption**: plugged in multiplies the grant probability by 4.
    public var chargingFactor = 4.0
    /// **Assumption**: Wi-Fi multiplies it by 1.5.
    public var wifiFactor = 1.5
    /// **Assumption**: the system launches ahead of predicted use by 30 min.
    public var usageLead: SimDuration = .minutes(30)
    /// **Assumption**: a daily budget of 1 launch plus 2 per daily app open, at most 12.
    public var budgetBase = 1.0
    public var budgetPerDailyOpen = 2.0
    public var budgetMax = 12.0
    /// **Assumption**: weight of the last day in the opens-a-day moving average
    /// (1/7: about a week, as `docs/platform-facts.md` F's "used your app within the past week").
    public var usageSmoothing = 1.0 / 7.0
    /// **Assumption**: the hour-of-day history halves every 7 days, so old habits fade.
    public var historyHalfLifeDays: UInt8 = 7
    /// **Assumption**: Laplace prior per hour, so an hour with no opens yet still
    /// gets some launches.
    public var hourPrior = 1.0

    public init() {}

    /// The usage-free length of a budget day (true time; the budget is not a calendar day).
    public static let budgetDay = SimDuration.days(1)

    /// What the device looks like at an opportunity.
    public struct Conditions: Sendable, Equatable {
        public var backgroundAppRefresh: Bool
        public var lowPowerMode: Bool
        public var charging: Bool
        public var onWiFi: Bool
        /// Whether the device meets the request's requirements: a `BGProcessingTaskRequest`
        /// with `requiresExternalPower` launches only on external power, with
        /// `requiresNetworkConnectivity` only with a network (docs/platform-facts.md F);
        /// a refresh request has none.
        public var requirementsMet: Bool
        public init(backgroundAppRefresh: Bool, lowPowerMode: Bool, charging: Bool, onWiFi: Bool, requirementsMet: Bool = true) {
            self.backgroundAppRefresh = backgroundAppRefresh
            self.lowPowerMode = lowPowerMode
            self.charging = charging
            self.onWiFi = onWiFi
            self.requirementsMet = requirementsMet
        }
    }

    public enum Blocked: UInt8, Sendable, Equatable {
        case backgroundAppRefreshOff, lowPowerMode, forceQuit
    }

    public enum Decision: Sendable, Equatable {
        /// Launch the task now (the budget is charged).
        case launch
        /// Look again at this time (next opportunity, or when the budget refills).
        case lookAgain(at: SimTime)
        /// No launch until a condition changes: the world looks again when Background
        /// App Refresh is switched on, Low Power Mode ends, or the app is opened.
        case blocked(Blocked)
    }

    /// The first look at a request submitted at `now` that won't begin before `earliestBegin`.
    public func firstLook(earliestBegin: SimTime, now: SimTime, rng: inout RandomStream) -> SimTime {
        (earliestBegin < now ? now : earliestBegin) + nextGap(rng: &rng)
    }

    /// Decides at an opportunity. `localHourAhead` is the user's local hour at
    /// `now + usageLead` (``LocalTimeZone``); `state` is the device's policy state.
    public func decide(now: SimTime, conditions: Conditions, localHourAhead: Int, state: inout LaunchPolicyState, rng: inout RandomStream) -> Decision {
        if !conditions.backgroundAppRefresh { return .blocked(.backgroundAppRefreshOff) }
        if conditions.lowPowerMode { return .blocked(.lowPowerMode) }
        if state.forceQuit { return .blocked(.forceQuit) }
        // A request whose requirements the device does not meet is not launched; the
        // system looks again at its next opportunity (no launch of the budget spent).
        if !conditions.requirementsMet { return .lookAgain(at: now + nextGap(rng: &rng)) }
        state.roll(to: now, model: self)
        if Double(state.launchesInDay) >= dailyBudget(state) {
            return .lookAgain(at: state.dayStart + Self.budgetDay + nextGap(rng: &rng))
        }
        var p = baseAcceptance * affinity(hour: localHourAhead, state: state)
        if conditions.charging { p *= chargingFactor }
        if conditions.onWiFi { p *= wifiFactor }
        guard rng.chance(p) else { return .lookAgain(at: now + nextGap(rng: &rng)) }
        state.launchesInDay &+= 1
        return .launch
    }

    /// Launches allowed per budget day for this device now.
    public func dailyBudget(_ state: LaunchPolicyState) -> Double {
        min(budgetMax, budgetBase + budgetPerDailyOpen * state.opensPerDay)
    }

    /// Opens in `hour` relative to an average hour (1), smoothed by ``hourPrior``.
    public func affinity(hour: Int, state: LaunchPolicyState) -> Double {
        var total = 0.0
        for h in 0..<24 { total += Double(state.opensByHour[h]) }
        return 24 * (hourPrior + Double(state.opensByHour[hour])) / (24 * hourPrior + total)
    }

    private func nextGap(rng: inout RandomStream) -> SimDuration {
        .fromSeconds(rng.exponential(mean: opportunityGap.seconds))
    }
}

/// One device's launch-policy state: 48 bytes, no allocation.
public struct LaunchPolicyState: Sendable {
    /// App opens by the user's local hour, decayed (halved every half-life, and when a
    /// count would overflow).
    public private(set) var opensByHour: InlineArray<24, UInt8> = .init(repeating: 0)
    /// Moving average of app opens per budget day.
    public private(set) var opensPerDay: Double
    public private(set) var dayStart: SimTime
    public private(set) var opensInDay: UInt16 = 0
    public fileprivate(set) var launchesInDay: UInt16 = 0
    public private(set) var daysSinceHalving: UInt8 = 0
    /// The user force-quit the app (swiped it away) and has not opened it since.
    public private(set) var forceQuit = false

    /// A device whose user opened the app `opensPerDay` times a day before the run,
    /// spread over the local hours as `curve` says (a week of such opens seeds the
    /// history; **assumption**: the app was in use before the run).
    public init(opensPerDay: Double, curve: DiurnalCurve, now: SimTime) {
        self.opensPerDay = opensPerDay
        dayStart = now
        for h in 0..<24 {
            opensByHour[h] = UInt8(min(255, (opensPerDay * 7 * curve.share(ofHour: h)).rounded()))
        }
    }

    /// The user opens the app at `now`, at local hour `localHour` (user's true local time).
    public mutating func appOpened(at now: SimTime, localHour: Int, model: LaunchPolicyModel) {
        roll(to: now, model: model)
        forceQuit = false
        opensInDay &+= 1
        if opensByHour[localHour] == 255 { halveHistory() }
        opensByHour[localHour] += 1
    }

    /// The user swipes the app away in the app switcher.
    public mutating func userForceQuits() { forceQuit = true }

    /// Closes the budget days that ended by `now`.
    mutating func roll(to now: SimTime, model: LaunchPolicyModel) {
        let day = LaunchPolicyModel.budgetDay
        guard now >= dayStart + day else { return }
        let days = (now - dayStart).microseconds / day.microseconds
        let keep = 1 - model.usageSmoothing
        // The day with opens, then `days - 1` days without (closed form, bounded work).
        opensPerDay = (keep * opensPerDay + model.usageSmoothing * Double(opensInDay)) * pow(keep, Double(days - 1))
        opensInDay = 0
        launchesInDay = 0
        dayStart = dayStart + day * days
        let elapsed = Int64(daysSinceHalving) + days
        let halvings = model.historyHalfLifeDays == 0 ? 0 : elapsed / Int64(model.historyHalfLifeDays)
        daysSinceHalving = UInt8(model.historyHalfLifeDays == 0 ? 0 : elapsed % Int64(model.historyHalfLifeDays))
        for _ in 0..<min(halvings, 8) { halveHistory() }
    }

    private mutating func halveHistory() {
        for h in 0..<24 { opensByHour[h] /= 2 }
    }
}
