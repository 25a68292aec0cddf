import Foundation

/// One line of a playlist, as the grammar of RFC 8216bis §4.1 sees it.
enum PlaylistLine {
    /// `#EXT…`: the tag's name without `#`, and what follows its `:` (empty when there is none).
    case tag(name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>)
    case uri(UnsafeBufferPointer<UInt8>)
    /// Blank lines and `#` comments: nothing to do.
    case ignorable
}

/// Walks the lines of a playlist in place, without copying: the hot loop of parsing.
struct PlaylistLines: IteratorProtocol {
    private let base: UnsafePointer<UInt8>
    private let end: UnsafePointer<UInt8>
    private var cursor: UnsafePointer<UInt8>
    /// 1-based number of the line last returned.
    private(set) var lineNumber = 0

    init(_ buffer: UnsafeBufferPointer<UInt8>) {
        base = buffer.baseAddress ?? UnsafePointer(bitPattern: 1)!
        end = base + buffer.count
        cursor = base
    }

    mutating func next() -> PlaylistLine? {
        guard cursor < end else { return nil }
        lineNumber += 1
        let start = cursor
        let newline = memchr(start, Int32(UInt8(ascii: "\n")), end - start).map { $0.assumingMemoryBound(to: UInt8.self) }
        var lineEnd = newline.map { UnsafePointer($0) } ?? end
        cursor = newline.map { UnsafePointer($0) + 1 } ?? end
        // CRLF endings and trailing blanks are tolerated: senders produce both.
        while lineEnd > start, lineEnd[-1] == UInt8(ascii: "\r") || lineEnd[-1] == UInt8(ascii: " ") || lineEnd[-1] == UInt8(ascii: "\t") {
            lineEnd -= 1
        }
        var lineStart = start
        while lineStart < lineEnd, lineStart[0] == UInt8(ascii: " ") || lineStart[0] == UInt8(ascii: "\t") {
            lineStart += 1
        }
        let count = lineEnd - lineStart
        guard count > 0 else { return .ignorable }
        guard lineStart[0] == UInt8(ascii: "#") else {
            return .uri(UnsafeBufferPointer(start: lineStart, count: count))
        }
        guard count >= 4, lineStart[1] == UInt8(ascii: "E"), lineStart[2] == UInt8(ascii: "X"), lineStart[3] == UInt8(ascii: "T") else {
            return .ignorable
        }
        let nameStart = lineStart + 1
        let colon = memchr(nameStart, Int32(UInt8(ascii: ":")), lineEnd - nameStart).map {
            UnsafePointer($0.assumingMemoryBound(to: UInt8.self))
        }
        let nameEnd = colon ?? lineEnd
        let valueStart = colon.map { $0 + 1 } ?? lineEnd
        return .tag(
            name: UnsafeBufferPointer(start: nameStart, count: nameEnd - nameStart),
            value: UnsafeBufferPointer(start: valueStart, count: lineEnd - valueStart))
    }
}

extension UnsafeBufferPointer<UInt8> {
    var string: String { String(decoding: self, as: UTF8.self) }

    func equals(_ literal: StaticString) -> Bool {
        count == literal.utf8CodeUnitCount && memcmp(baseAddress!, literal.utf8Start, count) == 0
    }
}
