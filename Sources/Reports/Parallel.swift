import Dispatch

/// Work outside any world, spread over the machine's cores: reading the shard reports
/// a merge combines, checking and combining their keys, rendering its documents. Never
/// a simulation (a world runs on one thread, in event order). Each index's result lands
/// in its own slot and the results are returned in index order, so the output does not
/// depend on which thread finished first; the error of the lowest failing index is the
/// one thrown, as a loop would throw it.
public enum Parallel {
    public static func map<T: Sendable, E: Error>(_ count: Int, _ body: @Sendable (Int) throws(E) -> T) throws(E) -> [T] {
        guard count > 0 else { return [] }
        var slots = [Result<T, E>?](repeating: nil, count: count)
        slots.withUnsafeMutableBufferPointer { buffer in
            let slots = Slots(base: buffer.baseAddress!)
            DispatchQueue.concurrentPerform(iterations: count) { k in
                do throws(E) { slots.base[k] = .success(try body(k)) } catch { slots.base[k] = .failure(error) }
            }
        }
        return try slots.map { slot throws(E) in try slot!.get() }
    }

    /// The results' storage, shared by the threads: each writes only its own index,
    /// and `concurrentPerform` returns after every write.
    private struct Slots<T, E: Error>: @unchecked Sendable {
        let base: UnsafeMutablePointer<Result<T, E>?>
    }
}
