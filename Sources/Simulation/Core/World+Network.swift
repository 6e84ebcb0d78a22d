import SimKernel
import AppLogic
import Platform
import Backend

/// A request on its way: from the device through the network to the API server and back.
/// Its slot is reused once both the client and the server are done with it; events
/// carry the slot's generation so those of a finished request are ignored.
struct Job {
    var device: UInt32
    var incarnation: UInt32
    var request: RequestID
    var endpoint: Endpoint
    var sentAt: SimTime
    var roundTrip: SimDuration
    var generation: UInt32 = 0
    var clientDone = false
    var serverDone = false
    var cancelled = false
    var result: HTTPResult = .failed(.timedOut)
    /// Ground truth when the server answered: the window was open (its key), else `never`.
    var openWindow = World.never
    /// When the server finished it (`never` until then).
    var answeredAt = World.never
    /// A step upload's health-data range, true times (the step-sync host's `requestSent`).
    var stepsReadFrom = World.never
    var stepsReadTo = World.never
}

extension World {
    /// Sends a request; returns its job (a hosted feature keeps it: ``carryOut(_:device:)``).
    @discardableResult
    mutating func send(_ d: UInt32, _ request: RequestID, _ endpoint: Endpoint) -> UInt32 {
        let i = Int(d)
        let cohort = cohorts[Int(devices[i].cohort)]
        var roundTrip = cohort.network.latency.sampleDuration(&devices[i].networkStream)
        if !activeLatencyFaults.isEmpty { roundTrip = roundTrip + extraLatency(i) }
        let job = allocateJob(Job(device: d, incarnation: devices[i].incarnation, request: request, endpoint: endpoint, sentAt: now, roundTrip: roundTrip))
        let generation = jobs[Int(job)].generation
        // Seed `004`'s analysis has only the logic's 180 s / 300 s deadline.
        let analysis: Bool
        if case .analysis = endpoint { analysis = true } else { analysis = false }
        guard devices[i].online else {
            jobs[Int(job)].serverDone = true
            jobs[Int(job)].result = .failed(.offline)
            clock.schedule(.responseReachesDevice(job: job, generation: generation), at: now)
            note(d, "network: \(endpoint.path) fails at once: offline")
            return job
        }
        if devices[i].networkStream.chance(cohort.network.failureRate) {
            metrics.transportFailures += 1
            jobs[Int(job)].serverDone = true
            jobs[Int(job)].result = .failed(.connectionLost)
            clock.schedule(.responseReachesDevice(job: job, generation: generation), after: roundTrip)
            note(d, "network: \(endpoint.path) will be lost in transit")
            return job
        }
        clock.schedule(.requestReachesServer(job: job, generation: generation), after: SimDuration(microseconds: roundTrip.microseconds / 2))
        if !analysis { clock.schedule(.requestTimesOut(job: job, generation: generation), after: requestTimeout) }
        note(d, "network: \(endpoint.path) sent, round trip \(human(roundTrip))")
        return job
    }

    mutating func requestReachesServer(_ job: UInt32, generation: UInt32) {
        let j = Int(job)
        guard jobs[j].generation == generation else { return }
        metrics.countArrival(at: now)
        let b = load.index(now)
        load.requests[LoadSeries.endpointIndex(jobs[j].endpoint)][b] &+= 1
        switch jobs[j].endpoint {
        case .testHistory: metrics.requestsHistory += 1
        case .activeSession: metrics.requestsActive += 1
        case .analysis: continuation.metrics.requests += 1
        case .syncSteps(let upload): if upload.method == .upsert { metrics.requestsStepSync += 1 } else { metrics.requestsStepInsert += 1 }
        }
        defer { load.apiBusyPeak[b] = max(load.apiBusyPeak[b], UInt32(clamping: server.busy)) }
        switch server.arrive(job: job, now: now) {
        case .serve:
            metrics.queueingLatency.record(0)
            startService(job, queued: .zero)
        case .queued:
            break
        case .rejected:
            metrics.rejected += 1
            load.apiRejected[b] &+= 1
            jobs[j].serverDone = true
            jobs[j].result = .status(503)
            note(jobs[j].device, "server: \(jobs[j].endpoint.path) answered 503 (all \(server.workers) workers busy, queue full)")
            returnResponse(job)
        case .unanswered:
            metrics.unanswered += 1
            load.apiUnanswered[b] &+= 1
            jobs[j].serverDone = true
            note(jobs[j].device, "backend: no answer (outage)")
            releaseIfDone(job)
        }
    }

    /// A worker takes the request after `queued` in the queue; its service time is drawn now.
    private mutating func startService(_ job: UInt32, queued: SimDuration) {
        let d = Int(jobs[Int(job)].device)
        let service: SimDuration
        if case .analysis(let mode) = jobs[Int(job)].endpoint {
            service = continuation.analysisServiceTime(mode, device: d, slowdown: server.slowdowns.isEmpty ? nil : server.slowdown, core: core)
        } else {
            service = server.drawServiceTime(&devices[d].backendStream)
        }
        clock.schedule(.serviceCompletes(job: job, generation: jobs[Int(job)].generation), after: service)
        note(UInt32(d), "server: \(jobs[Int(job)].endpoint.path) queued \(human(queued)), served in \(human(service))")
    }

    mutating func serviceCompletes(_ job: UInt32, generation: UInt32) {
        let j = Int(job)
        guard jobs[j].generation == generation else { return }
        let user = Int(jobs[j].device)
        jobs[j].serverDone = true
        jobs[j].answeredAt = now
        // The answer comes from the backend's ground truth at this instant.
        if !tokens.isValid(user, at: now) {
            metrics.unauthorized += 1
            jobs[j].result = .status(401)
        } else {
            let serverTime = Instant(unixMicroseconds: startUnixSeconds * 1_000_000 + now.microseconds)
            switch jobs[j].endpoint {
            case .testHistory:
                let completed = truth.lastCompletedAt(user)
                jobs[j].openWindow = truth.isAvailable(user, at: now) ? completed : World.never
                jobs[j].result = .ok(.testHistory(latestCompletedAt: Instant(unixMicroseconds: startUnixSeconds * 1_000_000 + completed.microseconds), serverTime: serverTime))
            case .activeSession:
                jobs[j].result = .ok(.activeSession(inProgress: truth.inProgress(user, at: now), serverTime: serverTime))
            case .analysis:
                jobs[j].result = .ok(.analysis)
            case .syncSteps(let upload):
                let result = stepSync.applyUpload(job, upload, core: &core)
                jobs[j].result = result
            }
        }
        returnResponse(job)
        // A long service can end minutes after the last arrival: its bucket sees it busy too.
        let b = load.index(now)
        load.apiBusyPeak[b] = max(load.apiBusyPeak[b], UInt32(clamping: server.busy))
        if let next = server.finish() {
            metrics.queueingLatency.record((now - next.since).microseconds)
            startService(next.job, queued: now - next.since)
        }
    }

    private mutating func returnResponse(_ job: UInt32) {
        let j = Int(job)
        clock.schedule(.responseReachesDevice(job: job, generation: jobs[j].generation), after: SimDuration(microseconds: jobs[j].roundTrip.microseconds / 2))
    }

    mutating func responseReachesDevice(_ job: UInt32, generation: UInt32) {
        let j = Int(job)
        guard jobs[j].generation == generation else { return }
        if !jobs[j].clientDone {
            jobs[j].clientDone = true
            let result: HTTPResult = jobs[j].cancelled ? .failed(.cancelled) : jobs[j].result
            complete(job, with: result)
        }
        releaseIfDone(job)
    }

    mutating func requestTimesOut(_ job: UInt32, generation: UInt32) {
        let j = Int(job)
        guard jobs[j].generation == generation, !jobs[j].clientDone else { return }
        metrics.timeouts += 1
        jobs[j].clientDone = true
        complete(job, with: .failed(.timedOut))
        releaseIfDone(job)
    }

    /// The client side of a request ends: radio energy, then the logic hears of it.
    private mutating func complete(_ job: UInt32, with result: HTTPResult) {
        let j = Int(job)
        let d = jobs[j].device
        let i = Int(d)
        let over = bearer(i, at: jobs[j].sentAt)
        let joules = devices[i].radio.transfer(from: jobs[j].sentAt, to: now, over: over, model: energy)
        if case .syncSteps = jobs[j].endpoint {} else { devices[i].ledger.chargeApp(joules: joules) }
        refresh.requestEnded(i, job: job)
        continuation.requestEnded(i, job: job)
        if case .syncSteps = jobs[j].endpoint {
            stepSync.uploadEnded(i, job: job, radioJoules: joules, seconds: (now - jobs[j].sentAt).seconds, energy: energy, core: &core)
            guard devices[i].incarnation == jobs[j].incarnation, devices[i].process == .running else {
                note(d, "network: response \(jobs[j].request) dropped (app not running)")
                return
            }
            return deliverStepSync(d, .httpResponse(jobs[j].request, result))
        }
        // A terminated or suspended app is not there to hear it.
        guard devices[i].incarnation == jobs[j].incarnation, devices[i].process == .running else {
            note(d, "network: response \(jobs[j].request) dropped (app not running)")
            return
        }
        if case .analysis = jobs[j].endpoint { return receiveAnalysis(job, result) }
        if case .ok(.testHistory) = result, devices[i].task.running { observeHistoryReceived(i, openWindow: jobs[j].openWindow) }
        deliverRefresh(d, .httpResponse(jobs[j].request, result))
    }

    private mutating func allocateJob(_ job: Job) -> UInt32 {
        if let slot = freeJobs.popLast() {
            let generation = jobs[Int(slot)].generation
            jobs[Int(slot)] = job
            jobs[Int(slot)].generation = generation
            return slot
        }
        jobs.append(job)
        return UInt32(jobs.count - 1)
    }

    /// An offline spell begins (`network.offlineSpells`): its length is drawn.
    mutating func offlineSpellStarts(_ d: UInt32) {
        let i = Int(d)
        devices[i].offlineSpells += 1
        let cohort = cohorts[Int(devices[i].cohort)]
        let length = cohort.network.offlineSpellDuration.sampleDuration(&devices[i].networkStream)
        clock.schedule(.offlineSpellEnds(device: d), after: length)
        note(d, "network: offline for \(human(length))")
        connectivityChanged(d)
    }

    /// Back online: providers hand over what they stored; the next spell is drawn.
    mutating func offlineSpellEnds(_ d: UInt32) {
        let i = Int(d)
        devices[i].offlineSpells -= 1
        note(d, "network: back online")
        connectivityChanged(d)
        if devices[i].online { pushDeviceReachable(d) }
        if let gap = cohorts[Int(devices[i].cohort)].network.nextSpell(rng: &devices[i].networkStream) {
            clock.schedule(.offlineSpellStarts(device: d), after: gap)
        }
    }
}
