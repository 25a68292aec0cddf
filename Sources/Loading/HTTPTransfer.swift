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
/// make us read a local file).
final class HTTPTransfer: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private struct State {
        var body = Data()
        var redirects = 0
        var finalURL: URL
        /// Set by the first limit that trips; wins over the cancellation error it causes.
        var failure: LoadingError.Reason?
        var continuation: CheckedContinuation<Result<(Data, URL), LoadingError>, Never>?
    }

    private let url: URL
    private let maximumSize: Int
    private let maximumRedirects: Int
    private let timeout: Double
    private let state: Mutex<State>

    private init(url: URL, maximumSize: Int, maximumRedirects: Int, timeout: Double) {
        self.url = url
        self.maximumSize = maximumSize
        self.maximumRedirects = maximumRedirects
        self.timeout = timeout
        self.state = Mutex(State(finalURL: url))
    }

    /// Fetches `url`; returns the body and the URL it finally came from, after redirects.
    static func get(_ url: URL, maximumSize: Int, maximumRedirects: Int, timeout: Double) async throws(LoadingError) -> (Data, URL) {
        let transfer = HTTPTransfer(url: url, maximumSize: maximumSize, maximumRedirects: maximumRedirects, timeout: timeout)
        return try await transfer.run().get()
    }

    private func run() async -> Result<(Data, URL), LoadingError> {
        let configuration = URLSessionConfiguration.ephemeral
        // Linux truncates these to whole seconds and 0 means "none", so never go below one.
        configuration.timeoutIntervalForRequest = max(1, timeout)
        configuration.timeoutIntervalForResource = max(1, timeout)
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        let session = URLSession(configuration: configuration, delegate: self, delegateQueue: nil)
        // The session holds its delegate strongly until it is invalidated.
        defer { session.finishTasksAndInvalidate() }

        var request = URLRequest(url: url)
        request.timeoutInterval = max(1, timeout)
        let task = session.dataTask(with: request)

        // The request timeout is an idle timeout, which a server that drips a byte a second never
        // trips; this deadline bounds the whole transfer, whatever URLSession's resource timeout does.
        let deadline = DispatchWorkItem { [weak self, weak task] in
            self?.fail(.timedOut(self?.timeout ?? 0))
            task?.cancel()
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + max(1, timeout), execute: deadline)
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
            if state.failure == nil { state.failure = reason }
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
        if response.expectedContentLength > Int64(maximumSize) {
            fail(.tooLarge(limit: maximumSize, size: Int(response.expectedContentLength)))
            completionHandler(.cancel)
            return
        }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let overflow = state.withLock { state in
            guard state.failure == nil else { return false }
            if state.body.count + data.count > maximumSize {
                state.failure = .tooLarge(limit: maximumSize, size: nil)
                return true
            }
            state.body.append(data)
            return false
        }
        if overflow { dataTask.cancel() }
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
            task.cancel()
            return
        }
        completionHandler(request)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let (continuation, result) = state.withLock { state -> (CheckedContinuation<Result<(Data, URL), LoadingError>, Never>?, Result<(Data, URL), LoadingError>) in
            let continuation = state.continuation
            state.continuation = nil
            if let failure = state.failure {
                return (continuation, .failure(self.error(failure)))
            }
            if let error {
                return (continuation, .failure(self.error(self.reason(for: error))))
            }
            return (continuation, .success((state.body, state.finalURL)))
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
