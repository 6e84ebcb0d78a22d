import Testing
@testable import SimKernel

@Suite struct KernelBenchmarkTests {
    /// The exact cross-check against an independent implementation of the reference model.
    @Test func referenceModelCountMatchesIndependentImplementation() {
        #expect(KernelBenchmark.countEvents(devices: 10_000) == 1_120_211)
    }
}
