import CCrypto

/// An EVP_PKEY made from raw key bytes for the length of one operation: keys live in Swift as bytes
/// (values that can be stored, compared and sent), and libcrypto sees them only while it works.
enum RawKey {
    static let byteCount = 32

    static func withPrivate<T>(_ type: Int32, _ bytes: [UInt8], _ operation: String, _ body: (OpaquePointer) throws -> T) throws -> T {
        try LibCrypto.require(operation)
        guard let key = EVP_PKEY_new_raw_private_key(type, nil, bytes, bytes.count) else { throw LibCrypto.failure(operation) }
        defer { EVP_PKEY_free(key) }
        return try body(key)
    }

    static func withPublic<T>(_ type: Int32, _ bytes: [UInt8], _ operation: String, _ body: (OpaquePointer) throws -> T) throws -> T {
        try LibCrypto.require(operation)
        guard let key = EVP_PKEY_new_raw_public_key(type, nil, bytes, bytes.count) else { throw LibCrypto.failure(operation) }
        defer { EVP_PKEY_free(key) }
        return try body(key)
    }

    /// The raw public key of a private key.
    static func publicBytes(_ type: Int32, privateBytes: [UInt8], _ operation: String) throws -> [UInt8] {
        try withPrivate(type, privateBytes, operation) { key in
            var bytes = [UInt8](repeating: 0, count: byteCount)
            var length = byteCount
            try LibCrypto.check(EVP_PKEY_get_raw_public_key(key, &bytes, &length), operation)
            guard length == byteCount else { throw CryptographyError(operation, "public key of \(length) bytes") }
            return bytes
        }
    }

    static func checkLength(_ bytes: [UInt8], _ what: String) throws {
        guard bytes.count == byteCount else { throw CryptographyError(what, "\(bytes.count) bytes where \(byteCount) are needed") }
    }
}
