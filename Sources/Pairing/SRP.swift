import Cryptography

/// SRP-6a as HomeKit uses it (RFC 5054's 3072-bit group, SHA-512, username "Pair-Setup"):
///
///     k = H(N | PAD(g))        x = H(s | H(I ":" P))      v = g^x
///     B = k·v + g^b            u = H(PAD(A) | PAD(B))
///     server S = (A·v^u)^b     client S = (B − k·g^x)^(a + u·x)
///     K = H(S)   M1 = H(H(N) xor H(g) | H(I) | s | A | B | K)   M2 = H(A | M1 | K)
///
/// Numbers are hashed as their big-endian bytes without leading zeros except where PAD() says, as
/// HomeKit accessories and pyatv's srptools do.
enum SRP {
    static let username = "Pair-Setup"
    /// The length of the random private values a and b: 256 bits, as pyatv's controller uses.
    static let privateByteCount = 32
    static let saltByteCount = 16

    static func passwordHash(salt: [UInt8], password: String) throws -> BigNumber {
        let inner = try SHA512.hash(Array("\(username):\(password)".utf8))
        return try BigNumber(bytes: try SHA512.hash(salt, inner))
    }

    static func scrambler(_ group: SRPGroup, clientPublic: BigNumber, serverPublic: BigNumber) throws -> BigNumber {
        try BigNumber(bytes: try SHA512.hash(try clientPublic.bytes(padded: group.width), try serverPublic.bytes(padded: group.width)))
    }

    /// M1, the client's proof of K.
    static func clientProof(
        _ group: SRPGroup, salt: [UInt8], clientPublic: BigNumber, serverPublic: BigNumber, sessionKey: [UInt8]
    ) throws -> [UInt8] {
        let primeHash = try SHA512.hash(group.prime.bytes)
        let generatorHash = try SHA512.hash(group.generator.bytes)
        let mixed = zip(primeHash, generatorHash).map { $0 ^ $1 }
        return try SHA512.hash(
            mixed, try SHA512.hash(Array(username.utf8)), salt, clientPublic.bytes, serverPublic.bytes, sessionKey)
    }

    /// M2, the server's proof of K.
    static func serverProof(clientPublic: BigNumber, clientProof: [UInt8], sessionKey: [UInt8]) throws -> [UInt8] {
        try SHA512.hash(clientPublic.bytes, clientProof, sessionKey)
    }

    /// Constant-time comparison of two proofs, so a wrong guess learns nothing from the time taken.
    static func sameProof(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        return zip(a, b).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}

/// Why an SRP exchange failed.
public enum SRPError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The peer's public value is zero modulo N (it would make the session key known to anyone).
    case invalidPublicKey(String)
    /// The client's proof does not match: the wrong PIN.
    case wrongProof
    /// The server's proof does not match: the server does not know the PIN either.
    case wrongServerProof
    case cryptography(CryptographyError)

    public var description: String {
        switch self {
        case .invalidPublicKey(let which): return "SRP \(which) public key is zero modulo N"
        case .wrongProof: return "SRP client proof does not match (wrong PIN)"
        case .wrongServerProof: return "SRP server proof does not match"
        case .cryptography(let error): return "SRP: \(error)"
        }
    }
}

/// The accessory's side of SRP: made with the PIN, it offers a salt and B, then checks the client's
/// A and M1.
public struct SRPServer: Sendable {
    let group: SRPGroup
    public let salt: [UInt8]
    private let verifier: BigNumber
    private let privateValue: BigNumber
    private let publicValue: BigNumber

    /// B's big-endian bytes, as sent in M2.
    public var publicKey: [UInt8] { publicValue.bytes }

    /// - Parameters:
    ///   - salt: 16 bytes, random when nil. A random salt never starts with a zero byte: pyatv's srptools
    ///     reads the salt as a number and would drop that byte from its hashes.
    ///   - privateKey: b, random when nil (tests fix it).
    public init(password: String, salt: [UInt8]? = nil, privateKey: [UInt8]? = nil) throws {
        let group = try SRPGroup.rfc5054Group3072()
        let salt = try salt ?? Self.randomSalt()
        let x = try SRP.passwordHash(salt: salt, password: password)
        let verifier = try group.generator.power(x, modulo: group.prime)
        let b = try BigNumber(bytes: try privateKey ?? SecureRandom.bytes(SRP.privateByteCount))
        let kv = try group.multiplier.multiplied(by: verifier, modulo: group.prime)
        self.group = group
        self.salt = salt
        self.verifier = verifier
        privateValue = b
        publicValue = try kv.adding(try group.generator.power(b, modulo: group.prime), modulo: group.prime)
    }

    private static func randomSalt() throws -> [UInt8] {
        var salt = try SecureRandom.bytes(SRP.saltByteCount)
        if salt[0] == 0 { salt[0] = 1 }
        return salt
    }

    /// Checks the client's A and M1; on success the server's proof M2 and the session key K.
    public func verify(clientPublicKey: [UInt8], clientProof: [UInt8]) throws(SRPError) -> (serverProof: [UInt8], sessionKey: [UInt8]) {
        do {
            let a = try BigNumber(bytes: clientPublicKey)
            guard !(try a.remainder(modulo: group.prime)).isZero else { throw SRPError.invalidPublicKey("client") }
            let u = try SRP.scrambler(group, clientPublic: a, serverPublic: publicValue)
            let base = try a.multiplied(by: try verifier.power(u, modulo: group.prime), modulo: group.prime)
            let secret = try base.power(privateValue, modulo: group.prime)
            let key = try SHA512.hash(secret.bytes)
            let expected = try SRP.clientProof(group, salt: salt, clientPublic: a, serverPublic: publicValue, sessionKey: key)
            guard SRP.sameProof(expected, clientProof) else { throw SRPError.wrongProof }
            return (try SRP.serverProof(clientPublic: a, clientProof: expected, sessionKey: key), key)
        } catch let error as SRPError {
            throw error
        } catch let error as CryptographyError {
            throw .cryptography(error)
        } catch {
            throw .cryptography(CryptographyError("SRP", "\(error)"))
        }
    }
}

/// The controller's side of SRP: given the server's salt and B, it computes A, M1 and K, and checks M2.
public struct SRPClient: Sendable {
    let group: SRPGroup
    private let password: String
    private let privateValue: BigNumber
    private let publicValue: BigNumber

    /// A's big-endian bytes, as sent in M3.
    public var publicKey: [UInt8] { publicValue.bytes }

    public init(password: String, privateKey: [UInt8]? = nil) throws {
        let group = try SRPGroup.rfc5054Group3072()
        self.group = group
        self.password = password
        privateValue = try BigNumber(bytes: try privateKey ?? SecureRandom.bytes(SRP.privateByteCount))
        publicValue = try group.generator.power(privateValue, modulo: group.prime)
    }

    /// The proof M1, the proof M2 the server must answer with, and K.
    public func respond(salt: [UInt8], serverPublicKey: [UInt8]) throws(SRPError) -> (
        proof: [UInt8], expectedServerProof: [UInt8], sessionKey: [UInt8]
    ) {
        do {
            let b = try BigNumber(bytes: serverPublicKey)
            guard !(try b.remainder(modulo: group.prime)).isZero else { throw SRPError.invalidPublicKey("server") }
            let u = try SRP.scrambler(group, clientPublic: publicValue, serverPublic: b)
            guard !u.isZero else { throw SRPError.invalidPublicKey("server") }
            let x = try SRP.passwordHash(salt: salt, password: password)
            let kgx = try group.multiplier.multiplied(by: try group.generator.power(x, modulo: group.prime), modulo: group.prime)
            let base = try b.subtracting(kgx, modulo: group.prime)
            let exponent = try privateValue.adding(try u.multiplied(by: x))
            let secret = try base.power(exponent, modulo: group.prime)
            let key = try SHA512.hash(secret.bytes)
            let proof = try SRP.clientProof(group, salt: salt, clientPublic: publicValue, serverPublic: b, sessionKey: key)
            return (proof, try SRP.serverProof(clientPublic: publicValue, clientProof: proof, sessionKey: key), key)
        } catch let error as SRPError {
            throw error
        } catch let error as CryptographyError {
            throw .cryptography(error)
        } catch {
            throw .cryptography(CryptographyError("SRP", "\(error)"))
        }
    }
}
