import SimKernel

/// The purposes whose streams are kept as positions (``StreamPosition``) and rebuilt at
/// each use, by key: each is FNV-1a of its name (`StreamPurpose("user")`), written out so
/// that a use hashes nothing (`StreamPurposeKeyTests` pins every one to its name). A
/// feature's own purposes are declared in its folder, beside its host.
extension StreamPurpose {
    static var user: StreamPurpose { StreamPurpose(key: 0x7D67_80E4_032B_48F2) }
    static var userOpen: StreamPurpose { StreamPurpose(key: 0x0816_C5B3_53B9_E8B4) }  // "user.open"
    static var backend: StreamPurpose { StreamPurpose(key: 0x54B5_5BF4_C402_EB8F) }
    static var userMotion: StreamPurpose { StreamPurpose(key: 0x853F_F76F_3449_1EFE) }  // "user.motion"
    static var userScreen: StreamPurpose { StreamPurpose(key: 0x63A1_FD6C_DB36_8F80) }  // "user.screen"
    static var network: StreamPurpose { StreamPurpose(key: 0x1E8E_57B2_909B_2A85) }
    static var os: StreamPurpose { StreamPurpose(key: 0x08B0_5507_B556_5E57) }
}

/// One of a device's own random streams, kept as a position (``Device/streams``), one per
/// purpose so that draws of one kind never shift another's.
enum DeviceStream {
    /// The user's choices (a notification opened, a test taken, a force-quit).
    case user
    /// App opens (``UserBehaviorModel``), apart so that the other user draws never shift them.
    case open
    /// The server's service time (the only one a request's arrival reads).
    case backend
    /// The network: a request's round trip and loss, offline spells, latency faults.
    case network
    /// The OS's own choices: the launch policy's looks, a task's run time, jetsam.
    case os

    @inline(__always) var purpose: StreamPurpose {
        switch self {
        case .user: return .user
        case .open: return .userOpen
        case .backend: return .backend
        case .network: return .network
        case .os: return .os
        }
    }
}

/// A device's five streams as positions (``StreamPosition``): 20 bytes, where the
/// streams were 80.
struct DeviceStreams {
    var user = StreamPosition.start
    var open = StreamPosition.start
    // The server's at a fixed place: a request's arrival reads only it (``Device/backendStreamBytes``).
    var backend = StreamPosition.start
    var network = StreamPosition.start
    var os = StreamPosition.start

    @inline(__always) subscript(_ stream: DeviceStream) -> StreamPosition {
        get {
            switch stream {
            case .user: return user
            case .open: return open
            case .backend: return backend
            case .network: return network
            case .os: return os
            }
        }
        set {
            switch stream {
            case .user: user = newValue
            case .open: open = newValue
            case .backend: backend = newValue
            case .network: network = newValue
            case .os: os = newValue
            }
        }
    }
}

extension WorldCore {
    /// Local device `i`'s `stream`, rebuilt where it left off: `body` draws from it and
    /// its position moves past the draws (``StreamKeys/withStream(entity:purpose:at:_:)``).
    @inline(__always) mutating func withStream<Result>(_ stream: DeviceStream, of i: Int, _ body: (inout RandomStream) -> Result) -> Result {
        let keys = streamKeys
        let entity = globalID(i)
        return keys.withStream(entity: entity, purpose: stream.purpose, at: &devices[i].streams[stream], body)
    }

    /// The streams of local device `i` kept elsewhere (a feature host's, the Android
    /// state's): `core.streams(of: i).withStream(purpose, at: &streams[i]) { ... }`. A value
    /// taken before the draw, so that the body may read `core` (a method of `core` itself,
    /// borrowing it across the body, copied all of it at each call).
    @inline(__always) func streams(of i: Int) -> EntityStreams { EntityStreams(keys: streamKeys, entity: globalID(i)) }
}

/// The streams of one entity (a device, by its global id), rebuilt from positions kept
/// anywhere (``StreamKeys/withStream(entity:purpose:at:_:)``).
struct EntityStreams {
    let keys: StreamKeys
    let entity: UInt64

    /// The stream for `purpose` at `position`: `body` draws from it, and `position` moves
    /// past the draws.
    @inline(__always) func withStream<Result>(_ purpose: StreamPurpose, at position: inout StreamPosition,
                                              _ body: (inout RandomStream) -> Result) -> Result {
        keys.withStream(entity: entity, purpose: purpose, at: &position, body)
    }
}
