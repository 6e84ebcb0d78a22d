import Reports

/// The core's part of what `fleetsim merge` and `compare` accept as a report of this
/// build (``ReportConsistency``; docs/scale.md, "What merge refuses"): the keys of the
/// core's sections, the totals and their parts, and the bounds physics sets. Each
/// feature adds its own beside its report (Features/Features.swift joins them). A key a
/// report of this build never writes is refused, not merged as an unknown count: every
/// input of a merge or a compare comes from one build (`fleetsimVersion` is part of a
/// run's identity).
enum CoreReportSchema {
    /// Every leaf key of report.json (a latency or distribution object, a list or a
    /// scalar), `*` one key (a cohort, endpoint, cause, provider, kind...); `?` marks a
    /// key that not every report has (a shard's or a part's, a platform's).
    static let reportKeys = """
        scenario
        seed
        fleetsimVersion
        modelVersion
        simulated.devices
        simulated.duration
        simulated.events
        simulated.start
        simulated.shard.index?
        simulated.shard.count?
        simulated.shard.fingerprint?
        simulated.shard.identity.scenarioContent?
        simulated.shard.identity.scale?
        simulated.shard.identity.variants?
        simulated.shard.identity.swarm?
        simulated.shards.count?
        simulated.shards.covered?
        simulated.shards.fingerprint?
        simulated.shards.identity.scenarioContent?
        simulated.shards.identity.scale?
        simulated.shards.identity.variants?
        simulated.shards.identity.swarm?
        expect
        invariants.checked
        invariants.violations
        invariants.byKind.*
        invariants.samples
        judges.off.*?
        events.hash.function
        events.hash.delivered
        events.hash.fleetDelivered
        events.hash.total
        events.hash.devices
        events.hash.fleet
        events.hash.byCohort
        events.hash.byBucket
        latency.*
        latencyOverTime.bucketSeconds
        latencyOverTime.series
        batches.bucketSeconds
        batches.series
        notifications.posted
        notifications.notShownWithoutPermission
        users.appOpens
        users.testsStarted
        battery.*.capacityMah
        battery.*.appEnergyPerDeviceDay.mAh
        battery.*.appEnergyPerDeviceDay.percentOfCapacity
        battery.*.wakeupsPerDeviceDay
        battery.*.radioActiveSecondsPerDeviceDay
        backend.capacity.queueLimit
        backend.capacity.workers
        backend.clientTimeouts
        backend.lostInTransit
        backend.peakQueueDepth
        backend.rejected
        backend.unanswered
        backend.unauthorized
        backend.saturated
        backend.requests.total
        backend.requests.byEndpoint.*
        backend.requestsPerSecond.mean
        backend.requestsPerSecond.p99
        backend.requestsPerSecond.peak
        backend.requestsPerSecond.peakSecond
        backend.queueing
        backend.queue.overall.busyWorkerMicroseconds
        backend.queue.overall.meanWait
        backend.queue.overall.pWait
        backend.queue.overall.served
        backend.queue.overall.utilisation
        backend.queue.byEndpoint.*.busyWorkerMicroseconds
        backend.queue.byEndpoint.*.meanWait
        backend.queue.byEndpoint.*.pWait
        backend.queue.byEndpoint.*.served
        backend.queue.byEndpoint.*.utilisation
        backend.queue.byEndpoint.*.wait
        backend.pooled.arrivals?
        backend.pooled.capacity.workers?
        backend.pooled.capacity.queueLimit?
        backend.pooled.shardsSaw.*?
        backend.pooled.requests?
        backend.pooled.served?
        backend.pooled.rejected?
        backend.pooled.unanswered?
        backend.pooled.peakQueueDepth?
        backend.pooled.queueing?
        backend.pooled.meanWait?
        backend.pooled.pWait?
        backend.pooled.utilisation?
        backend.pooled.headroom?
        backend.pooled.busyWorkersPeak?
        backend.pooled.busyWorkersPeakOverTime?
        backend.pooled.borrowedServiceTimes?
        backend.pooled.providers.*.*?
        backend.pooled.batches.bucketSeconds?
        backend.pooled.batches.histograms?
        backend.load.bucketSeconds
        backend.load.faults
        backend.load.peaksAre
        backend.load.arrivalsBySecond?
        backend.load.peakSecondMixes?
        backend.load.apiBusyWorkerMicroseconds
        backend.load.apiBusyByEndpoint.*
        backend.load.apiBusyByCause.*
        backend.load.apiBusyWorkersPeak
        backend.load.apiBusyWorkersPeakUpperBound
        backend.load.apiHeadroom
        backend.load.apiHeadroomOverTime
        backend.load.apiRejected
        backend.load.apiRejectedPerSecond
        backend.load.apiUnanswered
        backend.load.apiUnansweredPerSecond
        backend.load.apiUtilisation
        backend.load.apiUtilisationOverTime
        backend.load.requests.*
        backend.load.requestsByCause.*
        backend.load.requestsByZone.*
        backend.load.requestsPerSecond.*
        backend.load.peak.at
        backend.load.peak.busyWorkers
        backend.load.peak.busyWorkersUpperBound
        backend.load.peak.cause
        backend.load.peak.headroom
        backend.load.peak.requests
        backend.load.peak.requestsPerSecond
        backend.load.peak.utilisation
        backend.load.peak.byCause.*
        backend.load.peak.byEndpoint.*
        backend.load.peak.faults
        backend.load.peak.zone
        backend.load.peak.localTime
        backend.load.peakByWork.zone
        backend.load.peakByWork.localTime
        backend.load.peakByWork.at
        backend.load.peakByWork.busyWorkerMicroseconds
        backend.load.peakByWork.utilisation
        backend.load.peakByWork.headroom
        backend.load.peakByWork.requests
        backend.load.peakByWork.unanswered
        backend.load.peakByWork.cause
        backend.load.peakByWork.faults
        backend.load.peakByWork.byCause.*
        backend.load.peakByWork.byEndpoint.*
        backend.resources.*.capacity
        backend.resources.*.utilisation
        backend.resources.*.headroom
        backend.resources.*.leastHeadroomAt
        backend.resources.*.leastHeadroomFaults
        backend.resources.*.refused
        backend.binding
        backend.load.peakSecond.at
        backend.load.peakSecond.cause
        backend.load.peakSecond.mixOf
        backend.load.peakSecond.requests
        backend.load.peakSecond.byCause.*
        backend.load.peakSecond.byEndpoint.*
        scheduling.launches
        scheduling.launchesByPlatform.*.devices
        scheduling.launchesByPlatform.*.launches
        scheduling.launchesByPlatform.*.byBucket.*?
        scheduling.launchesPerDeviceDay.*.*
        scheduling.expirations
        scheduling.earlyExpirations
        scheduling.watchdogKills
        scheduling.submitUnavailable
        scheduling.heldBackByLowPowerMode
        scheduling.jetsamKills
        scheduling.dozeDeferrals
        scheduling.dozeDeferral
        scheduling.alarms.delayedByDoze
        scheduling.alarms.dozeDelay
        scheduling.alarms.fired
        scheduling.batterySaverActivations
        scheduling.bucketChanges
        scheduling.doze.deepIdleEntries
        scheduling.doze.maintenanceWindows
        scheduling.fcm.deferredByDoze
        scheduling.fcm.dozeDelay
        scheduling.fcm.highPriorityNow
        scheduling.forceQuits
        scheduling.jobsStopped
        scheduling.launchPolicy.dailyBudgetUsedUp
        scheduling.launchPolicy.grants
        scheduling.launchPolicy.heldBackByForceQuit
        scheduling.launchPolicy.looks
        scheduling.oemForceStops
        scheduling.quotaDeferrals
        scheduling.workManagerDelay
        """

    /// Totals and their parts (``ReportSchema/Relation``): each holds in every report a
    /// run or a merge writes, shards and parts included.
    static let reportRelations: [ReportSchema.Relation] = [
        .init("invariants.violations", ["invariants.byKind.*"]),
        .init("backend.requests.total", ["backend.requests.byEndpoint.*"]),
        .init("backend.requests.byEndpoint.*", ["backend.load.requests.*"]),
        .init("backend.load.requests.total", ["backend.load.requests.*"], perBucket: true),
        .init("backend.load.requests.total", ["backend.load.requestsByCause.*"], perBucket: true),
        .init("backend.load.requests.total", ["backend.load.requestsByZone.*"], perBucket: true),
        .init("backend.queue.overall.served", ["backend.queue.byEndpoint.*.served"]),
        .init("backend.queueing.count", ["backend.queue.overall.served"]),
        .init("backend.queue.byEndpoint.*.wait.count", ["backend.queue.byEndpoint.*.served"]),
        .init("backend.queue.overall.busyWorkerMicroseconds", ["backend.queue.byEndpoint.*.busyWorkerMicroseconds"]),
        .init("backend.queue.overall.busyWorkerMicroseconds", ["backend.load.apiBusyWorkerMicroseconds"]),
        .init("backend.load.apiBusyWorkerMicroseconds", ["backend.load.apiBusyByEndpoint.*"], perBucket: true),
        .init("backend.load.apiBusyWorkerMicroseconds", ["backend.load.apiBusyByCause.*"], perBucket: true),
        .init("backend.rejected", ["backend.load.apiRejected"]),
        .init("backend.unanswered", ["backend.load.apiUnanswered"]),
        .init("scheduling.launches", ["scheduling.launchesByPlatform.*.launches"]),
        .init("scheduling.launchesByPlatform.android.launches", ["scheduling.launchesByPlatform.android.byBucket.*"]),
        .init("simulated.devices", ["scheduling.launchesByPlatform.*.devices"]),
    ]

    /// Bounds physics sets on the counts, and the kinds a violation sample may name
    /// (``ReportSchema/Bound``).
    static let reportBounds: [ReportSchema.Bound] = [
        .memberNames("invariants.samples", member: "kind", names: "invariants.byKind"),
        .fullSeries("backend.load.*", bucketSeconds: "backend.load.bucketSeconds", except: ["arrivalsBySecond", "peakSecondMixes", "faults"]),
        .fullSeries("backend.load.*.*", bucketSeconds: "backend.load.bucketSeconds", except: ["faults"]),
        .busyTime("backend.load.apiBusyWorkerMicroseconds", workers: "backend.capacity.workers"),
        .atMost("backend.load.apiBusyWorkersPeak", limit: "backend.capacity.workers"),
        .atMostValue("battery.*.radioActiveSecondsPerDeviceDay.max", 86_400),
    ]
}
