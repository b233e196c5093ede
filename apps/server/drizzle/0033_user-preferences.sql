CREATE TABLE "user_preferences" (
	"user_id" integer NOT NULL,
	"page" text NOT NULL,
	"table_settings" jsonb,
	"views" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "user_preferences_user_id_page_pk" PRIMARY KEY("user_id","page")
);
--> statement-breakpoint
ALTER TABLE "user_preferences" ADD CONSTRAINT "user_preferences_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;