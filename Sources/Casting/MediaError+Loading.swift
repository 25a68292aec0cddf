import Loading
import MediaValues

extension MediaError {
    /// A loader's failure as a probe reports it, in the words `airlab probe` has always used.
    ///
    /// - Parameter timeout: the probe's whole budget, which a timed-out read is reported against
    ///   (every read of one probe shares it); nil keeps the loader's own number.
    init(loading error: LoadingError, timeout: Double?) {
        let reason: Reason
        switch error.reason {
        case .notFound: reason = .notFound
        case .directory: reason = .directory
        case .httpStatus(let status): reason = .httpStatus(Self.statusText(status))
        case .timedOut(let seconds): reason = .timedOut(seconds: timeout ?? seconds)
        case .tooLarge(let limit, _): reason = .tooLarge(limit: limit)
        case .unsupportedScheme(let scheme): reason = .unsupportedScheme(scheme)
        case .notAFile, .unreadable, .localFileNotAllowed, .localInputNotAllowed, .tooManyRedirects, .invalidURL, .network,
             .memoryBudgetExhausted:
            reason = .cannotRead(error.reason.description)
        }
        self.init(input: error.location, reason: reason)
    }

    /// The status as probes have named it: the common ones with their phrase, the rest by class.
    private static func statusText(_ status: Int) -> String {
        switch status {
        case 400: "400 Bad Request"
        case 401: "401 Unauthorized"
        case 403: "403 Forbidden"
        case 404: "404 Not Found"
        case 400..<500: "4xx (client error)"
        case 500..<600: "5xx (server error)"
        default: String(status)
        }
    }
}
