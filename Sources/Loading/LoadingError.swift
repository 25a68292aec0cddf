import NumberText

/// Why a resource (a playlist, an asset list, a segment, an init section) could not be read, and from where.
///
/// The description is one sentence that names the location and the reason, fit for a command's
/// one-line error and for a diagnostic's message.
public struct LoadingError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Reason: Sendable, Hashable {
        /// No file at that path.
        case notFound
        /// A directory: named apart from `notAFile` because a person typing a folder for a file wants to hear it.
        case directory
        /// A device, a socket, a FIFO: something that is not a regular file.
        case notAFile
        /// The file exists but cannot be read (permissions, an I/O error).
        case unreadable(String)
        /// The server answered with a status outside 2xx.
        case httpStatus(Int)
        /// No complete answer within the timeout, in seconds.
        case timedOut(Double)
        /// The body is larger than `limit` bytes; `size` when the file or the server said how large.
        case tooLarge(limit: Int, size: Int?)
        /// The reads in progress together already hold the `limit` bytes all reads may hold at once
        /// (`LoadMemoryBudget`), so this one could not keep more.
        case memoryBudgetExhausted(limit: Int)
        /// A scheme other than http, https and (where allowed) file.
        case unsupportedScheme(String)
        /// A local file referenced from a resource that was fetched over the network (`ResourceReferrer`).
        case localFileNotAllowed
        /// A local file given as the input where only http and https inputs are read.
        case localInputNotAllowed
        /// More redirects than the limit.
        case tooManyRedirects(Int)
        /// Text that is not a URL at all.
        case invalidURL
        /// The connection failed: refused, reset, unknown host.
        case network(String)
    }

    /// The path or URL as the user or the document wrote it (for redirects, the URL first asked for).
    public var location: String
    public var reason: Reason

    public init(location: String, reason: Reason) {
        self.location = location
        self.reason = reason
    }

    public var description: String {
        "\(location): \(reason)"
    }
}

extension LoadingError.Reason: CustomStringConvertible {
    public var description: String {
        switch self {
        case .notFound:
            "not found (no such file)"
        case .directory:
            "a directory, not a regular file"
        case .notAFile:
            "not a regular file"
        case .unreadable(let why):
            "cannot be read (\(why))"
        case .httpStatus(let status):
            "the server answered HTTP \(status)\(status == 404 ? " (not found)" : "")"
        case .timedOut(let seconds):
            "timed out after \(Self.format(seconds)) s"
        case .tooLarge(let limit, let size?):
            "too large: \(size) bytes, more than the \(Self.format(bytes: limit)) allowed"
        case .tooLarge(let limit, nil):
            "too large: more than the \(Self.format(bytes: limit)) allowed"
        case .memoryBudgetExhausted(let limit):
            "too large to hold now: the reads in progress together hold the \(Self.format(bytes: limit)) all reads may hold at once"
        case .unsupportedScheme(let scheme):
            "unsupported URL scheme '\(scheme)'; only http and https URLs (and local files) are read"
        case .localFileNotAllowed:
            "a local file, which a resource fetched over the network may not reference"
        case .localInputNotAllowed:
            "a local file, where only http and https URLs are read"
        case .tooManyRedirects(let limit):
            "more than \(limit) redirects"
        case .invalidURL:
            "not a valid URL"
        case .network(let why):
            "cannot be fetched (\(why))"
        }
    }

    private static func format(_ seconds: Double) -> String {
        seconds.plainText
    }

    private static func format(bytes: Int) -> String {
        bytes >= 1 << 20 && bytes % (1 << 20) == 0 ? "\(bytes >> 20) MiB" : "\(bytes) bytes"
    }
}
