/// Why a fetch failed.
public enum FetchFailure: Sendable, Hashable, CustomStringConvertible {
    case status(Int)
    case timeout
    /// The connection failed, the body was cut short, or what arrived was not what was asked for.
    case transport(String)

    public var description: String {
        switch self {
        case .status(let status): "HTTP \(status)"
        case .timeout: "timed out"
        case .transport(let reason): reason
        }
    }
}
