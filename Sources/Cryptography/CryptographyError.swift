import CCrypto
import COnDemand

/// A libcrypto call that failed, or a value that cannot be what it claims (a key of the wrong length):
/// the operation and OpenSSL's own reason, so a log line says which step failed and why.
public struct CryptographyError: Error, Equatable, CustomStringConvertible, Sendable {
    public let operation: String
    public let reason: String

    public init(_ operation: String, _ reason: String) {
        self.operation = operation
        self.reason = reason
    }

    public var description: String { "\(operation): \(reason)" }
}

/// The one gate before any call into libcrypto: COnDemand loads it on first use, and a forwarding
/// function called after a failed load would abort, so every entry point asks here first.
enum LibCrypto {
    static func require(_ operation: String) throws {
        if let failure = COnDemand_cryptoFailure() {
            throw CryptographyError(operation, String(cString: failure))
        }
    }

    /// The failure of `operation` with the reason at the top of OpenSSL's error queue, which is emptied
    /// so the next failure on this thread does not report a stale reason.
    static func failure(_ operation: String) -> CryptographyError {
        let code = ERR_get_error()
        ERR_clear_error()
        guard code != 0 else { return CryptographyError(operation, "libcrypto gave no reason") }
        var text = [CChar](repeating: 0, count: 256)
        ERR_error_string_n(code, &text, text.count)
        return CryptographyError(operation, String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }

    /// Throws the failure of `operation` unless libcrypto answered 1 (its success).
    static func check(_ result: Int32, _ operation: String) throws {
        guard result == 1 else { throw failure(operation) }
    }
}
