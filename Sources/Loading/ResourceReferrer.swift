/// Who names a resource, which decides whether it may be a local file: airlab's one location rule.
///
/// A local file is read only for a top-level input that may be one (a path or `file:` URL a person
/// typed, or a cast to a receiver started with `--allow-file-urls`) and for what a local document
/// references. A resource referenced from a document fetched over http(s) is never a local file,
/// whatever the flags of the run: a remote author must not make airlab read the machine's files.
/// The refusal comes before the file is touched, so its words never depend on whether it exists.
public enum ResourceReferrer: Sendable, Hashable {
    /// The input itself, as the user or the sender named it.
    case input(allowingLocalFiles: Bool)
    /// A reference found inside the document read from this location (after redirects).
    case document(ResourceLocation)

    /// Why `location` may not be read on this referrer's word, or nil when it may.
    func refusal(of location: ResourceLocation) -> LoadingError.Reason? {
        guard location.isLocal else { return nil }
        switch self {
        case .input(let allowed):
            return allowed ? nil : .localInputNotAllowed
        case .document(let document):
            return document.isLocal ? nil : .localFileNotAllowed
        }
    }

    /// Whether a local file may be read on this referrer's word.
    public var allowsLocalFiles: Bool {
        switch self {
        case .input(let allowed): allowed
        case .document(let document): document.isLocal
        }
    }
}

/// Part of a resource: `length` bytes from `offset`, as an EXT-X-BYTERANGE or EXT-X-MAP BYTERANGE names it.
public struct ResourceRange: Sendable, Hashable {
    public var offset: Int
    public var length: Int

    /// Nil unless both are non-negative and the range ends within `Int`: a range from a playlist is
    /// read from outside, and its last byte's position is written into an HTTP `Range` header.
    public init?(offset: Int, length: Int) {
        guard offset >= 0, length >= 0, offset <= Int.max - length else { return nil }
        self.offset = offset
        self.length = length
    }
}

/// What a read does with a resource larger than its cap.
public enum Overflow: Sendable, Hashable {
    /// Refuse it: a playlist or an asset list cut short would be read wrong.
    case refuse
    /// Keep the first bytes up to the cap: enough of a media segment to probe it.
    case keepFirst
}
