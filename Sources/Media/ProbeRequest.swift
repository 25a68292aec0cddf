/// One probe as a caller asks for it, and the key under which `ProbeCache` keeps its answer.
///
/// Everything that changes the answer is in it: the same playlist probed for another variant, for
/// another audio language, or on the word of a network document (which may not lead to local files)
/// is another probe.
public struct ProbeRequest: Sendable, Hashable {
    /// A path, a `file:` URL or an http(s) URL of a segment, a media file or a playlist.
    public var input: String
    /// For a multivariant playlist, the index of the variant to probe (0 when nil).
    public var variant: Int?
    /// The audio rendition to probe alongside a variant: the one in this language, else the default.
    public var preferredLanguage: String?
    /// Whether the input may be a local file: true for what a person typed or a local document
    /// named, false for what a document fetched over the network named.
    public var allowsLocalFiles: Bool

    public init(input: String, variant: Int? = nil, preferredLanguage: String? = nil, allowsLocalFiles: Bool = true) {
        self.input = input
        self.variant = variant
        self.preferredLanguage = preferredLanguage
        self.allowsLocalFiles = allowsLocalFiles
    }
}
