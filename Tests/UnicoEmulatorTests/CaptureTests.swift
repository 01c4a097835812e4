import Cryptography
import Foundation
import JSONBytes
import Testing
import UnicoEmulator

@Suite("SDK-facing capture endpoints")
struct CaptureTests {
    static func prepare(_ fixture: Fixture, _ token: String, environment: String = "UAT") async throws -> Reply {
        try await fixture.client.json("POST", "/sdk/captures", ["webAppToken": token, "environment": environment])
    }

    static func finish(_ fixture: Fixture, _ captureID: String, _ outcome: String) async throws -> Reply {
        try await fixture.client.json("POST", "/sdk/captures/\(captureID)/finish", ["outcome": outcome])
    }

    static func sdkCode(_ reply: Reply) throws -> Int {
        try #require(try reply.json()["sdkCode"] as? Int)
    }

    @Test func preparesACaptureWithTheWebAppToken() async throws {
        try await withEmulator { fixture in
            let process = try await fixture.createProcess(token: try await fixture.accessToken())
            let reply = try await Self.prepare(fixture, process["webAppToken"] as! String)
            #expect(reply.status == 201)
            let json = try reply.json()
            #expect((json["captureId"] as? String)?.isEmpty == false)
            #expect(json["processId"] as? String == process["id"] as? String)
        }
    }

    @Test(arguments: ["", "   ", "\n\t"])
    func blankTokenIs73203(_ token: String) async throws {
        try await withEmulator { fixture in
            let reply = try await Self.prepare(fixture, token)
            #expect(reply.status == 400)
            #expect(try Self.sdkCode(reply) == 73203)
        }
    }

    @Test func missingTokenIs73203() async throws {
        try await withEmulator { fixture in
            let reply = try await fixture.client.json("POST", "/sdk/captures", ["environment": "UAT"])
            #expect(try Self.sdkCode(reply) == 73203)
        }
    }

    @Test func theProcessTokenInsteadOfTheWebAppTokenIs73304() async throws {
        try await withEmulator { fixture in
            let process = try await fixture.createProcess(token: try await fixture.accessToken())
            let reply = try await Self.prepare(fixture, process["token"] as! String)
            #expect(reply.status == 401)
            #expect(try Self.sdkCode(reply) == 73304)
        }
    }

    @Test func forgedTokensAre73304() async throws {
        try await withEmulator { fixture in
            let process = try await fixture.createProcess(token: try await fixture.accessToken())
            let genuine = process["webAppToken"] as! String
            let parts = genuine.split(separator: ".").map(String.init)

            // Same claims signed by another Ed25519 key.
            let payload = try #require(Base64URL.decode(parts[1]))
            let claims = try JSONDecoder().decode([String: JSONValue].self, from: payload)
            let otherKey = Ed25519PrivateKey.generate()
            let resigned = try JWT.sign(claims: claims, with: .edDSA(otherKey))
            // Claims edited to name another process, original signature kept.
            var edited = claims
            edited["pid"] = "00000000-0000-0000-0000-000000000000"
            let tampered = parts[0] + "." + Base64URL.encode(try JSONEncoder().encode(edited)) + "." + parts[2]
            // An unsigned token.
            let unsigned = Base64URL.encode(Data(#"{"alg":"none"}"#.utf8)) + "." + parts[1] + "."

            for forged in [resigned, tampered, unsigned, "garbage", genuine + "x"] {
                let reply = try await Self.prepare(fixture, forged)
                #expect(reply.status == 401)
                #expect(try Self.sdkCode(reply) == 73304)
            }
            #expect(try await Self.prepare(fixture, genuine).status == 201)
        }
    }

    @Test func anotherEnvironmentIs73304() async throws {
        try await withEmulator { fixture in
            let process = try await fixture.createProcess(token: try await fixture.accessToken())
            let reply = try await Self.prepare(fixture, process["webAppToken"] as! String, environment: "PROD")
            #expect(reply.status == 401)
            #expect(try Self.sdkCode(reply) == 73304)
        }
    }

    @Test func webAppTokenExpiresAfterFiveMinutesWith73305() async throws {
        try await withEmulator { fixture in
            let process = try await fixture.createProcess(token: try await fixture.accessToken())
            let token = process["webAppToken"] as! String
            fixture.clock.advance(by: 299)
            #expect(try await Self.prepare(fixture, token).status == 201)
            fixture.clock.advance(by: 2)
            let reply = try await Self.prepare(fixture, token)
            #expect(reply.status == 401)
            #expect(try Self.sdkCode(reply) == 73305)
            #expect(fixture.emulator.process(id: process["id"] as! String)?.state == .created, "the process outlives the token")
        }
    }

    @Test func disabledTokenEntryIs73303InThatEnvironmentOnly() async throws {
        try await withEmulator({ $0.faultScript.tokenEntryDisabled = [.uat] }) { fixture in
            let uat = try await fixture.createProcess(token: try await fixture.accessToken(TestKeys.uat))
            let refused = try await Self.prepare(fixture, uat["webAppToken"] as! String)
            #expect(refused.status == 403)
            #expect(try Self.sdkCode(refused) == 73303)
            let prod = try await fixture.createProcess(token: try await fixture.accessToken(TestKeys.prod))
            #expect(try await Self.prepare(fixture, prod["webAppToken"] as! String, environment: "prod").status == 201)
        }
    }

    @Test func approvedFinishSetsResultAndHumanToken() async throws {
        try await withEmulator { fixture in
            let access = try await fixture.accessToken()
            let process = try await fixture.createProcess(token: access)
            let id = process["id"] as! String
            let captureID = try #require(
                try await Self.prepare(fixture, process["webAppToken"] as! String).json()["captureId"] as? String)
            fixture.clock.advance(by: 42.5)
            let finished = try await Self.finish(fixture, captureID, "approved")
            #expect(finished.status == 200)
            #expect(try finished.json()["result"] as? String == "PROCESS_RESULT_OK")

            let got = try await fixture.client.send("GET", "/processes/\(id)", headers: ["Authorization": "Bearer \(access)"])
            let json = try #require(try got.json()["process"] as? [String: Any])
            #expect(json["state"] as? String == "PROCESS_STATE_FINISHED")
            #expect(json["result"] as? String == "PROCESS_RESULT_OK")
            #expect(json["finishedAt"] as? String == "2026-01-01T00:00:42.500Z")
            let humanToken = try #require(
                ((json["data"] as? [String: Any])?["humanToken"] as? [String: Any])?["value"] as? String)
            #expect(humanToken.count >= 40)
            #expect(fixture.emulator.process(id: id)?.humanToken == humanToken)

            let again = try await Self.finish(fixture, captureID, "approved")
            #expect(again.status == 409)
            let reopen = try await Self.prepare(fixture, process["webAppToken"] as! String)
            #expect(try Self.sdkCode(reopen) == 73304, "a finished process opens no capture")
        }
    }

    @Test(arguments: [
        ("rejected", UnicoEmulator.ProcessResult.invalidIdentity),
        ("expired", .expired),
        ("error", .error),
    ])
    func otherOutcomesFinishWithoutHumanToken(_ outcome: String, _ result: UnicoEmulator.ProcessResult) async throws {
        try await withEmulator { fixture in
            let access = try await fixture.accessToken()
            let process = try await fixture.createProcess(token: access)
            let captureID = try #require(
                try await Self.prepare(fixture, process["webAppToken"] as! String).json()["captureId"] as? String)
            #expect(try await Self.finish(fixture, captureID, outcome).status == 200)
            let got = try await fixture.client.send(
                "GET", "/processes/\(process["id"] as! String)", headers: ["Authorization": "Bearer \(access)"])
            let json = try #require(try got.json()["process"] as? [String: Any])
            #expect(json["state"] as? String == "PROCESS_STATE_FINISHED")
            #expect(json["result"] as? String == result.rawValue)
            #expect(json["data"] == nil)
        }
    }

    @Test func finishRefusesUnknownCapturesAndOutcomes() async throws {
        try await withEmulator { fixture in
            let unknown = try await Self.finish(fixture, "nope", "approved")
            #expect(unknown.status == 404)
            #expect(try Self.sdkCode(unknown) == 73302)
            let process = try await fixture.createProcess(token: try await fixture.accessToken())
            let captureID = try #require(
                try await Self.prepare(fixture, process["webAppToken"] as! String).json()["captureId"] as? String)
            #expect(try await Self.finish(fixture, captureID, "maybe").status == 400)
        }
    }

    @Test func aProcessPastItsLifetimeFinishesExpired() async throws {
        try await withEmulator { fixture in
            let access = try await fixture.accessToken()
            var body = Fixture.validBody
            body["expiresIn"] = "120s"
            let process = try await fixture.createProcess(token: access, body)
            let id = process["id"] as! String
            fixture.clock.advance(by: 121)
            let got = try await fixture.client.send("GET", "/processes/\(id)", headers: ["Authorization": "Bearer \(access)"])
            let json = try #require(try got.json()["process"] as? [String: Any])
            #expect(json["state"] as? String == "PROCESS_STATE_FINISHED")
            #expect(json["result"] as? String == "PROCESS_RESULT_EXPIRED")
            #expect(json["finishedAt"] as? String == "2026-01-01T00:02:00.000Z")
            #expect(json["lastEvent"] as? String == "EVENT_TYPE_PROCESS_CREATED")
        }
    }

    @Test func theLinkOpensACaptureAfterTheWebAppTokenExpiredWhileTheProcessIsOpen() async throws {
        try await withEmulator { fixture in
            let access = try await fixture.accessToken()
            var body = Fixture.validBody
            body["expiresIn"] = "7200s"
            let process = try await fixture.createProcess(token: access, body)
            let id = process["id"] as! String
            // An hour later the webAppToken is long expired; the link still opens a capture.
            fixture.clock.advance(by: 3600)
            #expect(try Self.sdkCode(try await Self.prepare(fixture, process["webAppToken"] as! String)) == 73305)
            let opened = try await fixture.client.json("POST", "/link/\(id)/captures", [:])
            #expect(opened.status == 201)
            let captureID = try #require(try opened.json()["captureId"] as? String)
            #expect(try opened.json()["processId"] as? String == id)
            #expect(try await Self.finish(fixture, captureID, "approved").status == 200)
            #expect(fixture.emulator.process(id: id)?.result == .ok)
            // An ended process, an expired one or an unknown one opens no capture through its link.
            #expect(try Self.sdkCode(try await fixture.client.json("POST", "/link/\(id)/captures", [:])) == 73304)
            body["expiresIn"] = "60s"
            let short = try await fixture.createProcess(token: try await fixture.accessToken(), body)
            fixture.clock.advance(by: 61)
            let shortID = short["id"] as! String
            #expect(try Self.sdkCode(try await fixture.client.json("POST", "/link/\(shortID)/captures", [:])) == 73305)
            #expect(try Self.sdkCode(try await fixture.client.json("POST", "/link/unknown/captures", [:])) == 73304)
        }
    }
}
