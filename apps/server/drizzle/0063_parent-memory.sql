-- Issue 29: every instance keeps the parent app's sessions in memory as it keeps the console's (0053,
-- platform/caller-memory.ts) and drops them when the database says what a kept session answers may
-- have changed: the session itself deleted (sign-out, a disabled parent, the purge at sign-in), the
-- parent's name, phone or enabled flag, its links to children, or a child's school. A topic of its own
-- ('parent-state'): the console's 'session-ended' names console session ids, which the live stream
-- ends, and a parent session's id is no console session's.
CREATE FUNCTION "notify_parent_state"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	PERFORM pg_notify('campus_live', json_build_object('topic', 'parent-state', 'body', json_build_object('table', TG_TABLE_NAME))::text);
	RETURN NULL;
END
$$;
--> statement-breakpoint
-- Every sign-in purges the expired sessions first, most often none: only a deletion that ended some notifies.
CREATE FUNCTION "notify_parent_sessions_ended"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF EXISTS (SELECT 1 FROM ended) THEN
		PERFORM pg_notify('campus_live', json_build_object('topic', 'parent-state', 'body', json_build_object('table', TG_TABLE_NAME))::text);
	END IF;
	RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "parent_sessions_ended" AFTER DELETE ON "parent_sessions" REFERENCING OLD TABLE AS ended FOR EACH STATEMENT EXECUTE FUNCTION "notify_parent_sessions_ended"();
--> statement-breakpoint
CREATE TRIGGER "parents_parent_state" AFTER UPDATE ON "parents" FOR EACH ROW
	WHEN (OLD."enabled" IS DISTINCT FROM NEW."enabled" OR OLD."name" IS DISTINCT FROM NEW."name" OR OLD."phone_num" IS DISTINCT FROM NEW."phone_num")
	EXECUTE FUNCTION "notify_parent_state"();
--> statement-breakpoint
CREATE TRIGGER "parent_students_parent_state" AFTER INSERT OR UPDATE OR DELETE ON "parent_students" FOR EACH STATEMENT EXECUTE FUNCTION "notify_parent_state"();
--> statement-breakpoint
CREATE TRIGGER "students_parent_state" AFTER UPDATE ON "students" FOR EACH ROW
	WHEN (OLD."school_id" IS DISTINCT FROM NEW."school_id")
	EXECUTE FUNCTION "notify_parent_state"();
