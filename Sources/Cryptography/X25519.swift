import CCrypto

/// An X25519 key for one pair-verify's Diffie-Hellman exchange: made, used once, dropped.
public struct X25519PrivateKey: Sendable {
    public let rawBytes: [UInt8]
    /// The 32-byte public key sent to the peer.
    public let publicKey: [UInt8]

    /// A new ephemeral key from random bytes.
    public init() throws {
        try self.init(rawBytes: try SecureRandom.bytes(RawKey.byteCount))
    }

    public init(rawBytes: [UInt8]) throws {
        try RawKey.checkLength(rawBytes, "X25519 private key")
        self.rawBytes = rawBytes
        publicKey = try RawKey.publicBytes(EVP_PKEY_X25519, privateBytes: rawBytes, "X25519 private key")
    }

    /// The 32-byte shared secret with the peer's public key. libcrypto refuses a peer key of low order
    /// (an all-zero secret), which a peer could otherwise use to force a known secret.
    public func sharedSecret(with peerPublicKey: [UInt8]) throws -> [UInt8] {
        let operation = "X25519 key agreement"
        try RawKey.checkLength(peerPublicKey, "X25519 peer public key")
        return try RawKey.withPrivate(EVP_PKEY_X25519, rawBytes, operation) { key in
            try RawKey.withPublic(EVP_PKEY_X25519, peerPublicKey, operation) { peer in
                guard let context = EVP_PKEY_CTX_new(key, nil) else { throw LibCrypto.failure(operation) }
                defer { EVP_PKEY_CTX_free(context) }
                try LibCrypto.check(EVP_PKEY_derive_init(context), operation)
                try LibCrypto.check(EVP_PKEY_derive_set_peer(context, peer), operation)
                var secret = [UInt8](repeating: 0, count: RawKey.byteCount)
                var length = secret.count
                try LibCrypto.check(EVP_PKEY_derive(context, &secret, &length), operation)
                guard length == RawKey.byteCount else { throw CryptographyError(operation, "secret of \(length) bytes") }
                return secret
            }
        }
    }
}
