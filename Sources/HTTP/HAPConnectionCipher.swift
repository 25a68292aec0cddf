import Pairing

/// HAP's frames as the cipher of a relayed connection, on either end: a receiver's relay seals with
/// the accessory's keys, a sender's with the controller's.
public struct HAPConnectionCipher: ConnectionCipher {
    var channel: HAPChannel

    public init(channel: HAPChannel) {
        self.channel = channel
    }

    public mutating func open(_ wire: [UInt8]) throws -> [UInt8] {
        try channel.opener.open(wire).flatMap { $0 }
    }

    public mutating func seal(_ plaintext: [UInt8]) throws -> [UInt8] {
        try channel.sealer.seal(plaintext)
    }

    public var pendingByteCount: Int { channel.opener.pendingByteCount }
}
