import Foundation
/// The sender protocol's routes (docs/daemon.md, "The protocol"): the receiver's table, the client's targets and the
/// `route` label of `GET /metrics` come from here.
public enum Route: String, CaseIterable, Sendable {
    case serverInfo = "/server-info"
    /// The device record as a binary property list, which AirPlay 2 senders read before pairing.
    case info = "/info"
    /// AirPlay 2 pairing (docs/pairing.md): the PIN shown, pair-setup, pair-verify; TLV8 bodies.
    case pairPinStart = "/pair-pin-start"
    case pairSetup = "/pair-setup"
    case pairVerify = "/pair-verify"
    /// The controllers paired by PIN (`GET`, JSON: `PairingList`) and one of them (`DELETE`), on a
    /// connection an admin controller verified.
    case pairings = "/pairings"
    case pairing = "/pairings/{id}"
    /// The AirPlay 2 sender's heartbeat, every 2 s, in RTSP.
    case feedback = "/feedback"
    case play = "/play"
    case scrub = "/scrub"
    case rate = "/rate"
    case stop = "/stop"
    case playbackInfo = "/playback-info"
    case setProperty = "/setProperty"
    case getProperty = "/getProperty"
    case reverse = "/reverse"
    case events = "/events"
    case sessions = "/sessions"
    /// airlab's receivers: the picture at the playhead as a JPEG (`?focus` for a tile in focus), as the
    /// live console shows it, so a console of receivers on other hosts shows them too.
    case picture = "/picture"
    /// `/sessions/ID` and `/sessions/ID/timeline.svg`.
    case session = "/sessions/{id}"
    case metrics = "/metrics"
    /// Groups this receiver hosts: `GET` lists them, `POST` creates one.
    case groups = "/groups"
    /// `/groups/ID` (GET, DELETE) and its `/clock`, `/events`, `/inputs` and `/messages`.
    case group = "/groups/{id}"

    /// The methods the route takes; another is answered 405.
    public var methods: Set<String> {
        switch self {
        case .serverInfo, .info, .playbackInfo, .events, .sessions, .session, .metrics, .pairings, .picture: ["GET"]
        case .pairing: ["DELETE"]
        case .groups: ["GET", "POST"]
        case .group: ["GET", "POST", "DELETE"]
        case .play, .rate, .stop, .reverse, .pairPinStart, .pairSetup, .pairVerify, .feedback: ["POST"]
        case .scrub: ["GET", "POST"]
        case .setProperty: ["PUT", "POST"]
        case .getProperty: ["POST", "GET"]
        }
    }

    /// The label of its requests in `/metrics`: the path, with `{id}` for a session's.
    public var label: String { rawValue }

    /// The path of a request to it; `session` needs the session's ID, `group` the group's.
    public func path(session id: String? = nil) -> String {
        if self == .group { return "/groups/" + (id ?? "") }
        guard self == .session else { return rawValue }
        let escaped = id?.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"])) ?? id ?? ""
        return "/sessions/" + escaped
    }

    /// The route a request path belongs to; nil for a path the protocol does not have.
    public init?(path: String) {
        if path.hasPrefix("/sessions/") {
            self = .session
        } else if path.hasPrefix("/groups/") {
            self = .group
        } else if path.hasPrefix("/pairings/") {
            self = .pairing
        } else if let route = Route(rawValue: path), route != .session, route != .group, route != .pairing {
            self = route
        } else {
            return nil
        }
    }

    /// What `/metrics` counts a request to an unknown path as, so odd paths cannot grow its output.
    public static let otherLabel = "other"
}
