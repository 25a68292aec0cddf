/// Takes a transfer's response while it arrives, for a caller that must act on each part before the
/// next one comes: Loading caps a body at the byte past its limit, reserves every chunk from its shared
/// memory budget, checks every redirect against its location rule before it is followed, and stops a
/// range once its last byte is in.
///
/// Both calls run on the loop's thread, inside libcurl's callbacks, one transfer's calls in order: what
/// they hold is what the transfer holds, since libcurl reads the next chunk only after this one was
/// taken. They must not block and must not call back into the loop. Returning false ends the transfer
/// at once with `TransferError.endedByReceiver`; the receiver knows why (a limit tripped, or it has
/// every byte it wants).
public protocol TransferReceiver: AnyObject, Sendable {
    /// A response head is complete: a redirect's (which libcurl then follows) and the final one's.
    func receive(head: TransferHead) -> Bool

    /// Bytes of the final response's body, in order; the buffer is valid only during the call.
    func receive(body: UnsafeRawBufferPointer) -> Bool
}

/// One response's status line and header fields, as a `TransferReceiver` sees them.
public struct TransferHead: Sendable, Equatable {
    public var status: Int
    /// In order, bounded as `TransferResult.headers` is.
    public var headers: [TransferResult.HeaderField]

    public init(status: Int, headers: [TransferResult.HeaderField]) {
        self.status = status
        self.headers = headers
    }

    /// The first value of a header field, its name compared without case.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// The status code of an HTTP status line (`HTTP/1.1 302 Found`), or nil when the line has none
    /// (three digits, from 100).
    static func status(ofStatusLine line: String) -> Int? {
        let words = line.split(maxSplits: 2, whereSeparator: \.isWhitespace)
        guard words.count >= 2, words[1].utf8.count == 3, words[1].utf8.allSatisfy({ (0x30...0x39).contains($0) }), let code = Int(words[1]),
            code >= 100
        else { return nil }
        return code
    }
}
