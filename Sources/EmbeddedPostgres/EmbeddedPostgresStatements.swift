import Postgres

/// Every statement the embedded cluster runs as superuser: roles and databases.
///
/// DDL takes no binds, so the `CREATE`/`DROP` statements are raw text for `execute(unsafeSQL:)`:
/// database names are quoted here, role names are the cluster's constants, passwords are generated.
enum EmbeddedPostgresStatements {
    static func roleExists(_ role: String) -> PostgresQuery {
        "SELECT 1 FROM pg_roles WHERE rolname = \(role)"
    }

    static func createRole(_ role: String, password: String) -> String {
        "CREATE ROLE \(role) LOGIN PASSWORD '\(password)'"
    }

    static func setPassword(_ role: String, password: String) -> String {
        "ALTER ROLE \(role) PASSWORD '\(password)'"
    }

    static func databaseExists(_ name: String) -> PostgresQuery {
        "SELECT 1 FROM pg_database WHERE datname = \(name)"
    }

    static func createDatabase(_ name: String, owner: String) -> String {
        "CREATE DATABASE \(PostgresConnection.quoteIdentifier(name)) OWNER \(owner)"
    }

    /// Ends the database's sessions first (`WITH (FORCE)`).
    static func dropDatabase(_ name: String) -> String {
        "DROP DATABASE IF EXISTS \(PostgresConnection.quoteIdentifier(name)) WITH (FORCE)"
    }
}
