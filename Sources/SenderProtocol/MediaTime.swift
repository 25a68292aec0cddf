import JSONDocument

/// A `CMTime` as AirPlay 2 carries it in property lists: `{value, timescale, flags, epoch}`, seconds
/// being value / timescale when flags has its valid bit. Senders write an invalid time (all zero) for
/// "none" (`forwardEndTime`), and real receivers answer `durationCMTime` and `positionCMTime` beside
/// the seconds of `/playback-info`.
public struct MediaTime: Sendable, Hashable {
    public var value: Int64
    public var timescale: Int32
    public var flags: UInt32
    public var epoch: Int64

    /// kCMTimeFlags_Valid.
    public static let validFlag: UInt32 = 1
    /// Microseconds: what airlab writes its times in.
    public static let writtenTimescale: Int32 = 1_000_000

    public init(value: Int64, timescale: Int32, flags: UInt32, epoch: Int64 = 0) {
        self.value = value
        self.timescale = timescale
        self.flags = flags
        self.epoch = epoch
    }

    /// `seconds` in microseconds; nil when it is not finite or beyond what a CMTime holds.
    public init?(seconds: Double) {
        let scaled = (seconds * Double(Self.writtenTimescale)).rounded()
        guard scaled.isFinite, abs(scaled) < 9.0e15 else { return nil }
        self.init(value: Int64(scaled), timescale: Self.writtenTimescale, flags: Self.validFlag)
    }

    /// Seconds, or nil for an invalid time (no valid bit, or no timescale).
    public var seconds: Double? {
        guard flags & Self.validFlag != 0, timescale > 0 else { return nil }
        return Double(value) / Double(timescale)
    }

    /// Reads the dictionary; every member is a whole number in its C type's range, or the reason.
    public init(_ document: JSONValue, name: String) throws(ProtocolError) {
        guard case .object(let members) = document else { throw ProtocolError("\(name) must be a CMTime dictionary {value, timescale, flags, epoch}") }
        func whole(_ key: String, in range: ClosedRange<Double>) throws(ProtocolError) -> Double {
            guard let member = members[key] else { return 0 }
            guard case .number(let number) = member, number.rounded() == number, range.contains(number) else {
                throw ProtocolError("\(name).\(key) must be a whole number from \(Int64(range.lowerBound)) to \(Int64(range.upperBound))")
            }
            return number
        }
        // Property list integers arrive as doubles: whole values up to 2^53 are exact, which bounds them.
        let exact = 9_007_199_254_740_992.0
        value = Int64(try whole("value", in: -exact...exact))
        timescale = Int32(try whole("timescale", in: 0...Double(Int32.max)))
        flags = UInt32(try whole("flags", in: 0...Double(UInt32.max)))
        epoch = Int64(try whole("epoch", in: -exact...exact))
    }
}
