-- One number that changes whenever anything a caller's state is read from changes: grants, settings
-- (sign-card mode, visibility probes), the school owners that make a scope, external users' schools,
-- sales teams and their members, and accounts' type, parent and team. Every server instance reads it
-- with the session (platform/sessions.ts) and reuses a caller's cached grant, scope and probes only
-- while it is unchanged (platform/caller-state.ts). Triggers, not application code, bump it, so no
-- writer (a route, a job, a seed, a test, psql) can change a grant without the next call seeing it.
CREATE TABLE "caller_state_version" (
	"id" smallint PRIMARY KEY DEFAULT 1 CHECK ("id" = 1),
	"version" bigint NOT NULL DEFAULT 1
);
--> statement-breakpoint
INSERT INTO "caller_state_version" ("id", "version") VALUES (1, 1);
--> statement-breakpoint
CREATE FUNCTION "bump_caller_state_version"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	UPDATE "caller_state_version" SET "version" = "version" + 1 WHERE "id" = 1;
	RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "grants_caller_state" AFTER INSERT OR UPDATE OR DELETE ON "grants" FOR EACH STATEMENT EXECUTE FUNCTION "bump_caller_state_version"();
--> statement-breakpoint
-- Only the keys a caller's state reads (sign-card mode, probes: platform/settings.ts, probes.ts), so
-- a key made once at first use (a signing key) keeps every cache.
CREATE TRIGGER "settings_caller_state_insert" AFTER INSERT ON "settings" FOR EACH ROW
	WHEN (NEW."key" = 'signCardMode' OR NEW."key" LIKE 'probes.%')
	EXECUTE FUNCTION "bump_caller_state_version"();
--> statement-breakpoint
CREATE TRIGGER "settings_caller_state_update" AFTER UPDATE ON "settings" FOR EACH ROW
	WHEN (OLD."key" = 'signCardMode' OR OLD."key" LIKE 'probes.%' OR NEW."key" = 'signCardMode' OR NEW."key" LIKE 'probes.%')
	EXECUTE FUNCTION "bump_caller_state_version"();
--> statement-breakpoint
CREATE TRIGGER "settings_caller_state_delete" AFTER DELETE ON "settings" FOR EACH ROW
	WHEN (OLD."key" = 'signCardMode' OR OLD."key" LIKE 'probes.%')
	EXECUTE FUNCTION "bump_caller_state_version"();
--> statement-breakpoint
CREATE TRIGGER "schools_caller_state_rows" AFTER INSERT OR DELETE ON "schools" FOR EACH STATEMENT EXECUTE FUNCTION "bump_caller_state_version"();
--> statement-breakpoint
CREATE TRIGGER "schools_caller_state_owners" AFTER UPDATE ON "schools" FOR EACH ROW
	WHEN (OLD."agent_id" IS DISTINCT FROM NEW."agent_id" OR OLD."seller_id" IS DISTINCT FROM NEW."seller_id" OR OLD."sales_team_id" IS DISTINCT FROM NEW."sales_team_id")
	EXECUTE FUNCTION "bump_caller_state_version"();
--> statement-breakpoint
CREATE TRIGGER "user_schools_caller_state" AFTER INSERT OR UPDATE OR DELETE ON "user_schools" FOR EACH STATEMENT EXECUTE FUNCTION "bump_caller_state_version"();
--> statement-breakpoint
CREATE TRIGGER "sales_teams_caller_state" AFTER INSERT OR UPDATE OR DELETE ON "sales_teams" FOR EACH STATEMENT EXECUTE FUNCTION "bump_caller_state_version"();
--> statement-breakpoint
CREATE TRIGGER "sales_team_members_caller_state" AFTER INSERT OR UPDATE OR DELETE ON "sales_team_members" FOR EACH STATEMENT EXECUTE FUNCTION "bump_caller_state_version"();
--> statement-breakpoint
CREATE TRIGGER "users_caller_state_rows" AFTER INSERT OR DELETE ON "users" FOR EACH STATEMENT EXECUTE FUNCTION "bump_caller_state_version"();
--> statement-breakpoint
CREATE TRIGGER "users_caller_state_links" AFTER UPDATE ON "users" FOR EACH ROW
	WHEN (OLD."type" IS DISTINCT FROM NEW."type" OR OLD."parent_id" IS DISTINCT FROM NEW."parent_id" OR OLD."sales_team_id" IS DISTINCT FROM NEW."sales_team_id")
	EXECUTE FUNCTION "bump_caller_state_version"();
