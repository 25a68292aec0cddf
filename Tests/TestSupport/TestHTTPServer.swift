import Foundation

/// A real HTTP server on 127.0.0.1 (Python's http.server) serving one folder, for tests that fetch.
///
/// Started on port 0 so tests never collide; the port is read from the server's first line of output.
/// Call `stop()` in a `defer`: the process is killed by pid even when the test fails.
public final class TestHTTPServer: @unchecked Sendable {
    public let root: URL
    public let port: Int
    private let process: Process

    public init(serving root: URL) throws {
        guard let script = Bundle.module.url(forResource: "serve", withExtension: "py", subdirectory: "Resources") else {
            throw TestSupportError("serve.py is missing from TestSupport's resources")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-u", script.path, root.path]
        let output = Pipe()
        process.standardOutput = output
        // Not the test runner's own streams: a server outliving a crashed test must not hold them open.
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()

        // Blocks until the server prints its port or exits: readiness by its own report, not by a sleep.
        var line = Data()
        while true {
            let byte = output.fileHandleForReading.readData(ofLength: 1)
            if byte.isEmpty || byte == Data("\n".utf8) { break }
            line.append(byte)
        }
        let text = String(decoding: line, as: UTF8.self)
        guard text.hasPrefix("PORT "), let port = Int(text.dropFirst(5)) else {
            process.terminate()
            throw TestSupportError("the test HTTP server did not start: '\(text)'")
        }
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
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    deinit {
        stop()
    }
}

public struct TestSupportError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
