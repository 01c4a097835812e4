import Foundation
import Postgres

/// `bench append`'s Message DB baseline: Message DB's message table and `write_message` as its
/// project ships them (version 1.3: a transaction-scoped advisory lock per category, the stream's
/// version from `max(position)`, one INSERT), in a schema of its own, `message_store`.
enum AppendBenchmarkStatements {
    static let createMessageDB = """
        DROP SCHEMA IF EXISTS message_store CASCADE;
        CREATE SCHEMA message_store;
        CREATE TABLE message_store.messages (
            global_position bigserial NOT NULL,
            position bigint NOT NULL,
            time timestamp without time zone DEFAULT (now() AT TIME ZONE 'utc') NOT NULL,
            stream_name text NOT NULL,
            type text NOT NULL,
            data jsonb,
            metadata jsonb,
            id uuid NOT NULL DEFAULT gen_random_uuid(),
            PRIMARY KEY (global_position));
        CREATE FUNCTION message_store.hash_64(value varchar) RETURNS bigint LANGUAGE sql IMMUTABLE AS $$
            SELECT ('x' || left(md5(value), 16))::bit(64)::bigint $$;
        CREATE FUNCTION message_store.category(stream_name varchar) RETURNS varchar LANGUAGE sql IMMUTABLE AS $$
            SELECT split_part(stream_name, '-', 1) $$;
        CREATE UNIQUE INDEX messages_id ON message_store.messages (id);
        CREATE UNIQUE INDEX messages_stream ON message_store.messages (stream_name, position);
        CREATE INDEX messages_category ON message_store.messages (message_store.category(stream_name),
            global_position, message_store.category(metadata->>'correlationStreamName'));
        CREATE FUNCTION message_store.stream_version(stream_name varchar) RETURNS bigint LANGUAGE plpgsql AS $$
        DECLARE v bigint;
        BEGIN
            SELECT max(position) INTO v FROM message_store.messages m WHERE m.stream_name = stream_version.stream_name;
            RETURN v;
        END $$;
        CREATE FUNCTION message_store.acquire_lock(stream_name varchar) RETURNS bigint LANGUAGE plpgsql AS $$
        DECLARE h bigint;
        BEGIN
            h := message_store.hash_64(message_store.category(acquire_lock.stream_name));
            PERFORM pg_advisory_xact_lock(h);
            RETURN h;
        END $$;
        CREATE FUNCTION message_store.write_message(id varchar, stream_name varchar, "type" varchar, data jsonb,
                                                    metadata jsonb DEFAULT NULL, expected_version bigint DEFAULT NULL)
        RETURNS bigint LANGUAGE plpgsql AS $$
        DECLARE
            v_version bigint;
            v_next bigint;
        BEGIN
            PERFORM message_store.acquire_lock(write_message.stream_name);
            v_version := coalesce(message_store.stream_version(write_message.stream_name), -1);
            IF write_message.expected_version IS NOT NULL AND write_message.expected_version <> v_version THEN
                RAISE EXCEPTION 'Wrong expected version: % (Stream: %, Stream Version: %)',
                    write_message.expected_version, write_message.stream_name, v_version;
            END IF;
            v_next := v_version + 1;
            INSERT INTO message_store.messages (id, stream_name, position, type, data, metadata)
                VALUES (uuid(write_message.id), write_message.stream_name, v_next, write_message.type,
                        write_message.data, write_message.metadata);
            RETURN v_next;
        END $$;
        """

    /// One `write_message` with Message DB's expected version (-1: a new stream).
    static func writeMessage(id: UUID, stream: String, data: JSONB, metadata: JSONB, expectedVersion: Int64) -> PostgresQuery {
        """
        SELECT message_store.write_message(\(id.uuidString.lowercased()), \(stream), 'BenchEvent', \(data)::jsonb, \
        \(metadata)::jsonb, \(expectedVersion))
        """
    }
}
