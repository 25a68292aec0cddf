import NumberText

/// Why an asset could not be probed, with the input it concerns.
///
/// `description` is the one line the CLI prints: the input as the user gave it, then the reason.
public struct MediaError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Reason: Sendable, Hashable {
        case notFound
        case directory
        case httpStatus(String)
        case timedOut(seconds: Double)
        case unsupportedScheme(String)
        /// Any other reason the loader gave for not reading a resource, in its own words: a refused
        /// location, a network failure, too many redirects.
        case cannotRead(String)
        case notMedia(detail: String)
        /// The container opened but holds no stream whose parameters could be read.
        case noUsableStreams
        /// A stream is listed but its parameters could not be read: the data ends or breaks too early.
        case unreadableStream(index: Int, type: String)
        case emptyPlaylist
        case invalidPlaylist(String)
        case variantOutOfRange(requested: Int, available: Int)
        case tooLarge(limit: Int)
        /// Any other FFmpeg failure, with FFmpeg's own words for it.
        case ffmpeg(code: Int32, message: String)
    }

    public var input: String
    /// The part of the input that failed when it is not the input itself: "segment URL", "variant 2".
    public var part: String?
    public var reason: Reason

    public init(input: String, part: String? = nil, reason: Reason) {
        self.input = input
        self.part = part
        self.reason = reason
    }

    /// What the failing resource was to the input ("segment", "init section"), until `within` names it.
    package var role: String?

    /// Runs `body`, marking a failure as one of the resource playing `role`, unless a deeper step
    /// already said what failed.
    package static func inRole<Value>(_ role: String, _ body: () async throws(MediaError) -> Value) async throws(MediaError) -> Value {
        do {
            return try await body()
        } catch {
            var marked = error
            marked.role = marked.role ?? role
            throw marked
        }
    }

    /// The same failure reported against `input`, the argument the caller gave, naming what failed
    /// inside it: "master.m3u8: segment http://…/seg0.ts: the server answered HTTP 404 Not Found".
    /// A failure of `opened`, the input itself as FFmpeg was asked to open it, is the input's own.
    package func within(_ input: String, openedAs opened: String) -> MediaError {
        guard self.input != input, self.input != opened else {
            return MediaError(input: input, part: part, reason: reason)
        }
        return MediaError(input: input, part: [role, self.input].compactMap { $0 }.joined(separator: " "), reason: reason)
    }

    public var description: String {
        [input, part, reasonText].compactMap { $0 }.joined(separator: ": ")
    }

    public var reasonText: String {
        switch reason {
        case .notFound:
            "no such file"
        case .directory:
            "a directory, not a file"
        case .httpStatus(let status):
            "the server answered HTTP \(status)"
        case .timedOut(let seconds):
            "no answer within \(Self.format(seconds)) s (timed out)"
        case .unsupportedScheme(let scheme):
            "unsupported URL scheme '\(scheme)'; use a file path, file:, http: or https:"
        case .cannotRead(let reason):
            reason
        case .notMedia(let detail):
            "not a media segment or playlist (\(detail))"
        case .noUsableStreams:
            "no audio or video stream could be read; the file may be truncated or damaged"
        case .unreadableStream(let index, let type):
            "the parameters of stream \(index) (\(type)) could not be read; the file may be truncated or damaged"
        case .emptyPlaylist:
            "the playlist has no segments"
        case .invalidPlaylist(let detail):
            "not a usable playlist: \(detail.hasSuffix(".") ? String(detail.dropLast()) : detail)"
        case .variantOutOfRange(let requested, let available):
            "variant \(requested) does not exist; the playlist has \(available) (numbered from 0)"
        case .tooLarge(let limit):
            "larger than the \(limit / 1_048_576) MiB airlab reads"
        case .ffmpeg(let code, let message):
            "\(message) (FFmpeg error \(code))"
        }
    }

    private static func format(_ seconds: Double) -> String {
        seconds.plainText
    }
}
