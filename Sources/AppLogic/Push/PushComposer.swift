/// Seed `001`'s "Push Composition": titles of at most 65 and bodies of at most 240
/// characters, truncated with "..."; the thread id defaults to the category ("Grouping
/// Rules": group by category); the badge is the central unread count; a payload over
/// the provider's limit (4096 bytes, docs/platform-facts.md G and H) has its body shortened to the
/// longest that fits ("Payload too large: truncate content"), and is not sent when even
/// an empty body does not fit.
///
/// Sizes are those of the JSON the provider receives, in the shape of seed `001`'s
/// examples (**Assumption**: no `sound`, `category` or image keys, which the fleet does
/// not vary): APNs `{"aps":{"alert":{"title":…,"body":…},"badge":N,"thread-id":…},"data":{…}}`,
/// FCM `{"notification":{"title":…,"body":…},"android":{"notification":{"tag":…,"notification_count":N}},"data":{…}}`.
/// `dataBytes` is the size of the `data` object itself.
public struct PushComposer: Sendable {
    public var config: PushConfiguration
    public init(config: PushConfiguration) { self.config = config }

    /// The visible payload of `request` for `provider`, or nil when it cannot fit.
    public func compose(_ request: PushNotificationRequest, badge: Int, provider: PushProvider) -> PushPayload? {
        let title = PushComposer.truncate(request.title, to: config.titleLimit)
        var body = PushComposer.truncate(request.body, to: config.bodyLimit)
        let thread = request.threadId ?? request.category.name
        let limit = config.payloadLimit(provider)
        func size(_ body: String) -> Int {
            PushComposer.alertBytes(title: title, body: body, thread: thread, badge: badge, dataBytes: request.dataBytes, provider: provider)
        }
        var bytes = size(body)
        if bytes > limit {
            // The longest shortened body that fits (rare: only data-heavy payloads). From 4
            // characters up a cut keeps "...", so a longer one is never smaller: bisect
            // there; below 4 there is no "...", so 3, 2, 1 and 0 are tried in turn.
            var fit: (body: String, bytes: Int)?
            var low = 4, high = body.count - 1
            while low <= high {
                let keep = (low + high) / 2
                let candidate = PushComposer.truncate(request.body, to: keep)
                let n = size(candidate)
                if n <= limit { fit = (candidate, n); low = keep + 1 } else { high = keep - 1 }
            }
            var keep = min(3, body.count - 1)
            while fit == nil, keep >= 0 {
                let candidate = PushComposer.truncate(request.body, to: keep)
                let n = size(candidate)
                if n <= limit { fit = (candidate, n) }
                keep -= 1
            }
            guard let fit else { return nil }
            (body, bytes) = fit
        }
        return PushPayload(content: .alert(request.id, title: title, body: body, threadId: thread), badge: badge, bytes: bytes)
    }

    /// "You have N updates" for the notifications held through quiet hours ("Delivery Batching").
    public func summary(_ id: NotificationID, count: Int, badge: Int, provider: PushProvider) -> PushPayload {
        let title = count == 1 ? "You have 1 update" : "You have \(count) updates"
        let bytes = PushComposer.alertBytes(title: title, body: "Tap to view", thread: "summary", badge: badge, dataBytes: 0, provider: provider)
        return PushPayload(content: .summary(id, count: count), badge: badge, bytes: bytes)
    }

    /// A silent push: `{"aps":{"content-available":1,"badge":N}}` (APNs) or
    /// `{"data":{"badge":"N"}}` (FCM), seed `001` "Silent Push Payload".
    public func silent(_ content: PushContent, badge: Int, provider: PushProvider) -> PushPayload {
        let digits = "\(badge)".utf8.count
        let bytes = provider == .apns
            ? #"{"aps":{"content-available":1,"badge":}}"#.utf8.count + digits
            : #"{"data":{"badge":""}}"#.utf8.count + digits
        return PushPayload(content: content, badge: badge, bytes: bytes)
    }

    /// `text` itself if it has at most `limit` characters, else its first `limit - 3`
    /// characters and "...", `limit` characters in all.
    /// At most `limit` UTF-8 bytes means at most `limit` characters, which is decided
    /// without counting them (`count` walks the grapheme clusters).
    public static func truncate(_ text: String, to limit: Int) -> String {
        guard text.utf8.count > limit, text.count > limit else { return text }
        guard limit > 3 else { return String(text.prefix(limit)) }
        return String(text.prefix(limit - 3)) + "..."
    }

    static func alertBytes(title: String, body: String, thread: String, badge: Int, dataBytes: Int, provider: PushProvider) -> Int {
        let skeleton = provider == .apns
            ? #"{"aps":{"alert":{"title":"","body":""},"badge":,"thread-id":""}}"#.utf8.count
            : #"{"notification":{"title":"","body":""},"android":{"notification":{"tag":"","notification_count":}}}"#.utf8.count
        let data = dataBytes > 0 ? #","data":"#.utf8.count + dataBytes : 0
        return skeleton + jsonBytes(title) + jsonBytes(body) + jsonBytes(thread) + "\(badge)".utf8.count + data
    }

    /// UTF-8 bytes of `text` inside a JSON string: `"` and `\` and `\n`, `\r`, `\t` take
    /// two bytes, other control characters six (`\u00XX`).
    static func jsonBytes(_ text: String) -> Int {
        var n = 0
        for byte in text.utf8 {
            switch byte {
            case 0x22, 0x5C, 0x0A, 0x0D, 0x09: n += 2
            case 0x00 ..< 0x20: n += 6
            default: n += 1
            }
        }
        return n
    }
}
