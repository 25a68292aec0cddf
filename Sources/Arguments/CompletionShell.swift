/// A shell that `--generate-completion` writes a completion script for.
public enum CompletionShell: String, CaseIterable, Sendable {
    case bash, zsh, fish

    /// The script completing the commands of `root` in this shell; every one is generated from the
    /// same tree that `--help` describes, so they cannot drift from it or from each other.
    public func script(for root: CommandSpec) -> String {
        switch self {
        case .bash: BashCompletion.script(for: root)
        case .zsh: ZshCompletion.script(for: root)
        case .fish: FishCompletion.script(for: root)
        }
    }
}
