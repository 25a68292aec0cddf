import Foundation
import HTTP
import Profiles
import SenderProtocol

/// How one receiver runs: the profile it plays as and where it serves.
public struct ReceiverConfiguration: Sendable {
    public var profile: ReceiverProfile
    /// The friendly name senders show, and the mDNS instance name.
    public var name: String
    /// Which of the fleet's receivers of this profile it is, from 1: it tells replicas' device ids apart.
    public var replica: Int
    public var address: String
    /// 0 picks any free port.
    public var port: UInt16
    /// Session seconds per real second.
    public var timeScale: Double
    /// Where session reports are kept; nil keeps them in memory only.
    public var stateDirectory: URL?
    /// HTTP Digest password (realm and user `AirPlay`); nil serves without one.
    public var password: String?
    /// The PIN an AirPlay 2 receiver pairs with for good (`--pin`); nil: four random digits, logged.
    public var pin: String?
    /// Whether `/play` may name `file:` URLs and paths; otherwise only http and https are fetched.
    public var allowsFileURLs: Bool
    /// Seed of the latency draws when the sender gives none.
    public var seed: UInt64
    /// Seconds each fetch and probe may take.
    public var fetchTimeout: Double
    /// Connections open at once; more wait in the listen backlog.
    public var maxConnections: Int
    /// Seconds a sender has to send a whole request, header and body, before its connection is closed.
    public var requestTimeout: Double
    /// Seconds a keep-alive connection may stay silent between requests.
    public var idleTimeout: Int
    /// Which threads serve the receiver's HTTP (`HTTPServerConfiguration.polling`); a fleet decides.
    public var polling = HTTPServerConfiguration.Polling.shared

    public static let defaultMaxConnections = HTTPServerConfiguration.defaultConnectionLimit
    public static let defaultRequestTimeout = HTTPServerConfiguration.defaultRequestTimeoutSeconds
    public static let defaultIdleTimeout = HTTPServerConfiguration.defaultIdleTimeoutSeconds

    public init(
        profile: ReceiverProfile, name: String? = nil, replica: Int = 1, address: String = "127.0.0.1", port: UInt16 = 0, timeScale: Double = 1,
        stateDirectory: URL? = nil, password: String? = nil, allowsFileURLs: Bool = false, seed: UInt64 = 1, fetchTimeout: Double = 10,
        maxConnections: Int = defaultMaxConnections, requestTimeout: Double = defaultRequestTimeout, idleTimeout: Int = defaultIdleTimeout
    ) {
        self.profile = profile
        self.name = name ?? profile.displayName
        self.replica = replica
        self.address = address
        self.port = port
        self.timeScale = timeScale
        self.stateDirectory = stateDirectory
        self.password = password
        self.allowsFileURLs = allowsFileURLs
        self.seed = seed
        self.fetchTimeout = fetchTimeout
        self.maxConnections = maxConnections
        self.requestTimeout = requestTimeout
        self.idleTimeout = idleTimeout
    }

    /// The seed of the device id: the profile's for the first receiver of a profile, so that a receiver
    /// keeps the id it had before it had replicas, and the seed with ` #k` for the k-th, so that replicas
    /// differ from each other while each keeps its own across restarts.
    public var deviceIDSeed: String {
        let seed = profile.deviceIDSeed ?? profile.name
        return replica == 1 ? seed : "\(seed) #\(replica)"
    }

    /// Who it says it is in `/server-info` and its TXT record: decided by the configuration alone, so
    /// that the same receiver of the same fleet is the same device to a sender after a restart.
    public var identity: ReceiverIdentity {
        ReceiverIdentity(
            name: name, model: profile.model, deviceIDSeed: deviceIDSeed, hasPassword: password != nil, profile: profile.name,
            device: profile.device)
    }

    /// What its HTTP server listens on and the limits it keeps.
    var http: HTTPServerConfiguration {
        var http = HTTPServerConfiguration(
            address: address, port: port, connectionLimit: maxConnections, requestTimeoutSeconds: requestTimeout,
            idleTimeoutSeconds: idleTimeout, polling: polling)
        // An AirPlay 2 device pairs and then encrypts the connection it paired on: its server relays
        // those connections (and only those) to be able to switch them.
        if profile.device.isAirPlay2 { http.front = Self.pairsFirst }
        return http
    }

    /// Connections that start by pairing (or by asking for the device record, as an iPhone does before
    /// it pairs on the same connection) are relayed; every other goes to libmicrohttpd directly.
    static let pairsFirst: @Sendable ([UInt8]) -> FrontDecision = { bytes in
        let markers = ["POST /pair-", "GET /info "].map { Array($0.utf8) }
        if markers.contains(where: { bytes.starts(with: $0) }) { return .relay }
        if markers.contains(where: { $0.starts(with: bytes) }) { return .undecided }
        return .direct
    }
}
