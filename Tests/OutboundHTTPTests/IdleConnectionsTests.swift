@testable import OutboundHTTP
import Testing

/// The pool's bookkeeping without sockets: which idle connection is taken, and which are closed.
@Suite struct IdleConnectionsTests {
    static let start = ContinuousClock.now
    static let one = IPAddress("192.0.2.1")!
    static let two = IPAddress("192.0.2.2")!

    func destination(_ host: String, port: UInt16 = 443, secure: Bool = true) -> ConnectionPool.Destination {
        ConnectionPool.Destination(.init(secure: secure, host: host, port: port, requestTarget: "/"))
    }

    func at(_ seconds: Int) -> ContinuousClock.Instant { Self.start + .seconds(seconds) }

    @Test func theMostRecentConnectionToTheSameDestinationAndACheckedAddressIsTaken() {
        var idle = IdleConnections<String>(maxPerDestination: 8, maxTotal: 64, idleTimeout: .seconds(20))
        _ = idle.put("a1", destination("a.test"), address: Self.one, now: at(0))
        _ = idle.put("a2", destination("a.test"), address: Self.one, now: at(1))
        _ = idle.put("a-other", destination("a.test"), address: Self.two, now: at(2))
        #expect(idle.take(destination("a.test"), at: [Self.one], now: at(3)).taken == "a2")
        #expect(idle.take(destination("A.TEST"), at: [Self.one], now: at(3)).taken == "a1", "host names are case-insensitive")
        #expect(idle.take(destination("a.test"), at: [Self.one], now: at(3)).taken == nil, "never one at an unchecked address")
        #expect(idle.take(destination("a.test", secure: false), at: [Self.two], now: at(3)).taken == nil)
        #expect(idle.take(destination("a.test", port: 8443), at: [Self.two], now: at(3)).taken == nil)
        #expect(idle.take(destination("b.test"), at: [Self.two], now: at(3)).taken == nil)
        #expect(idle.take(destination("a.test"), at: [Self.two], now: at(3)).taken == "a-other")
        #expect(idle.count == 0)
    }

    @Test func connectionsIdleForTheTimeoutAreClosed() {
        var idle = IdleConnections<String>(maxPerDestination: 8, maxTotal: 64, idleTimeout: .seconds(20))
        _ = idle.put("old", destination("a.test"), address: Self.one, now: at(0))
        _ = idle.put("other", destination("b.test"), address: Self.one, now: at(5))
        _ = idle.put("new", destination("a.test"), address: Self.one, now: at(10))
        let (taken, close) = idle.take(destination("a.test"), at: [Self.one], now: at(20))
        #expect(taken == "new" && close == ["old"])
        #expect(idle.put("back", destination("a.test"), address: Self.one, now: at(25)) == ["other"])
        #expect(idle.count == 1)
    }

    @Test func theCapsCloseTheNewcomerPerDestinationAndTheOldestInAll() {
        var idle = IdleConnections<String>(maxPerDestination: 2, maxTotal: 3, idleTimeout: .seconds(20))
        #expect(idle.put("a1", destination("a.test"), address: Self.one, now: at(0)).isEmpty)
        #expect(idle.put("a2", destination("a.test"), address: Self.one, now: at(1)).isEmpty)
        #expect(idle.put("a3", destination("a.test"), address: Self.one, now: at(2)) == ["a3"])
        #expect(idle.put("b1", destination("b.test"), address: Self.one, now: at(3)).isEmpty)
        #expect(idle.put("c1", destination("c.test"), address: Self.one, now: at(4)) == ["a1"])
        #expect(idle.count == 3)
        #expect(idle.take(destination("a.test"), at: [Self.one], now: at(5)).taken == "a2")
    }
}
