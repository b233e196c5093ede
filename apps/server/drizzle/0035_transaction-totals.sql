CREATE TABLE "transaction_day_totals" (
	"day" date NOT NULL,
	"school_id" integer NOT NULL,
	"agent_id" integer NOT NULL,
	"channel" text NOT NULL,
	"charge_item_id" integer NOT NULL,
	"payments" integer DEFAULT 0 NOT NULL,
	"paid" bigint DEFAULT 0 NOT NULL,
	"refunds" integer DEFAULT 0 NOT NULL,
	"refunded" bigint DEFAULT 0 NOT NULL,
	"company_share" bigint DEFAULT 0 NOT NULL,
	"agent_share" bigint DEFAULT 0 NOT NULL,
	"school_share" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "transaction_day_totals_day_school_id_agent_id_channel_charge_item_id_pk" PRIMARY KEY("day","school_id","agent_id","channel","charge_item_id")
);
--> statement-breakpoint
CREATE TABLE "transaction_month_totals" (
	"month" date NOT NULL,
	"school_id" integer NOT NULL,
	"agent_id" integer NOT NULL,
	"channel" text NOT NULL,
	"charge_item_id" integer NOT NULL,
	"payments" integer DEFAULT 0 NOT NULL,
	"paid" bigint DEFAULT 0 NOT NULL,
	"refunds" integer DEFAULT 0 NOT NULL,
	"refunded" bigint DEFAULT 0 NOT NULL,
	"company_share" bigint DEFAULT 0 NOT NULL,
	"agent_share" bigint DEFAULT 0 NOT NULL,
	"school_share" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "transaction_month_totals_month_school_id_agent_id_channel_charge_item_id_pk" PRIMARY KEY("month","school_id","agent_id","channel","charge_item_id")
);
--> statement-breakpoint
CREATE INDEX "transaction_day_totals_school_id_day_idx" ON "transaction_day_totals" USING btree ("school_id","day");--> statement-breakpoint
CREATE INDEX "transaction_month_totals_school_id_month_idx" ON "transaction_month_totals" USING btree ("school_id","month");