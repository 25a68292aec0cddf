import Foundation
import Playback

/// One event of a session as `GET /events` carries it: the engine's `PlaybackEvent` in its one JSON
/// shape, with a `session` member naming the session it belongs to, named by its kind (`event: KIND`).
///
/// A sender reads it leniently, so that a newer receiver's events still reach it: the kind (from the
/// data, or the event's name when the data lacks it) and the session are always read; the engine's
/// event only when this sender knows its kind and shape.
public struct SessionEvent: Sendable, Equatable {
    public var kind: WireName<PlaybackEvent.Kind>
    /// The receiver's session ID; null while no session plays.
    public var session: String?
    /// The event, when this sender can read it; nil for a kind or a shape it does not know.
    public var event: PlaybackEvent?
    /// The event's JSON exactly as it arrived, when it was read from a stream (`watch --json` prints it).
    public var json = ""

    public init(_ event: PlaybackEvent, session: String?) {
        kind = WireName(event.kind)
        self.session = session
        self.event = event
    }

    /// The kind as the engine names it, or nil for a kind this sender does not know.
    public var knownKind: PlaybackEvent.Kind? { kind.known }

    /// Reads one server-sent event; its `event:` name stands in for a `kind` the data lacks.
    public init(eventName: String?, data: String) throws {
        let head = try WireJSON.decoder.decode(Head.self, from: Data(data.utf8))
        guard let kind = head.kind.map(WireName<PlaybackEvent.Kind>.init(name:)) ?? eventName.map(WireName.init(name:)) else {
            throw DecodingError.keyNotFound(Head.CodingKeys.kind, .init(codingPath: [], debugDescription: "an event has a kind"))
        }
        self.kind = kind
        session = head.session
        event = try? WireJSON.decoder.decode(PlaybackEvent.self, from: Data(data.utf8))
        json = data
    }

    /// The server-sent event: its name and its data. Only the receiver writes these, from an engine event.
    public func serverSentEvent() -> (name: String, data: String) {
        guard let event else { return (kind.name, json) }
        return (kind.name, String(decoding: WireJSON.data(Framed(event: event, session: session)), as: UTF8.self))
    }

    /// The members every reader can take, whatever the kind.
    private struct Head: Decodable {
        enum CodingKeys: String, CodingKey { case kind, session }
        var kind: String?
        var session: String?

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            kind = try? container.decodeIfPresent(String.self, forKey: .kind)
            session = try? container.decodeIfPresent(String.self, forKey: .session)
        }
    }

    /// The event's own members and `session` in one object; `session` is written even when null, so a
    /// listener can tell the events of no session from those of one.
    private struct Framed: Encodable {
        enum CodingKeys: String, CodingKey { case session }
        var event: PlaybackEvent
        var session: String?

        func encode(to encoder: any Encoder) throws {
            try event.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(session, forKey: .session)
        }
    }
}
