/// Text from a receiver made fit for the console's page, which shows no file paths: a receiver allowed
/// local files (`--allow-file-urls`) names them in asset URIs and reasons, and the page may be seen
/// by anyone who can reach the process endpoint.
enum PathFreeText {
    static let replacement = "(a local file)"

    /// `text` with every word that is a file URL or an absolute path replaced.
    static func scrubbed(_ text: String) -> String {
        guard text.contains("/") else { return text }
        return text.split(separator: " ", omittingEmptySubsequences: false).map { word in
            let bare = word.drop { "'\"(<[".contains($0) }
            return bare.hasPrefix("/") || bare.lowercased().hasPrefix("file:") ? Substring(replacement) : word
        }.joined(separator: " ")
    }

    /// An asset's URI when it is a web address; nil for anything else, which could name a file.
    static func webAddress(_ uri: String) -> String? {
        let lowered = uri.lowercased()
        return lowered.hasPrefix("http://") || lowered.hasPrefix("https://") ? uri : nil
    }
}
