extension Job {
    /// A history request's ground truth when the server answered: the test window open
    /// then (its number, ``TestAvailabilityTruth/window(_:)``), else ``RefreshSlot/noWindow``
    /// (the refresh's word of the request, ``Job/ownerWord``).
    var openWindow: UInt32 {
        get { ownerWord }
        set { ownerWord = newValue }
    }
}
