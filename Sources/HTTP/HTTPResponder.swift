/// Answers the server's requests.
///
/// libmicrohttpd serves many connections on each polling thread, and on the shared loop many servers,
/// so nothing may block it; these methods run on more than one thread at once. A request is
/// therefore answered in one of two ways:
/// - `immediateResponse(to:)` runs on that thread and must return at once without blocking, locking
///   only briefly; it suits hot, cheap routes (a status read from a snapshot) and saves the hop to a
///   task and back, which costs a suspend, a wake-up and a resume per request.
/// - `respond(to:)` runs in a task on Swift's cooperative pool while the connection is suspended; it
///   may await anything. It is used whenever `immediateResponse(to:)` returns nil.
public protocol HTTPResponder: Sendable {
    func immediateResponse(to request: HTTPRequest) -> HTTPResponse?
    func respond(to request: HTTPRequest) async -> HTTPResponse
    /// A TCP connection ended, for whatever reason; requests carry the id of theirs. Called on the
    /// polling thread: it must not block.
    func connectionClosed(_ connection: HTTPConnectionID)
}

extension HTTPResponder {
    public func immediateResponse(to request: HTTPRequest) -> HTTPResponse? { nil }
    public func connectionClosed(_ connection: HTTPConnectionID) {}
}

/// A responder made of one async closure.
public struct ClosureResponder: HTTPResponder {
    private let handler: @Sendable (HTTPRequest) async -> HTTPResponse

    public init(_ handler: @escaping @Sendable (HTTPRequest) async -> HTTPResponse) {
        self.handler = handler
    }

    public func respond(to request: HTTPRequest) async -> HTTPResponse {
        await handler(request)
    }
}
