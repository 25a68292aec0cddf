import CMicroHTTPD
import Foundation

/// What libmicrohttpd made of a request's Digest credentials.
enum CredentialVerdict: Equatable, Sendable {
    case accepted
    /// Missing, malformed, for another user or realm, or a wrong password.
    case refused
    /// Right in form but for a nonce that expired or that this server did not make for this method
    /// and path (libmicrohttpd 0.9.75 binds each nonce to both, so a client that reuses a nonce for
    /// the next path lands here too): the challenge says `stale=true`, and a client that knows the
    /// password retries with the new nonce without asking its user.
    case staleNonce
}

/// The random bytes libmicrohttpd mixes into every nonce it makes, so that nonces cannot be predicted
/// and one run of the server refuses another run's. libmicrohttpd keeps only the pointer: the bytes
/// live as long as this object, which outlives the daemon.
final class NonceSeed: @unchecked Sendable {
    let bytes: UnsafeMutableRawBufferPointer

    init(count: Int = 32) {
        bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: count, alignment: 1)
        // On Linux this draws from getrandom(2), the kernel's generator.
        var generator = SystemRandomNumberGenerator()
        for index in bytes.indices {
            bytes[index] = UInt8.random(in: .min ... .max, using: &generator)
        }
    }

    deinit {
        bytes.deallocate()
    }
}

/// Checking credentials and challenging for them, on the polling thread, with libmicrohttpd's own
/// Digest code.
extension ServerCore {
    /// Seconds a nonce stays good. Past it a client gets `stale=true` and answers the new nonce
    /// without asking its user again; five minutes keeps replays short and re-challenges rare.
    static let nonceTimeoutSeconds: UInt32 = 300
    /// libmicrohttpd stores each nonce it hands out in a table of this many slots and refuses a nonce
    /// whose slot a later one took (as stale). Its default of 4 would make a handful of senders
    /// evict each other's nonces; a receiver seldom has more than a few, so 256 leaves ample room.
    static let nonceSlots: UInt32 = 256
    /// libmicrohttpd 0.9.75 sends `opaque` without checking what comes back, so any constant does.
    private static let opaque = "airlab"

    /// The verdict on `context`'s credentials, or nil when its path needs none.
    func credentialVerdict(for context: RequestContext) -> CredentialVerdict? {
        guard let authentication = configuration.authentication, authentication.protects(context.path) else { return nil }
        let result = MHD_digest_auth_check2(
            context.connection, authentication.realm, authentication.username, authentication.password,
            Self.nonceTimeoutSeconds, .DIGEST_ALG_MD5)
        switch result {
        case Int32(MHD_Result.YES.rawValue): return .accepted
        case MHD_INVALID_NONCE: return .staleNonce
        default: return .refused
        }
    }

    /// Queues a 401 whose `WWW-Authenticate` challenge libmicrohttpd writes with a fresh nonce.
    ///
    /// - Parameter closing: the request announced a body that will not be read, so the connection
    ///   cannot carry another request and the client is told so.
    func queueChallenge(_ verdict: CredentialVerdict, for context: RequestContext, closing: Bool) -> Bool {
        guard let authentication = configuration.authentication else { return false }
        let body = Data("This server needs a password: HTTP Digest, realm \"\(authentication.realm)\".\n".utf8)
        let response = body.withUnsafeBytes { bytes in
            MHD_create_response_from_buffer(bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), .RESPMEM_MUST_COPY)
        }
        guard let response else { return false }
        defer { MHD_destroy_response(response) }
        _ = MHD_add_response_header(response, "Content-Type", "text/plain; charset=utf-8")
        ServerCore.addDate(to: response)
        if closing {
            _ = MHD_add_response_header(response, "Connection", "close")
        }
        let stale = Int32((verdict == .staleNonce ? MHD_Result.YES : MHD_Result.NO).rawValue)
        return MHD_queue_auth_fail_response2(
            context.connection, authentication.realm, Self.opaque, response, stale, .DIGEST_ALG_MD5) == .YES
    }
}
