import CCurl
import COnDemand
import Foundation
import OwnThreads
import Synchronization

/// HTTP transfers on libcurl's multi interface, all driven by one thread of their own: hundreds at once
/// cost one thread, and every transfer gets monotonic timestamps, its connection's reuse, timeouts and,
/// when asked, pacing by its client's token bucket.
///
/// Pacing is the loop's own: when a client's bucket is empty the transfer's write callback pauses it,
/// and the loop resumes it once tokens are back. A paced transfer's socket gets a small receive buffer,
/// so that the origin sees the pace instead of the kernel absorbing megabytes first.
public final class TransferLoop: Sendable {
    /// The process's one loop, started by its first transfer: loaders and receivers' realtime fetches
    /// share its thread. Benchmarks may make loops of their own.
    public static let shared = TransferLoop()

    private let core: TransferLoopCore

    /// - Parameter receiveBufferBytes: SO_RCVBUF for paced transfers' sockets.
    public init(receiveBufferBytes: Int = 256 * 1024) {
        core = TransferLoopCore(receiveBuffer: receiveBufferBytes)
        core.start()
    }

    /// Runs one transfer; it always returns a result, with `error` set when it did not complete
    /// (`cancelled` when the calling task is cancelled meanwhile).
    ///
    /// - Parameter receiver: takes each response head and the body while they arrive, and may end the
    ///   transfer; the result's `body` is then nil whatever `bodyLimit` says, the receiver having kept it.
    public func fetch(_ request: TransferRequest, receiver: (any TransferReceiver)? = nil) async -> TransferResult {
        let ticket = FetchTicket(core.ticket())
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                ticket.submit(Submission(request: request, receiver: receiver), to: core) { continuation.resume(returning: $0) }
            }
        } onCancel: {
            ticket.cancel(in: core)
        }
    }

    /// Ends the pool's transfers and closes its connections, on the loop's thread.
    func closePool(_ share: SharePointer) {
        core.closePool(share)
    }

    /// Ends every transfer still running (`cancelled`) and the thread; later fetches are cancelled at once.
    public func stop() {
        core.stop()
    }

    deinit {
        core.stop()
    }
}

/// The loop's state. `incoming` is shared with callers under its lock; everything else belongs to the
/// loop's thread.
final class TransferLoopCore: @unchecked Sendable {
    private struct Incoming {
        var pending: [(UInt64, Submission, @Sendable (TransferResult) -> Void)] = []
        var cancelled: Set<UInt64> = []
        var closedPools: [SharePointer] = []
        var nextTicket: UInt64 = 0
        var stopping = false
    }

    /// Why libcurl cannot be had in this process, or nil: it is opened on first use (COnDemand), here.
    private static let unavailable: String? = COnDemand_curlFailure().map { String(cString: $0) }
    private static let globalInit: Bool = unavailable == nil && curl_global_init(airlab_curl_global_default()) == CURLE_OK
    /// Whether libcurl's functions may be called: it loaded and initialised.
    static var libcurlLoads: Bool { globalInit }

    private let incoming = Mutex(Incoming())
    private let multi: UnsafeMutableRawPointer?
    private let epoch = ContinuousClock.now
    private let receiveBuffer: Int
    private let threadEnded = DispatchSemaphore(value: 0)

    private var active: [UnsafeMutableRawPointer: CurlTransfer] = [:]
    private var byTicket: [UInt64: UnsafeMutableRawPointer] = [:]
    private var buckets: [String: TokenBucket] = [:]

    init(receiveBuffer: Int) {
        multi = Self.globalInit ? curl_multi_init() : nil
        self.receiveBuffer = receiveBuffer
    }

    func start() {
        NamedThread.start("airlab.curl") { [self] in run() }
    }

    /// Names a transfer before it is submitted, so that a cancellation can arrive before it.
    func ticket() -> UInt64 {
        incoming.withLock { state in
            defer { state.nextTicket += 1 }
            return state.nextTicket
        }
    }

    func submit(_ submission: Submission, ticket: UInt64, completion: @escaping @Sendable (TransferResult) -> Void) {
        let accepted = incoming.withLock { state in
            guard !state.stopping else { return false }
            state.pending.append((ticket, submission, completion))
            return true
        }
        guard accepted, let multi else {
            let error = Self.unavailable.map { TransferError.failed(code: -1, message: $0) } ?? .cancelled
            completion(Self.result(of: submission.request, error: error, sent: .now))
            return
        }
        curl_multi_wakeup(multi)
    }

    func cancel(_ ticket: UInt64) {
        incoming.withLock { _ = $0.cancelled.insert(ticket) }
        if let multi { curl_multi_wakeup(multi) }
    }

    func closePool(_ share: SharePointer) {
        incoming.withLock { $0.closedPools.append(share) }
        if let multi { curl_multi_wakeup(multi) }
    }

    func stop() {
        let wait = incoming.withLock { state -> Bool in
            guard !state.stopping else { return false }
            state.stopping = true
            return true
        }
        guard wait, let multi else { return }
        curl_multi_wakeup(multi)
        threadEnded.wait()
    }

    func seconds(_ instant: ContinuousClock.Instant) -> Double {
        PacingClock.seconds(epoch.duration(to: instant))
    }

    // MARK: - Buckets, for the transfers' callbacks

    func take(_ count: Int, client: String, now: Double) -> Bool {
        buckets[client]?.take(count, now: now) ?? true
    }

    func delay(client: String, now: Double) -> Double {
        buckets[client]?.delay(now: now) ?? 0
    }

    // MARK: - The loop's thread

    private func run() {
        defer { threadEnded.signal() }
        guard let multi else { return }
        while true {
            let (arrived, cancelled, closedPools, stopping) = incoming.withLock { state in
                defer {
                    state.pending = []
                    state.cancelled = []
                    state.closedPools = []
                }
                return (state.pending, state.cancelled, state.closedPools, state.stopping)
            }
            if stopping {
                for (_, submission, completion) in arrived { completion(Self.result(of: submission.request, error: .cancelled, sent: .now)) }
                for transfer in Array(active.values) { finish(transfer, error: .cancelled) }
                curl_multi_cleanup(multi)
                return
            }
            for (ticket, submission, completion) in arrived {
                if cancelled.contains(ticket) {
                    completion(Self.result(of: submission.request, error: .cancelled, sent: .now))
                } else {
                    begin(submission, ticket: ticket, completion: completion)
                }
            }
            for ticket in cancelled {
                if let easy = byTicket[ticket], let transfer = active[easy] { finish(transfer, error: .cancelled) }
            }
            for share in closedPools { close(share) }
            var running: Int32 = 0
            _ = curl_multi_perform(multi, &running)
            collectFinished()
            let now = seconds(.now)
            expireFirstBytes(now: now)
            resumeDue(now: now)
            _ = curl_multi_poll(multi, nil, 0, Int32(nextWakeUp(now: now)), nil)
        }
    }

    /// Ends the pool's transfers, whose easy handles then no longer hold the share, and frees the
    /// share, which closes its connections.
    private func close(_ share: SharePointer) {
        for transfer in Array(active.values) where transfer.request.pool?.share == share { finish(transfer, error: .cancelled) }
        curl_share_cleanup(share.raw)
    }

    private func begin(_ submission: Submission, ticket: UInt64, completion: @escaping @Sendable (TransferResult) -> Void) {
        let request = submission.request
        if let refusal = request.refusal {
            completion(Self.result(of: request, error: .invalidRequest(refusal), sent: .now))
            return
        }
        if let pool = request.pool {
            // Checked here, on the thread that frees a closed pool's share, so a freed one is never handed to libcurl.
            guard !pool.isClosed else { return completion(Self.result(of: request, error: .cancelled, sent: .now)) }
            guard pool.share != nil else {
                return completion(Self.result(of: request, error: .failed(code: -1, message: "libcurl could not make a connection pool"), sent: .now))
            }
        }
        guard let multi, let easy = curl_easy_init() else {
            completion(Self.result(of: request, error: .failed(code: -1, message: "libcurl could not make a transfer"), sent: .now))
            return
        }
        let transfer = CurlTransfer(request: request, receiver: submission.receiver, ticket: ticket, easy: easy, loop: self, completion: completion)
        if let pacing = request.pacing, buckets[pacing.client]?.rate != Double(pacing.bytesPerSecond) {
            let rate = Double(pacing.bytesPerSecond)
            buckets[pacing.client] = TokenBucket(rate: rate, burst: TokenBucket.defaultBurst(rate: rate), now: transfer.sentSeconds)
        }
        guard transfer.configure(receiveBuffer: receiveBuffer), curl_multi_add_handle(multi, easy) == CURLM_OK else {
            curl_easy_cleanup(easy)
            completion(Self.result(of: request, error: .failed(code: -1, message: "libcurl refused the transfer's options"), sent: transfer.sent))
            return
        }
        active[easy] = transfer
        byTicket[ticket] = easy
    }

    private func collectFinished() {
        guard let multi else { return }
        var left: Int32 = 0
        while let message = curl_multi_info_read(multi, &left) {
            guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle, let transfer = active[easy] else { continue }
            finish(transfer, code: airlab_curl_message_result(message))
        }
    }

    private func expireFirstBytes(now: Double) {
        for transfer in Array(active.values) where transfer.firstByte == nil {
            guard let limit = transfer.request.firstByteTimeout else { continue }
            if now - transfer.sentSeconds >= PacingClock.seconds(limit) { finish(transfer, error: .firstByteTimeout) }
        }
    }

    private func resumeDue(now: Double) {
        for transfer in Array(active.values) {
            guard let resumeAt = transfer.resumeAt, resumeAt <= now else { continue }
            transfer.resumeAt = nil
            transfer.ledger.resumed(at: now)
            // libcurl hands the held chunk to the write callback from inside this call, which may pause again.
            _ = curl_easy_pause(transfer.easy, airlab_curl_pause_continue())
        }
    }

    /// Milliseconds to wait at most: until the next resume or first-byte deadline, and never over a
    /// second so a stop is seen soon even when libcurl forgets to wake.
    private func nextWakeUp(now: Double) -> Int {
        var wake = 1.0
        for transfer in active.values {
            if let resumeAt = transfer.resumeAt { wake = min(wake, resumeAt - now) }
            if transfer.firstByte == nil, let limit = transfer.request.firstByteTimeout {
                wake = min(wake, transfer.sentSeconds + PacingClock.seconds(limit) - now)
            }
        }
        return max(0, Int((wake * 1000).rounded(.up)))
    }

    private func finish(_ transfer: CurlTransfer, code: CURLcode) {
        let message = String(cString: transfer.errorBuffer)
        let error: TransferError?
        switch code {
        case CURLE_OK: error = nil
        case CURLE_WRITE_ERROR where transfer.endedByReceiver: error = .endedByReceiver
        case CURLE_WRITE_ERROR where transfer.overLimit: error = .bodyTooLarge(limit: transfer.request.bodyLimit ?? 0)
        case CURLE_COULDNT_CONNECT: error = .cannotConnect(message.isEmpty ? String(cString: curl_easy_strerror(code)) : message)
        case CURLE_COULDNT_RESOLVE_HOST: error = .unknownHost(message.isEmpty ? String(cString: curl_easy_strerror(code)) : message)
        case CURLE_TOO_MANY_REDIRECTS: error = .tooManyRedirects
        case CURLE_OPERATION_TIMEDOUT:
            // libcurl has one code for its three timeouts; its message (7.88) tells which tripped.
            if message.contains("too slow") {
                error = .lowSpeed
            } else if message.hasPrefix("Connection time") || message.hasPrefix("Failed to connect") {
                error = .connectTimeout
            } else {
                error = .totalTimeout
            }
        case CURLE_PARTIAL_FILE: error = .partialBody(message)
        case CURLE_RECV_ERROR where transfer.firstByte != nil: error = .partialBody(message)
        default: error = .failed(code: Int(code.rawValue), message: message.isEmpty ? String(cString: curl_easy_strerror(code)) : message)
        }
        finish(transfer, error: error)
    }

    private func finish(_ transfer: CurlTransfer, error: TransferError?) {
        let easy = transfer.easy
        let finished = ContinuousClock.now
        transfer.ledger.finished(at: seconds(finished))
        var status = 0
        var connects = 0
        var connectMicroseconds: curl_off_t = 0
        _ = airlab_curl_info_long(easy, CURLINFO_RESPONSE_CODE, &status)
        _ = airlab_curl_info_long(easy, CURLINFO_NUM_CONNECTS, &connects)
        _ = airlab_curl_info_offset(easy, CURLINFO_CONNECT_TIME_T, &connectMicroseconds)
        var redirects = 0
        _ = airlab_curl_info_long(easy, CURLINFO_REDIRECT_COUNT, &redirects)
        var effective: UnsafeMutablePointer<CChar>?
        _ = airlab_curl_info_pointer(easy, CURLINFO_EFFECTIVE_URL, &effective)
        let finalURL = effective.map { String(cString: $0) } ?? transfer.request.url
        if let multi { curl_multi_remove_handle(multi, easy) }
        curl_easy_cleanup(easy)
        active[easy] = nil
        byTicket[transfer.ticket] = nil
        let result = TransferResult(
            url: transfer.request.url, finalURL: finalURL, redirects: redirects, status: status > 0 ? status : nil,
            headers: transfer.headers.map { TransferResult.HeaderField(name: $0.name, value: $0.value) }, error: error, bytes: transfer.bytes, body: transfer.body,
            sent: transfer.sent, firstByte: transfer.firstByte, lastByte: transfer.lastByte, finished: finished,
            connectSeconds: Double(connectMicroseconds) / 1e6, connectionReused: status > 0 && connects == 0,
            originLimitedSeconds: transfer.ledger.originLimitedSeconds, receiverLimitedSeconds: transfer.ledger.receiverLimitedSeconds)
        transfer.completion(result)
    }

    static func result(of request: TransferRequest, error: TransferError, sent: ContinuousClock.Instant) -> TransferResult {
        TransferResult(
            url: request.url, finalURL: request.url, redirects: 0, status: nil, headers: [], error: error, bytes: 0, body: nil, sent: sent, firstByte: nil, lastByte: nil, finished: sent,
            connectSeconds: 0, connectionReused: false, originLimitedSeconds: 0, receiverLimitedSeconds: 0)
    }
}

/// A transfer as the caller hands it over: the request and who takes its response as it arrives.
struct Submission: Sendable {
    var request: TransferRequest
    var receiver: (any TransferReceiver)?
}
