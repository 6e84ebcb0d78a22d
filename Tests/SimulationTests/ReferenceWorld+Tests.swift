import Simulation

/// The tests here run the reference logic: `World` is its world (``ReferenceWorld``).
typealias World = ReferenceWorld
