import Foundation

/// Where a playlist or an asset list lives: a local file or an http(s) URL.
///
/// Every location is kept as an absolute URL so that relative references resolve the same way for
/// both kinds (RFC 3986 §5). Other schemes are refused when the location is made, so nothing later
/// has to wonder whether `ftp:` or `data:` could slip through.
public struct ResourceLocation: Sendable, Hashable, CustomStringConvertible {
    public let url: URL
    /// What a person recognises in a message: the text they typed, else the path or the URL.
    public let description: String

    /// A location from what a user typed: a path (absolute or relative to the working directory), a
    /// `file://` URL, or an http(s) URL.
    public init(argument: String) throws(LoadingError) {
        if Self.hasScheme(argument) {
            guard let url = URL(string: argument) else {
                throw LoadingError(location: argument, reason: .invalidURL)
            }
            try self.init(url: url, description: argument)
        } else {
            try self.init(url: URL(fileURLWithPath: argument), description: argument)
        }
    }

    /// A location from an absolute URL; only file, http and https URLs are locations.
    public init(url: URL) throws(LoadingError) {
        try self.init(url: url, description: nil)
    }

    private init(url: URL, description: String?) throws(LoadingError) {
        let scheme = url.scheme?.lowercased() ?? ""
        guard ["file", "http", "https"].contains(scheme) else {
            throw LoadingError(location: url.absoluteString, reason: .unsupportedScheme(scheme))
        }
        if scheme != "file", url.host?.isEmpty ?? true {
            throw LoadingError(location: url.absoluteString, reason: .invalidURL)
        }
        self.url = scheme == "file" ? url.standardizedFileURL : url
        self.description = description ?? (self.url.isFileURL ? self.url.path : self.url.absoluteString)
    }

    /// True for `file:` locations.
    public var isLocal: Bool { url.isFileURL }

    /// The location a reference found inside this resource points at (an asset URI, a variant's URI).
    public func resolving(_ reference: String) throws(LoadingError) -> ResourceLocation {
        guard let resolved = URL(string: reference, relativeTo: url)?.absoluteURL else {
            throw LoadingError(location: reference, reason: .invalidURL)
        }
        return try ResourceLocation(url: resolved)
    }

    /// A scheme is letters, digits, `+`, `-`, `.` before the first colon (RFC 3986 §3.1). One letter
    /// is not taken for a scheme, so `C:` style paths and `a:b` file names stay paths.
    private static func hasScheme(_ text: String) -> Bool {
        guard let colon = text.firstIndex(of: ":") else { return false }
        let scheme = text[..<colon]
        guard scheme.count > 1, let first = scheme.first, first.isASCII, first.isLetter else { return false }
        return scheme.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }
    }
}
