import Foundation

/// Which of this machine's addresses a receiver reaches it at: the one its packets would leave from.
public enum LocalRoute {
    /// The local numeric address for traffic to `receiver`: loopback for a receiver on loopback,
    /// otherwise the source address the kernel picks for it (a UDP "connect" sends nothing).
    public static func address(toward receiver: ReceiverAddress) -> String? {
        if receiver.isLoopback { return receiver.host == "::1" ? "::1" : "127.0.0.1" }
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_DGRAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(receiver.host, String(receiver.port), &hints, &list) == 0, let info = list else { return nil }
        defer { freeaddrinfo(list) }
        let descriptor = socket(info.pointee.ai_family, info.pointee.ai_socktype, 0)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        guard connect(descriptor, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 else { return nil }
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let named = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard named == 0 else { return nil }
        var text = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        let converted = withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                getnameinfo($0, length, &text, socklen_t(text.count), nil, 0, NI_NUMERICHOST)
            }
        }
        guard converted == 0 else { return nil }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
