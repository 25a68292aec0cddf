/// Why a cast cannot be planned at all: the playlist, the primary media or the receiver refuses it.
///
/// Problems with single interstitials never end up here; they become skipped breaks and assets in the
/// session, as a receiver would play around them.
public struct CastError: Error, Sendable, CustomStringConvertible {
    /// The playlist or profile the failure is about, as the user named it.
    public var input: String
    public var reason: String

    public init(input: String, reason: String) {
        self.input = input
        self.reason = reason
    }

    public var description: String { "\(input): \(reason)" }
}
