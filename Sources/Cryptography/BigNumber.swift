import CCrypto

/// A non-negative integer of any size on OpenSSL's BIGNUM, for SRP-6a's arithmetic modulo a 3072-bit
/// prime. Immutable: every operation returns a new number, so values can be shared between threads.
///
/// Numbers come in and go out as big-endian bytes, the form SRP hashes and sends them in.
public final class BigNumber: @unchecked Sendable {
    // Owned, never mutated after init; freed with BN_clear_free since SRP's private values live here.
    private let pointer: OpaquePointer

    private init(owning pointer: OpaquePointer) { self.pointer = pointer }

    deinit { BN_clear_free(pointer) }

    /// The number whose big-endian bytes are `bytes` (empty is zero).
    public convenience init(bytes: [UInt8]) throws {
        let operation = "big number from bytes"
        try LibCrypto.require(operation)
        guard bytes.count < Int(Int32.max), let pointer = BN_bin2bn(bytes, Int32(bytes.count), nil) else { throw LibCrypto.failure(operation) }
        self.init(owning: pointer)
    }

    public convenience init(_ value: UInt) throws {
        var bytes = [UInt8]()
        var rest = value
        while rest > 0 {
            bytes.insert(UInt8(rest & 0xff), at: 0)
            rest >>= 8
        }
        try self.init(bytes: bytes)
    }

    /// The number's big-endian bytes without leading zeros (zero is empty).
    public var bytes: [UInt8] {
        let count = (Int(BN_num_bits(pointer)) + 7) / 8
        // Cannot fail: the buffer holds exactly the number.
        return (try? bytes(padded: count)) ?? []
    }

    /// The big-endian bytes left-padded with zeros to `count` (SRP's PAD()); throws when the number
    /// needs more.
    public func bytes(padded count: Int) throws -> [UInt8] {
        var output = [UInt8](repeating: 0, count: count)
        guard count < Int(Int32.max), BN_bn2binpad(pointer, &output, Int32(count)) == Int32(count) else {
            throw CryptographyError("big number to bytes", "\(BN_num_bits(pointer)) bits do not fit in \(count) bytes")
        }
        return output
    }

    public var isZero: Bool { BN_is_zero(pointer) == 1 }

    /// -1, 0 or 1 as this number is below, equal to or above `other`.
    public func compare(_ other: BigNumber) -> Int { Int(BN_cmp(pointer, other.pointer)) }

    /// self ^ exponent mod modulus; in constant time when the modulus is odd (SRP's prime is), since
    /// SRP's exponents are its secrets (the private values, the password hash).
    public func power(_ exponent: BigNumber, modulo modulus: BigNumber) throws -> BigNumber {
        guard !modulus.isZero else { throw CryptographyError("modular exponentiation", "the modulus is zero") }
        if BN_is_odd(modulus.pointer) == 1 {
            return try make("modular exponentiation") { result, context in
                BN_mod_exp_mont_consttime(result, pointer, exponent.pointer, modulus.pointer, context, nil)
            }
        }
        return try make("modular exponentiation") { result, context in BN_mod_exp(result, pointer, exponent.pointer, modulus.pointer, context) }
    }

    /// self × other mod modulus.
    public func multiplied(by other: BigNumber, modulo modulus: BigNumber) throws -> BigNumber {
        try make("modular multiplication") { result, context in BN_mod_mul(result, pointer, other.pointer, modulus.pointer, context) }
    }

    /// self + other mod modulus.
    public func adding(_ other: BigNumber, modulo modulus: BigNumber) throws -> BigNumber {
        try make("modular addition") { result, context in BN_mod_add(result, pointer, other.pointer, modulus.pointer, context) }
    }

    /// self − other mod modulus, never negative.
    public func subtracting(_ other: BigNumber, modulo modulus: BigNumber) throws -> BigNumber {
        try make("modular subtraction") { result, context in BN_mod_sub(result, pointer, other.pointer, modulus.pointer, context) }
    }

    /// self × other.
    public func multiplied(by other: BigNumber) throws -> BigNumber {
        try make("multiplication") { result, context in BN_mul(result, pointer, other.pointer, context) }
    }

    /// self + other.
    public func adding(_ other: BigNumber) throws -> BigNumber {
        try make("addition") { result, _ in BN_add(result, pointer, other.pointer) }
    }

    /// self − other; throws when other is larger, since these numbers are never negative.
    public func subtracting(_ other: BigNumber) throws -> BigNumber {
        guard compare(other) >= 0 else { throw CryptographyError("subtraction", "the result would be negative") }
        return try make("subtraction") { result, _ in BN_sub(result, pointer, other.pointer) }
    }

    /// self mod modulus, never negative; throws for a zero modulus.
    public func remainder(modulo modulus: BigNumber) throws -> BigNumber {
        guard !modulus.isZero else { throw CryptographyError("remainder", "the modulus is zero") }
        return try make("remainder") { result, context in BN_nnmod(result, pointer, modulus.pointer, context) }
    }

    private func make(_ operation: String, _ body: (OpaquePointer, OpaquePointer) -> Int32) throws -> BigNumber {
        guard let result = BN_new() else { throw LibCrypto.failure(operation) }
        let number = BigNumber(owning: result)
        guard let context = BN_CTX_new() else { throw LibCrypto.failure(operation) }
        defer { BN_CTX_free(context) }
        try LibCrypto.check(body(result, context), operation)
        return number
    }
}

extension BigNumber: Equatable {
    public static func == (lhs: BigNumber, rhs: BigNumber) -> Bool { lhs.compare(rhs) == 0 }
}
