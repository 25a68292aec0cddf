/// How a device of the profile's class presents itself to AirPlay senders (`airplay` in its JSON): the
/// values of its `_airplay._tcp` TXT record, `/server-info` and `/info`, as such a device publishes
/// them, with their source. The feature bits decide which path a sender takes: an AirPlay 2 device
/// (bit 38 or 48) is paired with and spoken to over an encrypted connection, an AirPlay 1 one over
/// plain HTTP.
public struct AirPlayDevice: Sendable, Hashable, Codable {
    public var features: AirPlayFeatures
    /// Status flags, hexadecimal (`0x644`): 0x4 an audio cable attached, 0x200 pairing required, …
    public var statusFlags: String
    /// The AirPlay software version (`srcvers`, the `AirTunes/…` of its Server header).
    public var sourceVersion: String
    /// The device's operating system version (`osvers`); absent where devices do not publish one.
    public var osVersion: String?
    /// `protovers`.
    public var protocolVersion: String
    /// `vv`.
    public var vv: Int

    public init(
        features: AirPlayFeatures, statusFlags: String, sourceVersion: String, osVersion: String? = nil, protocolVersion: String, vv: Int
    ) {
        self.features = features
        self.statusFlags = statusFlags
        self.sourceVersion = sourceVersion
        self.osVersion = osVersion
        self.protocolVersion = protocolVersion
        self.vv = vv
    }

    /// The record of a profile that declares none: an AirPlay 1 receiver of about 2014 (video, HLS and
    /// audio bits; no pairing), what every airlab receiver published before profiles had a record.
    public static let legacy = AirPlayDevice(
        features: AirPlayFeatures(rawValue: 1 << 0 | 1 << 4 | 1 << 9), statusFlags: "0x4", sourceVersion: "220.68",
        protocolVersion: "1.0", vv: 2)

    /// `statusFlags` as a number; the catalog refuses a profile whose flags do not read.
    public var flags: UInt32 {
        UInt32(statusFlags.dropFirst(2), radix: 16) ?? 0
    }

    public var isAirPlay2: Bool { features.isAirPlay2 }

    /// Why the record cannot be published, or nil.
    public var problem: String? {
        guard statusFlags.hasPrefix("0x"), (3...10).contains(statusFlags.count), UInt32(statusFlags.dropFirst(2), radix: 16) != nil else {
            return "statusFlags '\(statusFlags)' is not a 32-bit hexadecimal word (0x…)"
        }
        let printable = { (text: String) in !text.isEmpty && text.count <= 32 && text.allSatisfy { $0.isASCII && !$0.isWhitespace && $0 != "=" } }
        for (name, value) in [("sourceVersion", sourceVersion), ("protocolVersion", protocolVersion), ("osVersion", osVersion ?? "1")]
        where !printable(value) {
            return "\(name) '\(value)' is not 1 to 32 printable characters without spaces or '='"
        }
        guard (1...99).contains(vv) else { return "vv \(vv) is not from 1 to 99" }
        guard features.playsVideoURLs || !features.contains(bit: AirPlayFeatures.videoHTTPLiveStreams) else {
            return "features \(features) offer HTTP Live Streaming without a video bit (0 or 49)"
        }
        return nil
    }
}
