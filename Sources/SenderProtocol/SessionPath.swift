/// A path under `/sessions/ID`: a session's report, its timeline and its fetch trace. A sender writes
/// them with `target`, the receiver reads them with `init(path:)`.
public enum SessionPath: Hashable, Sendable {
    /// `GET`: the report, so far while the session plays (`SessionReport`).
    case report(String)
    /// `GET`: the report's timeline as an SVG document.
    case timeline(String)
    /// `GET`: the session's fetch trace (`FetchTrace`), which `simulate --fetch-trace` replays.
    case fetches(String)

    public var sessionID: String {
        switch self {
        case .report(let id), .timeline(let id), .fetches(let id): id
        }
    }

    /// The request target, the ID escaped.
    public var target: String {
        switch self {
        case .report(let id): Route.session.path(session: id)
        case .timeline(let id): Route.session.path(session: id) + "/timeline.svg"
        case .fetches(let id): Route.session.path(session: id) + "/fetches"
        }
    }

    /// Reads a request's path as the server decoded it; nil for one under `/sessions/` that names
    /// nothing here.
    public init?(path: String) {
        guard path.hasPrefix("/sessions/") else { return nil }
        let parts = path.dropFirst("/sessions/".count).split(separator: "/", omittingEmptySubsequences: false)
        guard let id = parts.first.map(String.init), !id.isEmpty else { return nil }
        switch parts.count {
        case 1: self = .report(id)
        case 2 where parts[1] == "timeline.svg": self = .timeline(id)
        case 2 where parts[1] == "fetches": self = .fetches(id)
        default: return nil
        }
    }
}
