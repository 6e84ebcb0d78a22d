import SimKernel

extension Job {
    /// A step upload's health-data range, true times (``StepSyncHost/requestSent(_:job:core:)``;
    /// the step sync's span of the request, ``Job/ownerSpan``).
    var stepsReadFrom: SimTime {
        get { ownerSpan.from }
        set { ownerSpan.from = newValue }
    }

    var stepsReadTo: SimTime {
        get { ownerSpan.to }
        set { ownerSpan.to = newValue }
    }
}
