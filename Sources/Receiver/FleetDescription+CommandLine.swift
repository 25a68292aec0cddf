import Playback
import Profiles

extension FleetDescription {
    /// The fleet `airlabd`'s flags describe: one group per `--profile` (`NAME`, `FILE`, or `NAME*N` for N
    /// replicas), ports consecutive from `firstPort` across the groups, and one name, password and time
    /// scale for all. A repeated `--profile NAME` is one more replica of NAME, as `NAME*2` is.
    ///
    /// - Parameter name: every receiver's name; with several groups, each adds its profile's in
    ///   parentheses ("Lab (soundbar)"), and replicas number it.
    public init(
        profiles: [String], firstPort: Int, name: String?, password: String?, timeScale: Double, media: MediaMode, catalog: ProfileCatalog
    ) throws(FleetError) {
        guard !profiles.isEmpty else {
            throw FleetError(file: nil, path: "--profile", reason: "give at least one (\(catalog.shippedNames.joined(separator: ", ")))")
        }
        var replicas: [Replicas] = []
        for (index, argument) in profiles.enumerated() {
            let location = FleetLocation(file: nil, index: index)
            guard let counted = Replicas.countedProfile(argument) else {
                throw FleetError(
                    file: nil, path: "--profile",
                    reason: "'\(argument)': the count after * must be a whole number from \(Self.countRange.lowerBound) to \(Self.countRange.upperBound)")
            }
            let profile: ReceiverProfile
            do throws(ProfileError) {
                profile = try catalog.profile(counted.profile)
            } catch {
                throw FleetError(file: nil, path: "--profile", reason: "profile \(error)")
            }
            replicas.append(Replicas(
                profile: profile, count: counted.count, firstPort: index == 0 ? firstPort : nil,
                name: name.map { profiles.count > 1 ? "\($0) (\(profile.name))" : $0 }, password: password, timeScale: timeScale,
                location: location))
        }
        self.init(replicas: replicas, media: media)
    }
}
