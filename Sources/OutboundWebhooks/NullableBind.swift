import Postgres

/// Binds an optional value (NULL when nil) without an optional in the interpolation.
struct NullableBind<Wrapped: PostgresEncodable>: PostgresEncodable {
    let value: Wrapped?
    init(_ value: Wrapped?) { self.value = value }
    var postgresText: String? { value?.postgresText }
}
