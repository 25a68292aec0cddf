import Foundation

/// A path under `/groups`: the list, one group, and each group's clock, event stream, inputs and
/// messages. Senders and participants write them with `target`, the host reads them with
/// `init(path:query:)`, so a sub-path is spelled once for both ends.
public enum GroupPath: Hashable, Sendable {
    /// `GET` lists the groups, `POST` creates one.
    case all
    /// `GET` its summary, `DELETE` ends it.
    case group(String)
    /// `GET`: a reading of the group clock.
    case clock(String)
    /// `GET`: the group's commands and events as server-sent events, for `participant` when named.
    case events(String, participant: String?)
    /// `POST`: a participant's input.
    case inputs(String)
    /// `POST`: a message relayed to the group's listeners.
    case messages(String)

    /// The request target: path, and the query where the path takes one.
    public var target: String {
        switch self {
        case .all: Route.groups.path()
        case .group(let id): Route.group.path(session: id)
        case .clock(let id): Route.group.path(session: id) + "/clock"
        case .events(let id, let participant):
            Route.group.path(session: id) + "/events" + (participant.map { "?participant=" + Self.queryValue($0) } ?? "")
        case .inputs(let id): Route.group.path(session: id) + "/inputs"
        case .messages(let id): Route.group.path(session: id) + "/messages"
        }
    }

    /// The group a path names; nil for the list.
    public var groupID: String? {
        switch self {
        case .all: nil
        case .group(let id), .clock(let id), .events(let id, _), .inputs(let id), .messages(let id): id
        }
    }

    /// Reads a request's path (as the server decoded it) and query; nil for a path under `/groups`
    /// that names nothing here.
    public init?(path: String, query: [String: String] = [:]) {
        let parts = path.split(separator: "/").map(String.init)
        guard parts.first == "groups" else { return nil }
        switch parts.count {
        case 1:
            self = .all
        case 2:
            self = .group(parts[1])
        case 3:
            let id = parts[1]
            switch parts[2] {
            case "clock": self = .clock(id)
            case "events": self = .events(id, participant: query["participant"])
            case "inputs": self = .inputs(id)
            case "messages": self = .messages(id)
            default: return nil
            }
        default:
            return nil
        }
    }

    /// A query value with every byte but the unreserved ones escaped, so `&`, `=` and `+` stay data.
    static func queryValue(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
    }

    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
}
