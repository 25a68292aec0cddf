import Foundation

extension FetchTrace {
    /// Why a trace file was refused: where in it, and why.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public var path: String
        public var reason: String
        public var description: String { "\(path): \(reason)" }
    }

    /// A million fetches: a 2-hour session of 6-second segments is 1,200 per rendition.
    public static let maximumRows = 1_000_000

    /// Reads a trace (`{"rows": [...]}`), every number range-checked.
    public init(parsing data: Data) throws(Failure) {
        let decoded: FetchTrace
        do {
            decoded = try JSONDecoder().decode(FetchTrace.self, from: data)
        } catch let error as DecodingError {
            throw Failure(path: Self.path(of: error), reason: Self.reason(of: error))
        } catch {
            throw Failure(path: "$", reason: "is not valid JSON")
        }
        guard decoded.rows.count <= Self.maximumRows else {
            throw Failure(path: "$.rows", reason: "holds \(decoded.rows.count) rows; at most \(Self.maximumRows) are accepted")
        }
        guard (0...Self.maximumRows).contains(decoded.unrecorded) else {
            throw Failure(path: "$.unrecorded", reason: "must be from 0 to \(Self.maximumRows), not \(decoded.unrecorded)")
        }
        for (index, row) in decoded.rows.enumerated() {
            let at = "$.rows[\(index)]"
            guard !row.uri.isEmpty, row.uri.utf8.count <= 8192 else { throw Failure(path: "\(at).uri", reason: "must be a URL of 1 to 8192 bytes") }
            guard (1...100).contains(row.attempt) else { throw Failure(path: "\(at).attempt", reason: "must be from 1 to 100, not \(row.attempt)") }
            guard (0...999).contains(row.status) else { throw Failure(path: "\(at).status", reason: "must be an HTTP status (0 for a timeout), not \(row.status)") }
            guard (0...(1 << 40)).contains(row.bytes) else { throw Failure(path: "\(at).bytes", reason: "must be from 0 to 2^40, not \(row.bytes)") }
            if let failure = row.failure, failure.utf8.count > 4096 {
                throw Failure(path: "\(at).failure", reason: "must be a reason of at most 4096 bytes, not \(failure.utf8.count)")
            }
            for (name, value) in [("firstByteSeconds", row.firstByteSeconds), ("seconds", row.seconds)] where !(value >= 0 && value <= 86_400) {
                throw Failure(path: "\(at).\(name)", reason: "must be from 0 to 86400 seconds, not \(value)")
            }
        }
        self = decoded
    }

    static func path(of error: DecodingError) -> String {
        let context: DecodingError.Context? = switch error {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context): context
        case .keyNotFound(let key, let context): DecodingError.Context(codingPath: context.codingPath + [key], debugDescription: "")
        @unknown default: nil
        }
        let parts = (context?.codingPath ?? []).map { key in key.intValue.map { "[\($0)]" } ?? ".\(key.stringValue)" }
        return "$" + parts.joined()
    }

    static func reason(of error: DecodingError) -> String {
        switch error {
        case .keyNotFound: "is required"
        case .typeMismatch(let type, _): "must be a \(type == String.self ? "string" : type == Int.self ? "whole number" : "number")"
        case .valueNotFound: "must not be null"
        case .dataCorrupted: "is not valid JSON"
        @unknown default: "cannot be read"
        }
    }
}
