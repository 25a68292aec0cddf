import Foundation

/// Reads playlists the way a spec-conforming receiver must (RFC 8216bis §4, §6.3.1).
///
/// The parser keeps no state between calls and never throws: what it cannot use it ignores and
/// reports as a `Diagnostic` with the line, so one bad tag never costs the rest of the playlist.
public enum PlaylistParser {
    /// Playlists above this size are refused: a 24-hour VOD of 2-second segments is about 5 MB.
    public static let maximumSize = 64 << 20

    public static func parse(_ text: String) -> PlaylistParseResult {
        parse(Array(text.utf8))
    }

    public static func parse(_ bytes: [UInt8]) -> PlaylistParseResult {
        bytes.withUnsafeBufferPointer { parse($0) }
    }

    public static func parse(_ buffer: UnsafeBufferPointer<UInt8>) -> PlaylistParseResult {
        if let refusal = refusal(of: buffer) {
            return PlaylistParseResult(playlist: nil, diagnostics: [refusal])
        }
        // A segment takes two lines and at least 13 bytes ("#EXTINF:1,\nx\n"): the smaller bound is reserved.
        var builder = PlaylistBuilder(segmentCapacity: min(lineCount(buffer) / 2, buffer.count / 13))
        var lines = PlaylistLines(buffer)
        _ = lines.next()  // #EXTM3U, checked by `refusal(of:)`
        while let line = lines.next() {
            builder.consume(line, lineNumber: lines.lineNumber)
        }
        return builder.finish()
    }

    /// How many lines the buffer has, by memchr: far cheaper than the parse, and it lets the builder
    /// size its segment array once instead of copying it as it grows (1.5 times its size at the peak).
    static func lineCount(_ buffer: UnsafeBufferPointer<UInt8>) -> Int {
        guard var cursor = buffer.baseAddress else { return 0 }
        let end = cursor + buffer.count
        var count = 1
        while cursor < end, let newline = memchr(cursor, Int32(UInt8(ascii: "\n")), end - cursor) {
            count += 1
            cursor = UnsafePointer(newline.assumingMemoryBound(to: UInt8.self)) + 1
        }
        return count
    }

    /// Why a buffer is not a playlist at all, if it is not.
    static func refusal(of buffer: UnsafeBufferPointer<UInt8>) -> Diagnostic? {
        if buffer.count > maximumSize {
            return Diagnostic(.error, line: nil, .playlistTooLarge,
                "The file is \(buffer.count) bytes, more than the \(maximumSize >> 20) MiB a playlist may have; it was not parsed.")
        }
        if buffer.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") || $0 == UInt8(ascii: "\t") }) {
            return Diagnostic(.error, line: nil, .playlistEmpty, "The file is empty; an HLS playlist starts with #EXTM3U.")
        }
        if let base = buffer.baseAddress, memchr(base, 0, buffer.count) != nil {
            return Diagnostic(.error, line: nil, .playlistBinary,
                "The file holds binary data (NUL bytes), so it is not an HLS playlist; is it a media segment?")
        }
        var lines = PlaylistLines(buffer)
        var first = lines.next()
        if case .tag(let name, let value) = first, name.equals("EXTM3U"), value.isEmpty {
            return nil
        }
        // A UTF-8 byte order mark is not allowed (RFC 8216bis §4.1) but appears in hand-edited files.
        if buffer.count >= 3, buffer[0] == 0xEF, buffer[1] == 0xBB, buffer[2] == 0xBF {
            lines = PlaylistLines(UnsafeBufferPointer(rebasing: buffer[3...]))
            first = lines.next()
            if case .tag(let name, _) = first, name.equals("EXTM3U") {
                return Diagnostic(.error, line: 1, .playlistMissingHeader,
                    "The file starts with a UTF-8 byte order mark before #EXTM3U; remove the mark, receivers refuse it.")
            }
        }
        return Diagnostic(.error, line: 1, .playlistMissingHeader,
            "The first line is not #EXTM3U, so the file is not an HLS playlist.")
    }
}
