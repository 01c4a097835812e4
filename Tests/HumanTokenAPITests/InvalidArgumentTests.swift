import Foundation
import HumanTokenAPI
import Testing

/// Requests the emulator refuses, each reported as `invalid_argument` naming the field.
@Suite("Invalid arguments against the emulator")
struct InvalidArgumentTests {
    /// A name for the case plus the change that breaks the request.
    struct Breakage: Sendable, CustomTestStringConvertible {
        let name: String
        let field: String
        let change: @Sendable (inout CreateProcessRequest) -> Void
        var testDescription: String { name }
    }

    static let breakages: [Breakage] = [
        Breakage(name: "empty flow", field: "flow") { $0.flow = "" },
        Breakage(name: "unknown purpose", field: "purpose") { $0.purpose = "shopping" },
        Breakage(name: "relative callback", field: "callbackUri") { $0.callbackUri = "back" },
        Breakage(name: "formatted CPF", field: "person.duiValue") { $0.person.duiValue = "529.982.247-25" },
        Breakage(name: "missing CPF", field: "person.duiValue") { $0.person.duiValue = "" },
        Breakage(name: "odd document type", field: "person.duiType") { $0.person.duiType = "CPF" },
        Breakage(name: "51-character name", field: "person.friendlyName") {
            $0.person.friendlyName = String(repeating: "a", count: 51)
        },
        Breakage(name: "bad phone", field: "person.phone") { $0.person.phone = "call me" },
        Breakage(name: "bad e-mail", field: "person.email") { $0.person.email = "maria" },
        Breakage(name: "unknown channel", field: "person.notifications[1].notificationChannel") {
            $0.person.notifications[1] = ProcessNotification("NOTIFICATION_CHANNEL_PIGEON")
        },
        Breakage(name: "e-mail channel without e-mail", field: "person.email") { $0.person.email = nil },
        Breakage(name: "zero lifetime", field: "expiresIn") { $0.expiresIn = 0 },
        Breakage(name: "lifetime over 30 days", field: "expiresIn") { $0.expiresIn = 31 * 86_400 },
        Breakage(name: "overlong reference", field: "clientReference") {
            $0.clientReference = String(repeating: "r", count: 257)
        },
    ]

    @Test(arguments: breakages)
    func refusedFieldIsNamed(breakage: Breakage) async throws {
        try await withEmulator { unico in
            let client = try unico.client()
            var request = Samples.fullRequest()
            breakage.change(&request)
            let error = await apiError { try await client.createProcess(request) }
            #expect(error?.code == .invalidArgument)
            #expect(error?.field == breakage.field)
            #expect(error?.status == 400)
            #expect(error?.unicoCode == "3")
            #expect(error?.message.contains(breakage.field) == true)
            expectNoSecrets(error, Samples.personalData + ["529.982.247-25", "call me", "PIGEON"])
            #expect(unico.emulator.processes().isEmpty)
        }
    }
}
