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
        guard let file = file(for: request.path, in: root),
            let data = try? Data(contentsOf: file, options: .mappedIfSafe)
        else {
            return .text("not found\n", status: 404)
        }
        var headers: HTTPHeaders = ["Content-Type": contentType(of: file), "Accept-Ranges": "bytes", "Cache-Control": "no-cache"]
        var status = 200
        var body = data
        if let range = request.headers["Range"] {
            guard let bytes = byteRange(range, size: data.count) else {
                return HTTPResponse(status: 416, headers: ["Content-Range": "bytes */\(data.count)"])
            }
            status = 206
            body = data.subdata(in: bytes)
            headers.set("Content-Range", "bytes \(bytes.lowerBound)-\(bytes.upperBound - 1)/\(data.count)")
        }
        // HEAD: libmicrohttpd sends the headers of the full answer and drops the body itself.
        return HTTPResponse(status: status, headers: headers, body: body)
    }

    /// The regular file a request path names inside `root`, or nil when it names nothing servable.
    static func file(for path: String, in root: URL) -> URL? {
        let components = path.split(separator: "/", omittingEmptySubsequences: true)
        guard !components.isEmpty,
            components.allSatisfy({ !$0.hasPrefix(".") && !$0.contains("\0") && !$0.contains("\\") })
        else { return nil }
        let candidate = components.reduce(root) { $0.appendingPathComponent(String($1)) }.resolvingSymlinksInPath()
        guard candidate.path.hasPrefix(root.path + "/") else { return nil }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isFolder), !isFolder.boolValue else { return nil }
        return candidate
    }

    /// `bytes=A-B`, `bytes=A-` or `bytes=-N` as a range of `size` bytes; nil when unsatisfiable or several.
    static func byteRange(_ header: String, size: Int) -> Range<Int>? {
        guard header.hasPrefix("bytes="), !header.contains(","), size > 0 else { return nil }
        let spec = header.dropFirst("bytes=".count).split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard spec.count == 2 else { return nil }
        let first = Int(spec[0].trimmingCharacters(in: .whitespaces))
        let last = Int(spec[1].trimmingCharacters(in: .whitespaces))
        switch (first, last) {
        case (let start?, let end?) where start <= end && start < size: return start..<min(end + 1, size)
        case (let start?, nil) where spec[1].isEmpty && start < size: return start..<size
        case (nil, let suffix?) where spec[0].isEmpty && suffix > 0: return max(0, size - suffix)..<size
        default: return nil
        }
    }

    static func contentType(of file: URL) -> String {
        switch file.pathExtension.lowercased() {
        case "m3u8", "m3u": "application/vnd.apple.mpegurl"
        case "ts": "video/mp2t"
        case "mp4", "m4s", "m4v", "mov": "video/mp4"
        case "m4a": "audio/mp4"
        case "aac": "audio/aac"
        case "vtt": "text/vtt"
        case "json": "application/json"
        default: "application/octet-stream"
        }
    }
}
