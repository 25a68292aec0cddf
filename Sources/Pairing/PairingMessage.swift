import Cryptography

/// Reading and writing the TLV8 bodies of pairing messages, shared by both ends of both exchanges.
enum PairingMessage {
    /// The TLV of a message, or the failure that names it.
    static func read(_ body: [UInt8], _ name: String) throws(PairingFailure) -> TLV8 {
        do {
            return try TLV8.decode(body)
        } catch {
            throw PairingFailure(name, .malformed(error))
        }
    }

    /// The single-byte state of a message (nil when absent or not one byte).
    static func state(_ tlv: TLV8) -> UInt8? {
        guard let value = tlv[.state], value.count == 1 else { return nil }
        return value[0]
    }

    static func require(_ tlv: TLV8, _ type: TLVType, _ name: String) throws(PairingFailure) -> [UInt8] {
        guard let value = tlv[type] else { throw PairingFailure(name, .missingItem(type)) }
        return value
    }

    static func require(_ tlv: TLV8, _ type: TLVType, count: Int, _ name: String) throws(PairingFailure) -> [UInt8] {
        let value = try require(tlv, type, name)
        guard value.count == count else { throw PairingFailure(name, .invalidItem(type, "has \(value.count) bytes, not \(count)")) }
        return value
    }

    /// The answer that ends an exchange with `code` at state `state`.
    static func error(state: UInt8, _ code: HAPErrorCode) -> [UInt8] {
        let answer: TLV8 = [.state: [state], .error: [code.rawValue]]
        return answer.encoded()
    }

    /// Little-endian integer of at most 4 bytes (the `flags` item), nil when longer.
    static func integer(_ bytes: [UInt8]) -> UInt32? {
        guard bytes.count <= 4 else { return nil }
        return bytes.enumerated().reduce(UInt32(0)) { $0 | UInt32($1.element) << (8 * UInt32($1.offset)) }
    }

    /// The identifier item as text.
    static func identifier(_ bytes: [UInt8], _ name: String) throws(PairingFailure) -> String {
        guard !bytes.isEmpty, bytes.count <= 64, let text = String(validating: bytes, as: UTF8.self) else {
            throw PairingFailure(name, .invalidItem(.identifier, "is not 1 to 64 bytes of UTF-8"))
        }
        return text
    }

    /// Seals a sub-TLV under a pairing key and a fixed nonce label.
    static func seal(_ tlv: TLV8, key: [UInt8], nonce: String) throws(PairingFailure) -> [UInt8] {
        do {
            return try ChaCha20Poly1305.seal(tlv.encoded(), key: key, nonce: HAPNonce.message(nonce))
        } catch {
            throw PairingFailure(nonce, .cryptography(error as? CryptographyError ?? CryptographyError(nonce, "\(error)")))
        }
    }

    /// Opens and reads a sealed sub-TLV.
    static func open(_ sealed: [UInt8], key: [UInt8], nonce: String, _ name: String) throws(PairingFailure) -> TLV8 {
        let plaintext: [UInt8]
        do {
            plaintext = try ChaCha20Poly1305.open(sealed, key: key, nonce: HAPNonce.message(nonce))
        } catch {
            throw PairingFailure(name, .undecryptable)
        }
        return try read(plaintext, name)
    }

    /// Runs libcrypto work inside a step, its failures as the step's.
    static func crypto<T>(_ name: String, _ work: () throws -> T) throws(PairingFailure) -> T {
        do {
            return try work()
        } catch let error as PairingFailure {
            throw error
        } catch let error as CryptographyError {
            throw PairingFailure(name, .cryptography(error))
        } catch {
            throw PairingFailure(name, .cryptography(CryptographyError(name, "\(error)")))
        }
    }

    static func publicKey(_ bytes: [UInt8], _ name: String) throws(PairingFailure) -> Ed25519PublicKey {
        guard let key = try? Ed25519PublicKey(rawBytes: bytes) else {
            throw PairingFailure(name, .invalidItem(.publicKey, "has \(bytes.count) bytes, not 32"))
        }
        return key
    }

    static func verify(_ key: Ed25519PublicKey, _ signature: [UInt8], _ message: [UInt8], _ name: String) throws(PairingFailure) {
        let valid = try crypto(name) { try key.isValidSignature(signature, for: message) }
        guard valid else { throw PairingFailure(name, .badSignature) }
    }
}
