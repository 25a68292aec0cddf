import Foundation

/// MD5 (RFC 1321), for HTTP Digest authentication only: the hash that scheme and the AirPlay
/// receivers that use it are defined with. Never use it where collisions matter.
enum DigestHash {
    /// The lowercase hexadecimal MD5 of `text`'s UTF-8 bytes.
    static func md5Hex(_ text: String) -> String {
        md5(Array(text.utf8)).map { byte in
            let digits = String(byte, radix: 16)
            return digits.count == 1 ? "0" + digits : digits
        }.joined()
    }

    /// Per-round left-rotation amounts.
    private static let shifts: [UInt32] = [
        7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22,
        5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20,
        4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23,
        6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21,
    ]

    /// floor(abs(sin(i + 1)) * 2^32), as the RFC tabulates them.
    private static let constants: [UInt32] = (0..<64).map { index in
        UInt32(truncatingIfNeeded: Int64((abs(sin(Double(index + 1))) * 4_294_967_296).rounded(.down)))
    }

    static func md5(_ message: [UInt8]) -> [UInt8] {
        var bytes = message
        let bitLength = UInt64(message.count) &* 8
        bytes.append(0x80)
        while bytes.count % 64 != 56 { bytes.append(0) }
        for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift))) }

        var state: (UInt32, UInt32, UInt32, UInt32) = (0x6745_2301, 0xefcd_ab89, 0x98ba_dcfe, 0x1032_5476)
        for chunk in stride(from: 0, to: bytes.count, by: 64) {
            let words = (0..<16).map { word in
                (0..<4).reduce(UInt32(0)) { value, byte in value | UInt32(bytes[chunk + word * 4 + byte]) << (8 * UInt32(byte)) }
            }
            var (a, b, c, d) = state
            for round in 0..<64 {
                var mixed: UInt32
                let index: Int
                switch round {
                case 0..<16:
                    mixed = (b & c) | (~b & d)
                    index = round
                case 16..<32:
                    mixed = (d & b) | (~d & c)
                    index = (5 * round + 1) % 16
                case 32..<48:
                    mixed = b ^ c ^ d
                    index = (3 * round + 5) % 16
                default:
                    mixed = c ^ (b | ~d)
                    index = (7 * round) % 16
                }
                mixed = mixed &+ a &+ constants[round] &+ words[index]
                a = d
                d = c
                c = b
                b = b &+ (mixed << shifts[round] | mixed >> (32 - shifts[round]))
            }
            state = (state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d)
        }
        return [state.0, state.1, state.2, state.3].flatMap { word in (0..<4).map { UInt8(truncatingIfNeeded: word >> (8 * UInt32($0))) } }
    }
}
