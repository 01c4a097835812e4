import Foundation
import OutboundHTTP
import Synchronization
import Testing
@testable import HumanTokenAPI

/// Unico's host names are resolved once a minute, not on every call, and again after a failure.
@Suite("Unico host addresses")
struct HostAddressesTests {
    static let loopback = IPAddress("127.0.0.1")!

    /// A resolver answering `loopback` for every name, counting its lookups, and a clock moved by hand.
    final class Resolver: Sendable {
        let lookups = Mutex<[String]>([])
        let time = Mutex(ContinuousClock.now)

        func addresses() -> HostAddresses {
            HostAddresses(
                resolve: { host throws(OutboundHTTPError) in
                    self.lookups.withLock { $0.append(host) }
                    return [HostAddressesTests.loopback]
                },
                now: { self.time.withLock { $0 } })
        }

        var count: Int { lookups.withLock { $0.count } }
        func advance(_ duration: Duration) { time.withLock { $0 += duration } }
    }

    @Test func aNameIsResolvedOnceAMinuteAndAgainOnceForgotten() async throws {
        let resolver = Resolver()
        let addresses = resolver.addresses()
        #expect(try await addresses.addresses(of: "api.unico.test") == [Self.loopback])
        resolver.advance(.seconds(59))
        _ = try await addresses.addresses(of: "api.unico.test")
        #expect(resolver.count == 1)
        _ = try await addresses.addresses(of: "identity.unico.test")
        #expect(resolver.count == 2)
        resolver.advance(.seconds(1))
        _ = try await addresses.addresses(of: "api.unico.test")
        #expect(resolver.count == 3)
        addresses.forget("api.unico.test")
        _ = try await addresses.addresses(of: "api.unico.test")
        #expect(
            resolver.lookups.withLock { $0 } == ["api.unico.test", "identity.unico.test", "api.unico.test", "api.unico.test"])
    }

    @Test func anIPLiteralIsNeverLookedUp() async throws {
        let resolver = Resolver()
        let addresses = resolver.addresses()
        #expect(try await addresses.addresses(of: "127.0.0.1") == [Self.loopback])
        #expect(try await addresses.addresses(of: "::1") == [IPAddress("::1")!])
        #expect(resolver.count == 0)
    }

    /// Through the exchange: the name's cached address serves calls; a failed connection to it
    /// makes the next call resolve the name again.
    @Test func aCallThatCannotConnectForgetsTheHost() async throws {
        try await withStubUnico { stub in
            let resolver = Resolver()
            let exchange = HTTPExchange(timeout: 5, addresses: resolver.addresses())
            let url = URL(string: "http://unico.test:\(stub.server.port ?? 0)/client/v1/process/p-1")!
            for _ in 0..<2 {
                let answer = try await exchange.send("GET", url, headers: [], body: nil)
                #expect(answer.status == 200)
            }
            #expect(resolver.count == 1)
            guard let port = FreePort.pick() else { return }
            let unreachable = URL(string: "http://unico.test:\(port)/processes")!
            let error = await apiError { try await exchange.send("GET", unreachable, headers: [], body: nil) }
            #expect(error?.code == .transport)
            #expect(error?.message.contains("unico.test:\(port)") == true)
            let after = try await exchange.send("GET", url, headers: [], body: nil)
            #expect(after.status == 200)
            #expect(resolver.count == 2)
        }
    }
}
