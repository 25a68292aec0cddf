import Cryptography
import Testing

/// The libcrypto border against the published test vectors of each primitive.
@Suite struct CryptographyTests {
    @Test func sha512OfABCIsFIPS180sVector() throws {
        #expect(
            try SHA512.hash(Array("abc".utf8)).hex
                == "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f")
        #expect(try SHA512.hash(Array("a".utf8), Array("bc".utf8)) == SHA512.hash(Array("abc".utf8)))
    }

    @Test func ed25519MatchesRFC8032TestOne() throws {
        let key = try Ed25519PrivateKey(rawBytes: [UInt8](hex: "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60"))
        #expect(key.publicKey.rawBytes.hex == "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a")
        let signature = try key.signature(for: [])
        #expect(
            signature.hex
                == "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b")
        #expect(try key.publicKey.isValidSignature(signature, for: []))
        #expect(try !key.publicKey.isValidSignature(signature, for: [0]))
        #expect(try !key.publicKey.isValidSignature(Array(signature.dropLast()), for: []))
    }

    @Test func aKeyOfTheWrongLengthIsRefusedNamingIt() {
        #expect(throws: CryptographyError("Ed25519 public key", "31 bytes where 32 are needed")) {
            try Ed25519PublicKey(rawBytes: [UInt8](repeating: 1, count: 31))
        }
    }

    @Test func x25519MatchesRFC7748AndRefusesALowOrderPoint() throws {
        let alice = try X25519PrivateKey(rawBytes: [UInt8](hex: "77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a"))
        let bob = try X25519PrivateKey(rawBytes: [UInt8](hex: "5dab087e624a8a4b79e17f8b83800ee66f3bb1292618b6fd1c2f8b27ff88e0eb"))
        #expect(alice.publicKey.hex == "8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a")
        let shared = "4a5d9d5ba4ce2de1728e3bf480350f25e07e21c947d19e3376f09b3c1e161742"
        #expect(try alice.sharedSecret(with: bob.publicKey).hex == shared)
        #expect(try bob.sharedSecret(with: alice.publicKey).hex == shared)
        #expect(throws: CryptographyError.self) { try alice.sharedSecret(with: [UInt8](repeating: 0, count: 32)) }
    }

    @Test func chaCha20Poly1305MatchesRFC8439AndRefusesAnyChange() throws {
        let key = [UInt8](hex: "808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f")
        let nonce = [UInt8](hex: "070000004041424344454647")
        let aad = [UInt8](hex: "50515253c0c1c2c3c4c5c6c7")
        let plaintext = Array(
            "Ladies and Gentlemen of the class of '99: If I could offer you only one tip for the future, sunscreen would be it.".utf8)
        let sealed = try ChaCha20Poly1305.seal(plaintext, key: key, nonce: nonce, authenticating: aad)
        #expect(Array(sealed.prefix(16)).hex == "d31a8d34648e60db7b86afbc53ef7ec2")
        #expect(Array(sealed.suffix(16)).hex == "1ae10b594f09e26a7e902ecbd0600691")
        #expect(try ChaCha20Poly1305.open(sealed, key: key, nonce: nonce, authenticating: aad) == plaintext)
        var altered = sealed
        altered[3] ^= 1
        #expect(throws: CryptographyError("ChaCha20-Poly1305 opening", "the authentication tag does not match")) {
            try ChaCha20Poly1305.open(altered, key: key, nonce: nonce, authenticating: aad)
        }
        #expect(throws: CryptographyError.self) { try ChaCha20Poly1305.open(sealed, key: key, nonce: nonce, authenticating: []) }
        #expect(throws: CryptographyError.self) { try ChaCha20Poly1305.open([1, 2], key: key, nonce: nonce) }
    }

    @Test func hkdfSHA512MatchesAKnownDerivation() throws {
        // RFC 5869 test case 1's inputs, with SHA-512 (the output as Python's cryptography derives it).
        let okm = try HKDF.sha512(
            secret: [UInt8](repeating: 0x0b, count: 22), salt: [UInt8](hex: "000102030405060708090a0b0c"),
            info: [UInt8](hex: "f0f1f2f3f4f5f6f7f8f9"), count: 42)
        #expect(okm.hex == "832390086cda71fb47625bb5ceb168e4c8e26a1a16ed34d9fc7fe92c1481579338da362cb8d9f925d7cb")
        #expect(throws: CryptographyError.self) { try HKDF.sha512(secret: [1], salt: [], info: [], count: 0) }
    }

    @Test func randomBytesDiffer() throws {
        #expect(try SecureRandom.bytes(32) != SecureRandom.bytes(32))
        #expect(try SecureRandom.bytes(0).isEmpty)
    }

    @Test func bigNumbersDoModularArithmeticAndPadTheirBytes() throws {
        let seven = try BigNumber(7)
        let five = try BigNumber(5)
        let thirteen = try BigNumber(13)
        #expect(try seven.power(five, modulo: thirteen).bytes == [11])  // 7^5 = 16807 = 13·1292 + 11
        #expect(try seven.power(five, modulo: BigNumber(10)).bytes == [7])  // an even modulus: 16807 mod 10
        #expect(try thirteen.power(five, modulo: seven).bytes == [6])  // a base above the modulus: 6^5 mod 7
        #expect(try seven.multiplied(by: five, modulo: thirteen).bytes == [9])
        #expect(try seven.adding(thirteen, modulo: five).isZero)
        #expect(try five.subtracting(seven, modulo: thirteen).bytes == [11])
        #expect(try seven.multiplied(by: thirteen).bytes == [91])
        #expect(try seven.adding(five).subtracting(thirteen.subtracting(seven)).bytes == [6])
        #expect(try thirteen.remainder(modulo: five).bytes == [3])
        #expect(try BigNumber(bytes: [0, 0, 1, 2]).bytes == [1, 2])
        #expect(try BigNumber(bytes: [1, 2]).bytes(padded: 4) == [0, 0, 1, 2])
        #expect(try BigNumber(bytes: []).isZero)
        #expect(throws: CryptographyError.self) { try BigNumber(bytes: [1, 2, 3]).bytes(padded: 2) }
        #expect(throws: CryptographyError.self) { try five.subtracting(seven) }
        #expect(throws: CryptographyError.self) { try five.remainder(modulo: BigNumber(0)) }
    }
}
