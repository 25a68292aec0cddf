import Foundation

/// A numeric IPv4 or IPv6 address and port, as the `struct sockaddr` libmicrohttpd binds to.
struct SocketAddress {
    private var storage = sockaddr_storage()
    let isIPv6: Bool
    let host: String
    let port: UInt16

    init(_ address: String, port: UInt16) throws {
        host = address
        self.port = port
        var v4 = sockaddr_in()
        if inet_pton(AF_INET, address, &v4.sin_addr) == 1 {
            v4.sin_family = sa_family_t(AF_INET)
            v4.sin_port = port.bigEndian
            withUnsafeMutableBytes(of: &storage) { $0.storeBytes(of: v4, as: sockaddr_in.self) }
            isIPv6 = false
            return
        }
        var v6 = sockaddr_in6()
        if inet_pton(AF_INET6, address, &v6.sin6_addr) == 1 {
            v6.sin6_family = sa_family_t(AF_INET6)
            v6.sin6_port = port.bigEndian
            withUnsafeMutableBytes(of: &storage) { $0.storeBytes(of: v6, as: sockaddr_in6.self) }
            isIPv6 = true
            return
        }
        throw HTTPServerError.invalidAddress(address)
    }

    /// The size of the `struct sockaddr` it is.
    var length: socklen_t {
        socklen_t(isIPv6 ? MemoryLayout<sockaddr_in6>.size : MemoryLayout<sockaddr_in>.size)
    }

    mutating func withSockaddr<Result>(_ body: (UnsafePointer<sockaddr>) -> Result) -> Result {
        withUnsafeBytes(of: &storage) { body($0.baseAddress!.assumingMemoryBound(to: sockaddr.self)) }
    }

    /// A peer's address as `accept` wrote it, kept to name the connection to libmicrohttpd.
    struct Storage {
        var storage = sockaddr_storage()
        var length = socklen_t(0)

        /// The port; 0 when it is neither IPv4 nor IPv6.
        var port: UInt16 {
            var storage = storage
            return withUnsafeBytes(of: &storage) { bytes -> UInt16 in
                switch Int32(bytes.load(as: sockaddr.self).sa_family) {
                case AF_INET: UInt16(bigEndian: bytes.load(as: sockaddr_in.self).sin_port)
                case AF_INET6: UInt16(bigEndian: bytes.load(as: sockaddr_in6.self).sin6_port)
                default: 0
                }
            }
        }

        /// The numeric address, without the port; "" when it is neither IPv4 nor IPv6.
        var host: String {
            var storage = storage
            var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
            return withUnsafeBytes(of: &storage) { bytes -> String in
                switch Int32(bytes.load(as: sockaddr.self).sa_family) {
                case AF_INET:
                    var address = bytes.load(as: sockaddr_in.self).sin_addr
                    guard inet_ntop(AF_INET, &address, &text, socklen_t(text.count)) != nil else { return "" }
                case AF_INET6:
                    var address = bytes.load(as: sockaddr_in6.self).sin6_addr
                    guard inet_ntop(AF_INET6, &address, &text, socklen_t(text.count)) != nil else { return "" }
                default:
                    return ""
                }
                return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            }
        }

        mutating func withSockaddr<Result>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> Result) -> Result {
            let length = length
            return withUnsafeBytes(of: &storage) { body($0.baseAddress!.assumingMemoryBound(to: sockaddr.self), length) }
        }
    }

    /// The port a listening socket is bound to: the chosen one when it asked for 0.
    static func boundPort(of descriptor: Int32) -> UInt16 {
        var bound = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let read = withUnsafeMutableBytes(of: &bound) { bytes in
            getsockname(descriptor, bytes.baseAddress!.assumingMemoryBound(to: sockaddr.self), &length)
        }
        guard read == 0 else { return 0 }
        return withUnsafeBytes(of: &bound) { bytes in
            let family = bytes.load(as: sockaddr.self).sa_family
            if family == sa_family_t(AF_INET6) { return UInt16(bigEndian: bytes.load(as: sockaddr_in6.self).sin6_port) }
            return UInt16(bigEndian: bytes.load(as: sockaddr_in.self).sin_port)
        }
    }
}
