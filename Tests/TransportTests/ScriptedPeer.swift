import Foundation
import TestSupport

/// A TCP server on 127.0.0.1 that answers its first connection's request with fixed bytes, however
/// wrong they are as HTTP, then keeps the connection open until `stop()`: what a broken or hostile
/// receiver sends, which no real HTTP server would.
final class ScriptedPeer: @unchecked Sendable {
    let port: UInt16
    private let listener: Int32
    private let finished = DispatchSemaphore(value: 0)
    private let stopping = DispatchSemaphore(value: 0)

    /// - Parameter answer: written once the request's head is in; `repeating` then goes on being written
    ///   (a body without end) until the client leaves.
    init(answer: Data, repeating: Data? = nil) throws {
        listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard listener >= 0 else { throw TestSupportError("socket() failed: errno \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let listener = listener
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, length) == 0 && getsockname(listener, $0, &length) == 0 && listen(listener, 4) == 0
            }
        }
        guard bound else {
            Glibc.close(listener)
            throw TestSupportError("listening on 127.0.0.1 failed: errno \(errno)")
        }
        port = UInt16(bigEndian: address.sin_port)
        let thread = Thread { [finished, stopping] in
            defer { finished.signal() }
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { return }
            defer { Glibc.close(connection) }
            var head: [UInt8] = []
            var byte: UInt8 = 0
            while !head.suffix(4).elementsEqual("\r\n\r\n".utf8), recv(connection, &byte, 1, 0) == 1 { head.append(byte) }
            guard Self.write(answer, to: connection) else { return }
            if let repeating {
                while Self.write(repeating, to: connection) {}
                return
            }
            stopping.wait()
        }
        thread.start()
    }

    private static func write(_ data: Data, to connection: Int32) -> Bool {
        data.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let sent = send(connection, bytes.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
                guard sent > 0 else { return false }
                offset += sent
            }
            return true
        }
    }

    var url: String { "http://127.0.0.1:\(port)/events" }

    /// Closes the connection and the listener, once the thread serving them has let go.
    func stop() {
        stopping.signal()
        shutdown(listener, Int32(SHUT_RDWR))
        finished.wait()
        Glibc.close(listener)
    }
}
