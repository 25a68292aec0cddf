import Foundation
import Glibc
import Synchronization

/// A TCP proxy on 127.0.0.1 that delays every byte by a fixed time in each direction: the slow link
/// of a group test, since this machine has no netem qdisc.
///
/// Each connection gets a reader and a writer thread per direction; the writer holds each piece
/// until its due time (arrival + delay), so order is kept and throughput is not limited. The
/// threads end when either side closes or `stop()` runs; connections last at most a test.
public final class DelayingProxy: @unchecked Sendable {
    public let port: UInt16
    public let delay: Double
    private let listener: Int32
    private let target: UInt16
    private let sockets = Mutex<[Int32]>([])
    private let stopped = Mutex(false)

    public init(to target: UInt16, delaySeconds delay: Double) throws {
        self.target = target
        self.delay = delay
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard listener >= 0 else { throw RawSocketError("socket() failed: errno \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(listener, 64) == 0 else {
            Glibc.close(listener)
            throw RawSocketError("bind() or listen() failed: errno \(errno)")
        }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        port = UInt16(bigEndian: actual.sin_port)
        self.listener = listener
        let acceptor = Thread { [self] in acceptLoop() }
        acceptor.start()
    }

    /// Closes the listener and every proxied connection.
    public func stop() {
        stopped.withLock { $0 = true }
        shutdown(listener, Int32(SHUT_RDWR))
        Glibc.close(listener)
        for descriptor in sockets.withLock({ $0 }) { shutdown(descriptor, Int32(SHUT_RDWR)) }
    }

    deinit {
        for descriptor in sockets.withLock({ $0 }) { Glibc.close(descriptor) }
    }

    private static func connect(port: UInt16) -> Int32? {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return nil }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else {
            Glibc.close(descriptor)
            return nil
        }
        return descriptor
    }

    private func acceptLoop() {
        while !stopped.withLock({ $0 }) {
            let client = accept(listener, nil, nil)
            guard client >= 0 else { return }
            guard let upstream = Self.connect(port: target) else {
                Glibc.close(client)
                continue
            }
            sockets.withLock { $0 += [client, upstream] }
            pump(from: client, to: upstream)
            pump(from: upstream, to: client)
        }
    }

    /// Copies `source` to `destination`, each piece `delay` after it was read.
    private func pump(from source: Int32, to destination: Int32) {
        let pieces = Mutex<[(due: Double, data: [UInt8])]>([])
        let ended = Mutex(false)
        let wake = NSCondition()
        let delay = delay
        let reader = Thread {
            var buffer = [UInt8](repeating: 0, count: 16 * 1024)
            while true {
                let count = buffer.withUnsafeMutableBytes { recv(source, $0.baseAddress, $0.count, 0) }
                wake.lock()
                if count <= 0 {
                    ended.withLock { $0 = true }
                } else {
                    let due = ProcessInfo.processInfo.systemUptime + delay
                    pieces.withLock { $0.append((due, Array(buffer[0..<count]))) }
                }
                wake.signal()
                wake.unlock()
                if count <= 0 { return }
            }
        }
        let writer = Thread {
            while true {
                wake.lock()
                while pieces.withLock({ $0.isEmpty }) && !ended.withLock({ $0 }) { wake.wait() }
                let next = pieces.withLock { $0.isEmpty ? nil : $0.removeFirst() }
                wake.unlock()
                guard let next else {
                    shutdown(destination, Int32(SHUT_WR))
                    return
                }
                // The link's delay: a piece leaves when it is due.
                let wait = next.due - ProcessInfo.processInfo.systemUptime
                if wait > 0 { Thread.sleep(forTimeInterval: wait) }
                var offset = 0
                while offset < next.data.count {
                    let sent = next.data[offset...].withUnsafeBytes { send(destination, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                    guard sent > 0 else {
                        shutdown(source, Int32(SHUT_RDWR))
                        return
                    }
                    offset += sent
                }
            }
        }
        reader.start()
        writer.start()
    }
}
