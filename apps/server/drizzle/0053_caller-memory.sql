-- Issue 32: every instance keeps its callers' sessions, grants, scopes and probes in memory and drops
-- them when told through the messenger (platform/caller-memory.ts). The database tells it, not the
-- application: every bump of the caller-state version (0032) now also notifies the messenger's
-- channel, and every deletion of sessions names them, so a grant revoked or a session ended by any
-- writer (a route, a job, psql) reaches every listening instance once its transaction commits.
CREATE OR REPLACE FUNCTION "bump_caller_state_version"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	next_version bigint;
BEGIN
	UPDATE "caller_state_version" SET "version" = "version" + 1 WHERE "id" = 1 RETURNING "version" INTO next_version;
	PERFORM pg_notify('campus_live', json_build_object('topic', 'caller-state', 'body', json_build_object('version', next_version))::text);
	RETURN NULL;
END
$$;
--> statement-breakpoint
-- The account fields a call carries with its session (auth.ts): a disabled account must lose its
-- cached session on every instance, a renamed one must not keep its old name.
CREATE TRIGGER "users_caller_session" AFTER UPDATE ON "users" FOR EACH ROW
	WHEN (OLD."enabled" IS DISTINCT FROM NEW."enabled" OR OLD."login_name" IS DISTINCT FROM NEW."login_name" OR OLD."name" IS DISTINCT FROM NEW."name" OR OLD."seller_position" IS DISTINCT FROM NEW."seller_position")
	EXECUTE FUNCTION "bump_caller_state_version"();
--> statement-breakpoint
-- Sessions deleted (log-out, sessions ended on 个人信息, a password change, an account removed, the
-- expired ones swept at login): their ids on the 'session-ended' topic the live stream already hears;
-- past 500 ids (a NOTIFY holds < 8,000 bytes) `{ "all": true }`.
CREATE FUNCTION "notify_sessions_ended"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	ended_count integer;
	ended_ids json;
BEGIN
	SELECT count(*), json_agg("id") INTO ended_count, ended_ids FROM (SELECT "id" FROM ended LIMIT 501) AS some_ended;
	IF ended_count = 0 THEN
		RETURN NULL;
	END IF;
	PERFORM pg_notify('campus_live', json_build_object('topic', 'session-ended', 'body',
		CASE WHEN ended_count > 500 THEN json_build_object('all', true) ELSE json_build_object('sessionIds', ended_ids) END)::text);
	RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "sessions_ended" AFTER DELETE ON "sessions" REFERENCING OLD TABLE AS ended FOR EACH STATEMENT EXECUTE FUNCTION "notify_sessions_ended"();
