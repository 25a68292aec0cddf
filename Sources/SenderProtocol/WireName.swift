/// A name from a closed set (an event kind, a state, a restriction) as a message carries it.
///
/// The receiver writes one of its cases; the sender reads any name and knows the case when it can, so
/// a newer receiver's kinds and states reach an older sender as names instead of failing the message.
public struct WireName<Known: RawRepresentable<String> & Sendable & Hashable>: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The name as written.
    public var name: String

    public init(_ known: Known) {
        name = known.rawValue
    }

    public init(name: String) {
        self.name = name
    }

    /// The case this side knows by that name; nil for a name it does not know.
    public var known: Known? { Known(rawValue: name) }

    public var description: String { name }

    public init(from decoder: any Decoder) throws {
        name = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(name)
    }
}
