import SimKernel
import AppLogic
import Platform
import Backend

/// A request on its way: from the device through the network to the API server and back.
/// Its slot is reused once both the client and the server are done with it; events
/// carry the slot's generation so those of a finished request are ignored.
///
/// Layout (120 bytes): the 4-byte fields first, the 25-byte result followed by the flags,
/// the owner, the row and the owner's word in its tail (a pool holds about one job for every four devices at a
/// burst's peak).
struct Job {
    var device: UInt32
    var incarnation: UInt32
    var request: RequestID
    var generation: UInt32 = 0
    var endpoint: Endpoint
    var sentAt: SimTime
    var roundTrip: SimDuration
    /// Where its timeout went in the queue (``WorldCore/retractTimeout(_:)``).
    var timeout: EventQueue<WorldEvent>.Placement = .near
    var result: HTTPResult = .failed(.timedOut)
    var clientDone = false
    var serverDone = false
    var cancelled = false
    /// The radio it was sent over, which its close charges: the bearer of its send, kept,
    /// because the local hour that decides it can change while it is in flight (a zone change).
    var bearer = Bearer.cellular
    /// The feature it belongs to, which serves it and hears its answer (``RequestOwner``).
    let owner: RequestOwner
    /// Its endpoint's row in the endpoint table (``RequestOwner/endpoints``).
    let endpointRow: UInt8
    /// What made the app send it (``World/causeOfSend()``).
    var cause = LoadCause.appTimer
    /// A word of its owner's, set and read only by the owner under a name of its own
    /// (an `extension Job` in the owner's folder); `UInt32.max` until set.
    var ownerWord = UInt32.max
    /// When the server finished it (`never` until then).
    var answeredAt = SimTime.never
    /// A span of true time its owner keeps with it, likewise the owner's; `never` until set.
    var ownerSpan = (from: SimTime.never, to: SimTime.never)
}

extension World {
    /// Sends a request of `owner`; returns its job (the owner keeps it: ``carryOut(_:device:)``).
    mutating func send(_ d: UInt32, _ request: RequestID, _ endpoint: Endpoint, owner: RequestOwner) -> UInt32 {
        let i = Int(d)
        let network = core.cohorts[Int(core.devices[i].cohort)].network
        let online = core.devices[i].online
        // The round trip, then (online) whether it is lost: one rebuild of the stream,
        // unless latency faults draw between the two.
        var roundTrip: SimDuration
        let lost: Bool
        if core.faults.activeLatency.isEmpty {
            (roundTrip, lost) = core.withStream(.network, of: i) { rng in
                let roundTrip = network.latency.sampleDuration(&rng)
                return (roundTrip, online && rng.chance(network.failureRate))
            }
        } else {
            roundTrip = core.withStream(.network, of: i) { network.latency.sampleDuration(&$0) }
            roundTrip = roundTrip + core.extraLatency(i)
            lost = online && core.withStream(.network, of: i) { $0.chance(network.failureRate) }
        }
        let cause = causeOfSend()
        let row = owner.row(endpoint)
        let job = allocateJob(Job(device: d, incarnation: core.devices[i].incarnation, request: request, endpoint: endpoint, sentAt: now,
                                  roundTrip: roundTrip, owner: owner, endpointRow: UInt8(row)))
        let generation = core.jobs[Int(job)].generation
        core.jobs[Int(job)].cause = cause
        guard online else {
            core.jobs[Int(job)].serverDone = true
            core.jobs[Int(job)].result = .failed(.offline)
            core.schedule(.responseReachesDevice(job: job, generation: generation), at: now)
            core.note(d, "network: \(endpoint.path) fails at once: offline")
            return job
        }
        // The radio opens: from idle LTE the first byte waits for the promotion (the
        // latency profiles are round trips with the radio connected, ``RadioEnergyModel``).
        let bearer = core.bearer(i, at: now)
        core.jobs[Int(job)].bearer = bearer
        let promotion = core.devices[i].radio.open(at: now, over: bearer, model: core.radios)
        if lost {
            core.metrics.transportFailures += 1
            core.jobs[Int(job)].serverDone = true
            core.jobs[Int(job)].result = .failed(.connectionLost)
            core.schedule(.responseReachesDevice(job: job, generation: generation), after: promotion + roundTrip)
            core.note(d, "network: \(endpoint.path) will be lost in transit")
            return job
        }
        core.schedule(.requestReachesServer(job: job, generation: generation), after: promotion + SimDuration(microseconds: roundTrip.microseconds / 2))
        if RequestOwner.endpoints[row].timesOut {
            core.jobs[Int(job)].timeout = core.scheduleRetractably(.requestTimesOut(job: job, generation: generation), at: now + requestTimeout)
        }
        if promotion > .zero {
            core.note(d) { c in "network: \(endpoint.path) sent, radio promotion \(c.human(promotion)), round trip \(c.human(roundTrip))" }
        } else {
            core.note(d) { c in "network: \(endpoint.path) sent, round trip \(c.human(roundTrip))" }
        }
        return job
    }

    /// The cause of a request sent now: the trigger of the event being handled, or for an
    /// answer (or a timeout) the answered request's cause, a retry when it failed.
    @inline(__always) func causeOfSend() -> LoadCause {
        guard let event = handling else { return .appTimer }
        if let cause = LoadCause.of(event) { return cause }
        switch event {
        case .responseReachesDevice(let job, _):
            let j = Int(job)
            return core.jobs[j].cancelled ? core.jobs[j].cause : LoadCause.following(core.jobs[j].cause, core.jobs[j].result)
        case .requestTimesOut: return .retryAfterFailure
        default: return .appTimer
        }
    }

    mutating func requestReachesServer(_ job: UInt32, generation: UInt32) {
        let j = Int(job)
        guard core.jobs[j].generation == generation else { return }
        let endpoint = Int(core.jobs[j].endpointRow)
        core.metrics.countArrival(at: now, cause: core.jobs[j].cause, endpoint: endpoint)
        let b = load.index(now)
        load.requests[endpoint][b] &+= 1
        load.byCause[Int(core.jobs[j].cause.rawValue)][b] &+= 1
        load.byZone[Int(core.devices[Int(core.jobs[j].device)].clock.timeZone)][b] &+= 1
        defer { load.apiBusyPeak.note(server.busy, bucket: b) }
        switch server.arrive(job: job, now: now) {
        case .serve:
            core.metrics.recordWait(.zero, endpoint: endpoint, at: now)
            startService(job, queued: .zero)
        case .queued:
            break
        case .rejected:
            core.recordRequest(job, arrival: now, service: nil, flags: .rejected)
            core.metrics.rejected += 1
            load.apiRejected[b] &+= 1
            core.jobs[j].serverDone = true
            core.jobs[j].result = .status(503)
            core.note(core.jobs[j].device) { c in "server: \(c.jobs[j].endpoint.path) answered 503 (all \(server.workers) workers busy, queue full)" }
            returnResponse(job)
        case .unanswered:
            core.recordRequest(job, arrival: now, service: nil, flags: .unanswered)
            core.metrics.unanswered += 1
            load.apiUnanswered[b] &+= 1
            core.jobs[j].serverDone = true
            core.note(core.jobs[j].device, "backend: no answer (outage)")
            core.releaseIfDone(job)
        }
    }

    /// A worker takes the request after `queued` in the queue; its service time is drawn now.
    private mutating func startService(_ job: UInt32, queued: SimDuration) {
        let d = Int(core.jobs[Int(job)].device)
        let service: SimDuration
        if let own = server.ownServiceTime(row: Int(core.jobs[Int(job)].endpointRow)) {
            // An endpoint given its own service time (`backend.endpoints`) draws it as the API's.
            service = server.slowedDown(core.withStream(.backend, of: d) { own.sampleDuration(&$0) })
        } else if let modelled = featureServiceTime(job, slowdown: server.slowdowns.isEmpty ? nil : server.slowdown) {
            service = modelled
        } else {
            // The distribution read out first: a closure reading `server` copied it.
            let serviceTime = server.serviceTime
            service = server.slowedDown(core.withStream(.backend, of: d) { serviceTime.sampleDuration(&$0) })
        }
        core.schedule(.serviceCompletes(job: job, generation: core.jobs[Int(job)].generation), after: service)
        core.recordRequest(job, arrival: now - queued, service: service, flags: [])
        load.addBusy(from: now, for: service, endpoint: Int(core.jobs[Int(job)].endpointRow), cause: core.jobs[Int(job)].cause, end: end)
        core.note(UInt32(d)) { c in "server: \(c.jobs[Int(job)].endpoint.path) queued \(c.human(queued)), served in \(c.human(service))" }
    }

    mutating func serviceCompletes(_ job: UInt32, generation: UInt32) {
        let j = Int(job)
        guard core.jobs[j].generation == generation else { return }
        let user = Int(core.jobs[j].device)
        core.jobs[j].serverDone = true
        core.jobs[j].answeredAt = now
        // The answer comes from the backend's ground truth at this instant.
        if !tokens.isValid(user, at: now) {
            core.metrics.unauthorized += 1
            core.jobs[j].result = .status(401)
        } else {
            let serverTime = Instant(unixMicroseconds: core.startUnixSeconds * 1_000_000 + now.microseconds)
            core.jobs[j].result = featureServes(job, user: user, serverTime: serverTime)
        }
        returnResponse(job)
        // A long service can end minutes after the last arrival: its bucket sees it busy too.
        let b = load.index(now)
        load.apiBusyPeak.note(server.busy, bucket: b)
        defer { load.apiBusyPeak.note(server.busy, bucket: b) }
        if let next = server.finish() {
            core.metrics.recordWait(now - next.since, endpoint: Int(core.jobs[Int(next.job)].endpointRow), at: now)
            startService(next.job, queued: now - next.since)
        }
    }

    private mutating func returnResponse(_ job: UInt32) {
        let j = Int(job)
        core.schedule(.responseReachesDevice(job: job, generation: core.jobs[j].generation), after: SimDuration(microseconds: core.jobs[j].roundTrip.microseconds / 2))
    }

    mutating func responseReachesDevice(_ job: UInt32, generation: UInt32) {
        let j = Int(job)
        guard core.jobs[j].generation == generation else { return }
        if !core.jobs[j].clientDone {
            core.jobs[j].clientDone = true
            core.retractTimeout(job)
            let result: HTTPResult = core.jobs[j].cancelled ? .failed(.cancelled) : core.jobs[j].result
            complete(job, with: result)
        }
        core.releaseIfDone(job)
    }

    mutating func requestTimesOut(_ job: UInt32, generation: UInt32) {
        let j = Int(job)
        guard core.jobs[j].generation == generation, !core.jobs[j].clientDone else { return }
        core.metrics.timeouts += 1
        core.jobs[j].clientDone = true
        complete(job, with: .failed(.timedOut))
        core.releaseIfDone(job)
    }

    /// The client side of a request ends: radio energy (none for a request that failed
    /// at once offline: it never opened the radio), then the logic hears of it.
    private mutating func complete(_ job: UInt32, with result: HTTPResult) {
        featureReceives(job, result, radioJoules: core.closeRadio(job))
    }

    /// Whether the app that sent `job` is there to hear its answer: a terminated or
    /// suspended app is not (the trace says so).
    @inline(__always) func appHearsAnswer(_ job: UInt32) -> Bool {
        let j = Int(job), d = core.jobs[j].device, i = Int(d)
        guard core.devices[i].incarnation == core.jobs[j].incarnation, core.devices[i].process == .running else {
            core.note(d, "network: response \(core.jobs[j].request) dropped (app not running)")
            return false
        }
        return true
    }

    private mutating func allocateJob(_ job: Job) -> UInt32 {
        if let slot = core.freeJobs.popLast() {
            let generation = core.jobs[Int(slot)].generation
            core.jobs[Int(slot)] = job
            core.jobs[Int(slot)].generation = generation
            return slot
        }
        core.jobs.append(job)
        return UInt32(core.jobs.count - 1)
    }

    /// An offline spell begins (`network.offlineSpells`): its length is drawn.
    mutating func offlineSpellStarts(_ d: UInt32) {
        let i = Int(d)
        core.devices[i].offlineSpells += 1
        let spell = core.cohorts[Int(core.devices[i].cohort)].network.offlineSpellDuration
        let length = core.withStream(.network, of: i) { spell.sampleDuration(&$0) }
        core.schedule(.offlineSpellEnds(device: d), after: length)
        core.note(d) { c in "network: offline for \(c.human(length))" }
        connectivityChanged(d)
    }

    /// Back online: providers hand over what they stored; the next spell is drawn.
    mutating func offlineSpellEnds(_ d: UInt32) {
        let i = Int(d)
        core.devices[i].offlineSpells -= 1
        core.note(d, "network: back online")
        connectivityChanged(d)
        if core.devices[i].online { featuresHearReachable(d) }
        let network = core.cohorts[Int(core.devices[i].cohort)].network
        if let gap = core.withStream(.network, of: i, { network.nextSpell(rng: &$0) }) {
            core.schedule(.offlineSpellStarts(device: d), after: gap)
        }
    }
}

extension WorldCore {
    /// Request `job` for the recorder, if any (``RequestRecorder``): a retry when its cause is one.
    @inline(__always) func recordRequest(_ job: UInt32, arrival: SimTime, service: SimDuration?, flags: RecordedRequest.Flags) {
        guard let requestRecorder else { return }
        let cause = jobs[Int(job)].cause
        var f = flags
        if cause == .retryAfterFailure || cause == .retryBackoff { f.insert(.retry) }
        requestRecorder.api(arrival: arrival, service: service, endpoint: Int(jobs[Int(job)].endpointRow), flags: f)
    }
}
