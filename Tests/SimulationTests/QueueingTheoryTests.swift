import Testing
import SimKernel
import Backend
import Reports
@testable import Simulation

/// The API's queueing figures (`backend.queue`, `backend.load.apiUtilisation`) against
/// queueing theory: the server model (``APIServerModel``) fed Poisson arrivals with
/// exponential service (M/M/c), accounted as the world accounts it (busy time spread
/// into ``LoadSeries`` buckets when a service starts, waits in a ``LatencyHistogram``),
/// gives Erlang C's utilisation, P(wait > 0) and mean wait.
@Suite struct QueueingTheoryTests {
    /// Erlang C for `c` servers at offered load `a = λ/μ` (`a < c`): P(wait > 0).
    static func erlangC(servers c: Int, load a: Double) -> Double {
        var term = 1.0, sum = 0.0
        for k in 0..<c {
            sum += term
            term *= a / Double(k + 1)
        }
        let queued = term * Double(c) / (Double(c) - a)  // a^c / c! × c / (c − a)
        return queued / (sum + queued)
    }

    /// Runs an M/M/c queue with mean service 1 s for `arrivals` arrivals; returns the
    /// figures as the report derives them.
    static func simulate(servers c: Int, rho: Double, arrivals: Int, seed: UInt64) -> (utilisation: Double, pWait: Double, meanWait: Double) {
        var rng = RandomStream(seed: seed, entity: 0, purpose: "mmc")
        var server = APIServerModel(workers: c, queueLimit: Int.max, serviceTime: .exponential(mean: 1_000_000))
        let lambda = rho * Double(c)
        var completions: [SimTime] = []  // of the services in progress
        var waits = LatencyHistogram()
        var now = SimTime.zero
        var arrivalTimes: [SimTime] = []
        for _ in 0..<arrivals {
            now = now + .fromSeconds(rng.exponential(mean: 1 / lambda))
            arrivalTimes.append(now)
        }
        let end = now
        var load = LoadSeries(duration: end - .zero)
        func start(at t: SimTime) {
            let service = server.serviceTime.sampleDuration(&rng)
            completions.append(t + service)
            load.addBusy(from: t, for: service, endpoint: 0, cause: .appOpen, end: end)
        }
        for (job, t) in arrivalTimes.enumerated() {
            // Every service that ends before this arrival ends first (its worker takes the next in line).
            while let i = completions.indices.min(by: { completions[$0] < completions[$1] }), completions[i] <= t {
                let finished = completions.remove(at: i)
                if let next = server.finish() {
                    waits.record((finished - next.since).microseconds)
                    start(at: finished)
                }
            }
            if server.arrive(job: UInt32(job), now: t) == .serve {
                waits.record(0)
                start(at: t)
            }
        }
        let busy = Int64(load.apiBusy.reduce(0, +))
        let utilisation = DerivedFigures.utilisation(busy: busy, capacity: Int64(c), microseconds: end.microseconds).reportedDouble ?? -1
        return (utilisation, DerivedFigures.pWait(waits).reportedDouble ?? -1, DerivedFigures.meanWait(waits).reportedDouble ?? -1)
    }

    /// 4 workers at ρ = 0.5 (Erlang C: P(wait) 0.1739, mean wait 0.0870 s) and ρ = 0.8
    /// (0.5964, 0.7455 s): within 3 % for utilisation and P(wait), 6 % for the mean wait
    /// (the noisiest: waits at high load are correlated), seeded.
    @Test(arguments: [0.5, 0.8])
    func mmcMatchesErlangC(rho: Double) {
        let c = 4
        let got = Self.simulate(servers: c, rho: rho, arrivals: 400_000, seed: 29)
        let pWait = Self.erlangC(servers: c, load: rho * Double(c))
        let meanWait = pWait / (Double(c) * (1 - rho))  // Wq = C / (cμ − λ), μ = 1/s
        #expect(abs(got.utilisation - rho) / rho < 0.03, "utilisation \(got.utilisation) vs \(rho)")
        #expect(abs(got.pWait - pWait) / pWait < 0.03, "P(wait > 0) \(got.pWait) vs \(pWait)")
        #expect(abs(got.meanWait - meanWait) / meanWait < 0.06, "mean wait \(got.meanWait) vs \(meanWait)")
    }

    /// The formula itself, by hand: 4 servers at a = 2: (16/24 × 2) / (1 + 2 + 2 + 4/3 + 16/24 × 2) = 4/23.
    @Test func erlangCByHand() {
        #expect(abs(Self.erlangC(servers: 4, load: 2) - 4.0 / 23) < 1e-12)
        #expect(abs(Self.erlangC(servers: 1, load: 0.5) - 0.5) < 1e-12)  // M/M/1: P(wait) = ρ
    }

    /// Busy time is spread over the buckets a service spans, and cut at the run's end.
    @Test func busyTimeSpansBucketsAndStopsAtTheEnd() {
        var load = LoadSeries(duration: .seconds(150))
        load.addBusy(from: SimTime.zero + .seconds(50), for: .seconds(20), endpoint: 1, cause: .appOpen, end: SimTime.zero + .seconds(150))
        load.addBusy(from: SimTime.zero + .seconds(140), for: .seconds(30), endpoint: 3, cause: .pushWake, end: SimTime.zero + .seconds(150))
        #expect(load.apiBusy == [10_000_000, 10_000_000, 10_000_000])
        #expect(load.apiBusyByEndpoint == [0, 20_000_000, 0, 10_000_000] + Array(repeating: 0, count: LoadSeries.endpointNames.count - 4))
        // Split by bucket, by endpoint and by the request's cause alike (the minute of the most work).
        #expect(load.apiBusyByEndpointOverTime[1] == [10_000_000, 10_000_000, 0] && load.apiBusyByEndpointOverTime[3] == [0, 0, 10_000_000])
        #expect(load.apiBusyByCause[Int(LoadCause.appOpen.rawValue)] == [10_000_000, 10_000_000, 0])
        #expect(load.apiBusyByCause[Int(LoadCause.pushWake.rawValue)] == [0, 0, 10_000_000])
        // The last bucket is 30 s long: 10 s busy of one worker is a third.
        let u = DerivedFigures.utilisationSeries(busy: load.apiBusy.map(Int64.init), capacity: 1, bucketSeconds: 60, durationMicroseconds: 150_000_000)
        #expect(u.map { ($0 * 1e4).rounded() / 1e4 } == [0.1667, 0.1667, 0.3333])
    }
}
