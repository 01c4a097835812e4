import HumanTokenAPI

/// Request values for tests; the personal data here must never show in an error.
enum Samples {
    static let cpf = "52998224725"
    static let name = "Maria Aparecida"
    static let phone = "+5511987654321"
    static let email = "maria.aparecida@example.com"

    static var personalData: [String] { [cpf, name, phone, email] }

    /// A Create Process request using every documented field.
    static func fullRequest(reference: String = "journey-42", expiresIn: Int? = 86_400) -> CreateProcessRequest {
        CreateProcessRequest(
            flow: "idtoken", purpose: .biometryOnboarding,
            person: ProcessPerson(
                duiType: .brazilCPF, duiValue: cpf, friendlyName: name, phone: phone, email: email,
                notifications: [ProcessNotification(.whatsApp), ProcessNotification(.email)]),
            callbackUri: "/", clientReference: reference, expiresIn: expiresIn)
    }

    /// The smallest valid request.
    static func minimalRequest() -> CreateProcessRequest {
        CreateProcessRequest(flow: "idtoken", purpose: .creditProcess, person: ProcessPerson(duiValue: cpf))
    }
}
