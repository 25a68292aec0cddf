/// The RTSP methods an AirPlay 2 sender sends on its paired connection, whatever their target
/// (`rtsp://host/SESSION`): routed by method, since their paths name no resource of airlab's.
public enum RTSPMethod: String, CaseIterable, Sendable {
    case setup = "SETUP"
    case record = "RECORD"
    case teardown = "TEARDOWN"
    case flush = "FLUSH"
    case options = "OPTIONS"
    case getParameter = "GET_PARAMETER"
    case setParameter = "SET_PARAMETER"

    /// What `OPTIONS` answers in `Public`, as receivers list their methods.
    public static let publicList = "SETUP, RECORD, TEARDOWN, FLUSH, OPTIONS, GET_PARAMETER, SET_PARAMETER, POST, GET, PUT"
}
