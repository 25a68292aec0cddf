import CCrypto

/// An Ed25519 signing key: a device's or a controller's long-term identity in HomeKit pairing.
///
/// Held as its 32-byte seed, the form HomeKit stores and libcrypto reads back (`rawBytes`).
public struct Ed25519PrivateKey: Sendable, Equatable {
    public let rawBytes: [UInt8]
    public let publicKey: Ed25519PublicKey

    /// A new key from random bytes.
    public init() throws {
        try self.init(rawBytes: try SecureRandom.bytes(RawKey.byteCount))
    }

    /// The key of a stored 32-byte seed.
    public init(rawBytes: [UInt8]) throws {
        try RawKey.checkLength(rawBytes, "Ed25519 private key")
        self.rawBytes = rawBytes
        publicKey = Ed25519PublicKey(checked: try RawKey.publicBytes(EVP_PKEY_ED25519, privateBytes: rawBytes, "Ed25519 private key"))
    }

    /// The 64-byte signature of `message`.
    public func signature(for message: [UInt8]) throws -> [UInt8] {
        let operation = "Ed25519 signing"
        return try RawKey.withPrivate(EVP_PKEY_ED25519, rawBytes, operation) { key in
            guard let context = EVP_MD_CTX_new() else { throw LibCrypto.failure(operation) }
            defer { EVP_MD_CTX_free(context) }
            try LibCrypto.check(EVP_DigestSignInit(context, nil, nil, nil, key), operation)
            var signature = [UInt8](repeating: 0, count: Ed25519PublicKey.signatureByteCount)
            var length = signature.count
            try LibCrypto.check(EVP_DigestSign(context, &signature, &length, message, message.count), operation)
            return Array(signature.prefix(length))
        }
    }
}

/// An Ed25519 public key (32 bytes): what a paired peer is known by.
public struct Ed25519PublicKey: Sendable, Hashable {
    public static let signatureByteCount = 64
    public let rawBytes: [UInt8]

    /// A key read from outside: only its length is checked here; a point that is no key fails when
    /// a signature is checked against it.
    public init(rawBytes: [UInt8]) throws {
        try RawKey.checkLength(rawBytes, "Ed25519 public key")
        self.rawBytes = rawBytes
    }

    init(checked rawBytes: [UInt8]) { self.rawBytes = rawBytes }

    /// Whether `signature` is this key's over `message`. False for a signature of the wrong length or
    /// a key libcrypto cannot read; a missing libcrypto throws.
    public func isValidSignature(_ signature: [UInt8], for message: [UInt8]) throws -> Bool {
        let operation = "Ed25519 verification"
        try LibCrypto.require(operation)
        guard signature.count == Self.signatureByteCount,
            let key = EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, nil, rawBytes, rawBytes.count)
        else {
            ERR_clear_error()
            return false
        }
        defer { EVP_PKEY_free(key) }
        guard let context = EVP_MD_CTX_new() else { throw LibCrypto.failure(operation) }
        defer { EVP_MD_CTX_free(context) }
        try LibCrypto.check(EVP_DigestVerifyInit(context, nil, nil, nil, key), operation)
        let valid = EVP_DigestVerify(context, signature, signature.count, message, message.count) == 1
        ERR_clear_error()
        return valid
    }
}
