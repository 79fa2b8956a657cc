CREATE TABLE `lot_recalls` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`variation_id` text NOT NULL,
	`lot` text NOT NULL,
	`note` text NOT NULL,
	`recalled_by` text,
	`recalled_at` integer NOT NULL,
	`lifted_by` text,
	`lifted_at` integer,
	`lift_note` text,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`variation_id`) REFERENCES `product_variations`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "lot_recalls_note" CHECK(length("lot_recalls"."note") BETWEEN 1 AND 1000),
	CONSTRAINT "lot_recalls_lifted" CHECK(("lot_recalls"."lifted_at" IS NULL) = ("lot_recalls"."lifted_by" IS NULL))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `lot_recalls_in_force_unique` ON `lot_recalls` (`variation_id`,`lot`) WHERE "lot_recalls"."lifted_at" IS NULL;--> statement-breakpoint
CREATE INDEX `lot_recalls_org_at_idx` ON `lot_recalls` (`organization_id`,`recalled_at`);--> statement-breakpoint
CREATE TABLE `usage_entries` (
	`id` text PRIMARY KEY NOT NULL,
	`item_id` text NOT NULL,
	`location_id` text NOT NULL,
	`variation_id` text NOT NULL,
	`lot` text,
	`units` integer NOT NULL,
	`service_id` text,
	`provider` text,
	`patient_ref` text,
	`used_at` integer NOT NULL,
	`user_id` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`item_id`) REFERENCES `items`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`location_id`) REFERENCES `locations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`variation_id`) REFERENCES `product_variations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`service_id`) REFERENCES `services`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "usage_entries_units" CHECK(typeof("usage_entries"."units") = 'integer' AND "usage_entries"."units" > 0),
	CONSTRAINT "usage_entries_patient_ref" CHECK("usage_entries"."patient_ref" IS NULL OR length("usage_entries"."patient_ref") BETWEEN 1 AND 64),
	CONSTRAINT "usage_entries_provider" CHECK("usage_entries"."provider" IS NULL OR length("usage_entries"."provider") BETWEEN 1 AND 100)
);
--> statement-breakpoint
CREATE INDEX `usage_entries_location_used_idx` ON `usage_entries` (`location_id`,`used_at`);--> statement-breakpoint
CREATE INDEX `usage_entries_variation_lot_idx` ON `usage_entries` (`variation_id`,`lot`,`used_at`);--> statement-breakpoint
CREATE INDEX `usage_entries_item_idx` ON `usage_entries` (`item_id`,`used_at`);--> statement-breakpoint
-- Hand-written: this trigger (0009) reads items, and SQLite refuses to rename a table into place
-- while a trigger names a missing one; dropped for the rebuild, recreated as 0009 made it below.
DROP TRIGGER `product_variations_units_locked`;--> statement-breakpoint
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_items` (
	`id` text PRIMARY KEY NOT NULL,
	`location_id` text NOT NULL,
	`variation_id` text NOT NULL,
	`receipt_line_id` text,
	`label_code` text NOT NULL,
	`lot` text,
	`serial` text,
	`expiration_date` text,
	`state` text DEFAULT 'sealed' NOT NULL,
	`units_remaining` integer NOT NULL,
	`started_at` integer,
	`expires_at` integer,
	`cost_cents` integer,
	`discard_reason` text,
	`discard_note` text,
	`ended_at` integer,
	`witness_user_id` text,
	`received_at` integer NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer,
	FOREIGN KEY (`location_id`) REFERENCES `locations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`variation_id`) REFERENCES `product_variations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`receipt_line_id`) REFERENCES `receipt_lines`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "items_state" CHECK("__new_items"."state" IN ('sealed', 'in_use', 'empty', 'discarded', 'in_transit')),
	CONSTRAINT "items_discard_reason" CHECK("__new_items"."discard_reason" IS NULL OR "__new_items"."discard_reason" IN ('expired', 'contaminated', 'damaged', 'recalled', 'other', 'beyond_use_deadline', 'lost_in_transit', 'missing_in_count')),
	CONSTRAINT "items_units_remaining" CHECK(typeof("__new_items"."units_remaining") = 'integer' AND "__new_items"."units_remaining" >= 0),
	CONSTRAINT "items_expiration_date" CHECK("__new_items"."expiration_date" IS NULL OR date("__new_items"."expiration_date") IS "__new_items"."expiration_date"),
	CONSTRAINT "items_serial_has_lot" CHECK("__new_items"."serial" IS NULL OR "__new_items"."lot" IS NOT NULL),
	CONSTRAINT "items_ended" CHECK(("__new_items"."state" IN ('empty', 'discarded')) = ("__new_items"."ended_at" IS NOT NULL)),
	CONSTRAINT "items_discarded_reason" CHECK(("__new_items"."state" = 'discarded') = ("__new_items"."discard_reason" IS NOT NULL)),
	CONSTRAINT "items_started" CHECK("__new_items"."state" <> 'in_use' OR ("__new_items"."started_at" IS NOT NULL AND "__new_items"."expires_at" IS NOT NULL)),
	CONSTRAINT "items_cost" CHECK("__new_items"."cost_cents" IS NULL OR (typeof("__new_items"."cost_cents") = 'integer' AND "__new_items"."cost_cents" >= 0))
);
--> statement-breakpoint
INSERT INTO `__new_items`("id", "location_id", "variation_id", "receipt_line_id", "label_code", "lot", "serial", "expiration_date", "state", "units_remaining", "started_at", "expires_at", "cost_cents", "discard_reason", "discard_note", "ended_at", "witness_user_id", "received_at", "created_at", "updated_at") SELECT "id", "location_id", "variation_id", "receipt_line_id", "label_code", "lot", "serial", "expiration_date", "state", "units_remaining", "started_at", "expires_at", "cost_cents", "discard_reason", "discard_note",
  -- New columns: a vial ended before this migration (none existed) would have no end time to copy.
  NULL, NULL, "received_at", "created_at", "updated_at" FROM `items`;--> statement-breakpoint
DROP TABLE `items`;--> statement-breakpoint
ALTER TABLE `__new_items` RENAME TO `items`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE UNIQUE INDEX `items_label_code_unique` ON `items` (`label_code`);--> statement-breakpoint
CREATE INDEX `items_location_state_expiration_idx` ON `items` (`location_id`,`state`,`expiration_date`);--> statement-breakpoint
CREATE INDEX `items_receipt_line_idx` ON `items` (`receipt_line_id`);--> statement-breakpoint
CREATE INDEX `items_variation_lot_idx` ON `items` (`variation_id`,`lot`);--> statement-breakpoint
CREATE INDEX `items_state_expires_idx` ON `items` (`state`,`expires_at`);--> statement-breakpoint
CREATE UNIQUE INDEX `items_serial_unique` ON `items` (`variation_id`,`lot`,`serial`) WHERE "items"."serial" IS NOT NULL;--> statement-breakpoint
CREATE TRIGGER `product_variations_units_locked` BEFORE UPDATE OF units_per_package ON `product_variations`
WHEN NEW.units_per_package IS NOT OLD.units_per_package AND (
	EXISTS (SELECT 1 FROM stock_levels WHERE variation_id = OLD.id AND on_hand > 0)
	OR EXISTS (SELECT 1 FROM items WHERE variation_id = OLD.id AND units_remaining > 0
		AND state IN ('sealed', 'in_use', 'in_transit'))
	OR EXISTS (SELECT 1 FROM receipt_lines AS l JOIN receipts AS r ON r.id = l.receipt_id
		WHERE l.variation_id = OLD.id AND r.status = 'open'))
BEGIN
	SELECT RAISE(ABORT, 'units per package locked: the variation has stock or open receipt lines');
END;
--> statement-breakpoint
ALTER TABLE `products` ADD `controlled` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `stock_movements` ADD `note` text;--> statement-breakpoint
-- Hand-written guards (drizzle-kit does not generate triggers). Usage entries are history: never edited.
CREATE TRIGGER `usage_entries_no_update` BEFORE UPDATE ON `usage_entries`
BEGIN
	SELECT RAISE(ABORT, 'usage_entries is append-only');
END;
--> statement-breakpoint
CREATE TRIGGER `usage_entries_no_delete` BEFORE DELETE ON `usage_entries`
BEGIN
	SELECT RAISE(ABORT, 'usage_entries is append-only');
END;
--> statement-breakpoint
-- A recall is never deleted; its one change is being lifted, once, and nothing else of it moves.
CREATE TRIGGER `lot_recalls_no_delete` BEFORE DELETE ON `lot_recalls`
BEGIN
	SELECT RAISE(ABORT, 'lot_recalls are never deleted');
END;
--> statement-breakpoint
CREATE TRIGGER `lot_recalls_lift_only` BEFORE UPDATE ON `lot_recalls`
WHEN OLD.lifted_at IS NOT NULL OR NEW.id IS NOT OLD.id OR NEW.organization_id IS NOT OLD.organization_id
  OR NEW.variation_id IS NOT OLD.variation_id OR NEW.lot IS NOT OLD.lot OR NEW.note IS NOT OLD.note
  OR NEW.recalled_by IS NOT OLD.recalled_by OR NEW.recalled_at IS NOT OLD.recalled_at
BEGIN
	SELECT RAISE(ABORT, 'a lot recall is only ever lifted, once');
END;
--> statement-breakpoint
-- An emptied or discarded vial is finished: nothing of it changes again, and it is never deleted.
CREATE TRIGGER `items_ended_frozen` BEFORE UPDATE ON `items`
WHEN OLD.state IN ('empty', 'discarded')
BEGIN
	SELECT RAISE(ABORT, 'item is finished');
END;
--> statement-breakpoint
CREATE TRIGGER `items_no_delete` BEFORE DELETE ON `items`
BEGIN
	SELECT RAISE(ABORT, 'items are never deleted');
END;
