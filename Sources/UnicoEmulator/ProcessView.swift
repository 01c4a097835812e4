import Foundation

/// The JSON shape of a process in Create Process and Get Process responses.
///
/// The contract names the fields but not whether Unico wraps them: ``UnicoEmulator/ResponseShape``
/// puts them inside a `process` object (`wrapped`, the documented shape) or at the top level
/// (`flat`), never both. `token` and `webAppToken` appear only in the Create Process response;
/// `finishedAt`, `result` details and `data.humanToken.value` only once known.
struct ProcessView: Encodable, Sendable {
    struct Fields: Encodable, Sendable {
        struct HumanToken: Encodable, Sendable { var value: String }
        struct DataMember: Encodable, Sendable { var humanToken: HumanToken }

        var id: String
        var flow: String
        var purpose: String
        var callbackUri: String
        var state: String
        var result: String
        var clientReference: String?
        var link: String
        var token: String?
        var webAppToken: String?
        var createdAt: String
        var expiresAt: String
        var finishedAt: String?
        var lastEvent: String?
        var data: DataMember?
    }

    var fields: Fields
    var shape: UnicoEmulator.ResponseShape

    init(
        _ process: UnicoEmulator.ProcessRecord, link: String, shape: UnicoEmulator.ResponseShape,
        token: String? = nil, webAppToken: String? = nil
    ) {
        self.shape = shape
        fields = Fields(
            id: process.id, flow: process.flow, purpose: process.purpose, callbackUri: process.callbackUri,
            state: process.state.rawValue, result: process.result.rawValue,
            clientReference: process.clientReference, link: link, token: token, webAppToken: webAppToken,
            createdAt: JSONBody.timestamp(process.createdAt), expiresAt: JSONBody.timestamp(process.expiresAt),
            finishedAt: process.finishedAt.map(JSONBody.timestamp), lastEvent: process.lastEvent,
            data: process.humanToken.map { Fields.DataMember(humanToken: .init(value: $0)) })
    }

    private enum Key: String, CodingKey { case process }

    func encode(to encoder: any Encoder) throws {
        switch shape {
        case .flat:
            try fields.encode(to: encoder)
        case .wrapped:
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(fields, forKey: .process)
        }
    }
}
