import Synchronization

/// What encrypts a relayed connection once its sender has paired (HAP's framing, for AirPlay 2): wire
/// bytes in, the plaintext they complete out; plaintext in, wire bytes out. A failure to open closes
/// the connection.
public protocol ConnectionCipher: Sendable {
    mutating func open(_ wire: [UInt8]) throws -> [UInt8]
    mutating func seal(_ plaintext: [UInt8]) throws -> [UInt8]
    /// Bytes of a frame begun and not finished: a sender that leaves with some left stopped mid-frame.
    var pendingByteCount: Int { get }
}

extension ConnectionCipher {
    public var pendingByteCount: Int { 0 }
}

/// A relayed connection as a handler sees it (`HTTPRequest.channel`): it can switch the connection to a
/// cipher once a pairing has given the keys.
public final class SecureChannel: Sendable {
    private let pending = Mutex<(any ConnectionCipher)?>(nil)
    private let encrypted = Atomic(false)
    /// The sender's numeric address, for counting what it does (wrong PINs) across its connections.
    public let peer: String

    init(peer: String) {
        self.peer = peer
    }

    /// Encrypts the connection from the sender's next bytes on, both ways. The answer being written now
    /// still goes out in the clear, as the protocol has it: the sender switches once it has read it.
    public func encrypt(with cipher: some ConnectionCipher) {
        pending.withLock { $0 = cipher }
        encrypted.store(true, ordering: .releasing)
    }

    /// Whether the connection is (or is about to be) encrypted.
    public var isEncrypted: Bool { encrypted.load(ordering: .acquiring) }

    /// The relay's side: the cipher to switch to, once.
    func takeCipher() -> (any ConnectionCipher)? {
        pending.withLock { pending in
            defer { pending = nil }
            return pending
        }
    }
}
