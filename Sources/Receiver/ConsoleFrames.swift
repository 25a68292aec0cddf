import ConsoleStream
import Foundation
import HTTP
import Loading
import Media
import MediaValues
import Playback
import Synchronization

/// The pictures on the console's tiles: the frame at a receiver's playhead, taken from the segment it
/// plays (`Media`'s `StillPicture`, on a probe thread), cached per segment and made at most once a
/// `interval` per receiver (`focusInterval` for the tile in focus).
///
/// The segment is read again through the receiver's loader: `verify` and `realtime` drop the bytes
/// they fetch once measured, and keeping every segment for a picture would cost a fleet far more
/// memory than a picture is worth. A receiver in `--media probe` plans no segments: its primary's are
/// listed from its playlist, and an ad's from the asset's playlist (its variant for the profile), when a
/// picture is first asked for. What cannot be read or decoded is "no picture", cached like a picture,
/// so a hostile segment is tried once.
final class ConsoleFrames: Sendable {
    enum Picture: Sendable, Equatable {
        case jpeg(Data)
        /// Why there is none, in a sentence that names no URL or path.
        case none(String)

        /// The answer of a route that serves it (`ConsolePicture`): the JPEG, with the break a switch's
        /// picture is of, or a 404 saying why there is none.
        func response(of eventID: String? = nil) -> HTTPResponse {
            switch self {
            case .jpeg(let data): ConsolePicture.jpeg(data, of: eventID)
            case .none(let reason): ConsolePicture.none(reason)
            }
        }
    }

    private struct State {
        var cache: [String: Picture] = [:]
        /// Cached segments, oldest first, for eviction.
        var order: [String] = []
        /// When each receiver's last picture began to be made: the rate limit.
        var madeAt: [Int: ContinuousClock.Instant] = [:]
        /// Each receiver's last picture of a segment, shown again while the limit holds.
        var shown: [Int: Picture] = [:]
        var working = 0
        /// Primary's segments of each receiver's session in `--media probe`, which plans none: listed
        /// from its playlist the first time a picture is asked for.
        var probedPrimary: [Int: (session: String, list: SegmentList)] = [:]
        /// The same for the assets of each receiver's session, by break and asset, read when a picture of
        /// one is first asked for: a session's assets are few, and they are dropped with it.
        var probedAssets: [Int: (session: String, lists: [AssetKey: SegmentList])] = [:]
        /// Each receiver's last switch into a break: primary's last picture before it, the ad's first.
        var transitions: [Int: Transition] = [:]
        /// Each receiver's last switch back to primary: the break's last picture, primary's first after it.
        var returns: [Int: Transition] = [:]
        /// Pictures waiting for one of the `concurrentLimit` places, oldest first.
        var waiting: [CheckedContinuation<Bool, Never>] = []
        /// When each receiver's picture was last asked for: while it is, its switches are pictured too.
        var askedAt: [Int: ContinuousClock.Instant] = [:]
        /// The break each receiver plays or played last before primary came back.
        var breaksPlaying: [Int: String] = [:]
        /// Whether something else watches every receiver (the process's console page).
        var watchedElsewhere: (@Sendable () -> Bool)?
    }

    struct AssetKey: Hashable {
        var eventID: String
        var index: Int
    }

    /// The two pictures either side of a switch into a break.
    struct Transition: Sendable, Equatable {
        var eventID: String
        var before: Picture
        var after: Picture
    }

    private let state = Mutex(State())
    /// The fleet's receivers, by the index the console and `GET /picture` name them with.
    private let receivers: [Receiver]

    /// Pictures kept: a 320-pixel JPEG is 5 to 20 kB, so at most about 5 MB.
    static let cacheLimit = 256
    /// Pictures made at once in the process: each holds a probe thread and a segment's bytes.
    static let concurrentLimit = 2
    /// Pictures that may wait for a place; past it a page hears "busy" (a page shows a tile's last picture).
    static let waitingLimit = 64
    static let interval = Duration.seconds(1)
    static let focusInterval = Duration.milliseconds(250)
    static let width = 320
    static let segmentByteLimit = 16 << 20
    static let timeout = 10.0
    /// How long after a picture was asked for its receiver counts as watched: a page asks once a second.
    static let watchWindow = Duration.seconds(5)

    init(receivers: [Receiver]) {
        self.receivers = receivers
    }

    /// The picture at receiver `index`'s playhead now.
    func picture(of index: Int, focused: Bool) async -> Picture {
        let receiver = receivers[index]
        state.withLock { $0.askedAt[index] = .now }
        guard let segment = await segmentNow(of: receiver, index: index) else {
            return .none(receiver.core.active == nil ? "no session is playing" : "the segment at the playhead is not known (its playlist could not be read)")
        }
        let now = ContinuousClock.now
        let early: Picture? = state.withLock { state in
            if let cached = state.cache[segment] {
                state.shown[index] = cached
                return cached
            }
            if let made = state.madeAt[index], now - made < (focused ? Self.focusInterval : Self.interval) {
                return state.shown[index] ?? .none("the next picture is on its way")
            }
            state.madeAt[index] = now
            return nil
        }
        if let early { return early }
        let made = await picture(ofSegment: segment, receiver: receiver)
        return state.withLock { state in
            guard let made else { return state.shown[index] ?? .none("busy making other pictures") }
            state.shown[index] = made
            return made
        }
    }

    /// Which picture a route asks for: the one at the playhead, or one side of the last switch into a
    /// break or back to primary (`GET /picture?of=into-before|into-after|back-before|back-after`).
    enum Shot: Sendable, Equatable {
        case playhead(focused: Bool)
        case intoBreak(before: Bool)
        case backToPrimary(before: Bool)

        /// The `of` query's value; nil for one it does not name.
        init?(query: String?, focused: Bool) {
            switch query {
            case nil: self = .playhead(focused: focused)
            case "into-before": self = .intoBreak(before: true)
            case "into-after": self = .intoBreak(before: false)
            case "back-before": self = .backToPrimary(before: true)
            case "back-after": self = .backToPrimary(before: false)
            default: return nil
            }
        }
    }

    /// The picture `shot` names of receiver `index`, and the break a switch's picture is of.
    func picture(_ shot: Shot, of index: Int) async -> (picture: Picture, eventID: String?) {
        switch shot {
        case .playhead(let focused):
            return (await picture(of: index, focused: focused), nil)
        case .intoBreak(let before), .backToPrimary(let before):
            state.withLock { $0.askedAt[index] = .now }
            let into: Bool = if case .intoBreak = shot { true } else { false }
            guard let switched = into ? transition(of: index) : returnTransition(of: index) else {
                return (.none("no switch \(into ? "into a break" : "back to primary") has been pictured yet"), nil)
            }
            return (before ? switched.before : switched.after, switched.eventID)
        }
    }

    /// Counts `also` as a watcher of every receiver (the console's page), besides recent asks.
    func watchedElsewhere(_ also: @escaping @Sendable () -> Bool) {
        state.withLock { $0.watchedElsewhere = also }
    }

    /// Follows receiver `index`'s events for its switches into a break and back, and pictures both
    /// sides of each while someone watches (a page, or a recent ask for its picture), so that a fleet
    /// nobody looks at decodes nothing.
    func observe(_ events: [PlaybackEvent], receiver index: Int) {
        let (watched, elsewhere) = state.withLock { state in
            (state.askedAt[index].map { ContinuousClock.now - $0 < Self.watchWindow } ?? false, state.watchedElsewhere)
        }
        let seen = watched || (elsewhere?() ?? false)
        for event in events {
            switch event.detail {
            case .interstitialStarted(let place, _):
                state.withLock { $0.breaksPlaying[index] = place.eventID }
                if seen { Task { await recordTransition(of: index, into: place.eventID, leaving: event.position) } }
            case .stateChanged(nil, _) where event.state == .playingPrimary:
                // Back in primary: the switch out of the break it played, if any.
                guard let eventID = state.withLock({ $0.breaksPlaying.removeValue(forKey: index) }), seen else { continue }
                Task { await recordReturn(of: index, from: eventID, resumingAt: event.position) }
            case .ended:
                state.withLock { _ = $0.breaksPlaying.removeValue(forKey: index) }
            default:
                continue
            }
        }
    }

    /// Receiver `index`'s last switch into a break, once both its pictures are made.
    func transition(of index: Int) -> Transition? {
        state.withLock { $0.transitions[index] }
    }

    /// Receiver `index`'s last switch back to primary from a break, once both its pictures are made.
    func returnTransition(of index: Int) -> Transition? {
        state.withLock { $0.returns[index] }
    }

    /// Makes the pictures either side of receiver `index`'s switch back to primary from break `eventID`:
    /// the first picture of the break's last asset's last segment, and primary's segment where it
    /// resumed, at `position`.
    func recordReturn(of index: Int, from eventID: String, resumingAt position: Double) async {
        let receiver = receivers[index]
        guard let session = receiver.core.current, let plan = session.activeEngineNow?.plan else { return }
        let primary = plan.fetching?.primary ?? probedPrimary(of: session, index: index)
        let assets = plan.breaks.first { $0.eventID == eventID }?.assets ?? []
        let asset = assets.isEmpty ? nil : await segments(of: AssetKey(eventID: eventID, index: assets.count - 1), in: plan, session: session, receiver: receiver, index: index)
        let before = asset.flatMap { $0.segments.last?.uri }
        let after = primary.isEmpty ? nil : primary.segments[primary.index(containing: position + 0.001)].uri
        let pictures = await pictures(of: [before, after], receiver: receiver)
        state.withLock { $0.returns[index] = Transition(eventID: eventID, before: pictures[0], after: pictures[1]) }
    }

    /// The pictures of `segments` in order; a segment the plan does not have is "no picture".
    private func pictures(of segments: [String?], receiver: Receiver) async -> [Picture] {
        var pictures: [Picture] = []
        for segment in segments {
            guard let segment else {
                pictures.append(.none("the segment is not known (its playlist could not be read)"))
                continue
            }
            pictures.append(await picture(ofSegment: segment, receiver: receiver) ?? .none("busy making other pictures"))
        }
        return pictures
    }

    /// Makes the pictures either side of receiver `index`'s switch into break `eventID`: primary's
    /// segment where it was left, and the first segment of the break's first asset. Called as the break
    /// starts; a receiver's breaks are seconds apart at the least, so this adds little to the work.
    func recordTransition(of index: Int, into eventID: String, leaving position: Double) async {
        let receiver = receivers[index]
        guard let session = receiver.core.current, let plan = session.activeEngineNow?.plan else { return }
        let primary = plan.fetching?.primary ?? probedPrimary(of: session, index: index)
        let asset = await segments(of: AssetKey(eventID: eventID, index: 0), in: plan, session: session, receiver: receiver, index: index)
        let before = primary.isEmpty ? nil : primary.segments[primary.index(containing: max(0, position - 0.001))].uri
        let after = asset.segments.first?.uri
        let pictures = await pictures(of: [before, after], receiver: receiver)
        state.withLock { $0.transitions[index] = Transition(eventID: eventID, before: pictures[0], after: pictures[1]) }
    }

    /// The picture of `segment`, from the cache or made in one of the places; nil when too many wait.
    private func picture(ofSegment segment: String, receiver: Receiver) async -> Picture? {
        if let cached = state.withLock({ $0.cache[segment] }) { return cached }
        guard await enter() else { return nil }
        let picture: Picture
        if let cached = state.withLock({ $0.cache[segment] }) {
            picture = cached
        } else {
            picture = await make(segment, allowingLocalFiles: receiver.configuration.allowsFileURLs, loader: receiver.core.planner.loader)
        }
        state.withLock { state in
            if state.cache.updateValue(picture, forKey: segment) == nil { state.order.append(segment) }
            if state.order.count > Self.cacheLimit { state.cache.removeValue(forKey: state.order.removeFirst()) }
        }
        leave()
        return picture
    }

    /// Takes one of the places to make a picture, waiting for one if need be; false when too many wait.
    private func enter() async -> Bool {
        await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let admitted: Bool? = state.withLock { state in
                if state.working < Self.concurrentLimit {
                    state.working += 1
                    return true
                }
                guard state.waiting.count < Self.waitingLimit else { return false }
                state.waiting.append(continuation)
                return nil
            }
            if let admitted { continuation.resume(returning: admitted) }
        }
    }

    /// Gives the place to the oldest waiting picture, or frees it.
    private func leave() {
        let next: CheckedContinuation<Bool, Never>? = state.withLock { state in
            guard !state.waiting.isEmpty else {
                state.working -= 1
                return nil
            }
            return state.waiting.removeFirst()
        }
        next?.resume(returning: true)
    }

    private func make(_ segment: String, allowingLocalFiles: Bool, loader: ResourceLoader) async -> Picture {
        let bytes: Data
        do throws(LoadingError) {
            let location = try ResourceLocation(argument: segment)
            bytes = try await loader.load(location, maximumSize: Self.segmentByteLimit, allowingLocalFiles: allowingLocalFiles).data
        } catch {
            return .none("the segment could not be read")
        }
        do throws(MediaError) {
            return .jpeg(try await StillPicture.jpeg(of: bytes, input: "segment", width: Self.width, timeout: Self.timeout))
        } catch {
            return .none("the segment's picture could not be decoded")
        }
    }

    /// The URL of the segment at the playhead: primary's, or the asset's in a break.
    private func segmentNow(of receiver: Receiver, index: Int) async -> String? {
        guard let session = receiver.core.current, let engine = session.activeEngineNow else { return nil }
        let list: SegmentList
        let position: Double
        if let interstitial = engine.currentInterstitial {
            list = await segments(
                of: AssetKey(eventID: interstitial.eventID, index: interstitial.assetIndex), in: engine.plan, session: session, receiver: receiver, index: index)
            position = interstitial.offset
        } else {
            list = engine.plan.fetching?.primary ?? probedPrimary(of: session, index: index)
            position = engine.position
        }
        guard !list.isEmpty else { return nil }
        return list.segments[list.index(containing: position)].uri
    }

    /// An asset's segments: the plan's, or, in `--media probe` where it plans none, read from the asset's
    /// playlist once per session (`CastPlanner.assetSegments`).
    private func segments(of asset: AssetKey, in plan: PlaybackPlan, session: PlaybackSession, receiver: Receiver, index: Int) async -> SegmentList {
        let assets = plan.breaks.first { $0.eventID == asset.eventID }?.assets ?? []
        guard assets.indices.contains(asset.index) else { return .empty }
        if plan.fetching != nil { return assets[asset.index].segments }
        if let known = state.withLock({ state in state.probedAssets[index].flatMap { $0.session == session.id ? $0.lists[asset] : nil } }) { return known }
        let list = await receiver.core.planner.assetSegments(
            session.prepared, eventID: asset.eventID, index: asset.index, profile: receiver.configuration.profile)
        state.withLock { state in
            if state.probedAssets[index]?.session != session.id { state.probedAssets[index] = (session.id, [:]) }
            state.probedAssets[index]?.lists[asset] = list
        }
        return list
    }

    private func probedPrimary(of session: PlaybackSession, index: Int) -> SegmentList {
        if let known = state.withLock({ $0.probedPrimary[index] }), known.session == session.id { return known.list }
        let prepared = session.prepared
        let segments = prepared.media.segments.filter { !$0.isGap }.map { segment in
            PlannedSegment(uri: (try? prepared.mediaLocation.resolving(segment.uri))?.url.absoluteString ?? segment.uri, duration: segment.duration, bytes: 0)
        }
        let list = SegmentList(segments, startingAt: prepared.media.segments.first?.start ?? 0)
        state.withLock { $0.probedPrimary[index] = (session.id, list) }
        return list
    }
}
