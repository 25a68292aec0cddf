import Foundation
import HTTP
import OwnThreads
import SenderProtocol

/// The AirPlay 2 routes of a receiver whose device pairs (docs/pairing.md): pairing on the plain
/// connection, then RTSP and the video routes on the encrypted one.
extension ReceiverResponder {
    static let binaryPlistType = "application/x-apple-binary-plist"
    static let tlvType = "application/octet-stream"

    /// The pairing routes; a 404 on a receiver whose device does not pair. An exchange runs on a thread
    /// of its own: it does SRP and key agreement, and the one that ends a PIN pairing writes the
    /// receiver's pairings to disk, which must not hold up the cooperative pool.
    func pair(_ route: Route, _ request: HTTPRequest) async throws(ProtocolError) -> HTTPResponse {
        guard let pairing = core.pairing else {
            throw ProtocolError(status: 404, "\(core.configuration.name) is an AirPlay 1 device: it does not pair")
        }
        let peer = request.channel?.peer ?? "a sender"
        let exchange: (answer: [UInt8], log: String?, failed: Bool)
        let (body, connection, channel) = ([UInt8](request.body), request.connection, request.channel)
        switch route {
        case .pairPinStart:
            // A real receiver shows its PIN now; airlabd logs it.
            core.log("\(core.configuration.name): pairing PIN \(pairing.pin) asked for by \(peer)")
            return HTTPResponse(status: 200)
        case .pairSetup:
            exchange = await BlockingCall.run { pairing.pairSetup(body, on: connection, channel: channel, peer: peer) }
        default:
            exchange = await BlockingCall.run { pairing.pairVerify(body, on: connection, channel: channel, peer: peer) }
        }
        if let line = exchange.log { core.log("\(core.configuration.name): \(line)") }
        var headers: HTTPHeaders = ["Content-Type": Self.tlvType]
        // A failed exchange ends with its HAP error, and the connection with it, as accessories do.
        if exchange.failed { headers.set("Connection", "close") }
        return HTTPResponse(status: 200, headers: headers, body: Data(exchange.answer))
    }

    /// The controllers paired by PIN: listed (`GET /pairings`) or one removed (`DELETE /pairings/ID`),
    /// only on a connection an admin controller verified, as HAP has it.
    func pairings(_ route: Route, _ request: HTTPRequest) async throws(ProtocolError) -> HTTPResponse {
        guard let pairing = core.pairing else {
            throw ProtocolError(status: 404, "\(core.configuration.name) is an AirPlay 1 device: it keeps no pairings")
        }
        guard pairing.pairing(of: request.connection) == .verified, let controller = pairing.verifiedController(of: request.connection),
              pairing.controllers.first(where: { $0.identifier == controller })?.isAdmin == true
        else {
            throw ProtocolError(status: 403, "pairings are listed and removed only on a connection an admin controller verified (pair-verify)")
        }
        guard route == .pairing else {
            let list = PairingList(controllers: pairing.controllers.map { controller in
                PairingList.Controller(
                    identifier: controller.identifier, publicKey: controller.publicKey.rawBytes,
                    admin: controller.isAdmin)
            })
            return json(list)
        }
        let identifier = String(request.path.dropFirst("/pairings/".count)).removingPercentEncoding ?? ""
        // Removing one rewrites the pairings file: on a thread of its own, as the last pairing's write.
        guard try await BlockingCall.run({ () throws(ProtocolError) -> Bool in try pairing.removeController(identifier) }) else {
            throw ProtocolError(status: 404, "no controller '\(identifier.prefix(100))' is paired with \(core.configuration.name)")
        }
        core.log("\(core.configuration.name): the pairing of \(identifier) was removed by \(controller)")
        return HTTPResponse(status: 200)
    }

    /// An RTSP method: only on a paired (encrypted) connection, as real receivers take them.
    func rtsp(_ method: RTSPMethod, _ request: HTTPRequest) throws(ProtocolError) -> HTTPResponse {
        guard core.pairing != nil else {
            throw ProtocolError(status: 404, "\(core.configuration.name) is an AirPlay 1 device: it takes no \(method.rawValue)")
        }
        if method == .options {
            return HTTPResponse(status: 200, headers: ["Public": RTSPMethod.publicList])
        }
        guard request.channel?.isEncrypted == true else {
            throw ProtocolError(status: 403, "\(method.rawValue) needs a paired connection: pair-setup (transient or with the PIN) or pair-verify first")
        }
        switch method {
        case .setup:
            let setup = try StreamSetup.decode(request.body)
            guard setup.streamCount == 0 else {
                throw ProtocolError(status: 501, "audio streams (RAOP) are not emulated; airlab receives video casts by URL")
            }
            let port = try core.eventChannelPort(for: request.connection, peer: request.channel?.peer)
            return HTTPResponse(status: 200, headers: ["Content-Type": Self.binaryPlistType], body: StreamSetup.answer(eventPort: port))
        case .teardown:
            core.closeEventChannel()
            core.active?.end(reason: "stopped by the sender (TEARDOWN)")
            return HTTPResponse(status: 200)
        case .record, .flush, .getParameter, .setParameter, .options:
            return HTTPResponse(status: 200)
        }
    }
}
