import Foundation
import Origin
import Testing

@Suite("Fault plan")
struct FaultPlanTests {
    func plan(_ json: String) throws(FaultPlanError) -> FaultPlan {
        try FaultPlan(json: Data(json.utf8))
    }

    func refusal(_ json: String) -> FaultPlanError? {
        do {
            _ = try plan(json)
            return nil
        } catch {
            return error
        }
    }

    @Test("a plan reads every action, its windows and its client glob")
    func readsEveryAction() throws {
        let plan = try plan("""
            {"clientHeader": "X-Client", "rules": [
              {"name": "ad-503", "path": "/ads/*.ts", "requests": {"from": 1, "through": 2}, "client": "rx-*",
               "status": 503, "retryAfterSeconds": 3},
              {"path": "/moved.ts", "redirect": "/seg.ts", "ttfbMs": 250},
              {"path": "*.ts", "paceBytesPerSec": 500000, "stallAfterBytes": 1000, "stallMs": 2000,
               "truncateAfterBytes": 9000, "wrongContentLength": -10}]}
            """)
        #expect(plan.clientHeader == "X-Client")
        #expect(plan.rules.count == 3)
        #expect(plan.rules[0].name == "ad-503")
        #expect(plan.rules[0].requests == 1...2)
        #expect(plan.rules[0].action.reply == FaultAction.StatusReply(status: 503, retryAfterSeconds: 3))
        #expect(plan.rules[1].name == "rules[1]")
        #expect(plan.rules[1].action.redirect == "/seg.ts")
        #expect(plan.rules[1].action.timeToFirstByte == .milliseconds(250))
        #expect(plan.rules[2].action.body == BodyFaults(
            paceBytesPerSecond: 500_000, stall: .init(afterBytes: 1000, duration: .seconds(2)), truncateAfterBytes: 9000, contentLengthError: -10))
    }

    @Test("the largest plan there may be, 10,000 rules with every member a rule can have at once, is read whole")
    func largestPlan() throws {
        let rule = #"{"name": "r", "path": "/a/*.ts", "requests": {"from": 1, "through": 2}, "during": {"fromSeconds": 0, "untilSeconds": 60}, "client": "rx-*", "ttfbMs": 10, "paceBytesPerSec": 1000, "stallAfterBytes": 10, "stallMs": 10, "truncateAfterBytes": 100, "resetAfterBytes": 200, "wrongContentLength": 5}"#
        let rules = Array(repeating: rule, count: FaultPlan.maximumRules).joined(separator: ",")
        #expect(try plan(#"{"clientHeader": "X-Client", "rules": ["# + rules + "]}").rules.count == FaultPlan.maximumRules)
    }

    @Test("the first matching rule decides, by path, request ordinal and client id")
    func firstMatchDecides() throws {
        let plan = try plan("""
            {"rules": [{"name": "first-two", "path": "/a/*", "requests": {"through": 2}, "status": 404},
                       {"name": "rx1", "path": "*", "client": "rx-1", "status": 500},
                       {"name": "rest", "path": "/a/*", "ttfbMs": 10}]}
            """)
        #expect(plan.rule(forPath: "/a/x.ts", client: nil, ordinal: 1)?.name == "first-two")
        #expect(plan.rule(forPath: "/a/x.ts", client: "rx-1", ordinal: 2)?.name == "first-two")
        #expect(plan.rule(forPath: "/a/x.ts", client: "rx-1", ordinal: 3)?.name == "rx1")
        #expect(plan.rule(forPath: "/a/x.ts", client: "rx-2", ordinal: 3)?.name == "rest")
        #expect(plan.rule(forPath: "/b/x.ts", client: nil, ordinal: 1) == nil)
    }

    @Test("a rule with a window applies to requests arriving from its fromSeconds up to, not at, its untilSeconds of the origin's uptime")
    func windowsAreSecondsOfUptime() throws {
        let plan = try plan("""
            {"rules": [{"name": "outage", "path": "*.ts", "during": {"fromSeconds": 120, "untilSeconds": 180.5}, "status": 503},
                       {"name": "later", "path": "*.ts", "during": {"fromSeconds": 600}, "ttfbMs": 100},
                       {"name": "early", "path": "*.ts", "during": {"untilSeconds": 10}, "ttfbMs": 50}]}
            """)
        #expect(plan.rules[0].during == 120..<180.5)
        #expect(plan.rule(forPath: "/a.ts", client: nil, ordinal: 1, elapsed: 9.99)?.name == "early")
        #expect(plan.rule(forPath: "/a.ts", client: nil, ordinal: 1, elapsed: 10) == nil)
        #expect(plan.rule(forPath: "/a.ts", client: nil, ordinal: 1, elapsed: 120)?.name == "outage")
        #expect(plan.rule(forPath: "/a.ts", client: nil, ordinal: 1, elapsed: 180.49)?.name == "outage")
        #expect(plan.rule(forPath: "/a.ts", client: nil, ordinal: 1, elapsed: 180.5) == nil)
        #expect(plan.rule(forPath: "/a.ts", client: nil, ordinal: 1, elapsed: 7_200)?.name == "later")
        #expect(refusal(#"{"rules": [{"path": "*", "during": {"fromSeconds": 60, "untilSeconds": 60}, "status": 503}]}"#)?.field == "rules[0].during.untilSeconds")
        #expect(refusal(#"{"rules": [{"path": "*", "during": {"fromSeconds": -1}, "status": 503}]}"#)?.field == "rules[0].during.fromSeconds")
        #expect(refusal(#"{"rules": [{"path": "*", "during": {"fromSeconds": true}, "status": 503}]}"#)?.field == "rules[0].during.fromSeconds")
        #expect(refusal(#"{"rules": [{"path": "*", "during": {"since": 5}, "status": 503}]}"#)?.field == "rules[0].during.since")
        #expect(refusal(#"{"rules": [{"path": "*", "during": 5, "status": 503}]}"#)?.field == "rules[0].during")
    }

    @Test("a request's ordinal counts per path and per client id")
    func ordinalsCountPerPathAndClient() {
        var ordinals = RequestOrdinals()
        #expect(ordinals.next(path: "/a", client: nil) == 1)
        #expect(ordinals.next(path: "/a", client: nil) == 2)
        #expect(ordinals.next(path: "/a", client: "rx-1") == 1)
        #expect(ordinals.next(path: "/b", client: nil) == 1)
        #expect(ordinals.next(path: "/a", client: "rx-1") == 2)
    }

    @Test("an error in a plan names the field and the reason", arguments: [
        (#"{"rules": [{"path": "/a", "paceBytesPerSec": 0}]}"#, "rules[0].paceBytesPerSec"),
        (#"{"rules": [{"path": "/a", "paceBytesPerSec": 1e300}]}"#, "rules[0].paceBytesPerSec"),
        (#"{"rules": [{"path": "/a", "ttfbMs": 1.5}]}"#, "rules[0].ttfbMs"),
        (#"{"rules": [{"path": "/a", "ttfbMs": true}]}"#, "rules[0].ttfbMs"),
        (#"{"rules": [{"path": "/a", "ttfbMs": "100"}]}"#, "rules[0].ttfbMs"),
        (#"{"rules": [{"path": "/a"}, {"path": "/b", "status": 302}]}"#, "rules[1].status"),
        (#"{"rules": [{"path": "/a", "retryAfterSeconds": 3}]}"#, "rules[0].retryAfterSeconds"),
        (#"{"rules": [{"path": "/a", "stallMs": 3}]}"#, "rules[0].stallAfterBytes"),
        (#"{"rules": [{"path": "/a", "stallAfterBytes": 3}]}"#, "rules[0].stallMs"),
        (#"{"rules": [{"path": "/a", "wrongContentLength": 0}]}"#, "rules[0].wrongContentLength"),
        (#"{"rules": [{"path": "/a", "redirect": "http://elsewhere/"}]}"#, "rules[0].redirect"),
        (#"{"rules": [{"path": "/a", "requests": {"from": 3, "through": 2}}]}"#, "rules[0].requests.through"),
        (#"{"rules": [{"path": "/a", "requests": {"from": 0}}]}"#, "rules[0].requests.from"),
        (#"{"rules": [{"path": "/a", "requests": {"first": 2}}]}"#, "rules[0].requests.first"),
        (#"{"rules": [{"path": "/a", "pace": 10}]}"#, "rules[0].pace"),
        (#"{"rules": [{"status": 404}]}"#, "rules[0].path"),
        (#"{"rules": [{"path": "a.ts"}]}"#, "rules[0].path"),
        (#"{"rules": [{"path": "/a", "status": 503, "paceBytesPerSec": 10}]}"#, "rules[0]"),
        (#"{"rules": {}}"#, "rules"),
        (#"{"clientHeader": "X Client"}"#, "clientHeader"),
        (#"{"rules": [], "extra": 1}"#, "extra"),
        (#"[1]"#, ""),
        (#"{"#, ""),
    ])
    func errorsNameTheField(json: String, field: String) {
        let error = refusal(json)
        #expect(error?.field == field, "\(json) gave \(String(describing: error))")
        #expect(error.map { !$0.reason.isEmpty } == true)
    }
}
