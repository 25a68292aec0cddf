/// The `features` a receiver publishes: 64 bits that tell a sender which parts of AirPlay it speaks.
///
/// Devices write them as one hexadecimal word, or as two (`0xLOW,0xHIGH`) once a bit above 31 is set,
/// as Apple TVs do; senders read both forms. The bits airlab acts on are named here.
public struct AirPlayFeatures: Sendable, Hashable, Codable, CustomStringConvertible {
    public var rawValue: UInt64

    public init(rawValue: UInt64) { self.rawValue = rawValue }

    /// Video over the legacy HTTP routes (`/play` with a URL).
    public static let videoV1 = 0
    /// HTTP Live Streaming as a video source.
    public static let videoHTTPLiveStreams = 4
    public static let audio = 9
    /// Unified media control: senders that see it take the AirPlay 2 path (pyatv's rule).
    public static let unifiedMediaControl = 38
    /// HomeKit-style pairing and encryption (CoreUtils): the other bit that means AirPlay 2.
    public static let coreUtilsPairingAndEncryption = 48
    /// Video over the AirPlay 2 path.
    public static let videoV2 = 49

    public func contains(bit: Int) -> Bool { bit >= 0 && bit < 64 && rawValue & (1 << UInt64(bit)) != 0 }

    /// Whether a sender takes the AirPlay 2 path to this receiver.
    public var isAirPlay2: Bool { contains(bit: Self.unifiedMediaControl) || contains(bit: Self.coreUtilsPairingAndEncryption) }

    /// Whether a sender may cast a video URL to it, on either path.
    public var playsVideoURLs: Bool { contains(bit: Self.videoV1) || contains(bit: Self.videoV2) }

    /// Reads `0x…` or `0x…,0x…` (low word first); nil for anything else, a word above 32 bits included.
    public init?(text: String) {
        let words = text.split(separator: ",", omittingEmptySubsequences: false)
        guard (1...2).contains(words.count) else { return nil }
        var values: [UInt64] = []
        for word in words {
            let trimmed = word.trimmingCharacters(in: .whitespaces)
            guard trimmed.hasPrefix("0x") || trimmed.hasPrefix("0X"), (3...18).contains(trimmed.count),
                let value = UInt64(trimmed.dropFirst(2), radix: 16)
            else { return nil }
            values.append(value)
        }
        if values.count == 2 {
            guard values[0] <= UInt64(UInt32.max), values[1] <= UInt64(UInt32.max) else { return nil }
            rawValue = values[0] | values[1] << 32
        } else {
            rawValue = values[0]
        }
    }

    /// As the TXT record writes them: one word while the high one is zero, else both.
    public var text: String {
        let low = rawValue & 0xFFFF_FFFF
        let high = rawValue >> 32
        let hex = { (word: UInt64) in "0x" + String(word, radix: 16, uppercase: true) }
        return high == 0 ? hex(low) : hex(low) + "," + hex(high)
    }

    public var description: String { text }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let features = AirPlayFeatures(text: text) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "features '\(text)' is not 0x… or 0x…,0x… (32-bit hexadecimal words)"))
        }
        self = features
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }
}
