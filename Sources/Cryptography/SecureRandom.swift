import CCrypto

/// Bytes from libcrypto's CSPRNG: salts, SRP private values and the seeds of generated keys.
public enum SecureRandom {
    /// `count` random bytes.
    public static func bytes(_ count: Int) throws -> [UInt8] {
        try LibCrypto.require("random bytes")
        guard count > 0 else { return [] }
        var bytes = [UInt8](repeating: 0, count: count)
        try LibCrypto.check(RAND_bytes(&bytes, Int32(count)), "random bytes")
        return bytes
    }
}
