import Foundation
import Playback

/// The receivers one `airlabd` runs, as groups of replicas of a profile.
///
/// The command line (`--profile smart-tv-low*20 --profile soundbar`) and a fleet file
/// (`--fleet FILE.json`) each build one of these, and `configurations(_:)` turns it into receivers by
/// the same rules either way: names, device ids, ports and state folders are decided here only.
public struct FleetDescription: Sendable {
    public var replicas: [Replicas]
    public var media: MediaMode

    /// How many receivers one group may hold.
    public static let countRange = 1...1000
    /// How many receivers one process may run in all: 20 times the 500 measured at 94 MB (docs/daemon.md).
    public static let maximumReceivers = 10_000
    /// Session seconds per real second: above 0, at most this.
    public static let maximumTimeScale = 10_000.0
    /// Where the ports start when no group gives one.
    public static let defaultFirstPort = 7000

    public init(replicas: [Replicas], media: MediaMode = .probe) {
        self.replicas = replicas
        self.media = media
    }

    /// What every receiver of the fleet shares, from flags a fleet file does not hold.
    public struct Shared: Sendable {
        public var address: String
        /// One folder per receiver inside it once the fleet has more than one.
        public var stateDirectory: URL?
        public var allowsFileURLs: Bool
        public var seed: UInt64
        public var maxConnections: Int
        public var requestTimeout: Double
        public var idleTimeout: Int
        /// The PIN every AirPlay 2 receiver of the process pairs with (`--pin`); nil: each its own.
        public var pin: String?

        public init(
            address: String = "127.0.0.1", stateDirectory: URL? = nil, allowsFileURLs: Bool = false, seed: UInt64 = 1,
            maxConnections: Int = ReceiverConfiguration.defaultMaxConnections, requestTimeout: Double = ReceiverConfiguration.defaultRequestTimeout,
            idleTimeout: Int = ReceiverConfiguration.defaultIdleTimeout
        ) {
            self.address = address
            self.stateDirectory = stateDirectory
            self.allowsFileURLs = allowsFileURLs
            self.seed = seed
            self.maxConnections = maxConnections
            self.requestTimeout = requestTimeout
            self.idleTimeout = idleTimeout
        }
    }

    /// One receiver per replica, in the order described.
    ///
    /// - Names: a group's name (or its profile's display name) is shared by all receivers that have
    ///   it, across groups; when more than one has it each gets ` #k`, numbered in order.
    /// - Device ids: the k-th receiver of a profile in the fleet is replica k (`ReceiverConfiguration.deviceIDSeed`).
    /// - Ports: a group starts at its port, or where the previous one ended (7000 for the first);
    ///   port 0 picks free ports. Ranges may not overlap and must end at 65535 at most.
    /// - State folders: the directory itself for a fleet of one; else a folder named after the
    ///   profile, with `-k` when the profile has replicas.
    public func configurations(_ shared: Shared) throws(FleetError) -> [ReceiverConfiguration] {
        guard !replicas.isEmpty else { throw FleetError(location: nil, path: "$.receivers", reason: "names no receiver") }
        var total = 0
        for group in replicas {
            try group.check()
            total += group.count
            guard total <= Self.maximumReceivers else {
                throw FleetError(group.location, member: "count", reason: "would make the fleet larger than \(Self.maximumReceivers) receivers; split it across processes")
            }
        }
        let ports = try portRanges()
        var profileTotals: [String: Int] = [:]
        var nameTotals: [String: Int] = [:]
        for group in replicas {
            profileTotals[group.profile.name, default: 0] += group.count
            nameTotals[group.baseName, default: 0] += group.count
        }
        var profileSeen: [String: Int] = [:]
        var nameSeen: [String: Int] = [:]
        var names: Set<String> = []
        var configurations: [ReceiverConfiguration] = []
        configurations.reserveCapacity(total)
        for (index, group) in replicas.enumerated() {
            for offset in 0..<group.count {
                let profile = group.profile
                let replica = profileSeen[profile.name, default: 0] + 1
                profileSeen[profile.name] = replica
                let numbered = nameSeen[group.baseName, default: 0] + 1
                nameSeen[group.baseName] = numbered
                let name = nameTotals[group.baseName, default: 0] > 1 ? "\(group.baseName) #\(numbered)" : group.baseName
                guard names.insert(name).inserted else {
                    throw FleetError(group.location, member: "name", reason: "a second receiver would be called \"\(name)\"; give the groups distinct names")
                }
                let folder: URL? = shared.stateDirectory.map { root in
                    guard total > 1 else { return root }
                    let single = profileTotals[profile.name, default: 0] == 1
                    return root.appendingPathComponent(single ? profile.name : "\(profile.name)-\(replica)", isDirectory: true)
                }
                let port = ports[index] == 0 ? 0 : UInt16(ports[index] + offset)
                configurations.append(ReceiverConfiguration(
                    profile: profile, name: name, replica: replica, address: shared.address, port: port, timeScale: group.timeScale,
                    stateDirectory: folder, password: group.password, allowsFileURLs: shared.allowsFileURLs, seed: shared.seed,
                    maxConnections: shared.maxConnections, requestTimeout: shared.requestTimeout, idleTimeout: shared.idleTimeout))
                configurations[configurations.count - 1].pin = shared.pin
            }
        }
        return configurations
    }

    /// Each group's first port (0: free ports), checked to fit and not to overlap an earlier group's.
    private func portRanges() throws(FleetError) -> [Int] {
        var next = Self.defaultFirstPort
        // Which group holds each port: linear in the receivers, however many groups there are.
        var owners: [Int: Int] = [:]
        var ranges: [Int: ClosedRange<Int>] = [:]
        var firsts: [Int] = []
        for (index, group) in replicas.enumerated() {
            let first = group.firstPort ?? next
            firsts.append(first)
            guard first != 0 else {
                next = 0
                continue
            }
            let member = group.firstPort == nil ? "count" : "port"
            guard (1...65535).contains(first), first <= 65535 - (group.count - 1) else {
                throw FleetError(
                    group.location, member: member,
                    reason: "\(group.count) receiver(s) from port \(first) do not fit below 65536; ports are from 0 (free ones) to 65535")
            }
            let range = first...(first + group.count - 1)
            for port in range {
                if let owner = owners.updateValue(index, forKey: port), let clash = ranges[owner] {
                    throw FleetError(
                        group.location, member: member,
                        reason: "\(Self.ports(range)) overlap \(Self.ports(clash)) of \(replicas[owner].location.path(for: "port"))")
                }
            }
            ranges[index] = range
            next = range.upperBound + 1
        }
        return firsts
    }

    private static func ports(_ range: ClosedRange<Int>) -> String {
        range.count == 1 ? "port \(range.lowerBound)" : "ports \(range.lowerBound)-\(range.upperBound)"
    }
}
