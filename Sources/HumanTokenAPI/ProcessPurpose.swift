/// Why a process is created; Unico documents four values and this type keeps any other.
public struct ProcessPurpose: RawRepresentable, Sendable, Hashable, Codable, ExpressibleByStringLiteral {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }

    public static let creditProcess = ProcessPurpose(rawValue: "creditprocess")
    public static let biometryOnboarding = ProcessPurpose(rawValue: "biometryonboarding")
    public static let carPurchase = ProcessPurpose(rawValue: "carpurchase")
    public static let ageVerification = ProcessPurpose(rawValue: "ageverification")

    public init(from decoder: any Decoder) throws { rawValue = try decoder.singleValueContainer().decode(String.self) }
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
