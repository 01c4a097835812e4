/// Purpose of a Create Process request, as Unico documents it.
public enum Purpose: String, Sendable, Codable, CaseIterable {
    case creditProcess = "creditprocess"
    case biometryOnboarding = "biometryonboarding"
    case carPurchase = "carpurchase"
    case ageVerification = "ageverification"
}
