import Foundation
import HumanTokenAPI
import SDKLiteSimulator
import Testing

/// `SimulatedDevice.run`, the one-call form for tests and the demo.
@Suite("SimulatedDevice.run")
struct SimulatedDeviceRunTests {
    @Test(arguments: SimulatedUser.allCases)
    func everyUserEndsAsTheCallbacksSay(_ user: SimulatedUser) async throws {
        try await withUnico { unico in
            let process = try await unico.createProcess()
            let outcome = await unico.device().run(webAppToken: process.webAppToken, environment: .UAT, user: user)
            switch user {
            case .closeCamera: #expect(outcome == .closedByUser)
            case .letSessionTimeOut: #expect(outcome == .sessionTimedOut)
            default: #expect(outcome == .success(processId: process.id))
            }
            #expect(outcome.processId == (user.endsJourney ? process.id : nil))
            #expect(outcome.errorCode == nil)
        }
    }

    @Test func errorsCarryTheSeedsCode() async throws {
        try await withUnico { unico in
            let process = try await unico.createProcess()
            let device = unico.device()
            #expect(await device.run(webAppToken: "", environment: .UAT, user: .approve).errorCode == 73203)
            #expect(await device.run(webAppToken: process.token, environment: .UAT, user: .approve).errorCode == 73304)
            #expect(await device.run(webAppToken: process.webAppToken, environment: .PROD, user: .approve).errorCode == 73304)
            let onSimulator = unico.device(isSimulator: true)
            #expect(await onSimulator.run(webAppToken: process.webAppToken, environment: .UAT, user: .approve).errorCode == 73006)
            let offline = unico.device(network: .offline)
            #expect(await offline.run(webAppToken: process.webAppToken, environment: .UAT, user: .approve).errorCode == 73302)
            unico.clock.advance(by: 301)
            #expect(await device.run(webAppToken: process.webAppToken, environment: .UAT, user: .approve).errorCode == 73305)
        }
    }

    @Test func concurrentPhonesFinishTheirOwnProcesses() async throws {
        try await withUnico { unico in
            let users: [SimulatedUser] = [.approve, .beRejected, .approve, .closeCamera, .approve, .beRejected]
            var processes: [CreatedProcess] = []
            for _ in users { processes.append(try await unico.createProcess()) }
            let device = unico.device()
            let outcomes = await withTaskGroup(of: (Int, DeviceOutcome).self) { group in
                for (index, user) in users.enumerated() {
                    let token = processes[index].webAppToken
                    group.addTask { (index, await device.run(webAppToken: token, environment: .UAT, user: user)) }
                }
                var outcomes: [Int: DeviceOutcome] = [:]
                for await (index, outcome) in group { outcomes[index] = outcome }
                return outcomes
            }
            for (index, user) in users.enumerated() {
                let expected: DeviceOutcome = user == .closeCamera ? .closedByUser : .success(processId: processes[index].id)
                #expect(outcomes[index] == expected)
                let result = try await unico.process(processes[index].id).result
                #expect(result == (user == .approve ? .ok : user == .beRejected ? .invalidIdentity : .unspecified))
            }
        }
    }

    @Test func handingThePhoneOverKeepsItsSetup() throws {
        let configuration = SimulatedDevice.Configuration(
            emulatorURL: try #require(URL(string: "http://127.0.0.1:9")), isSimulator: true, network: .captivePortal)
        let device = SimulatedDevice(configuration: configuration, user: .closeCamera)
        let other = device.handed(to: .beRejected)
        #expect(other.user == .beRejected)
        #expect(other.configuration.isSimulator)
        #expect(other.configuration.network == .captivePortal)
        #expect(other.configuration.emulatorURL == configuration.emulatorURL)
        #expect(SimulatedDevice(emulatorURL: configuration.emulatorURL).user == .approve)
    }
}

extension SimulatedUser {
    /// Whether this user's journey reaches the emulator's finish endpoint.
    var endsJourney: Bool { self != .closeCamera && self != .letSessionTimeOut }
}
