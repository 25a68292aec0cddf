import Foundation
import HTTP

/// Serves one local folder over HTTP while a cast needs it, so that a receiver can fetch a playlist
/// that lives on the sender's disk.
///
/// Only files inside the folder are served: paths with `..`, hidden names, and symbolic links that
/// lead out of the folder are answered 404, as are folders themselves. GET and HEAD only; single byte
/// ranges are honoured, since FFmpeg reads MP4 files with them.
public final class FolderServer: Sendable {
    public let folder: URL
    private let server: HTTPServer

    /// Prepares a server for `folder` on `address` (a numeric address the receivers can reach) and any free port.
    public init(folder: URL, address: String) {
        let root = folder.resolvingSymlinksInPath().standardizedFileURL
        self.folder = root
        server = HTTPServer(configuration: HTTPServerConfiguration(address: address, port: 0, idleTimeoutSeconds: 60)) { request in
            FolderServer.respond(to: request, root: root)
        }
    }

    public func start() throws {
        try server.start()
    }

    public var port: UInt16 { server.port }

    public var address: String { server.configuration.address }

    /// The URL a receiver fetches `file` (inside the folder) at.
    public func url(for file: URL) -> String {
        let relative = file.resolvingSymlinksInPath().standardizedFileURL.path.dropFirst(folder.path.count)
        let encoded = relative.split(separator: "/").map {
            String($0).addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/", ";", "?", "#"])) ?? String($0)
        }
        let host = address.contains(":") ? "[\(address)]" : address
        return "http://\(host):\(port)/" + encoded.joined(separator: "/")
    }

    public func stop() {
        server.stop()
    }

    // MARK: - Answering

    static func respond(to request: HTTPRequest, root: URL) -> HTTPResponse {
        guard request.method == "GET" || request.method == "HEAD" else {
            var response = HTTPResponse.text("only GET and HEAD are served\n", status: 405)
            response.headers.set("Allow", "GET, HEAD")
            return response
        }
        guard let file = ServedFolder.file(for: request.path, in: root),
            let data = try? Data(contentsOf: file, options: .mappedIfSafe)
        else {
            return .text("not found\n", status: 404)
        }
        var headers: HTTPHeaders = ["Content-Type": ServedFolder.contentType(of: file), "Accept-Ranges": "bytes", "Cache-Control": "no-cache"]
        var status = 200
        var body = data
        switch request.headers["Range"].map({ ServedFolder.byteRange($0, size: data.count) }) ?? .whole {
        case .whole: break
        case .unsatisfiable:
            return HTTPResponse(status: 416, headers: ["Content-Range": "bytes */\(data.count)"])
        case .part(let bytes):
            status = 206
            body = data.subdata(in: bytes)
            headers.set("Content-Range", "bytes \(bytes.lowerBound)-\(bytes.upperBound - 1)/\(data.count)")
        }
        // HEAD: libmicrohttpd sends the headers of the full answer and drops the body itself.
        return HTTPResponse(status: status, headers: headers, body: body)
    }
}
