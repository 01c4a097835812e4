import Foundation
@testable import HTTPServer
import Testing

@Suite struct JSONBodyTests {
    struct Body: Decodable { var name: String }

    func request(_ json: String) -> HTTPRequest {
        HTTPRequest(method: .post, path: "/", body: Data(json.utf8))
    }

    @Test func anEscapedNULIsRefusedBeforeItReachesPostgreSQL() {
        for json in [#"{"name":"a\u0000b"}"#, #"{"name":"\\\u0000"}"#, #"{"\u0000":1,"name":"x"}"#] {
            #expect(throws: Problem.self, "\(json)") { try request(json).decode(Body.self) }
            #expect(HTTPRequest.containsEscapedNUL(Data(json.utf8)), "\(json)")
        }
    }

    @Test func anEscapedBackslashFollowedByU0000IsOrdinaryText() throws {
        let json = #"{"name":"C:\\u0000"}"#
        #expect(!HTTPRequest.containsEscapedNUL(Data(json.utf8)))
        #expect(try request(json).decode(Body.self).name == #"C:\u0000"#)
        #expect(try request(#"{"name":"\u0041"}"#).decode(Body.self).name == "A")
    }
}
