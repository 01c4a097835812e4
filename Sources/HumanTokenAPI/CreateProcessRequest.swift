/// The body of Create Process (`POST {apiHost}/processes`).
public struct CreateProcessRequest: Sendable, Hashable, Encodable {
    /// Where the web journey returns; `"/"` for native SDK flows. Default: `"/"`.
    public var callbackUri: String
    /// The journey flow configured for the account.
    public var flow: String
    /// Why the process is created.
    public var purpose: ProcessPurpose
    /// Who the process is for.
    public var person: ProcessPerson
    /// The company's own id for the process, indexed on Unico's side.
    public var clientReference: String?
    /// The process lifetime in whole seconds, sent as `"<n>s"`; nil leaves Unico's default (7 days).
    public var expiresIn: Int?

    public init(
        flow: String, purpose: ProcessPurpose, person: ProcessPerson, callbackUri: String = "/",
        clientReference: String? = nil, expiresIn: Int? = nil
    ) {
        self.callbackUri = callbackUri
        self.flow = flow
        self.purpose = purpose
        self.person = person
        self.clientReference = clientReference
        self.expiresIn = expiresIn
    }

    private enum CodingKeys: String, CodingKey {
        case callbackUri, flow, purpose, person, clientReference, expiresIn
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(callbackUri, forKey: .callbackUri)
        try container.encode(flow, forKey: .flow)
        try container.encode(purpose, forKey: .purpose)
        try container.encode(person, forKey: .person)
        try container.encodeIfPresent(clientReference, forKey: .clientReference)
        try container.encodeIfPresent(expiresIn.map { "\($0)s" }, forKey: .expiresIn)
    }
}
