import Foundation
import HLS
import Playback
import Profiles

/// One event of a session as `GET /events` carries it: the engine's `PlaybackEvent` with the session
/// it belongs to, as one JSON object named by its kind (`event: KIND`).
///
/// The receiver writes it from the engine's event; the sender reads it leniently, so that a newer
/// receiver's kinds, states and members reach it: only `kind` is needed (the event's name stands in
/// when the data lacks it), and a member of an unexpected type is dropped, not fatal.
public struct SessionEvent: Sendable, Equatable, Codable {
    public var kind: WireName<PlaybackEvent.Kind>
    /// The receiver's session ID; null while no session plays.
    public var session: String?
    /// Seconds on the session's clock.
    public var time: Double?
    public var state: WireName<PlaybackState>?
    public var position: Double?
    public var rate: Double?
    public var eventID: String?
    public var assetIndex: Int?
    public var assetURI: String?
    public var reason: String?
    public var command: String?
    public var restriction: WireName<InterstitialEvent.Restriction>?
    public var transition: Transition?
    /// The presentation mode (`presentation-mode-changed`: the new one).
    public var mode: WireName<PresentationMode>?
    /// Why the playhead stopped (`stall-started`, `stall-ended`).
    public var stall: WireName<StallReason>?
    /// The event's JSON exactly as it arrived, when it was read from a stream (`watch --json` prints it).
    public var json = ""

    public init(_ event: PlaybackEvent, session: String?) {
        kind = WireName(event.kind)
        self.session = session
        time = event.time
        state = WireName(event.state)
        position = event.position
        rate = event.rate
        eventID = event.eventID
        assetIndex = event.assetIndex
        assetURI = event.assetURI
        reason = event.reason
        command = event.command
        restriction = event.restriction.map(WireName.init)
        transition = event.transition
        mode = event.mode.map(WireName.init)
        stall = event.stall.map(WireName.init)
    }

    public init(kind: PlaybackEvent.Kind, session: String? = nil, state: PlaybackState? = nil) {
        self.kind = WireName(kind)
        self.session = session
        self.state = state.map(WireName.init)
    }

    /// The kind as the engine names it, or nil for a kind this sender does not know.
    public var knownKind: PlaybackEvent.Kind? { kind.known }

    /// Reads one server-sent event; its `event:` name stands in for a `kind` the data lacks.
    public init(eventName: String?, data: String) throws {
        let decoder = JSONDecoder()
        if let eventName { decoder.userInfo[Self.eventNameKey] = eventName }
        self = try decoder.decode(SessionEvent.self, from: Data(data.utf8))
        json = data
    }

    /// The server-sent event: its name and its data.
    public func serverSentEvent() -> (name: String, data: String) {
        (kind.name, String(decoding: WireJSON.data(self), as: UTF8.self))
    }

    private static let eventNameKey = CodingUserInfoKey(rawValue: "airlab.eventName")!

    enum CodingKeys: String, CodingKey {
        case kind, session, time, state, position, rate, eventID, assetIndex, assetURI, reason, command, restriction, transition, mode, stall
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if let kind = try? container.decodeIfPresent(WireName<PlaybackEvent.Kind>.self, forKey: .kind) {
            self.kind = kind
        } else if let name = decoder.userInfo[Self.eventNameKey] as? String {
            kind = WireName(name: name)
        } else {
            throw DecodingError.keyNotFound(CodingKeys.kind, .init(codingPath: [], debugDescription: "an event has a kind"))
        }
        session = try? container.decodeIfPresent(String.self, forKey: .session)
        time = try? container.decodeIfPresent(Double.self, forKey: .time)
        state = try? container.decodeIfPresent(WireName<PlaybackState>.self, forKey: .state)
        position = try? container.decodeIfPresent(Double.self, forKey: .position)
        rate = try? container.decodeIfPresent(Double.self, forKey: .rate)
        eventID = try? container.decodeIfPresent(String.self, forKey: .eventID)
        assetIndex = try? container.decodeIfPresent(Int.self, forKey: .assetIndex)
        assetURI = try? container.decodeIfPresent(String.self, forKey: .assetURI)
        reason = try? container.decodeIfPresent(String.self, forKey: .reason)
        command = try? container.decodeIfPresent(String.self, forKey: .command)
        restriction = try? container.decodeIfPresent(WireName<InterstitialEvent.Restriction>.self, forKey: .restriction)
        transition = try? container.decodeIfPresent(Transition.self, forKey: .transition)
        mode = try? container.decodeIfPresent(WireName<PresentationMode>.self, forKey: .mode)
        stall = try? container.decodeIfPresent(WireName<StallReason>.self, forKey: .stall)
    }

    /// Every member the event has; `session` is written even when null, so a listener can tell the
    /// events of no session from those of one.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind, forKey: .kind)
        try container.encode(session, forKey: .session)
        try container.encodeIfPresent(time, forKey: .time)
        try container.encodeIfPresent(state, forKey: .state)
        try container.encodeIfPresent(position, forKey: .position)
        try container.encodeIfPresent(rate, forKey: .rate)
        try container.encodeIfPresent(eventID, forKey: .eventID)
        try container.encodeIfPresent(assetIndex, forKey: .assetIndex)
        try container.encodeIfPresent(assetURI, forKey: .assetURI)
        try container.encodeIfPresent(reason, forKey: .reason)
        try container.encodeIfPresent(command, forKey: .command)
        try container.encodeIfPresent(restriction, forKey: .restriction)
        try container.encodeIfPresent(transition, forKey: .transition)
        try container.encodeIfPresent(mode, forKey: .mode)
        try container.encodeIfPresent(stall, forKey: .stall)
    }
}
