import Foundation

/// The playlist a sender casts: an http(s) URL as given, or a local file served to the receivers from
/// its folder by a `FolderServer` for as long as the cast runs.
public final class ServedPlaylist: Sendable {
    /// As the user gave it, for reports.
    public let argument: String
    private let remoteURL: String?
    private let file: URL?
    private let server: FolderServer?

    private init(argument: String, remoteURL: String?, file: URL?, server: FolderServer?) {
        self.argument = argument
        self.remoteURL = remoteURL
        self.file = file
        self.server = server
    }

    /// Takes an http(s) URL as it is; serves a local path or `file:` URL on an address every receiver
    /// can reach (loopback when they all are on it).
    public static func prepare(_ argument: String, for receivers: [Receiver]) throws(PlaylistError) -> ServedPlaylist {
        let lowered = argument.lowercased()
        if lowered.hasPrefix("http://") || lowered.hasPrefix("https://") {
            return ServedPlaylist(argument: argument, remoteURL: argument, file: nil, server: nil)
        }
        let path = lowered.hasPrefix("file://") ? (URL(string: argument)?.path ?? "") : argument
        var isFolder: ObjCBool = false
        guard !path.isEmpty, FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            throw PlaylistError("\(argument): no such file (give a playlist's path or an http(s) URL)")
        }
        guard !isFolder.boolValue else { throw PlaylistError("\(argument): is a folder; give the playlist file in it") }
        guard FileManager.default.isReadableFile(atPath: path) else { throw PlaylistError("\(argument): cannot be read") }
        let file = URL(fileURLWithPath: path).standardizedFileURL
        var routes: [String] = []
        for receiver in receivers {
            guard let route = LocalRoute.address(toward: receiver.address) else {
                throw PlaylistError("\(receiver.label): this machine has no route to it, so it cannot fetch \(argument)")
            }
            if !routes.contains(route) { routes.append(route) }
        }
        // One address serves them all when they share a route; otherwise every address of this machine
        // listens (still only that folder, and only while the cast runs).
        let bind = routes.count <= 1 ? routes.first ?? "127.0.0.1" : (routes.contains { $0.contains(":") } ? "::" : "0.0.0.0")
        let server = FolderServer(folder: file.deletingLastPathComponent(), address: bind)
        do {
            try server.start()
        } catch {
            throw PlaylistError("cannot serve \(file.deletingLastPathComponent().path) on \(bind): \(error)")
        }
        return ServedPlaylist(argument: argument, remoteURL: nil, file: file, server: server)
    }

    /// The URL `receiver` fetches the playlist at.
    public func url(for receiver: Receiver) -> String {
        if let remoteURL { return remoteURL }
        guard let server, let file else { return argument }
        let served = server.url(for: file)
        guard ["0.0.0.0", "::"].contains(server.address), let route = LocalRoute.address(toward: receiver.address) else { return served }
        let host = route.contains(":") ? "[\(route)]" : route
        let bound = server.address == "::" ? "[::]" : server.address
        return served.replacingOccurrences(of: "http://\(bound):", with: "http://\(host):")
    }

    /// Stops serving the folder.
    public func stop() {
        server?.stop()
    }
}

/// A playlist argument that cannot be cast.
public struct PlaylistError: Error, Sendable, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}
