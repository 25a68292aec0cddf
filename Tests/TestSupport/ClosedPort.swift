import Foundation

/// A port on 127.0.0.1 that refuses connections for as long as this lives: bound, never listening.
///
/// A stopped server's port is no such thing: the kernel may hand it to the next test that asks for
/// any free port, and a connection meant to be refused then reaches that test's server.
public final class ClosedPort: @unchecked Sendable {
    public let port: UInt16
    private let descriptor: Int32

    public init() throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw TestSupportError("socket() failed: errno \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let descriptor = descriptor
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0 }
        }
        guard bound else {
            Glibc.close(descriptor)
            throw TestSupportError("binding a port on 127.0.0.1 failed: errno \(errno)")
        }
        port = UInt16(bigEndian: address.sin_port)
    }

    deinit {
        Glibc.close(descriptor)
    }
}
