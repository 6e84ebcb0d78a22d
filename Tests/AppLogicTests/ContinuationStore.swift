import AppLogic

/// An exhaustive test store for ``ContinuationLogic`` (as ``RefreshStore``): `send`
/// returns every effect of one input, in order, and each test compares the whole list.
struct ContinuationStore {
    let logic: ContinuationLogic
    private(set) var state: ContinuationState

    init(variants: ContinuationVariants = [], state: ContinuationState = ContinuationState()) {
        self.logic = ContinuationLogic(variants: variants)
        self.state = state
    }

    mutating func send(_ input: ContinuationInput, at now: Instant) -> [ContinuationEffect] {
        var effects: [ContinuationEffect] = []
        logic.handle(input, state: &state, now: now, into: &effects)
        return effects
    }
}
