import CCrypto

/// HKDF with SHA-512 (RFC 5869, extract then expand), which HomeKit derives every key with from a
/// shared secret, an ASCII salt and an ASCII info.
public enum HKDF {
    /// `count` bytes (HomeKit's keys are 32) derived from `secret` under `salt` and `info`.
    public static func sha512(secret: [UInt8], salt: [UInt8], info: [UInt8], count: Int = 32) throws -> [UInt8] {
        let operation = "HKDF-SHA512"
        try LibCrypto.require(operation)
        guard count > 0, count <= 255 * SHA512.byteCount else {
            throw CryptographyError(operation, "cannot derive \(count) bytes (1 to \(255 * SHA512.byteCount))")
        }
        guard let context = EVP_PKEY_CTX_new_id(EVP_PKEY_HKDF, nil) else { throw LibCrypto.failure(operation) }
        defer { EVP_PKEY_CTX_free(context) }
        try LibCrypto.check(EVP_PKEY_derive_init(context), operation)
        try LibCrypto.check(EVP_PKEY_CTX_set_hkdf_md(context, EVP_sha512()), operation)
        try LibCrypto.check(EVP_PKEY_CTX_set1_hkdf_salt(context, salt, Int32(salt.count)), operation)
        try LibCrypto.check(EVP_PKEY_CTX_set1_hkdf_key(context, secret, Int32(secret.count)), operation)
        try LibCrypto.check(EVP_PKEY_CTX_add1_hkdf_info(context, info, Int32(info.count)), operation)
        var key = [UInt8](repeating: 0, count: count)
        var length = count
        try LibCrypto.check(EVP_PKEY_derive(context, &key, &length), operation)
        guard length == count else { throw CryptographyError(operation, "derived \(length) bytes, not \(count)") }
        return key
    }

    /// The same with HomeKit's ASCII salt and info strings.
    public static func sha512(secret: [UInt8], salt: String, info: String, count: Int = 32) throws -> [UInt8] {
        try sha512(secret: secret, salt: Array(salt.utf8), info: Array(info.utf8), count: count)
    }
}
