import ChildProcess
import Foundation

/// A real HTTP server on 127.0.0.1 (Python's http.server) serving one folder, for tests that fetch.
///
/// Started on port 0 so tests never collide; the port is read from the server's first line of output.
/// Call `stop()` in a `defer`: the process is killed by pid even when the test fails.
public final class TestHTTPServer: @unchecked Sendable {
    public let root: URL
    public let port: Int
    private let process: ChildProcess

    @available(*, noasync, message: "it blocks: call it from a thread of its own, not from async code")
    public init(serving root: URL) throws {
        guard let script = Bundle.module.url(forResource: "serve", withExtension: "py", subdirectory: "Resources") else {
            throw TestSupportError("serve.py is missing from TestSupport's resources")
        }
        // Standard error to /dev/null, not the test runner's streams: a server outliving a crashed test
        // must not hold them open.
        let process = try ChildProcess(
            ["/usr/bin/env", "python3", "-u", script.path, root.path], standardOutput: .pipe, standardError: .null)

        // Blocks until the server prints its port or exits: readiness by its own report, not by a sleep.
        let text = process.readLine() ?? ""
        guard text.hasPrefix("PORT "), let port = Int(text.dropFirst(5)) else {
            process.terminate(grace: 0)
            throw TestSupportError("the test HTTP server did not start: '\(text)'")
        }
        process.discardOutput()
        self.root = root
        self.port = port
        self.process = process
    }

    public var baseURL: URL {
        URL(string: "http://127.0.0.1:\(port)/")!
    }

    public func url(_ path: String) -> URL {
        URL(string: path, relativeTo: baseURL)!.absoluteURL
    }

    public func stop() {
        process.terminate(grace: 0)
    }

    deinit {
        stop()
    }
}

public struct TestSupportError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
