import Cryptography

/// Why a pairing exchange failed, with the message it failed at ("pair-setup M3"), for the log; and
/// the HAP error code the peer is told.
public struct PairingFailure: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Reason: Sendable, Equatable {
        case malformed(TLV8Error)
        case missingItem(TLVType)
        /// An item present but impossible (a key of the wrong length, a state byte that is no state).
        case invalidItem(TLVType, String)
        /// A message other than the one expected next: out of order, replayed, or after the end.
        case unexpectedState(expected: UInt8?, received: UInt8?)
        case srp(SRPError)
        /// An encrypted item that does not open with the session's key.
        case undecryptable
        case badSignature
        /// Pair-verify from a controller that never paired, or an accessory other than the one paired.
        case unknownPeer(String)
        /// The accessory said no before any work (paired already, too many tries, busy).
        case refused(HAPErrorCode)
        /// The peer answered with a HAP error.
        case peerError(HAPErrorCode)
        case cryptography(CryptographyError)
    }

    public let message: String
    public let reason: Reason

    public init(_ message: String, _ reason: Reason) {
        self.message = message
        self.reason = reason
    }

    /// The HAP error this failure is answered with.
    public var code: HAPErrorCode {
        switch reason {
        case .srp(.wrongProof), .srp(.wrongServerProof), .badSignature, .undecryptable, .unknownPeer: return .authentication
        case .refused(let code), .peerError(let code): return code
        default: return .unknown
        }
    }

    public var description: String {
        let why: String
        switch reason {
        case .malformed(let error): why = "\(error)"
        case .missingItem(let type): why = "no \(type) item"
        case .invalidItem(let type, let problem): why = "\(type) item \(problem)"
        case .unexpectedState(let expected, let received):
            why = "state \(received.map { "M\($0)" } ?? "missing") where \(expected.map { "M\($0)" } ?? "nothing more") was expected"
        case .srp(let error): why = "\(error)"
        case .undecryptable: why = "the encrypted data does not open with the session key"
        case .badSignature: why = "the signature does not verify"
        case .unknownPeer(let identifier): why = "\(identifier) is not paired"
        case .refused(let code): why = "refused (\(code))"
        case .peerError(let code): why = "the peer answered error \(code)"
        case .cryptography(let error): why = "\(error)"
        }
        return "\(message): \(why)"
    }
}
