import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization

/// One HTTP(S) GET under the loader's limits, driven by URLSession's delegate callbacks.
///
/// A delegate rather than `data(for:)` because the limits have to act while the body arrives: the
/// size cap cancels the transfer at the first byte past it (a server may omit Content-Length or lie),
/// and every redirect is counted and checked before it is followed (a redirect to `file:` must never
/// make us read a local file). A byte range is asked for with `Range`; a server that ignores it and
/// answers 200 with the whole resource is read up to the range's end and cut to it.
///
/// The body streams: the delegate runs inline in libcurl's write callback (`InlineDelegateQueue`), so
/// no chunk waits anywhere but in the body, which never grows past the cap (`BodyBuffer`). Every byte
/// kept is reserved from the loader's shared budget (`LoadMemoryBudget`) as it arrives and given back
/// once the transfer ends, when its body is handed over or dropped.
final class HTTPTransfer: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private struct State {
        var body: BodyBuffer
        /// Bytes of `body` taken from the shared budget, given back when the transfer completes.
        var reserved = 0
        /// Set once a cancellation has been asked for, so that late chunks do not ask again.
        var stopping = false
        var redirects = 0
        var finalURL: URL
        /// Bytes still to drop from the front: the range's offset, when the server sent it all.
        var skip = 0
        /// Set when every byte wanted has arrived and the transfer was cancelled on purpose.
        var finishedEarly = false
        var truncated = false
        /// Set by the first limit that trips; wins over the cancellation error it causes.
        var failure: LoadingError.Reason?
        var continuation: CheckedContinuation<Result<Transferred, LoadingError>, Never>?
    }

    private let url: URL
    private let maximumSize: Int
    private let range: ResourceRange?
    private let overflow: Overflow
    private let maximumRedirects: Int
    private let timeout: Double
    /// Seconds the whole transfer may take: the timeout, or less when a caller's deadline is nearer.
    private let allowance: Double
    private let budget: LoadMemoryBudget
    private let state: Mutex<State>

    /// The most bytes kept: the cap, or the range's length when that is smaller.
    private var limit: Int { min(maximumSize, range?.length ?? Int.max) }

    private init(request: TransferRequest) {
        url = request.url
        maximumSize = request.maximumSize
        range = request.range
        overflow = request.overflow
        maximumRedirects = request.maximumRedirects
        timeout = request.timeout
        allowance = request.allowance
        budget = request.budget
        state = Mutex(State(body: BodyBuffer(limit: min(request.maximumSize, request.range?.length ?? Int.max)), finalURL: request.url))
    }

    /// Fetches what `request` names; returns the body and the URL it finally came from, after redirects.
    static func get(_ request: TransferRequest) async throws(LoadingError) -> Transferred {
        try await HTTPTransfer(request: request).run().get()
    }

    private func run() async -> Result<Transferred, LoadingError> {
        let configuration = URLSessionConfiguration.ephemeral
        // Linux truncates these to whole seconds and 0 means "none", so never go below one.
        configuration.timeoutIntervalForRequest = max(1, timeout)
        configuration.timeoutIntervalForResource = max(1, timeout)
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        let session = URLSession(configuration: configuration, delegate: self, delegateQueue: InlineDelegateQueue())
        // The session holds its delegate strongly until it is invalidated.
        defer { session.finishTasksAndInvalidate() }

        var request = URLRequest(url: url)
        request.timeoutInterval = max(1, timeout)
        if let range, range.length > 0 {
            request.setValue("bytes=\(range.offset)-\(range.offset + range.length - 1)", forHTTPHeaderField: "Range")
        }
        let task = session.dataTask(with: request)

        // The request timeout is an idle timeout, which a server that drips a byte a second never
        // trips; this deadline bounds the whole transfer, whatever URLSession's resource timeout does.
        // Dispatch keeps fractions of a second, so a probe's remaining budget is kept exactly.
        let deadline = DispatchWorkItem { [weak self, weak task] in
            self?.fail(.timedOut(self?.timeout ?? 0))
            task?.cancel()
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + max(0, allowance), execute: deadline)
        defer { deadline.cancel() }

        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                state.withLock { $0.continuation = continuation }
                task.resume()
            }
        } onCancel: {
            task.cancel()
        }
    }

    /// Records the first limit that tripped; the transfer is then cancelled and completes with it.
    private func fail(_ reason: LoadingError.Reason) {
        state.withLock { state in
            if state.failure == nil && !state.finishedEarly { state.failure = reason }
        }
    }

    private func error(_ reason: LoadingError.Reason) -> LoadingError {
        LoadingError(location: url.absoluteString, reason: reason)
    }

    // MARK: - URLSessionDataDelegate

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        if let http = response as? HTTPURLResponse, !(200..<300).contains(http.statusCode) {
            fail(.httpStatus(http.statusCode))
            completionHandler(.cancel)
            return
        }
        let status = (response as? HTTPURLResponse)?.statusCode
        let declared = response.expectedContentLength
        if range == nil, overflow == .refuse, declared > Int64(maximumSize) {
            fail(.tooLarge(limit: maximumSize, size: Int(declared)))
            completionHandler(.cancel)
            return
        }
        state.withLock { state in
            if let range, status != 206 {
                // The server ignored the range and sends the resource from its first byte.
                state.skip = range.offset
            } else if declared >= 0, declared <= Int64(state.body.limit) {
                // A body of known length gets exactly its size; a server that lies only grows it further.
                state.body.expectedLength = Int(declared)
            }
        }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let stops = state.withLock { state -> Bool in
            // Whatever arrives after the end was decided is dropped here, at once: nothing else holds it.
            guard state.failure == nil, !state.finishedEarly else { return Self.stopOnce(&state) }
            var chunk = data
            if state.skip > 0 {
                let dropped = min(state.skip, chunk.count)
                state.skip -= dropped
                chunk = chunk.dropFirst(dropped)
            }
            let room = limit - state.body.count
            var complete = false
            if chunk.count > room {
                guard range != nil || overflow == .keepFirst else {
                    state.failure = .tooLarge(limit: maximumSize, size: nil)
                    return Self.stopOnce(&state)
                }
                chunk = chunk.prefix(room)
                state.truncated = range == nil || limit < range!.length
                complete = true
            } else if range != nil, chunk.count == room {
                // A range is complete at its last byte, whatever else the server would go on sending.
                complete = true
            }
            guard keep(chunk, in: &state) else { return Self.stopOnce(&state) }
            if complete {
                state.finishedEarly = true
                return Self.stopOnce(&state)
            }
            return false
        }
        if stops { stop(dataTask) }
    }

    /// Reserves `chunk` from the shared budget and appends it to the body; false (with the failure
    /// recorded) when the budget or memory has no room for it.
    private func keep(_ chunk: Data, in state: inout State) -> Bool {
        guard !chunk.isEmpty else { return true }
        guard budget.reserve(chunk.count, holding: state.reserved) else {
            state.failure = .memoryBudgetExhausted(limit: budget.limit)
            return false
        }
        state.reserved += chunk.count
        let appended = chunk.withUnsafeBytes { state.body.append($0) }
        if !appended { state.failure = .network("out of memory for \(chunk.count) more bytes") }
        return appended
    }

    /// True the first time a transfer decides to stop, so that it asks for cancellation once.
    private static func stopOnce(_ state: inout State) -> Bool {
        defer { state.stopping = true }
        return !state.stopping
    }

    /// Cancels from another queue: delegate calls run inline on the session's work queue, which
    /// `cancel()` enters synchronously. Chunks that arrive meanwhile are dropped as they come.
    private func stop(_ task: URLSessionTask) {
        nonisolated(unsafe) let task = task
        DispatchQueue.global().async { task.cancel() }
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        // Linux's URLSession rewrites `Location: file:///etc/passwd` into a path on the same server;
        // what the server asked for is the header, so that is what is checked.
        let written = response.value(forHTTPHeaderField: "Location").flatMap { URL(string: $0)?.scheme }
        let scheme = (written ?? request.url?.scheme)?.lowercased() ?? ""
        let refusal: LoadingError.Reason? = state.withLock { state in
            state.redirects += 1
            if state.redirects > maximumRedirects { return .tooManyRedirects(maximumRedirects) }
            if scheme != "http" && scheme != "https" { return .unsupportedScheme(scheme) }
            if let next = request.url { state.finalURL = next }
            return nil
        }
        if let refusal {
            fail(refusal)
            completionHandler(nil)
            stop(task)
            return
        }
        completionHandler(request)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let (continuation, result) = state.withLock { state -> (CheckedContinuation<Result<Transferred, LoadingError>, Never>?, Result<Transferred, LoadingError>) in
            let continuation = state.continuation
            state.continuation = nil
            // The body is handed over or dropped here, so its bytes go back to the shared budget.
            let body = state.body.take()
            budget.release(state.reserved)
            state.reserved = 0
            state.stopping = true
            if let failure = state.failure {
                return (continuation, .failure(self.error(failure)))
            }
            let transferred = Transferred(data: body, finalURL: state.finalURL, isTruncated: state.truncated)
            if let error, !state.finishedEarly {
                return (continuation, .failure(self.error(self.reason(for: error))))
            }
            return (continuation, .success(transferred))
        }
        continuation?.resume(returning: result)
    }

    private func reason(for error: any Error) -> LoadingError.Reason {
        guard let urlError = error as? URLError else { return .network(error.localizedDescription) }
        switch urlError.code {
        case .timedOut: return .timedOut(timeout)
        case .httpTooManyRedirects: return .tooManyRedirects(maximumRedirects)
        case .unsupportedURL: return .unsupportedScheme(urlError.failingURL?.scheme ?? "")
        case .cannotConnectToHost: return .network("connection refused")
        case .cannotFindHost, .dnsLookupFailed: return .network("unknown host")
        case .networkConnectionLost: return .network("the connection was lost")
        default: return .network(urlError.localizedDescription)
        }
    }
}

/// One GET as the loader asks for it.
struct TransferRequest: Sendable {
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
}
