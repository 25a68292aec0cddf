import CCurl
import Foundation

/// One transfer inside the loop: its easy handle and what its callbacks have seen. Only the loop's
/// thread touches it.
final class CurlTransfer {
    let request: TransferRequest
    /// Takes the heads and the body as they arrive, when the caller gave one.
    let receiver: (any TransferReceiver)?
    /// The caller's name for it, by which it is cancelled.
    let ticket: UInt64
    let easy: UnsafeMutableRawPointer
    let completion: @Sendable (TransferResult) -> Void
    let sent: ContinuousClock.Instant
    let sentSeconds: Double
    private unowned let loop: TransferLoopCore
    private var headerList: UnsafeMutablePointer<curl_slist>?
    private var connectTo: UnsafeMutablePointer<curl_slist>?
    let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)

    /// The final response's header fields; a redirect's are dropped at the next status line.
    var headers: [(name: String, value: String)] = []
    /// The status of the response whose header lines are arriving.
    private var status: Int?
    private var headerBytes = 0
    /// Bounds on the header fields kept, so a hostile server cannot grow a result without end.
    static let maximumHeaderFields = 100
    static let maximumHeaderBytes = 16 * 1024

    var firstByte: ContinuousClock.Instant?
    var lastByte: ContinuousClock.Instant?
    var bytes = 0
    var body: Data?
    var ledger = PacingLedger()
    /// Paused by the bucket until then (loop seconds).
    var resumeAt: Double?
    var overLimit = false
    /// Set when the receiver asked for the end: libcurl then reports a write error.
    var endedByReceiver = false

    init(
        request: TransferRequest, receiver: (any TransferReceiver)?, ticket: UInt64, easy: UnsafeMutableRawPointer, loop: TransferLoopCore,
        completion: @escaping @Sendable (TransferResult) -> Void
    ) {
        self.request = request
        self.receiver = receiver
        self.ticket = ticket
        self.easy = easy
        self.loop = loop
        self.completion = completion
        sent = .now
        sentSeconds = loop.seconds(sent)
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        if request.bodyLimit != nil, receiver == nil { body = Data() }
    }

    deinit {
        curl_slist_free_all(headerList)
        curl_slist_free_all(connectTo)
        errorBuffer.deallocate()
    }

    /// Sets every option from the request; false when libcurl refused one.
    func configure(receiveBuffer: Int) -> Bool {
        let context = Unmanaged.passUnretained(self).toOpaque()
        var results: [CURLcode] = [
            airlab_curl_set_string(easy, CURLOPT_URL, request.url),
            airlab_curl_set_string(easy, CURLOPT_PROTOCOLS_STR, "http,https"),
            // A redirect to file: or any other scheme must never be followed.
            airlab_curl_set_string(easy, CURLOPT_REDIR_PROTOCOLS_STR, "http,https"),
            airlab_curl_set_long(easy, CURLOPT_NOSIGNAL, 1),
            airlab_curl_set_pointer(easy, CURLOPT_ERRORBUFFER, errorBuffer),
            airlab_curl_set_long(easy, CURLOPT_CONNECTTIMEOUT_MS, Self.milliseconds(request.connectTimeout)),
            airlab_curl_set_write_callback(easy, CURLOPT_WRITEFUNCTION, Self.write),
            airlab_curl_set_pointer(easy, CURLOPT_WRITEDATA, context),
            airlab_curl_set_write_callback(easy, CURLOPT_HEADERFUNCTION, Self.header),
            airlab_curl_set_pointer(easy, CURLOPT_HEADERDATA, context),
        ]
        switch request.method {
        case .get: break
        case .head: results.append(airlab_curl_set_long(easy, CURLOPT_NOBODY, 1))
        case .post: results += setBody(request.body ?? Data())
        case .put, .delete, .setup, .record, .teardown:
            if let body = request.body { results += setBody(body) }
            results.append(airlab_curl_set_string(easy, CURLOPT_CUSTOMREQUEST, request.method.rawValue))
        }
        if let digest = request.digest {
            results.append(airlab_curl_set_long(easy, CURLOPT_HTTPAUTH, airlab_curl_auth_digest()))
            results.append(airlab_curl_set_string(easy, CURLOPT_USERNAME, digest.username))
            results.append(airlab_curl_set_string(easy, CURLOPT_PASSWORD, digest.password))
        }
        if !request.reusesConnection { results.append(airlab_curl_set_long(easy, CURLOPT_FORBID_REUSE, 1)) }
        if let pool = request.pool {
            if let share = pool.share { results.append(airlab_curl_set_pointer(easy, CURLOPT_SHARE, share.raw)) }
            if let port = pool.localPort {
                // Any host and port of the URL, connected to the pool's local port instead.
                connectTo = curl_slist_append(nil, "::127.0.0.1:\(port)")
                results.append(airlab_curl_set_pointer(easy, CURLOPT_CONNECT_TO, connectTo))
            }
        }
        if let range = request.range { results.append(airlab_curl_set_string(easy, CURLOPT_RANGE, "\(range.lowerBound)-\(range.upperBound)")) }
        if let total = request.totalTimeout { results.append(airlab_curl_set_long(easy, CURLOPT_TIMEOUT_MS, Self.milliseconds(total))) }
        if let lowSpeed = request.lowSpeed {
            results.append(airlab_curl_set_long(easy, CURLOPT_LOW_SPEED_LIMIT, lowSpeed.bytesPerSecond))
            results.append(airlab_curl_set_long(easy, CURLOPT_LOW_SPEED_TIME, lowSpeed.seconds))
        }
        if request.maximumRedirects > 0 {
            results.append(airlab_curl_set_long(easy, CURLOPT_FOLLOWLOCATION, 1))
            results.append(airlab_curl_set_long(easy, CURLOPT_MAXREDIRS, request.maximumRedirects))
        }
        var fields = request.headers.map { "\($0.name): \($0.value)" }
        if request.body != nil || request.method == .post {
            // libcurl would call a body without a type a form, and ask a large one to wait for
            // `100 Continue`; a field without a value is libcurl's way to send neither.
            if !request.headers.contains(where: { $0.name.lowercased() == "content-type" }) { fields.append("Content-Type:") }
            fields.append("Expect:")
        }
        for field in fields {
            headerList = curl_slist_append(headerList, field)
        }
        if let headerList { results.append(airlab_curl_set_pointer(easy, CURLOPT_HTTPHEADER, headerList)) }
        if request.pacing != nil {
            results.append(airlab_curl_set_sockopt_callback(easy, Self.socketOptions))
            results.append(airlab_curl_set_pointer(easy, CURLOPT_SOCKOPTDATA, UnsafeMutableRawPointer(bitPattern: max(4096, receiveBuffer))))
        }
        return results.allSatisfy { $0 == CURLE_OK }
    }

    /// The body to send: its size first, then the bytes, which libcurl copies (and sends again when a
    /// Digest challenge makes it repeat the request).
    private func setBody(_ body: Data) -> [CURLcode] {
        let size = airlab_curl_set_offset(easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count))
        let bytes = body.withUnsafeBytes { buffer in
            // An empty body still needs a pointer, or libcurl would read the body from its read callback.
            withUnsafeBytes(of: UInt8(0)) { empty in
                airlab_curl_set_pointer(easy, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: buffer.baseAddress ?? empty.baseAddress!))
            }
        }
        return [size, bytes]
    }

    // MARK: - Callbacks, on the loop's thread inside libcurl

    private func receive(_ count: Int, from data: UnsafeMutablePointer<CChar>?) -> Int {
        let now = ContinuousClock.now
        let seconds = loop.seconds(now)
        if let pacing = request.pacing, count > 0, !loop.take(count, client: pacing.client, now: seconds) {
            ledger.paused(at: seconds)
            resumeAt = seconds + loop.delay(client: pacing.client, now: seconds)
            return airlab_curl_write_pause()
        }
        ledger.data(at: seconds)
        bytes += count
        lastByte = now
        if let receiver, count > 0, let data {
            guard receiver.receive(body: UnsafeRawBufferPointer(start: data, count: count)) else {
                endedByReceiver = true
                return 0
            }
        }
        if let limit = request.bodyLimit, receiver == nil, count > 0, let data {
            guard (body?.count ?? 0) + count <= limit else {
                overLimit = true
                return 0
            }
            body?.append(UnsafeRawPointer(data).assumingMemoryBound(to: UInt8.self), count: count)
        }
        return count
    }

    /// False when the receiver ends the transfer at this head.
    private func headerArrived(_ line: UnsafeMutablePointer<CChar>?, count: Int) -> Bool {
        if firstByte == nil {
            let now = ContinuousClock.now
            firstByte = now
            ledger.firstByte(at: loop.seconds(now))
        }
        guard let line, count > 0 else { return true }
        let text = String(decoding: UnsafeRawBufferPointer(start: line, count: count), as: UTF8.self)
        if text.hasPrefix("HTTP/") {
            headers = []
            headerBytes = 0
            status = TransferHead.status(ofStatusLine: text)
            return true
        }
        if text == "\r\n" || text == "\n" {
            // The blank line that ends a head. A 1xx head is followed by the real one.
            guard let receiver, let status, status >= 200 else { return true }
            let head = TransferHead(status: status, headers: headers.map { TransferResult.HeaderField(name: $0.name, value: $0.value) })
            guard receiver.receive(head: head) else {
                endedByReceiver = true
                return false
            }
            return true
        }
        headerBytes += count
        guard let colon = text.firstIndex(of: ":"), headers.count < Self.maximumHeaderFields, headerBytes <= Self.maximumHeaderBytes else { return true }
        let name = String(text[..<colon])
        let value = text[text.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines)
        headers.append((name, value))
        return true
    }

    static let write: curl_write_callback = { data, size, count, context in
        guard let context else { return 0 }
        return Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue().receive(size * count, from: data)
    }

    static let header: curl_write_callback = { line, size, count, context in
        guard let context else { return 0 }
        // Any count other than the one handed over makes libcurl end the transfer with a write error.
        return Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue().headerArrived(line, count: size * count) ? size * count : 0
    }

    /// The receive buffer's size travels as the callback's data pointer, so no memory has to live for it.
    static let socketOptions: curl_sockopt_callback = { size, socket, _ in
        _ = airlab_set_receive_buffer(socket, Int32(clamping: Int(bitPattern: size)))
        return CURL_SOCKOPT_OK
    }

    static func milliseconds(_ duration: Duration) -> Int {
        max(1, Int(duration.components.seconds) * 1000 + Int(duration.components.attoseconds / 1_000_000_000_000_000))
    }
}
