import Cryptography

/// The nonce of HAP's ChaCha20-Poly1305 uses: 4 zero bytes and 8 little-endian or ASCII bytes.
enum HAPNonce {
    /// The nonce of frame `counter` of one direction of a channel.
    static func counter(_ counter: UInt64) -> [UInt8] {
        [0, 0, 0, 0] + (0..<8).map { UInt8(truncatingIfNeeded: counter >> (8 * UInt64($0))) }
    }

    /// The fixed nonce of a pairing message ("PS-Msg05", "PV-Msg02", …: always 8 ASCII bytes).
    static func message(_ label: String) -> [UInt8] { [0, 0, 0, 0] + Array(label.utf8) }
}

/// The sending half of a HAP channel: plaintext in, frames out.
///
/// A frame is a 2-byte little-endian length (at most 1024), the sealed plaintext and its 16-byte tag;
/// the length is the additional data, and the nonce counts frames from zero, so a frame dropped,
/// repeated or reordered fails at the reader.
public struct HAPFrameSealer: Sendable {
    public static let maximumPlaintextBytes = 1024
    private let key: [UInt8]
    private var counter: UInt64 = 0

    public init(key: [UInt8]) { self.key = key }

    /// The frames of `plaintext`, split at 1024 bytes; nothing for an empty plaintext.
    public mutating func seal(_ plaintext: [UInt8]) throws -> [UInt8] {
        var output: [UInt8] = []
        var start = 0
        while start < plaintext.count {
            let end = min(plaintext.count, start + Self.maximumPlaintextBytes)
            let length = [UInt8(truncatingIfNeeded: end - start), UInt8(truncatingIfNeeded: (end - start) >> 8)]
            guard counter < UInt64.max else { throw CryptographyError("HAP frame sealing", "the frame counter is exhausted") }
            output += length
            output += try ChaCha20Poly1305.seal(Array(plaintext[start..<end]), key: key, nonce: HAPNonce.counter(counter), authenticating: length)
            counter += 1
            start = end
        }
        return output
    }
}

/// The receiving half of a HAP channel: bytes in, in whatever pieces the network makes, whole
/// plaintext frames out. A partial frame waits for the rest; a frame over 1024 bytes or whose tag
/// fails ends the channel: the opener stays failed, since what follows can no longer be trusted.
public struct HAPFrameOpener: Sendable {
    private let key: [UInt8]
    private var counter: UInt64 = 0
    private var pending: [UInt8] = []
    public private(set) var failure: HAPFrameError?

    public init(key: [UInt8]) { self.key = key }

    /// Bytes kept from a frame not yet whole.
    public var pendingByteCount: Int { pending.count }

    /// The plaintexts of the frames `bytes` completes, in order.
    public mutating func open(_ bytes: [UInt8]) throws(HAPFrameError) -> [[UInt8]] {
        if let failure { throw failure }
        pending += bytes
        var frames: [[UInt8]] = []
        var start = 0
        defer { pending.removeFirst(start) }
        while pending.count - start >= 2 {
            let length = Int(pending[start]) | Int(pending[start + 1]) << 8
            guard length <= HAPFrameSealer.maximumPlaintextBytes else {
                failure = .oversizeFrame(frame: counter, length: length)
                throw failure!
            }
            let end = start + 2 + length + ChaCha20Poly1305.tagByteCount
            guard pending.count >= end else { break }
            do {
                frames.append(
                    try ChaCha20Poly1305.open(
                        Array(pending[(start + 2)..<end]), key: key, nonce: HAPNonce.counter(counter),
                        authenticating: Array(pending[start..<(start + 2)])))
            } catch {
                failure = .authenticationFailed(frame: counter, reason: "\(error)")
                throw failure!
            }
            counter += 1
            start = end
        }
        return frames
    }
}

/// Why a HAP channel's incoming bytes were refused; `frame` is the frame's number in its direction.
public enum HAPFrameError: Error, Equatable, Sendable, CustomStringConvertible {
    case oversizeFrame(frame: UInt64, length: Int)
    /// The tag did not verify: other keys, altered bytes, or a frame replayed, dropped or reordered.
    case authenticationFailed(frame: UInt64, reason: String)

    public var description: String {
        switch self {
        case .oversizeFrame(let frame, let length):
            return "HAP frame \(frame) declares \(length) bytes, over the \(HAPFrameSealer.maximumPlaintextBytes)-byte limit"
        case .authenticationFailed(let frame, let reason): return "HAP frame \(frame) does not authenticate: \(reason)"
        }
    }
}
