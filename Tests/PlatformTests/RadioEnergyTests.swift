import Testing
import SimKernel
@testable import Platform
