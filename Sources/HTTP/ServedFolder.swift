import Foundation

/// The rules for serving files from one folder over HTTP, shared by every server that does it (the
/// sender's folder server, the test origin): which request paths name a servable file, byte ranges,
/// and content types.
///
/// Only regular files inside the folder are served: paths with `..`, hidden names, and symbolic links
/// that lead out of the folder name nothing, as do folders themselves.
public enum ServedFolder {
    /// The regular file a request path names inside `root`, or nil when it names nothing servable.
    public static func file(for path: String, in root: URL) -> URL? {
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
    public static func byteRange(_ header: String, size: Int) -> Range<Int>? {
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

    public static func contentType(of file: URL) -> String {
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
