import CAvahi

/// Why publishing or browsing could not happen, in terms a daemon can log and act on.
public enum DiscoveryError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The system D-Bus is not reachable, so no avahi-daemon can be either; mDNS stays off.
    case systemBusUnavailable(String)
    /// No avahi-daemon is registered on the system bus (browsing needs one now; publishing waits).
    case daemonUnavailable
    /// The service cannot be advertised as given.
    case invalidService(String)
    /// The publisher was stopped; it cannot be started again.
    case stopped
    /// avahi refused a request; `code` is avahi's error code (`AVAHI_ERR_…`).
    case avahi(code: Int32, message: String)

    /// Turns an avahi error code into the case a caller can act on.
    init(avahiCode code: Int32) {
        switch Int(code) {
        case AVAHI_ERR_DBUS_ERROR:
            self = .systemBusUnavailable(String(cString: avahi_strerror(code)))
        case AVAHI_ERR_NO_DAEMON:
            self = .daemonUnavailable
        default:
            self = .avahi(code: code, message: String(cString: avahi_strerror(code)))
        }
    }

    public var description: String {
        switch self {
        case .systemBusUnavailable(let reason):
            "the system D-Bus is not reachable (\(reason)); start dbus-daemon --system for mDNS"
        case .daemonUnavailable:
            "no avahi-daemon is running on the system bus"
        case .invalidService(let reason):
            "cannot advertise the service: \(reason)"
        case .stopped:
            "the publisher has been stopped"
        case .avahi(let code, let message):
            "avahi error \(code): \(message)"
        }
    }
}
