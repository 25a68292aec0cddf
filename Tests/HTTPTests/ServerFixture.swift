import Foundation
import HTTP
import Synchronization
import TestSupport

/// Starts a real `HTTPServer` on 127.0.0.1, a free port, for one test, and runs real clients against it.
struct ServerFixture {
    let server: HTTPServer

    init(
        _ configuration: HTTPServerConfiguration = HTTPServerConfiguration(),
        handler: @escaping @Sendable (HTTPRequest) async -> HTTPResponse
    ) throws {
        server = HTTPServer(configuration: configuration, handler: handler)
        try server.start()
    }

    init(_ configuration: HTTPServerConfiguration = HTTPServerConfiguration(), responder: any HTTPResponder) throws {
        server = HTTPServer(configuration: configuration, responder: responder)
        try server.start()
    }

    var port: UInt16 { server.port }

    func url(_ pathAndQuery: String) -> String {
        "http://127.0.0.1:\(port)\(pathAndQuery)"
    }

    /// `curl ARGUMENTS…`, off the cooperative pool; `--max-time` bounds every call.
    func curl(_ arguments: [String]) async throws -> CurlResult {
        let result = try await BlockingWork.run {
            try CommandRunner.run(
                executableURL: URL(fileURLWithPath: "/usr/bin/env"), ["curl", "--silent", "--show-error", "--max-time", "20"] + arguments)
        }
        return CurlResult(status: result.status, stdout: result.stdout, stderr: result.stderr)
    }

    func connect(receiveTimeoutSeconds: Int = 10) async throws -> RawSocket {
        let port = port
        return try await BlockingWork.run { try RawSocket(port: port, receiveTimeoutSeconds: receiveTimeoutSeconds) }
    }

    /// Connects and sends `bytes` in one blocking call, as clients do: a connection's first request
    /// must be complete within the request timeout of its accept, and on a busy machine two calls can be
    /// seconds apart.
    func connect(sending bytes: String, receiveTimeoutSeconds: Int = 10) async throws -> RawSocket {
        let port = port
        return try await BlockingWork.run {
            let socket = try RawSocket(port: port, receiveTimeoutSeconds: receiveTimeoutSeconds)
            do {
                try socket.send(bytes)
            } catch {
                socket.close()
                throw error
            }
            return socket
        }
    }

    /// One request of a conversation and when its answer is complete.
    struct Exchange: Sendable {
        var request: Data
        var answered: @Sendable (Data) -> Bool

        init(_ request: Data, answered: @escaping @Sendable (Data) -> Bool) {
            self.request = request
            self.answered = answered
        }

        /// A request in text whose answer is complete once it contains `marker`.
        init(_ request: String, answeredWith marker: String) {
            self.init(Data(request.utf8)) { String(decoding: $0, as: UTF8.self).contains(marker) }
        }
    }

    /// Connects and holds a conversation on the one connection in one blocking call: each request goes
    /// out once the answer to the one before is in, as a client sends it. The answers come back in
    /// order, each as far as it was read (empty when the server closed or the read timed out).
    ///
    /// One call rather than one per request: between two calls the test's task waits for the
    /// cooperative pool, which at the start of the suite is busy for half a minute, long enough for the
    /// server's idle timeout to close the connection before the next request is sent (CI run 31).
    func converse(_ exchanges: [Exchange], receiveTimeoutSeconds: Int = 10) async throws -> [Data] {
        let port = port
        return try await BlockingWork.run {
            let socket = try RawSocket(port: port, receiveTimeoutSeconds: receiveTimeoutSeconds)
            defer { socket.close() }
            var answers: [Data] = []
            for exchange in exchanges {
                try socket.send(exchange.request)
                answers.append(socket.read(until: exchange.answered))
            }
            return answers
        }
    }

    /// Polls `condition` every 20 ms, up to `attempts` times; readiness is observed, never assumed.
    func eventually(attempts: Int = 500, _ condition: () -> Bool) async throws -> Bool {
        for _ in 0..<attempts {
            if condition() { return true }
            try await Task.sleep(for: .milliseconds(20))
        }
        return condition()
    }

    func stop() {
        server.stop()
    }
}

struct CurlResult: Sendable {
    var status: Int32
    var stdout: String
    var stderr: String
}

/// A value a test shares with its handlers, which run on other threads.
final class Shared<Value: Sendable>: Sendable {
    private let value: Mutex<Value>

    init(_ value: Value) {
        self.value = Mutex(value)
    }

    var current: Value {
        value.withLock { $0 }
    }

    func set(_ newValue: Value) {
        value.withLock { $0 = newValue }
    }

    func update(_ change: (inout Value) -> Void) {
        value.withLock { change(&$0) }
    }
}

extension ServerFixture {
    /// Runs `curl ARGUMENTS…` and reads its output as it arrives until `done` holds for it, curl
    /// exits or its `--max-time` passes; then ends curl. For responses that never end by themselves.
    func curlStreaming(_ arguments: [String], until done: @escaping @Sendable (String) -> Bool) async throws -> String {
        try await BlockingWork.run {
            let curl = try ChildProcess(
                ["/usr/bin/env", "curl", "--silent", "--no-buffer", "--max-time", "20"] + arguments, standardOutput: .pipe,
                standardError: .null)
            defer { curl.terminate(grace: 0) }
            // Line by line, each with its newline, as curl passes the stream on.
            var received = ""
            while !done(received), let line = curl.readLine() {
                received += line + "\n"
            }
            return received
        }
    }
}
