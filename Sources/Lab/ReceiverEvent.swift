import Emulation
import Foundation

/// One event from a receiver's `GET /events`: the engine's `PlaybackEvent` fields and the session it
/// belongs to, read leniently so that a newer receiver's extra kinds or fields do not break a sender.
public struct ReceiverEvent: Sendable, Equatable, Decodable {
    /// `state-changed`, `interstitial-started`, … (`PlaybackEvent.Kind`'s raw values).
    public var kind: String
    public var session: String?
    public var time: Double?
    public var state: String?
    public var position: Double?
    public var rate: Double?
    public var eventID: String?
    public var assetIndex: Int?
    public var assetURI: String?
    public var reason: String?
    public var command: String?
    public var restriction: String?
    public var transition: Transition?
    /// The event's JSON exactly as it arrived, for `watch --json`.
    public var json = ""

    enum CodingKeys: String, CodingKey {
        case kind, session, time, state, position, rate, eventID, assetIndex, assetURI, reason, command, restriction, transition
    }

    /// Every field but `kind` is optional, and one of an unexpected type is dropped, not fatal.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        kind = try container.decode(String.self, forKey: .kind)
        session = try? container.decodeIfPresent(String.self, forKey: .session)
        time = try? container.decodeIfPresent(Double.self, forKey: .time)
        state = try? container.decodeIfPresent(String.self, forKey: .state)
        position = try? container.decodeIfPresent(Double.self, forKey: .position)
        rate = try? container.decodeIfPresent(Double.self, forKey: .rate)
        eventID = try? container.decodeIfPresent(String.self, forKey: .eventID)
        assetIndex = try? container.decodeIfPresent(Int.self, forKey: .assetIndex)
        assetURI = try? container.decodeIfPresent(String.self, forKey: .assetURI)
        reason = try? container.decodeIfPresent(String.self, forKey: .reason)
        command = try? container.decodeIfPresent(String.self, forKey: .command)
        restriction = try? container.decodeIfPresent(String.self, forKey: .restriction)
        transition = try? container.decodeIfPresent(Transition.self, forKey: .transition)
    }

    public init(kind: String, session: String? = nil, state: String? = nil) {
        self.kind = kind
        self.session = session
        self.state = state
    }

    /// The kind as the engine names it, or nil for a kind this sender does not know.
    public var knownKind: PlaybackEvent.Kind? { PlaybackEvent.Kind(rawValue: kind) }

    /// Reads one server-sent event; its `event:` name stands in for a `kind` the data lacks.
    public init(eventName: String?, data: String) throws {
        struct MissingKind: Error {}
        let decoder = JSONDecoder()
        let bytes = Data(data.utf8)
        if let decoded = try? decoder.decode(ReceiverEvent.self, from: bytes) {
            self = decoded
        } else if let eventName {
            // The kind may be absent from the data; decode the rest with the name put in.
            var object = try JSONSerialization.jsonObject(with: bytes) as? [String: Any] ?? [:]
            object["kind"] = eventName
            self = try decoder.decode(ReceiverEvent.self, from: JSONSerialization.data(withJSONObject: object))
        } else {
            throw MissingKind()
        }
        json = data
    }
}
