import CCrypto

/// SHA-512, the hash of HomeKit's SRP and HKDF.
public enum SHA512 {
    public static let byteCount = 64

    /// The digest of the concatenation of `parts` (SRP hashes several values as one message).
    public static func hash(_ parts: [UInt8]...) throws -> [UInt8] {
        try hash(joining: parts)
    }

    public static func hash(joining parts: [[UInt8]]) throws -> [UInt8] {
        try LibCrypto.require("SHA-512")
        let message = parts.flatMap { $0 }
        var digest = [UInt8](repeating: 0, count: byteCount)
        var size: UInt32 = 0
        let result = message.withUnsafeBytes { bytes in
            EVP_Digest(bytes.baseAddress, bytes.count, &digest, &size, EVP_sha512(), nil)
        }
        try LibCrypto.check(result, "SHA-512")
        return digest
    }
}
