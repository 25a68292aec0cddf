import Foundation

/// The rules for serving files from one folder over HTTP, shared by every server that does it (the
/// sender's folder server, the test origin): which request paths name a servable file, byte ranges,
/// and content types.
///
/// Only regular files inside the folder are served: paths with `..`, hidden names, and symbolic links
/// that lead out of the folder name nothing, as do folders themselves.
public enum ServedFolder {
    /// The regular file a request path names inside `root`, or nil when it names nothing servable.
    public static func file(for path: String, in root: URL) -> URL? {
        let components = path.split(separator: "/", omittingEmptySubsequences: true)
        guard !components.isEmpty,
            components.allSatisfy({ !$0.hasPrefix(".") && !$0.contains("\0") && !$0.contains("\\") })
        else { return nil }
        let candidate = components.reduce(root) { $0.appendingPathComponent(String($1)) }.resolvingSymlinksInPath()
        guard candidate.path.hasPrefix(root.path + "/") else { return nil }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isFolder), !isFolder.boolValue else { return nil }
        return candidate
    }

    /// What a `Range` header asks of a file of `size` bytes (RFC 9110 §14).
    public enum RangeAnswer: Equatable, Sendable {
        /// The header cannot be read as one byte range (another unit, several ranges, bad syntax): the
        /// whole file is served, as the RFC lets a server ignore such a header.
        case whole
        /// One range inside the file: 206 with these bytes.
        case part(Range<Int>)
        /// A valid range that selects nothing of the file: 416.
        case unsatisfiable
    }

    /// `bytes=A-B`, `bytes=A-` or `bytes=-N` read against a file of `size` bytes.
    ///
    /// Positions are any run of digits, as the RFC allows: one past `Int.max` is beyond any file, so a
    /// first position that large is unsatisfiable and a last one means the end of the file. Nothing
    /// here adds to a position read from the header, so no value can overflow.
    public static func byteRange(_ header: String, size: Int) -> RangeAnswer {
        let trimmed = header.trimmingCharacters(in: .whitespaces)
        guard trimmed.lowercased().hasPrefix("bytes="), !trimmed.contains(",") else { return .whole }
        let spec = trimmed.dropFirst("bytes=".count).split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard spec.count == 2 else { return .whole }
        let firstText = spec[0].trimmingCharacters(in: .whitespaces)
        let lastText = spec[1].trimmingCharacters(in: .whitespaces)
        guard firstText.allSatisfy(\.isASCIIDigit), lastText.allSatisfy(\.isASCIIDigit), !(firstText.isEmpty && lastText.isEmpty) else {
            return .whole
        }
        // A position past Int.max is past the end of every file; saturate rather than refuse it.
        let first = firstText.isEmpty ? nil : Int(firstText) ?? Int.max
        let last = lastText.isEmpty ? nil : Int(lastText) ?? Int.max
        switch (first, last) {
        case (let start?, let end?):
            guard start <= end else { return .whole }
            return start < size ? .part(start..<(min(end, size - 1) + 1)) : .unsatisfiable
        case (let start?, nil):
            return start < size ? .part(start..<size) : .unsatisfiable
        case (nil, let suffix?):
            return suffix > 0 && size > 0 ? .part((size - min(suffix, size))..<size) : .unsatisfiable
        case (nil, nil):
            return .whole
        }
    }

    public static func contentType(of file: URL) -> String {
        switch file.pathExtension.lowercased() {
        case "m3u8", "m3u": "application/vnd.apple.mpegurl"
        case "ts": "video/mp2t"
        case "mp4", "m4s", "m4v", "mov": "video/mp4"
        case "m4a": "audio/mp4"
        case "aac": "audio/aac"
        case "vtt": "text/vtt"
        case "json": "application/json"
        default: "application/octet-stream"
        }
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isWholeNumber }
}
