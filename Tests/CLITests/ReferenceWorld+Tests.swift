import Simulation

/// The tests here read the reference logic's world: `World` is its world (``ReferenceWorld``).
typealias World = ReferenceWorld
