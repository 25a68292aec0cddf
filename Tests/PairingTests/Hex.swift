/// Hex spellings for test vectors and the interop peer's line protocol.
extension Array where Element == UInt8 {
    init(hex: String) {
        let digits = Array(hex.utf8)
        self = stride(from: 0, to: digits.count - 1, by: 2).map { UInt8(String(decoding: digits[$0...$0 + 1], as: UTF8.self), radix: 16)! }
    }

    var hex: String { map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined() }
}
