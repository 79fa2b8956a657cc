-- Flagged records (issue #25): commands recorded offline at the cart that the server refused when
-- they were replayed, kept until a manager of their location resolves them.
CREATE TABLE `offline_flags` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`location_id` text NOT NULL,
	`user_id` text NOT NULL,
	`kind` text NOT NULL,
	`item_id` text,
	`session_id` text,
	`body` text NOT NULL,
	`summary` text NOT NULL,
	`recorded_at` integer NOT NULL,
	`flagged_at` integer NOT NULL,
	`code` text NOT NULL,
	`reason` text NOT NULL,
	`idempotency_key` text NOT NULL,
	`fingerprint` text NOT NULL,
	`resolved_at` integer,
	`resolved_by` text,
	`resolution_note` text,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`location_id`) REFERENCES `locations`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "offline_flags_kind" CHECK("offline_flags"."kind" IN ('start', 'draw', 'empty', 'discard', 'count')),
	CONSTRAINT "offline_flags_resolution" CHECK(("offline_flags"."resolved_at" IS NULL AND "offline_flags"."resolved_by" IS NULL AND "offline_flags"."resolution_note" IS NULL)
        OR ("offline_flags"."resolved_at" IS NOT NULL AND "offline_flags"."resolved_by" IS NOT NULL AND length("offline_flags"."resolution_note") > 0))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `offline_flags_user_key_unique` ON `offline_flags` (`user_id`,`idempotency_key`);--> statement-breakpoint
CREATE INDEX `offline_flags_location_idx` ON `offline_flags` (`location_id`,`resolved_at`,`recorded_at`);--> statement-breakpoint
CREATE INDEX `offline_flags_user_idx` ON `offline_flags` (`user_id`,`location_id`,`resolved_at`,`recorded_at`);