/// The parts of an HTTP response head a caller may want to check: `airlab validate` reports a wrong
/// Content-Type or a body shorter than its Content-Length.
///
/// `declaredLength` is what the header said, which for a body sent with a content coding is the coded
/// length; media segments are not sent coded.
public struct ResponseHead: Sendable, Hashable {
    public var status: Int
    public var contentType: String?
    /// Content-Length, when the server sent one.
    public var declaredLength: Int?
    /// Seconds from handing the request over to the response's first byte (of the last response,
    /// after redirects): the origin's time to answer, apart from the body's transfer.
    public var firstByteSeconds: Double?

    public init(status: Int, contentType: String? = nil, declaredLength: Int? = nil, firstByteSeconds: Double? = nil) {
        self.status = status
        self.contentType = contentType
        self.declaredLength = declaredLength
        self.firstByteSeconds = firstByteSeconds
    }
}
