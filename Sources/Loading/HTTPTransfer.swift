import Foundation
import Synchronization
import Transport

/// One HTTP(S) GET under the loader's limits, on Transport's libcurl loop: the project's one HTTP client.
///
/// It receives the response while it arrives (`TransferReceiver`) rather than as a finished result,
/// because the limits have to act on each part: the size cap ends the transfer at the first byte past
/// it (a server may omit Content-Length or lie), and every redirect is counted and its target checked
/// before libcurl follows it (a redirect to `file:` must never make us read a local file; libcurl is
/// also told to follow http and https only). A byte range is asked for with `Range`; a server that
/// ignores it and answers 200 with the whole resource is read up to the range's end and cut to it.
///
/// Every chunk is kept or dropped inside libcurl's write callback, so nothing waits anywhere but in
/// the body, which never grows past the cap (`BodyBuffer`). Every byte kept is reserved from the
/// loader's shared budget (`LoadMemoryBudget`) as it arrives and given back once the transfer ends,
/// when its body is handed over or dropped.
final class HTTPTransfer: TransferReceiver, Sendable {
    /// One GET as the loader asks for it.
    struct Request: Sendable {
        var url: URL
        var maximumSize: Int
        var range: ResourceRange?
        var overflow: Overflow
        var maximumRedirects: Int
        /// The loader's timeout, as a failure names it.
        var timeout: Double
        /// Seconds this transfer may take in all.
        var allowance: Double
        /// Where the bytes it keeps are reserved from.
        var budget: LoadMemoryBudget
        /// Paces a measured read; nil reads as fast as the bytes come.
        var pacing: ReadPacing? = nil
        /// False counts the body's bytes against the cap and drops them (a measured read): nothing is
        /// kept, so nothing is reserved either.
        var keepsBody = true
    }

    private struct State {
        var body: BodyBuffer
        /// Bytes of `body` taken from the shared budget, given back when the transfer completes.
        var reserved = 0
        var redirects = 0
        /// The URL of the response now arriving: the request's, then each redirect's target.
        var currentURL: URL
        /// Bytes still to drop from the front: the range's offset, when the server sent it all.
        var skip = 0
        /// Set when every byte wanted has arrived and the transfer was ended on purpose.
        var finishedEarly = false
        var truncated = false
        var response: ResponseHead?
        /// Set by the first limit that trips; it ends the transfer and is its error.
        var failure: LoadingError.Reason?
        /// Body bytes of a measured read, counted and dropped.
        var counted = 0
    }

    /// The process's one loop, shared with receivers' realtime fetches.
    private static var loop: TransferLoop { .shared }

    /// The most redirects libcurl is told to follow (Transport's bound); the loader's own count refuses first.
    private static let curlRedirects = TransferRequest.redirects.upperBound
    /// The longest a transfer may be given (Transport refuses more than a day).
    private static let longestAllowance = 86_400.0

    private let request: Request
    private let state: Mutex<State>

    /// The most bytes kept: the cap, or the range's length when that is smaller.
    private var limit: Int { min(request.maximumSize, request.range?.length ?? Int.max) }

    private init(request: Request) {
        self.request = request
        state = Mutex(State(body: BodyBuffer(limit: min(request.maximumSize, request.range?.length ?? Int.max)), currentURL: request.url))
    }

    /// Fetches what `request` names; returns the body and the URL it finally came from, after redirects.
    static func get(_ request: Request) async throws(LoadingError) -> Transferred {
        try await HTTPTransfer(request: request).run()
    }

    private func run() async throws(LoadingError) -> Transferred {
        // The whole transfer is bounded, so a server that drips a byte a second cannot outlast it;
        // libcurl counts milliseconds, so a probe's remaining budget is kept.
        let allowance = Duration.milliseconds(Int(saturating: (min(max(0, request.allowance), Self.longestAllowance) * 1000).rounded(.up)))
        var transfer = TransferRequest(
            url: request.url.absoluteString, connectTimeout: max(allowance, .milliseconds(1)), totalTimeout: max(allowance, .milliseconds(1)),
            maximumRedirects: min(request.maximumRedirects, Self.curlRedirects))
        if let range = request.range, range.length > 0 {
            transfer.range = range.offset...(range.offset + range.length - 1)
        }
        if let pacing = request.pacing {
            transfer.pacing = TransferRequest.Pacing(client: pacing.client, bytesPerSecond: pacing.bytesPerSecond)
            transfer.headers.append(("X-Airlab-Client", pacing.client))
        }
        let result = await Self.loop.fetch(transfer, receiver: self)
        return try state.withLock { state throws(LoadingError) -> Transferred in
            // The body is handed over or dropped here, so its bytes go back to the shared budget.
            let body = state.body.take()
            request.budget.release(state.reserved)
            state.reserved = 0
            if let failure = state.failure { throw error(failure) }
            if let failed = result.error, !state.finishedEarly { throw error(reason(for: failed)) }
            let finalURL = URL(string: result.finalURL) ?? state.currentURL
            var response = state.response
            if let firstByte = result.firstByte {
                let wait = result.sent.duration(to: firstByte).components
                response?.firstByteSeconds = max(0, Double(wait.seconds) + Double(wait.attoseconds) * 1e-18)
            }
            return Transferred(
                data: body, finalURL: finalURL, isTruncated: state.truncated, response: response,
                bytes: request.keepsBody ? body.count : state.counted, originLimitedSeconds: result.originLimitedSeconds)
        }
    }

    private func error(_ reason: LoadingError.Reason) -> LoadingError {
        LoadingError(location: request.url.absoluteString, reason: reason)
    }

    // MARK: - TransferReceiver, on the loop's thread

    func receive(head: TransferHead) -> Bool {
        state.withLock { state in
            if (300..<400).contains(head.status), let location = head.header("Location") {
                return follow(location, in: &state)
            }
            guard (200..<300).contains(head.status) else {
                state.failure = .httpStatus(head.status)
                return false
            }
            // Content-Length is read from outside: a number of digits that fits an Int, or none.
            let declared = head.header("Content-Length").flatMap { Int($0) }.flatMap { $0 >= 0 ? $0 : nil }
            if request.range == nil, request.overflow == .refuse, let declared, declared > request.maximumSize {
                state.failure = .tooLarge(limit: request.maximumSize, size: declared)
                return false
            }
            state.response = ResponseHead(status: head.status, contentType: head.header("Content-Type"), declaredLength: declared)
            if let range = request.range, head.status != 206 {
                // The server ignored the range and sends the resource from its first byte.
                state.skip = range.offset
            } else if let declared, declared <= state.body.limit {
                // A body of known length gets exactly its size; a server that lies only grows it further.
                state.body.expectedLength = declared
            }
            return true
        }
    }

    /// Counts a redirect and checks where it leads before libcurl follows it; false refuses it.
    private func follow(_ location: String, in state: inout State) -> Bool {
        state.redirects += 1
        if state.redirects > request.maximumRedirects {
            state.failure = .tooManyRedirects(request.maximumRedirects)
            return false
        }
        // What the server wrote is what is checked: a relative reference keeps the current scheme.
        guard let next = URL(string: location, relativeTo: state.currentURL)?.absoluteURL else {
            state.failure = .invalidURL
            return false
        }
        let scheme = next.scheme?.lowercased() ?? ""
        guard scheme == "http" || scheme == "https" else {
            state.failure = .unsupportedScheme(scheme)
            return false
        }
        state.currentURL = next
        return true
    }

    func receive(body data: UnsafeRawBufferPointer) -> Bool {
        state.withLock { state in
            guard state.failure == nil, !state.finishedEarly else { return false }
            guard request.keepsBody else {
                state.counted += data.count
                guard state.counted <= request.maximumSize else {
                    state.failure = .tooLarge(limit: request.maximumSize, size: nil)
                    return false
                }
                return true
            }
            var chunk = data
            if state.skip > 0 {
                let dropped = min(state.skip, chunk.count)
                state.skip -= dropped
                chunk = UnsafeRawBufferPointer(rebasing: chunk[dropped...])
            }
            let room = limit - state.body.count
            var complete = false
            if chunk.count > room {
                guard request.range != nil || request.overflow == .keepFirst else {
                    state.failure = .tooLarge(limit: request.maximumSize, size: nil)
                    return false
                }
                chunk = UnsafeRawBufferPointer(rebasing: chunk[..<room])
                state.truncated = request.range.map { limit < $0.length } ?? true
                complete = true
            } else if request.range != nil, chunk.count == room {
                // A range is complete at its last byte, whatever else the server would go on sending.
                complete = true
            }
            guard keep(chunk, in: &state) else { return false }
            if complete { state.finishedEarly = true }
            return !complete
        }
    }

    /// Reserves `chunk` from the shared budget and appends it to the body; false (with the failure
    /// recorded) when the budget or memory has no room for it.
    private func keep(_ chunk: UnsafeRawBufferPointer, in state: inout State) -> Bool {
        guard !chunk.isEmpty else { return true }
        guard request.budget.reserve(chunk.count, holding: state.reserved) else {
            state.failure = .memoryBudgetExhausted(limit: request.budget.limit)
            return false
        }
        state.reserved += chunk.count
        let appended = state.body.append(chunk)
        if !appended { state.failure = .network("out of memory for \(chunk.count) more bytes") }
        return appended
    }

    /// What a transfer that ended without a limit of ours tripping failed of, in the loader's words.
    private func reason(for error: TransferError) -> LoadingError.Reason {
        switch error {
        case .connectTimeout, .firstByteTimeout, .lowSpeed, .totalTimeout: .timedOut(request.timeout)
        case .tooManyRedirects: .tooManyRedirects(request.maximumRedirects)
        case .cannotConnect: .network("connection refused")
        case .unknownHost: .network("unknown host")
        case .invalidRequest: .invalidURL
        // libcurl's words say how: "Connection reset by peer", a body shorter than its length.
        case .partialBody(let message): .network("the connection was lost: \(message)")
        case .cancelled, .endedByReceiver, .bodyTooLarge, .failed: .network(error.description)
        }
    }
}
