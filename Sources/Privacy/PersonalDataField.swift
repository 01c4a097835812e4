/// Field names that sealed values are bound to (part of the AAD); a value opens only under its name.
///
/// These strings are part of the stored format: never rename one.
public enum PersonalDataField {
    public static let documentNumber = "documentNumber"
    public static let name = "name"
    public static let friendlyName = "friendlyName"
    public static let phone = "phone"
    public static let email = "email"
    /// Unico's `data.humanToken.value`.
    public static let humanToken = "humanToken"
}
