import CLI
import Foundation
import HumanTokenAPI
import JourneyApp
import JourneyCommands
import JourneyTesting
import Testing

@Suite struct EmulatorCommandTests {
    /// The variables `journeys emulator` prints are all a real client needs to reach it.
    @Test func printedSettingsPointTheRealClientAtTheEmulator() async throws {
        let keys = NSTemporaryDirectory() + "journeys-emulator-keys-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: keys) }
        let processesFile = keys + "/processes.jsonl"
        let capture = OutputCapture()
        let environment = AppEnvironment(variables: [:], writeLine: { capture.append($0) })
        let running = Task {
            await AppEnvironment.$current.withValue(environment) {
                await CommandLineTool.execute(
                    root: JourneysCommand.self,
                    arguments: [
                        "emulator", "--port", "0", "--key-dir", keys,
                        "--processes-file", processesFile,
                    ])
            }
        }
        defer { running.cancel() }
        try await waitUntil("the emulator prints its settings") { capture.text.contains("UNICO_PROD_PRIVATE_KEY_FILE") }
        var variables: [String: String] = [:]
        for line in capture.all where line.hasPrefix("UNICO_") {
            let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
            variables[parts[0]] = parts[1]
        }
        #expect(variables.count == 12)
        // The emulator serves the (undocumented) search by clientReference: its variables turn it on.
        #expect(variables["UNICO_UAT_LOOKUP"] == "search")
        #expect(variables["UNICO_PROD_LOOKUP"] == "search")
        let keyFile = try #require(variables["UNICO_UAT_PRIVATE_KEY_FILE"])
        let attributes = try FileManager.default.attributesOfItem(atPath: keyFile)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)

        let configuration = try HumanTokenAPIConfiguration.fromEnvironment(variables, environment: .uat)
        #expect(configuration.lookup == .search)
        let client = try HumanTokenAPIClient(configuration: configuration)
        let created = try await client.createProcess(
            CreateProcessRequest(
                flow: "idlive", purpose: .creditProcess, person: ProcessPerson(duiValue: "12345678909")))
        #expect(!created.webAppToken.isEmpty)
        #expect(created.webAppToken != created.token)
        let snapshot = try await client.getProcess(created.id)
        #expect(snapshot.state == .created)

        running.cancel()
        let result = await running.value
        #expect(result.exitCode == 0 || result.exitCode == 130)
        // On shutdown it wrote the process it created, without personal data.
        let lines = try String(contentsOfFile: processesFile, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 1)
        let process = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        #expect(process["id"] as? String == created.id)
        #expect(process["environment"] as? String == "UAT")
        #expect(!lines[0].contains("12345678909"))
    }
}
