import AccessControl
import Foundation
import JourneyClient
@testable import JourneyAPI
import SDKLiteSimulator
import Testing

/// The iOS guide's capture screen (`CaptureViewController.swift`, quoted whole by the guide)
/// driven through the SDK Lite simulator against the service and the Unico emulator.
@Suite(.serialized) struct iOSGuideCaptureScreenTests {
    @Test func anApprovedCaptureFinishesWithTheStatusTheServiceAnswered() async throws {
        try await withClientHarness { h in
            let start = try await h.backendStartsJourney()
            let screen = try await shownAfterCapture(
                h.app(start), on: SimulatedDevice(emulatorURL: h.emulatorURL, user: .approve))
            guard case .finished(let status) = screen else {
                Issue.record("expected finished, got \(screen)")
                return
            }
            #expect(status.status == "completed")
            #expect(status.outcome == "approved")
        }
    }

    @Test func aRejectionAlsoCallsOnSuccessAndTheStatusSaysRejected() async throws {
        try await withClientHarness { h in
            let start = try await h.backendStartsJourney()
            let screen = try await shownAfterCapture(
                h.app(start), on: SimulatedDevice(emulatorURL: h.emulatorURL, user: .beRejected))
            guard case .finished(let status) = screen else {
                Issue.record("expected finished, got \(screen)")
                return
            }
            #expect(status.outcome == "rejected")
        }
    }

    @Test func anExpiredTokenOffersTryAgainAndTryingAgainGetsANewProcess() async throws {
        try await withClientHarness { h in
            let start = try await h.backendStartsJourney()
            let app = h.app(start)
            h.unicoClock.advance(by: 301)
            let device = SimulatedDevice(emulatorURL: h.emulatorURL)
            #expect(try await shownAfterCapture(app, on: device) == .tryAgain(code: 73305))
            guard case .finished(let status) = try await shownAfterCapture(app, on: device) else {
                Issue.record("expected finished after trying again")
                return
            }
            #expect(status.attempt == 2)
            #expect(status.status == "completed")
        }
    }

    @Test func closingTheCameraOffersTryAgain() async throws {
        try await withClientHarness { h in
            let start = try await h.backendStartsJourney()
            let device = SimulatedDevice(emulatorURL: h.emulatorURL, user: .closeCamera)
            #expect(try await shownAfterCapture(h.app(start), on: device) == .tryAgain(code: nil))
        }
    }

    @Test func theSimulatorCodeEndsTheJourneyWithTheCatalogsAction() async throws {
        try await withClientHarness { h in
            let start = try await h.backendStartsJourney()
            let device = SimulatedDevice(configuration: .init(emulatorURL: h.emulatorURL, isSimulator: true))
            #expect(try await shownAfterCapture(h.app(start), on: device) == .cannotContinue(reason: "Test on a physical device"))
        }
    }

    @Test func aForeignClientTokenAsksForANewJourney() async throws {
        try await withClientHarness { h in
            let start = try await h.backendStartsJourney()
            let forged = JourneyClient(
                session: JourneySession(
                    baseURL: h.baseURL, journeyID: start.journeyId,
                    clientToken: "not-a-token"))
            #expect(try await shownAfterCapture(forged, on: SimulatedDevice(emulatorURL: h.emulatorURL)) == .needsNewJourney)
        }
    }
}

/// The guide's code block is the sample file, byte for byte.
@Suite struct iOSGuideTextTests {
    @Test func theGuideQuotesTheCompiledSampleWhole() throws {
        let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        let root = tests.deletingLastPathComponent().deletingLastPathComponent()
        let sample = try String(contentsOf: tests.appendingPathComponent("CaptureViewController.swift"), encoding: .utf8)
        let guide = try String(
            contentsOf: root.appendingPathComponent("Sources/JourneyClient/JourneyClient.docc/iOSGuide.md"), encoding: .utf8)
        let marker = "<!-- CaptureViewController.swift -->\n```swift\n"
        let start = try #require(guide.range(of: marker), "the guide has no block after \(marker)")
        let end = try #require(guide.range(of: "\n```\n", range: start.upperBound..<guide.endIndex))
        #expect(
            String(guide[start.upperBound..<end.lowerBound]) + "\n" == sample,
            "copy Tests/JourneyClientTests/CaptureViewController.swift into the iOS guide's block")
    }

    @Test func theGuideStatesTheClientTokenLifetimeOfTheCode() throws {
        let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        let guide = try String(
            contentsOf: tests.deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("Sources/JourneyClient/JourneyClient.docc/iOSGuide.md"), encoding: .utf8)
        // JourneyAPI's JourneyClientToken.lifetime, which POST /v1/journeys and …/client-token use.
        #expect(JourneyClientToken.lifetime == 3600)
        #expect(guide.contains("valid for **1 hour**"))
    }
}

/// Opens the guide's screen on `device`, taps "Start", and returns the first screen after the capture.
@SDKMainActor
private func shownAfterCapture(_ journey: JourneyClient, on device: SimulatedDevice) async throws
    -> CaptureViewController.Screen
{
    let screen = CaptureViewController(device: device)
    screen.journey = journey
    let shown = await withCheckedContinuation { (continuation: CheckedContinuation<CaptureViewController.Screen, Never>) in
        screen.show = { [weak screen] shown in
            switch shown {
            case .preparing, .capturing: return
            default:
                screen?.show = { _ in }
                continuation.resume(returning: shown)
            }
        }
        screen.startCapture()
    }
    return shown
}
