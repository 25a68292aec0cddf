import Foundation
import HTTP
import SenderProtocol
import Synchronization

/// The inputs one participant sends its group, posted one at a time in the order they were made, on
/// a thread of their own over one kept-alive connection (reopened when the host closed it).
///
/// The coordinator's rules assume a participant's inputs arrive in order (a suspension ends after it
/// began); one queue per participant is what keeps that true over HTTP.
final class GroupOutbox: Sendable {
    private struct State {
        var queue: [GroupInputMessage] = []
        var finished = false
        var then: (@Sendable () -> Void)?
    }

    private let state = Mutex(State())
    private let wake = NSCondition()
    let host: String
    let port: UInt16
    let path: String
    let timeout: Double

    /// At most this many inputs wait: a host that stopped answering cannot make the queue grow without end.
    static let limit = 1024

    init(host: String, port: UInt16, path: String, timeout: Double) {
        self.host = host
        self.port = port
        self.path = path
        self.timeout = timeout
        let thread = Thread { [self] in run() }
        thread.stackSize = 1 << 20
        thread.start()
    }

    func post(_ message: GroupInputMessage) {
        state.withLock { state in
            guard !state.finished, state.queue.count < Self.limit else { return }
            state.queue.append(message)
        }
        wake.lock()
        wake.signal()
        wake.unlock()
    }

    /// Sends what is queued, then runs `then` and stops.
    func finish(then: @escaping @Sendable () -> Void) {
        state.withLock { state in
            state.finished = true
            state.then = then
        }
        wake.lock()
        wake.signal()
        wake.unlock()
    }

    private func run() {
        var connection: HTTPClientConnection?
        while true {
            let (next, done) = state.withLock { state -> (GroupInputMessage?, (@Sendable () -> Void)??) in
                if !state.queue.isEmpty { return (state.queue.removeFirst(), nil) }
                return (nil, state.finished ? .some(state.then) : nil)
            }
            if let next {
                connection = deliver(next, on: connection)
                continue
            }
            if let done {
                connection?.close()
                done?()
                return
            }
            wake.lock()
            if state.withLock({ $0.queue.isEmpty && !$0.finished }) { wake.wait(until: Date(timeIntervalSinceNow: 1)) }
            wake.unlock()
        }
    }

    /// Posts one input, once more on a fresh connection if the kept one had closed; an input the host
    /// cannot take is dropped (the host is gone, or refused it), as a network would.
    private func deliver(_ message: GroupInputMessage, on kept: HTTPClientConnection?) -> HTTPClientConnection? {
        let request = HTTPClientRequest(method: "POST", target: path, headers: ["Content-Type": "application/json"], body: WireJSON.data(message))
        var connection = kept
        for _ in 0..<2 {
            do throws(HTTPClientError) {
                let open: HTTPClientConnection
                if let connection { open = connection } else { open = try HTTPClientConnection(host: host, port: port, timeout: timeout) }
                connection = open
                _ = try open.send(request)
                if open.isReusable { return open }
                open.close()
                return nil
            } catch {
                connection?.close()
                connection = nil
            }
        }
        return nil
    }
}
