import Foundation
import JourneyTesting
import Lifecycle
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite struct ServiceGroupTests {
    private func group(_ services: [any Service], signals: [UnixSignal] = []) -> ServiceGroup {
        ServiceGroup(configuration: .init(services: services, gracefulShutdownSignals: signals))
    }

    @Test func cancellationStopsTheServicesInReverseOrder() async throws {
        let journal = Journal()
        let group = group(["a", "b", "c"].map { WaitingService(name: $0, journal: journal) })
        let run = Task { try await group.run() }
        try await waitUntil("services a, b, c started") { journal.started("a", "b", "c") }
        run.cancel()
        try await run.value
        #expect(journal.stops == ["stop c", "stop b", "stop a"])
    }

    @Test func aThrowingServiceStopsTheOthersAndItsErrorSurfaces() async throws {
        let journal = Journal()
        let group = group([
            WaitingService(name: "a", journal: journal), FailingService(name: "b", journal: journal),
            WaitingService(name: "c", journal: journal),
        ])
        await #expect(throws: FailingService.Failure(code: "boom")) { try await group.run() }
        #expect(journal.stops == ["stop c", "stop a"])
    }

    @Test func aServiceThatReturnsShutsTheGroupDownUnlessIgnored() async throws {
        let journal = Journal()
        try await group([
            WaitingService(name: "a", journal: journal), ShortService(name: "b", journal: journal),
            WaitingService(name: "c", journal: journal),
        ]).run()
        #expect(journal.stops == ["stop c", "stop a"])

        let ignoring = Journal()
        let group = ServiceGroup(
            configuration: .init(
                services: [
                    .init(service: WaitingService(name: "a", journal: ignoring)),
                    .init(service: ShortService(name: "b", journal: ignoring), successTerminationBehavior: .ignore),
                ], gracefulShutdownSignals: []))
        let run = Task { try await group.run() }
        try await waitUntil("services a, b started") { ignoring.started("a", "b") }
        #expect(ignoring.stops.isEmpty)
        group.triggerGracefulShutdown()
        try await run.value
        #expect(ignoring.stops == ["stop a"])
    }

    @Test func aConfiguredSignalShutsTheGroupDown() async throws {
        let journal = Journal()
        let group = group(["a", "b"].map { WaitingService(name: $0, journal: journal) }, signals: [.sigusr1])
        let run = Task { try await group.run() }
        try await waitUntil("services a, b started") { journal.started("a", "b") }
        // Sent until it lands (the signal source registers asynchronously); ignored meanwhile.
        try await waitUntil("SIGUSR1 stopped both services") {
            if journal.stops.isEmpty { kill(getpid(), SIGUSR1) }
            return journal.stops.count == 2
        }
        if journal.stops.count < 2 { run.cancel() }  // fail rather than hang
        try await run.value
        #expect(journal.stops == ["stop b", "stop a"])
    }

    /// As under `journeys`, whose CLI listens for SIGTERM/SIGINT itself before the group starts:
    /// the group must not ignore a signal that already has a handler.
    @Test func aSignalAlsoHeardByAnotherSourceStillShutsTheGroupDown() async throws {
        let heard = Journal()
        signal(SIGUSR2, SIG_IGN)
        let outside = DispatchSource.makeSignalSource(signal: SIGUSR2, queue: .global())
        outside.setEventHandler { heard.record("outside") }
        outside.resume()
        defer { outside.cancel() }
        try await waitUntil("SIGUSR2 heard") {
            if heard.all.isEmpty { kill(getpid(), SIGUSR2) }
            return !heard.all.isEmpty
        }
        let journal = Journal()
        let group = group(["a", "b"].map { WaitingService(name: $0, journal: journal) }, signals: [.sigusr2])
        let run = Task { try await group.run() }
        try await waitUntil("services a, b started") { journal.started("a", "b") }
        try await waitUntil("SIGUSR2 stopped both services") {
            if journal.stops.isEmpty { kill(getpid(), SIGUSR2) }
            return journal.stops.count == 2
        }
        if journal.stops.count < 2 { run.cancel() }  // fail rather than hang
        try await run.value
        #expect(journal.stops == ["stop b", "stop a"])
    }

    @Test func aServiceThatOutlivesItsTimeoutIsReportedAndTheRestStillStop() async throws {
        let journal = Journal()
        let stuck = StuckService(journal: journal)
        let group = ServiceGroup(
            configuration: .init(
                services: [
                    .init(service: WaitingService(name: "a", journal: journal)),
                    .init(service: stuck, name: "stuck", gracefulShutdownTimeout: .milliseconds(100)),
                ], gracefulShutdownSignals: []))
        let run = Task { try await group.run() }
        try await waitUntil("services a, stuck started") { journal.started("a", "stuck") }
        let began = ContinuousClock.now
        run.cancel()
        await #expect(throws: ServiceGroupError(.gracefulShutdownTimedOut, services: ["stuck"])) { try await run.value }
        #expect(ContinuousClock.now - began < .seconds(5))
        #expect(journal.stops == ["stop a"])
        stuck.unblock()
        try await waitUntil("a and stuck stopped") { journal.stops == ["stop a", "stop stuck"] }
    }

    @Test func runIsCallableOnce() async throws {
        let group = group([ShortService(name: "a", journal: Journal())])
        try await group.run()
        await #expect(throws: ServiceGroupError(.alreadyRunning)) { try await group.run() }
    }

    @Test func gracefulShutdownReturnsWhenAlreadyCancelled() async {
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            await gracefulShutdown()
        }
        await task.value
    }
}
