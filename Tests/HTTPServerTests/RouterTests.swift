import Foundation
import HTTPServer
import Testing

@Suite("Router")
struct RouterTests {
    struct Boom: Error, CustomStringConvertible {
        var description: String { "secret database password in here" }
    }

    func makeRouter() -> Router {
        var router = Router()
        router.get("/v1/journeys/{id}") { request in .text("journey \(try request.pathParameter("id"))") }
        router.get("/v1/journeys/stats") { _ in .text("stats") }
        router.post("/v1/journeys/{id}/token") { request in
            .text("token \(request.pathParameters["id"] ?? "") on \(request.route ?? "")")
        }
        router.delete("/v1/journeys/{id}") { _ in .empty() }
        router.get("/problem") { _ in
            throw Problem.validationFailed(field: "document", detail: "Document number is invalid.")
        }
        router.get("/boom") { _ in throw Boom() }
        return router
    }

    @Test func pathParametersAreCapturedAndDecoded() async throws {
        let response = await makeRouter().respond(to: HTTPRequest(method: .get, path: "/v1/journeys/a%20b"))
        #expect(response.status == .ok)
        #expect(String(decoding: response.body, as: UTF8.self) == "journey a b")
    }

    @Test func literalSegmentWinsOverParameter() async throws {
        let response = await makeRouter().respond(to: HTTPRequest(method: .get, path: "/v1/journeys/stats"))
        #expect(String(decoding: response.body, as: UTF8.self) == "stats")
    }

    @Test func aLiteralPathOwnsEveryMethodAndAllowListsOnlyItsOwn() async throws {
        // DELETE /v1/journeys/{id} exists, but /v1/journeys/stats is the literal route's path.
        let response = await makeRouter().respond(to: HTTPRequest(method: .delete, path: "/v1/journeys/stats"))
        #expect(response.status == .methodNotAllowed)
        #expect(response.headers["Allow"] == "GET, HEAD")
        let other = await makeRouter().respond(to: HTTPRequest(method: .delete, path: "/v1/journeys/7"))
        #expect(other.status == .noContent)
    }

    @Test func handlerSeesRouteTemplate() async throws {
        let response = await makeRouter().respond(to: HTTPRequest(method: .post, path: "/v1/journeys/42/token"))
        #expect(String(decoding: response.body, as: UTF8.self) == "token 42 on /v1/journeys/{id}/token")
    }

    @Test func unknownPathIs404Problem() async throws {
        let response = await makeRouter().respond(to: HTTPRequest(method: .get, path: "/nope"))
        #expect(response.status == .notFound)
        #expect(response.headers["content-type"] == "application/problem+json")
        let json = try #require(JSONSerialization.jsonObject(with: response.body) as? [String: Any])
        #expect(json["code"] as? String == "not_found")
    }

    @Test func wrongMethodIs405WithAllow() async throws {
        let response = await makeRouter().respond(to: HTTPRequest(method: .put, path: "/v1/journeys/42"))
        #expect(response.status == .methodNotAllowed)
        #expect(response.headers["Allow"] == "GET, DELETE, HEAD")
    }

    @Test func headIsServedByGet() async throws {
        let response = await makeRouter().respond(to: HTTPRequest(method: .head, path: "/v1/journeys/7"))
        #expect(response.status == .ok)
    }

    @Test func routesListsEveryRegistration() {
        let routes = makeRouter().routes
        #expect(routes.count == 6)
        #expect(routes.contains(Route(method: .post, path: "/v1/journeys/{id}/token")))
        #expect(routes.first == Route(method: .get, path: "/v1/journeys/{id}"))
    }

    @Test func middlewareRunsInOrderAroundHandlerAndSeesRoute() async throws {
        var router = makeRouter()
        router.use { request, next in
            var response = try await next(request)
            response.headers.add("X-Trace", "outer:\(request.route ?? "none")")
            return response
        }
        router.use { request, next in
            var response = try await next(request)
            response.headers.add("X-Trace", "inner")
            return response
        }
        let response = await router.respond(to: HTTPRequest(method: .get, path: "/v1/journeys/1"))
        #expect(response.headers.values(for: "x-trace") == ["inner", "outer:/v1/journeys/{id}"])
    }

    @Test func middlewareCanShortCircuit() async throws {
        var router = makeRouter()
        router.use { request, next in
            guard request.headers["Authorization"] != nil else {
                throw Problem(status: .unauthorized, code: "unauthenticated")
            }
            return try await next(request)
        }
        let response = await router.respond(to: HTTPRequest(method: .get, path: "/v1/journeys/1"))
        #expect(response.status == .unauthorized)
    }

    @Test func thrownProblemIsRenderedAsProblemJSON() async throws {
        let response = await makeRouter().respond(to: HTTPRequest(method: .get, path: "/problem"))
        #expect(response.status == .unprocessableContent)
        #expect(response.headers["Content-Type"] == "application/problem+json")
        let json = try #require(JSONSerialization.jsonObject(with: response.body) as? [String: Any])
        #expect(json["type"] as? String == "about:blank")
        #expect(json["title"] as? String == "Unprocessable Content")
        #expect(json["status"] as? Int == 422)
        #expect(json["code"] as? String == "validation_failed")
        #expect(json["field"] as? String == "document")
        #expect(json["detail"] as? String == "Document number is invalid.")
    }

    @Test func unexpectedErrorIs500WithoutDetails() async throws {
        let response = await makeRouter().respond(to: HTTPRequest(method: .get, path: "/boom"))
        #expect(response.status == .internalServerError)
        let text = String(decoding: response.body, as: UTF8.self)
        #expect(!text.contains("secret"))
        #expect(!text.contains("Boom"))
        let json = try #require(JSONSerialization.jsonObject(with: response.body) as? [String: Any])
        #expect(json["code"] as? String == "internal_error")
    }

    @Test func extraMembersCannotOverrideStandardOnes() throws {
        let problem = Problem(status: .badRequest, code: "bad", extra: ["status": "999", "code": "x", "hint": "h"])
        let json = try #require(JSONSerialization.jsonObject(with: problem.response.body) as? [String: Any])
        #expect(json["status"] as? Int == 400)
        #expect(json["code"] as? String == "bad")
        #expect(json["hint"] as? String == "h")
    }

    @Test func decodeReportsTheOffendingField() throws {
        struct Body: Decodable { var name: String; var age: Int }
        let request = HTTPRequest(method: .post, path: "/", body: Data(#"{"name":"a","age":"x"}"#.utf8))
        #expect(throws: Problem.invalidJSON(field: "age", detail: "A field has the wrong type.")) {
            try request.decode(Body.self)
        }
        let garbage = HTTPRequest(method: .post, path: "/", body: Data("{".utf8))
        #expect(throws: Problem.invalidJSON(field: nil, detail: "The body is not valid JSON.")) {
            try garbage.decode(Body.self)
        }
    }

    @Test func headersAreCaseInsensitive() {
        var headers: HTTPHeaders = ["Content-Type": "text/plain", "X-A": "1"]
        headers.add("x-a", "2")
        #expect(headers["content-TYPE"] == "text/plain")
        #expect(headers.values(for: "X-a") == ["1", "2"])
        headers["X-A"] = "3"
        #expect(headers.values(for: "x-a") == ["3"])
        #expect(headers["X-B"] == nil)
    }
}
