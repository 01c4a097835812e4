import Foundation
import Testing

/// `GET /v1/reports/{name}`: scope `reports:read`, JSON, and 4xx problems naming the parameter.
@Suite(.serialized) struct ReportRoutesTests {
    static let window = "from=2026-03-01&to=2026-03-07"

    @Test func reportsNeedTheReportsReadScope() async throws {
        try await withService { service, _ in
            let anonymous = try await service.send("/v1/reports/funnel?\(Self.window)")
            #expect(anonymous.status == 401)
            #expect(anonymous.headers["content-type"] == "application/problem+json")
            let wrongScope = try await service.send("/v1/reports/funnel?\(Self.window)", bearer: service.reader)
            #expect(wrongScope.status == 403)
            #expect(wrongScope.code == "forbidden")
            // Authentication comes before validation: nothing is revealed to a caller without the scope.
            let unknownWithoutScope = try await service.send("/v1/reports/nope?from=x", bearer: service.reader)
            #expect(unknownWithoutScope.status == 403)
        }
    }

    @Test func reportsAnswerJSON() async throws {
        try await withService { service, fixture in
            let funnel = try await service.send("/v1/reports/funnel?\(Self.window)&environment=PROD", bearer: service.reporter)
            #expect(funnel.status == 200)
            #expect(funnel.headers["content-type"] == "application/json")
            #expect(funnel.json["report"] as? String == "funnel")
            #expect(funnel.json["environment"] as? String == "PROD")
            let steps = try #require((funnel.json["result"] as? [String: Any])?["steps"] as? [[String: Any]])
            #expect(steps.map { $0["journeys"] as? Int } == [2, 2, 2, 1, 1, 1])

            // The SLA is measured at the service clock's now (Fixture.now).
            let sla = try await service.send(
                "/v1/reports/sla?\(Self.window)&thresholdMinutes=20&stuckMinutes=30", bearer: service.reporter)
            #expect(sla.status == 200)
            #expect(sla.json["generatedAt"] as? String == "2026-03-02T11:00:00.000Z")
            let result = try #require(sla.json["result"] as? [String: Any])
            #expect(
                (result["callbacksWithoutResult"] as? [[String: Any]])?.map { $0["journeyID"] as? String } == [fixture.ids["h"]])
            #expect((result["stuckJourneys"] as? [[String: Any]])?.count == 2)

            let history = try await service.send(
                "/v1/reports/subject-history?\(Self.window)&subject=ref-alice", bearer: service.reporter)
            #expect(((history.json["result"] as? [String: Any])?["journeys"] as? [Any])?.count == 2)
        }
    }

    @Test func badInputIsAProblemNamingTheParameter() async throws {
        try await withService { service, _ in
            let cases: [(query: String, status: Int, code: String, field: String)] = [
                ("/v1/reports/nope?\(Self.window)", 404, "unknown_report", "name"),
                ("/v1/reports/funnel?to=2026-03-07", 400, "missing_parameter", "from"),
                ("/v1/reports/funnel?from=2026-03-01", 400, "missing_parameter", "to"),
                ("/v1/reports/funnel?from=2026-13-01&to=2026-03-07", 400, "invalid_date", "from"),
                ("/v1/reports/funnel?from=2026-03-01&to=tomorrow", 400, "invalid_date", "to"),
                ("/v1/reports/funnel?from=2026-03-09&to=2026-03-07", 400, "invalid_range", "from"),
                ("/v1/reports/funnel?\(Self.window)&environment=staging", 400, "invalid_value", "environment"),
                ("/v1/reports/sla?\(Self.window)&thresholdMinutes=-5", 400, "invalid_value", "thresholdMinutes"),
                ("/v1/reports/subject-history?\(Self.window)", 400, "missing_parameter", "subject"),
                ("/v1/reports/subject-history?\(Self.window)&subject=12345678909", 400, "document_number_not_allowed", "subject"),
            ]
            for (query, status, code, field) in cases {
                let answer = try await service.send(query, bearer: service.reporter)
                #expect(answer.status == status, "\(query)")
                #expect(answer.headers["content-type"] == "application/problem+json", "\(query)")
                #expect(answer.code == code, "\(query)")
                #expect(answer.field == field, "\(query)")
                #expect(!answer.text.contains("12345678909"))
            }
            let unknown = try await service.send("/v1/reports/nope?\(Self.window)", bearer: service.reporter)
            #expect((unknown.json["detail"] as? String)?.contains("known: funnel, sdk-errors") == true)
        }
    }

    @Test func openAPIDescribesTheReportAndDashboardRoutes() async throws {
        try await withService { service, _ in
            let document = try await service.send("/openapi.json")
            let paths = try #require(document.json["paths"] as? [String: Any])
            #expect(paths["/v1/reports/{name}"] != nil)
            #expect(paths["/dashboard"] != nil)
            #expect(paths["/dashboard/session"] != nil)
        }
    }
}
