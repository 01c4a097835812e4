import Foundation
import HTTPServer
import Testing

@Suite("HTTPRequest media type")
struct MediaTypeTests {
    func request(_ contentType: String?, body: String = "{}") -> HTTPRequest {
        var headers = HTTPHeaders()
        if let contentType { headers["Content-Type"] = contentType }
        return HTTPRequest(method: .post, path: "/x", headers: headers, body: Data(body.utf8))
    }

    @Test(arguments: ["application/json", "application/json; charset=utf-8", "Application/JSON ;charset=UTF-8"])
    func jsonIsAccepted(_ type: String) throws {
        try request(type).requireMediaType()
    }

    @Test(arguments: [nil, "text/plain", "application/x-www-form-urlencoded", "application/jsonx", ""] as [String?])
    func anythingElseIs415(_ type: String?) {
        #expect(throws: Problem.unsupportedMediaType(expected: "application/json")) {
            try request(type).requireMediaType()
        }
    }

    @Test func anEmptyBodyNeedsNoType() throws {
        try request("text/plain", body: "").requireMediaType()
    }
}
