import Foundation

/// How both ends write and read the JSON wire messages: keys sorted, slashes as they are, dates in
/// ISO 8601. One encoder and one decoder, so that the receiver and the sender cannot drift apart.
public enum WireJSON {
    public static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }()

    /// Reads booleans as booleans (1 is not true), ignores members it does not know, and takes a missing
    /// optional as absent: a sender reads a newer receiver's messages.
    public static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }()

    /// The JSON of a wire message; the types here always encode.
    public static func data(_ value: some Encodable) -> Data {
        (try? encoder.encode(value)) ?? Data("{}".utf8)
    }
}
