import Foundation

/// A numeric IPv4 or IPv6 address and port, as the `struct sockaddr` libmicrohttpd binds to.
struct SocketAddress {
    private var storage = sockaddr_storage()
    let isIPv6: Bool

    init(_ address: String, port: UInt16) throws {
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

    mutating func withSockaddr<Result>(_ body: (UnsafePointer<sockaddr>) -> Result) -> Result {
        withUnsafeBytes(of: &storage) { body($0.baseAddress!.assumingMemoryBound(to: sockaddr.self)) }
    }
}
