import CCrypto

/// ChaCha20-Poly1305 (RFC 8439) with a 32-byte key, a 12-byte nonce, additional data and a 16-byte
/// tag: what seals pairing's encrypted TLVs and every HAP frame.
public enum ChaCha20Poly1305 {
    public static let keyByteCount = 32
    public static let nonceByteCount = 12
    public static let tagByteCount = 16

    /// The ciphertext of `plaintext` followed by its tag.
    public static func seal(_ plaintext: [UInt8], key: [UInt8], nonce: [UInt8], authenticating aad: [UInt8] = []) throws -> [UInt8] {
        let operation = "ChaCha20-Poly1305 sealing"
        return try run(operation, key: key, nonce: nonce, encrypt: true) { context in
            try addAuthenticatedData(context, aad, operation)
            var sealed = try update(context, plaintext, operation)
            var tail: Int32 = 0
            try LibCrypto.check(EVP_CipherFinal_ex(context, nil, &tail), operation)
            var tag = [UInt8](repeating: 0, count: tagByteCount)
            try LibCrypto.check(EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_AEAD_GET_TAG, Int32(tagByteCount), &tag), operation)
            sealed += tag
            return sealed
        }
    }

    /// The plaintext of `sealed` (ciphertext and tag); throws when the tag does not match, that is when
    /// the key, nonce, additional data or any byte differ from what was sealed.
    public static func open(_ sealed: [UInt8], key: [UInt8], nonce: [UInt8], authenticating aad: [UInt8] = []) throws -> [UInt8] {
        let operation = "ChaCha20-Poly1305 opening"
        guard sealed.count >= tagByteCount else {
            throw CryptographyError(operation, "\(sealed.count) bytes cannot hold the \(tagByteCount)-byte tag")
        }
        return try run(operation, key: key, nonce: nonce, encrypt: false) { context in
            var tag = Array(sealed.suffix(tagByteCount))
            try LibCrypto.check(EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_AEAD_SET_TAG, Int32(tagByteCount), &tag), operation)
            try addAuthenticatedData(context, aad, operation)
            let plaintext = try update(context, Array(sealed.dropLast(tagByteCount)), operation)
            var tail: Int32 = 0
            guard EVP_CipherFinal_ex(context, nil, &tail) == 1 else {
                ERR_clear_error()
                throw CryptographyError(operation, "the authentication tag does not match")
            }
            return plaintext
        }
    }

    private static func run<T>(
        _ operation: String, key: [UInt8], nonce: [UInt8], encrypt: Bool, _ body: (OpaquePointer) throws -> T
    ) throws -> T {
        try LibCrypto.require(operation)
        guard key.count == keyByteCount else { throw CryptographyError(operation, "key of \(key.count) bytes, not \(keyByteCount)") }
        guard nonce.count == nonceByteCount else { throw CryptographyError(operation, "nonce of \(nonce.count) bytes, not \(nonceByteCount)") }
        guard let context = EVP_CIPHER_CTX_new() else { throw LibCrypto.failure(operation) }
        defer { EVP_CIPHER_CTX_free(context) }
        try LibCrypto.check(EVP_CipherInit_ex(context, EVP_chacha20_poly1305(), nil, key, nonce, encrypt ? 1 : 0), operation)
        return try body(context)
    }

    private static func addAuthenticatedData(_ context: OpaquePointer, _ aad: [UInt8], _ operation: String) throws {
        guard !aad.isEmpty else { return }
        var ignored: Int32 = 0
        try LibCrypto.check(EVP_CipherUpdate(context, nil, &ignored, aad, Int32(aad.count)), operation)
    }

    private static func update(_ context: OpaquePointer, _ input: [UInt8], _ operation: String) throws -> [UInt8] {
        guard !input.isEmpty else { return [] }
        guard input.count < Int(Int32.max) else { throw CryptographyError(operation, "\(input.count) bytes at once") }
        var output = [UInt8](repeating: 0, count: input.count)
        var length: Int32 = 0
        try LibCrypto.check(EVP_CipherUpdate(context, &output, &length, input, Int32(input.count)), operation)
        return Array(output.prefix(Int(length)))
    }
}
