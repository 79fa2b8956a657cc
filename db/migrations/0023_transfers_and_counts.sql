CREATE TABLE `audit_lines` (
	`id` text PRIMARY KEY NOT NULL,
	`session_id` text NOT NULL,
	`variation_id` text NOT NULL,
	`item_id` text,
	`lot` text,
	`quantity` integer NOT NULL,
	`ledger_position` integer NOT NULL,
	`found` integer DEFAULT false NOT NULL,
	`counted_by` text,
	`counted_at` integer NOT NULL,
	FOREIGN KEY (`session_id`) REFERENCES `audit_sessions`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`variation_id`) REFERENCES `product_variations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`item_id`) REFERENCES `items`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "audit_lines_quantity" CHECK(typeof("audit_lines"."quantity") = 'integer' AND "audit_lines"."quantity" >= 0)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `audit_lines_item_unique` ON `audit_lines` (`session_id`,`item_id`) WHERE "audit_lines"."item_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX `audit_lines_session_variation_idx` ON `audit_lines` (`session_id`,`variation_id`,`lot`);--> statement-breakpoint
CREATE TABLE `audit_sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`location_id` text NOT NULL,
	`status` text DEFAULT 'in_progress' NOT NULL,
	`scope` text NOT NULL,
	`scope_category` text,
	`scope_product_ids` text,
	`blind` integer NOT NULL,
	`started_by` text,
	`started_at` integer NOT NULL,
	`submitted_by` text,
	`submitted_at` integer,
	`reviewed_by` text,
	`reviewed_at` integer,
	`review_note` text,
	`updated_at` integer,
	FOREIGN KEY (`location_id`) REFERENCES `locations`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "audit_sessions_status" CHECK("audit_sessions"."status" IN ('in_progress', 'submitted', 'approved', 'rejected')),
	CONSTRAINT "audit_sessions_scope" CHECK("audit_sessions"."scope" IN ('all', 'category', 'products')),
	CONSTRAINT "audit_sessions_scope_category" CHECK(("audit_sessions"."scope" = 'category') = ("audit_sessions"."scope_category" IS NOT NULL)),
	CONSTRAINT "audit_sessions_scope_products" CHECK(("audit_sessions"."scope" = 'products') = ("audit_sessions"."scope_product_ids" IS NOT NULL AND json_valid("audit_sessions"."scope_product_ids"))),
	CONSTRAINT "audit_sessions_reviewed" CHECK(("audit_sessions"."status" IN ('approved', 'rejected')) = ("audit_sessions"."reviewed_at" IS NOT NULL)),
	CONSTRAINT "audit_sessions_rejected_note" CHECK("audit_sessions"."status" <> 'rejected' OR "audit_sessions"."review_note" IS NOT NULL)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `audit_sessions_one_open_idx` ON `audit_sessions` (`location_id`) WHERE "audit_sessions"."status" IN ('in_progress', 'rejected');--> statement-breakpoint
CREATE INDEX `audit_sessions_location_status_idx` ON `audit_sessions` (`location_id`,`status`,`started_at`,`id`);--> statement-breakpoint
CREATE INDEX `audit_sessions_status_idx` ON `audit_sessions` (`status`,`started_at`,`id`);--> statement-breakpoint
CREATE TABLE `transfer_lines` (
	`id` text PRIMARY KEY NOT NULL,
	`transfer_id` text NOT NULL,
	`variation_id` text NOT NULL,
	`item_id` text,
	`lot` text,
	`quantity` integer NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`quantity_received` integer,
	`reason` text,
	`received_by` text,
	`received_at` integer,
	`resolved_by` text,
	`resolved_at` integer,
	`resolution_note` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`transfer_id`) REFERENCES `transfers`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`variation_id`) REFERENCES `product_variations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`item_id`) REFERENCES `items`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "transfer_lines_status" CHECK("transfer_lines"."status" IN ('pending', 'received', 'missing', 'damaged', 'short', 'returned')),
	CONSTRAINT "transfer_lines_quantity" CHECK(typeof("transfer_lines"."quantity") = 'integer' AND "transfer_lines"."quantity" > 0),
	CONSTRAINT "transfer_lines_received" CHECK("transfer_lines"."quantity_received" IS NULL OR (typeof("transfer_lines"."quantity_received") = 'integer'
        AND "transfer_lines"."quantity_received" BETWEEN 0 AND "transfer_lines"."quantity")),
	CONSTRAINT "transfer_lines_closed" CHECK(("transfer_lines"."status" IN ('pending', 'returned')) = ("transfer_lines"."received_at" IS NULL)),
	CONSTRAINT "transfer_lines_discrepancy_reason" CHECK("transfer_lines"."status" NOT IN ('missing', 'damaged', 'short') OR "transfer_lines"."reason" IS NOT NULL),
	CONSTRAINT "transfer_lines_resolved" CHECK(("transfer_lines"."resolved_at" IS NULL) = ("transfer_lines"."resolution_note" IS NULL))
);
--> statement-breakpoint
CREATE INDEX `transfer_lines_transfer_idx` ON `transfer_lines` (`transfer_id`,`created_at`,`id`);--> statement-breakpoint
CREATE UNIQUE INDEX `transfer_lines_item_unique` ON `transfer_lines` (`transfer_id`,`item_id`) WHERE "transfer_lines"."item_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX `transfer_lines_item_idx` ON `transfer_lines` (`item_id`) WHERE "transfer_lines"."item_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX `transfer_lines_open_discrepancy_idx` ON `transfer_lines` (`transfer_id`) WHERE "transfer_lines"."status" IN ('missing', 'damaged', 'short') AND "transfer_lines"."resolved_at" IS NULL;--> statement-breakpoint
CREATE TABLE `transfers` (
	`id` text PRIMARY KEY NOT NULL,
	`from_location_id` text NOT NULL,
	`to_location_id` text NOT NULL,
	`status` text NOT NULL,
	`note` text,
	`created_by` text,
	`created_at` integer NOT NULL,
	`requested_by` text,
	`requested_at` integer,
	`sent_by` text,
	`sent_at` integer,
	`received_at` integer,
	`cancelled_by` text,
	`cancelled_at` integer,
	`cancel_reason` text,
	`recalled_at` integer,
	`updated_at` integer,
	FOREIGN KEY (`from_location_id`) REFERENCES `locations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`to_location_id`) REFERENCES `locations`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "transfers_status" CHECK("transfers"."status" IN ('requested', 'draft', 'in_transit', 'received', 'cancelled')),
	CONSTRAINT "transfers_two_places" CHECK("transfers"."from_location_id" <> "transfers"."to_location_id"),
	CONSTRAINT "transfers_sent" CHECK("transfers"."status" NOT IN ('in_transit', 'received') OR "transfers"."sent_at" IS NOT NULL),
	CONSTRAINT "transfers_received" CHECK(("transfers"."status" = 'received') = ("transfers"."received_at" IS NOT NULL)),
	CONSTRAINT "transfers_cancelled" CHECK(("transfers"."status" = 'cancelled') = ("transfers"."cancelled_at" IS NOT NULL))
);
--> statement-breakpoint
CREATE INDEX `transfers_from_status_idx` ON `transfers` (`from_location_id`,`status`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `transfers_to_status_idx` ON `transfers` (`to_location_id`,`status`,`created_at`,`id`);