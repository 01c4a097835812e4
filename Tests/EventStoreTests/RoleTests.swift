import EventStore
import Foundation
import JourneyTesting
import Migrations
import Postgres
import Testing

/// Migration 0017's roles and 0018's hardening, checked against the catalog and by trying.
@Suite struct RoleTests {
    @Test func projectorCannotWriteOrAlterTheEventLog() async throws {
        try await TestDatabase.with { db in
            try await EventStore(client: db.app).append([event(1)], to: stream(), expectedVersion: .noStream)
            let refused: [PostgresQuery] = [
                "INSERT INTO events (stream_name, stream_version, event_id, event_type, data, recorded_at, previous_hash, hash) VALUES ('x', 1, gen_random_uuid(), 't', '{}', now(), '', '')",
                "UPDATE events SET data = '{}'",
                "DELETE FROM events",
                "TRUNCATE events",
                "ALTER TABLE events DISABLE TRIGGER events_no_update_delete",
                "ALTER TABLE events DISABLE TRIGGER ALL",
                "DROP TRIGGER events_no_truncate ON events",
                "UPDATE streams SET version = 0",
                "SELECT append_events('x', -1, ARRAY[gen_random_uuid()], ARRAY['t'], ARRAY['{}'::jsonb], ARRAY[NULL::uuid], ARRAY[NULL::uuid], ARRAY[NULL::text])",
                "ALTER TABLE journey_state DISABLE TRIGGER ALL",
                "TRUNCATE journey_state",
                "DELETE FROM webhook_deliveries",
                "SELECT * FROM subject_keys",
                "SELECT * FROM api_keys",
                "CREATE TABLE projector_scratch (x int)",
            ]
            for statement in refused {
                let error = await captureError { try await db.projector.query(statement) } as? PostgresError
                #expect(error?.code == .insufficientPrivilege, "\(statement.sql)")
            }
            #expect(try await db.owner.query("SELECT count(*) FROM events").first?.decode(0, as: Int.self) == 1)
        }
    }

    @Test func projectorWritesTheReadModelsCheckpointsAndOutbox() async throws {
        try await TestDatabase.with { db in
            try await db.projector.query(
                """
                INSERT INTO journey_state (journey_id, status, version, updated_position, state) VALUES ('j1', 'started', 1, 1, '{}')
                """)
            try await db.projector.query("UPDATE journey_state SET status = 'completed' WHERE journey_id = 'j1'")
            try await db.projector.query(
                "INSERT INTO journey_attempts (journey_id, attempt, requested_at) VALUES ('j1', 1, now())")
            try await db.projector.query("UPDATE projection_checkpoints SET position = 0 WHERE name = 'journey_state'")
            let fitness = try await RoleCatalog.projectorFitness(db.projector)
            #expect(fitness == RoleCatalog.ProjectorFitness(role: "journeys_projector", canProject: true, canWriteLog: false))
            #expect(try await RoleCatalog.projectorFitness(db.owner).canWriteLog)
            #expect(try await RoleCatalog.projectorFitness(db.app).canProject == false)
        }
    }

    @Test func analystSeesOnlyTheDocumentedViews() async throws {
        try await TestDatabase.with { db in
            let analyst = try PostgresClient(url: db.analystURL, configuration: .init(maxConnections: 1))
            defer { analyst.close() }
            try await db.projector.query(
                """
                INSERT INTO journey_state (journey_id, status, subject_reference, client_reference, current_process_id, version,
                                           updated_position, state)
                VALUES ('j1', 'completed', 'subject-ref', 'client-ref', 'process-1', 1, 1, '{"sealed": "x"}')
                """)
            let row = try #require(try await analyst.query("SELECT journey_id, status FROM analyst_journeys").first)
            #expect(try row.decode(0, as: String.self) == "j1")
            _ = try await analyst.query("SELECT * FROM analyst_attempts")
            _ = try await analyst.query("SELECT * FROM analyst_projections")
            for statement: PostgresQuery in [
                "SELECT * FROM journey_state", "SELECT * FROM journey_attempts", "SELECT * FROM events",
                "SELECT * FROM subject_keys", "SELECT * FROM api_keys", "SELECT * FROM webhook_endpoints",
                "SELECT * FROM webhook_deliveries", "SELECT * FROM idempotency_keys",
                "INSERT INTO journey_state (journey_id, status, version, updated_position, state) VALUES ('x', 's', 1, 1, '{}')",
            ] {
                let error = await captureError { try await analyst.query(statement) } as? PostgresError
                #expect(error?.code == .insufficientPrivilege, "\(statement.sql)")
            }
            // No sealed state, token, subject or client reference, or Unico process id in any view.
            let columns = try await db.owner.query(
                """
                SELECT table_name::text, column_name::text FROM information_schema.columns WHERE table_name LIKE 'analyst\\_%'
                """
            ).map { try $0.decode(1, as: String.self) }
            #expect(!columns.isEmpty)
            for forbidden in ["state", "subject_reference", "client_reference", "current_process_id", "process_id", "payload"] {
                #expect(!columns.contains(forbidden), "\(forbidden)")
            }
            #expect(!columns.contains { $0.contains("token") && $0 != "token_expires_at" && $0 != "token_issued_at" })
        }
    }

    @Test func definerFunctionsPinTheirSearchPathAndNobodyCreatesInPublic() async throws {
        try await TestDatabase.with { db in
            let loose = try await db.owner.query(
                """
                SELECT p.oid::regprocedure::text FROM pg_proc p
                WHERE p.prosecdef AND p.pronamespace = 'public'::regnamespace
                  AND NOT coalesce(p.proconfig, '{}') @> ARRAY['search_path=pg_catalog, public, pg_temp']
                """
            ).map { try $0.decode(0, as: String.self) }
            #expect(loose.isEmpty, "\(loose)")
            let definers = try await db.owner.query(
                "SELECT count(*) FROM pg_proc WHERE prosecdef AND pronamespace = 'public'::regnamespace")
            #expect(try definers.first?.decode(0, as: Int.self) ?? 0 >= 3)
            let publicCreate = try await db.owner.query(
                """
                SELECT count(*) FROM pg_namespace n, aclexplode(n.nspacl) a
                WHERE n.nspname = 'public' AND a.grantee = 0 AND a.privilege_type = 'CREATE'
                """)
            #expect(try publicCreate.first?.decode(0, as: Int.self) == 0)
            for role in ["journeys_app", "journeys_projector", "journeys_analyst"] {
                let may = try await db.owner.query("SELECT has_schema_privilege(\(role), 'public', 'CREATE')")
                #expect(try may.first?.decode(0, as: Bool.self) == false, "\(role)")
            }
        }
    }

    @Test func theCatalogSaysWhatEachRoleMayDo() async throws {
        try await TestDatabase.with { db in
            let roles = try await RoleCatalog.describe(on: db.app)
            #expect(roles.map(\.name) == RoleCatalog.roles)
            func role(_ name: String) throws -> RoleCatalog.Role { try #require(roles.first { $0.name == name }) }
            func rights(_ name: String, _ relation: String) throws -> String? {
                try role(name).relations.first { $0.name == relation }.map { [$0.privileges, $0.columns].joined(separator: "|") }
            }
            #expect(try role("journeys_owner").owned > 10)
            #expect(try rights("journeys_projector", "events") == "SELECT|")
            #expect(try rights("journeys_projector", "journey_state") == "SELECT, INSERT, UPDATE|")
            #expect(try rights("journeys_projector", "webhook_deliveries") == "SELECT, INSERT|")
            #expect(try role("journeys_projector").definerFunctions.isEmpty)
            #expect(try role("journeys_projector").owned == 0)
            #expect(try rights("journeys_app", "api_keys")?.contains("UPDATE (revoked_at") == true)
            #expect(try role("journeys_app").definerFunctions.contains { $0.hasPrefix("append_events(") })
            #expect(
                try role("journeys_analyst").relations.map(\.name).sorted()
                    == [
                        "analyst_attempts", "analyst_journeys", "analyst_projections", "journey_attempts", "journey_daily",
                        "journey_daily_result_bins", "journey_daily_sdk_errors", "journey_daily_time_to_result", "journey_state",
                    ])
            // The analyst views are security_invoker (migration 0040): the analyst reads their columns
            // of the read models by column grants only, never the sealed state or references.
            #expect(try rights("journeys_analyst", "journey_state")?.hasPrefix("|SELECT (") == true)
            #expect(try rights("journeys_analyst", "journey_state")?.contains("subject_reference") == false)
        }
    }
}
