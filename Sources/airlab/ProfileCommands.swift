import Arguments
import Profiles
import Reports

/// `airlab profile list|show|diff`: the receiver profiles, where their numbers come from, and how far
/// one is from another.
enum ProfileCommands {
    static let profileArgument = "A shipped profile's name, or a path to a profile JSON file."

    static let list = Command(
        in: "profile",
        CommandSpec(
            name: "list",
            abstract: "List the shipped receiver profiles with their versions and how many of their numbers are measured, published, derived or assumed.",
            options: [MediaOptions.json])
    ) { parsed in
        let catalog = ProfileCatalog()
        var profiles: [ReceiverProfile] = []
        for name in catalog.shippedNames {
            guard let profile = load(name, command: "list") else { return Airlab.usageStatus }
            profiles.append(profile)
        }
        print(parsed.flag("json") ? ProfileSheet.listJSON(profiles) : ProfileSheet.listText(profiles), terminator: "")
        return 0
    }

    static let show = Command(
        in: "profile",
        CommandSpec(
            name: "show",
            abstract: "Show a receiver profile: every value with its basis and source.",
            discussion: """
                Values that share a source are shown together, followed by their basis (measured,
                published, derived or assumed) and the source: a citation, or for an assumption the
                reason nothing better exists. Exits 2 when the profile cannot be read.
                """,
            positionals: [PositionalSpec("PROFILE", help: profileArgument)],
            options: [MediaOptions.json])
    ) { parsed in
        guard let name = parsed.positional("PROFILE"), let profile = load(name, command: "show") else { return Airlab.usageStatus }
        print(parsed.flag("json") ? ProfileSheet.json(profile) : ProfileSheet.text(profile), terminator: "")
        return 0
    }

    static let diff = Command(
        in: "profile",
        CommandSpec(
            name: "diff",
            abstract: "Compare two receiver profiles value by value: both values, B minus A, and each side's basis.",
            discussion: """
                Codecs are matched by name, so a codec one profile lacks shows "-" on that side. Use it
                to judge whether a shipped profile fits a device: write the device's numbers in a
                profile file and compare. Exits 0 whether or not they differ, 2 when either cannot be read.
                """,
            positionals: [PositionalSpec("A", help: profileArgument), PositionalSpec("B", help: profileArgument)],
            options: [MediaOptions.json])
    ) { parsed in
        guard let first = parsed.positional("A"), let second = parsed.positional("B"),
            let a = load(first, command: "diff"), let b = load(second, command: "diff")
        else { return Airlab.usageStatus }
        let comparison = ProfileComparison(a, b)
        print(parsed.flag("json") ? ProfileComparisonText.json(comparison) : ProfileComparisonText.text(comparison), terminator: "")
        return 0
    }

    static let commands = [list, show, diff]

    /// The profile, or nil after saying on stderr which file, where in it and why it was refused.
    private static func load(_ nameOrPath: String, command: String) -> ReceiverProfile? {
        do throws(ProfileError) {
            return try ProfileCatalog().profile(nameOrPath)
        } catch {
            Terminal.error("airlab profile \(command): \(error)")
            return nil
        }
    }
}
