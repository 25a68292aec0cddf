import Foundation

/// Where an asset lives: a local file or an http(s) URL, as FFmpeg should be asked to open it.
///
/// Only these are accepted: FFmpeg understands many more protocols (rtmp, ftp, concat, …) and a
/// receiver emulator has no business reaching them on a sender's say-so.
public struct MediaLocation: Sendable, Hashable, CustomStringConvertible {
    /// What FFmpeg opens: an absolute path or an http(s) URL.
    public var ffmpegURL: String
    public var isRemote: Bool

    /// Reads a command-line argument or a URI from a playlist.
    public init(_ text: String) throws(MediaError) {
        guard !text.isEmpty else { throw MediaError(input: "\"\"", reason: .malformedURL("an empty path")) }
        guard let scheme = Self.scheme(of: text) else {
            ffmpegURL = text
            isRemote = false
            return
        }
        switch scheme.lowercased() {
        case "http", "https":
            ffmpegURL = text
            isRemote = true
        case "file":
            guard let url = URL(string: text), url.isFileURL else {
                throw MediaError(input: text, reason: .malformedURL("a file URL needs a path"))
            }
            ffmpegURL = url.path
            isRemote = false
        default:
            throw MediaError(input: text, reason: .unsupportedScheme(scheme))
        }
    }

    /// Resolves a URI found in a playlist against the playlist's own location (RFC 3986).
    public func resolving(_ reference: String) throws(MediaError) -> MediaLocation {
        if Self.scheme(of: reference) != nil {
            return try MediaLocation(reference)
        }
        if isRemote {
            guard let base = URL(string: ffmpegURL), let resolved = URL(string: reference, relativeTo: base) else {
                throw MediaError(input: reference, reason: .malformedURL("it does not resolve against \(ffmpegURL)"))
            }
            return try MediaLocation(resolved.absoluteString)
        }
        if reference.hasPrefix("/") {
            return try MediaLocation(reference)
        }
        let directory = URL(fileURLWithPath: ffmpegURL).deletingLastPathComponent()
        let decoded = reference.removingPercentEncoding ?? reference
        return try MediaLocation(directory.appendingPathComponent(decoded).standardizedFileURL.path)
    }

    /// True when the path (without query) names a playlist by its extension.
    var looksLikePlaylist: Bool {
        var path = ffmpegURL
        if isRemote, let url = URL(string: ffmpegURL) { path = url.path }
        let lowered = path.lowercased()
        return lowered.hasSuffix(".m3u8") || lowered.hasSuffix(".m3u")
    }

    public var description: String { ffmpegURL }

    /// The scheme of `text` when it has one; a bare path has none.
    private static func scheme(of text: String) -> String? {
        guard let colon = text.firstIndex(of: ":") else { return nil }
        let scheme = text[..<colon]
        guard let first = scheme.first, first.isLetter,
            scheme.allSatisfy({ $0.isLetter || $0.isNumber || "+-.".contains($0) })
        else { return nil }
        return String(scheme)
    }
}
