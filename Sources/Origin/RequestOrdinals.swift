/// Counts the requests for each path from each client id, so a rule can match "the first two".
///
/// Requests without a client id share one count per path. Memory grows with the distinct paths and
/// clients seen, which a test origin's folder bounds.
public struct RequestOrdinals: Sendable {
    private struct Key: Hashable {
        let client: String?
        let path: String
    }

    private var counts: [Key: Int] = [:]

    public init() {}

    /// The ordinal (from 1) of this request for `path` from `client`.
    public mutating func next(path: String, client: String?) -> Int {
        let key = Key(client: client, path: path)
        let ordinal = (counts[key] ?? 0) + 1
        counts[key] = ordinal
        return ordinal
    }
}
