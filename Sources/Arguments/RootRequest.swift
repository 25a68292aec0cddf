/// What an executable prints about itself rather than runs, asked for on the root command alone:
/// `--version`, `--generate-completion bash|zsh|fish` and `--generate-man`.
///
/// The generators are maintenance requests (packaging writes their output to files), so they stay out
/// of `--help` and out of the completions; `--version` is for users and shows in both.
enum RootRequest {
    static let completionOption = "--generate-completion"
    static let manualOption = "--generate-man"

    /// The text to print when `arguments` is one of these requests on `root`, nil when it is not one.
    static func text(for arguments: ArraySlice<String>, root: CommandSpec) throws(UsageError) -> String? {
        guard let first = arguments.first else { return nil }
        let rest = arguments.dropFirst()
        switch first {
        case "--version" where root.version != nil:
            guard rest.isEmpty else { throw unexpected(rest) }
            return "\(root.name) \(root.version ?? "")\n"
        case manualOption:
            guard rest.isEmpty else { throw unexpected(rest) }
            return ManualPage.text(for: root, version: root.version ?? "", date: PackageVersion.date)
        case completionOption:
            let shells = CompletionShell.allCases.map(\.rawValue).joined(separator: ", ")
            guard let name = rest.first else { throw UsageError(commandPath: [], message: "\(completionOption) needs a shell (\(shells))") }
            guard let shell = CompletionShell(rawValue: name) else {
                throw UsageError(commandPath: [], message: "\(completionOption) expects one of \(shells), not '\(name)'")
            }
            guard rest.count == 1 else { throw unexpected(rest.dropFirst()) }
            return shell.script(for: root)
        default:
            return nil
        }
    }

    private static func unexpected(_ rest: ArraySlice<String>) -> UsageError {
        UsageError(commandPath: [], message: "unexpected argument '\(rest.first ?? "")'")
    }
}
