CREATE TABLE `idempotency_keys` (
	`user_id` text NOT NULL,
	`key` text NOT NULL,
	`purpose` text NOT NULL,
	`answer` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`user_id`, `key`),
	CONSTRAINT "idempotency_keys_key" CHECK(length("idempotency_keys"."key") BETWEEN 8 AND 100)
);
--> statement-breakpoint
CREATE INDEX `idempotency_keys_created_idx` ON `idempotency_keys` (`created_at`);--> statement-breakpoint
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_product_variations` (
	`id` text PRIMARY KEY NOT NULL,
	`product_id` text NOT NULL,
	`name` text NOT NULL,
	`sku` text,
	`gtin` text,
	`units_per_package` integer NOT NULL,
	`cost_cents` integer,
	`active` integer DEFAULT true NOT NULL,
	`version` integer DEFAULT 1 NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer,
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "product_variations_gtin_digits" CHECK("__new_product_variations"."gtin" IS NULL OR (length("__new_product_variations"."gtin") IN (8, 12, 13, 14) AND "__new_product_variations"."gtin" NOT GLOB '*[^0-9]*')),
	CONSTRAINT "product_variations_units" CHECK(typeof("__new_product_variations"."units_per_package") = 'integer' AND "__new_product_variations"."units_per_package" BETWEEN 1 AND 1000000),
	CONSTRAINT "product_variations_cost" CHECK(coalesce("__new_product_variations"."cost_cents", 0) >= 0)
);
--> statement-breakpoint
INSERT INTO `__new_product_variations`("id", "product_id", "name", "sku", "gtin", "units_per_package", "cost_cents", "active", "version", "created_at", "updated_at") SELECT "id", "product_id", "name", "sku", "gtin", "units_per_package", "cost_cents", "active", "version", "created_at", "updated_at" FROM `product_variations`;--> statement-breakpoint
DROP TABLE `product_variations`;--> statement-breakpoint
ALTER TABLE `__new_product_variations` RENAME TO `product_variations`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE UNIQUE INDEX `product_variations_gtin_unique` ON `product_variations` (`gtin`);--> statement-breakpoint
CREATE UNIQUE INDEX `product_variations_product_name_unique` ON `product_variations` (`product_id`,`name`);--> statement-breakpoint
CREATE INDEX `product_variations_product_idx` ON `product_variations` (`product_id`);--> statement-breakpoint
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
	`received_at` integer NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer,
	FOREIGN KEY (`location_id`) REFERENCES `locations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`variation_id`) REFERENCES `product_variations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`receipt_line_id`) REFERENCES `receipt_lines`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "items_state" CHECK("__new_items"."state" IN ('sealed', 'in_use', 'empty', 'discarded', 'in_transit')),
	CONSTRAINT "items_discard_reason" CHECK("__new_items"."discard_reason" IS NULL OR "__new_items"."discard_reason" IN ('expired', 'contaminated', 'damaged', 'other')),
	CONSTRAINT "items_units_remaining" CHECK(typeof("__new_items"."units_remaining") = 'integer' AND "__new_items"."units_remaining" >= 0),
	CONSTRAINT "items_expiration_date" CHECK("__new_items"."expiration_date" IS NULL OR date("__new_items"."expiration_date") IS "__new_items"."expiration_date"),
	CONSTRAINT "items_serial_has_lot" CHECK("__new_items"."serial" IS NULL OR "__new_items"."lot" IS NOT NULL),
	CONSTRAINT "items_cost" CHECK("__new_items"."cost_cents" IS NULL OR (typeof("__new_items"."cost_cents") = 'integer' AND "__new_items"."cost_cents" >= 0))
);
--> statement-breakpoint
INSERT INTO `__new_items`("id", "location_id", "variation_id", "receipt_line_id", "label_code", "lot", "serial", "expiration_date", "state", "units_remaining", "started_at", "expires_at", "cost_cents", "discard_reason", "discard_note", "received_at", "created_at", "updated_at") SELECT "id", "location_id", "variation_id", "receipt_line_id", "label_code", "lot", "serial", "expiration_date", "state", "units_remaining", "started_at", "expires_at", "cost_cents", "discard_reason", "discard_note", "received_at", "created_at", "updated_at" FROM `items`;--> statement-breakpoint
DROP TABLE `items`;--> statement-breakpoint
ALTER TABLE `__new_items` RENAME TO `items`;--> statement-breakpoint
CREATE UNIQUE INDEX `items_label_code_unique` ON `items` (`label_code`);--> statement-breakpoint
CREATE INDEX `items_location_state_expiration_idx` ON `items` (`location_id`,`state`,`expiration_date`);--> statement-breakpoint
CREATE INDEX `items_receipt_line_idx` ON `items` (`receipt_line_id`);--> statement-breakpoint
CREATE INDEX `items_variation_idx` ON `items` (`variation_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `items_serial_unique` ON `items` (`variation_id`,`lot`,`serial`) WHERE "items"."serial" IS NOT NULL;--> statement-breakpoint
CREATE TABLE `__new_receipt_lines` (
	`id` text PRIMARY KEY NOT NULL,
	`receipt_id` text NOT NULL,
	`variation_id` text NOT NULL,
	`quantity` integer NOT NULL,
	`units_per_package` integer NOT NULL,
	`lot` text,
	`serial` text,
	`expiration_date` text,
	`unit_cost_cents` integer,
	`expiry_reason` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`receipt_id`) REFERENCES `receipts`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`variation_id`) REFERENCES `product_variations`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "receipt_lines_quantity" CHECK(typeof("__new_receipt_lines"."quantity") = 'integer' AND "__new_receipt_lines"."quantity" BETWEEN 1 AND 1000),
	CONSTRAINT "receipt_lines_units_per_package" CHECK(typeof("__new_receipt_lines"."units_per_package") = 'integer' AND "__new_receipt_lines"."units_per_package" BETWEEN 1 AND 1000000),
	CONSTRAINT "receipt_lines_serial_one_unit" CHECK("__new_receipt_lines"."serial" IS NULL OR "__new_receipt_lines"."quantity" = 1),
	CONSTRAINT "receipt_lines_expiration_date" CHECK("__new_receipt_lines"."expiration_date" IS NULL OR date("__new_receipt_lines"."expiration_date") IS "__new_receipt_lines"."expiration_date"),
	CONSTRAINT "receipt_lines_cost" CHECK("__new_receipt_lines"."unit_cost_cents" IS NULL OR (typeof("__new_receipt_lines"."unit_cost_cents") = 'integer' AND "__new_receipt_lines"."unit_cost_cents" >= 0)),
	CONSTRAINT "receipt_lines_expiry_confirmed" CHECK("__new_receipt_lines"."expiration_date" IS NULL OR "__new_receipt_lines"."expiry_reason" IS NOT NULL OR "__new_receipt_lines"."expiration_date"
        BETWEEN date("__new_receipt_lines"."created_at" / 1000, 'unixepoch') AND date("__new_receipt_lines"."created_at" / 1000, 'unixepoch', '+10 years'))
);
--> statement-breakpoint
-- Backfill (hand-written): lines did not keep their package size. A received serialized line's
-- items say what it received (their RECEIVE movements); any other line takes the variation's size,
-- which is what its completion used or would have used. A line whose lot was already expired, or
-- dated over 10 years ahead, when it was added is marked as taken before receiving asked why.
INSERT INTO `__new_receipt_lines`("id", "receipt_id", "variation_id", "quantity", "units_per_package", "lot", "serial", "expiration_date", "unit_cost_cents", "expiry_reason", "created_at") SELECT l."id", l."receipt_id", l."variation_id", l."quantity",
	coalesce((SELECT m."quantity" FROM `items` AS i JOIN `stock_movements` AS m ON m."item_id" = i."id" AND m."type" = 'RECEIVE'
		WHERE i."receipt_line_id" = l."id" LIMIT 1), v."units_per_package"),
	l."lot", l."serial", l."expiration_date", l."unit_cost_cents",
	CASE WHEN l."expiration_date" IS NOT NULL AND l."expiration_date" NOT BETWEEN date(l."created_at" / 1000, 'unixepoch')
		AND date(l."created_at" / 1000, 'unixepoch', '+10 years') THEN 'Added before receiving asked to confirm such lots' END,
	l."created_at"
FROM `receipt_lines` AS l JOIN `product_variations` AS v ON v."id" = l."variation_id";--> statement-breakpoint
DROP TABLE `receipt_lines`;--> statement-breakpoint
ALTER TABLE `__new_receipt_lines` RENAME TO `receipt_lines`;--> statement-breakpoint
CREATE INDEX `receipt_lines_receipt_idx` ON `receipt_lines` (`receipt_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `receipt_lines_variation_idx` ON `receipt_lines` (`variation_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `receipt_lines_serial_unique` ON `receipt_lines` (`variation_id`,`lot`,`serial`,`receipt_id`) WHERE "receipt_lines"."serial" IS NOT NULL;--> statement-breakpoint
CREATE TABLE `__new_stock_levels` (
	`location_id` text NOT NULL,
	`variation_id` text NOT NULL,
	`on_hand` integer DEFAULT 0 NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`location_id`, `variation_id`),
	FOREIGN KEY (`location_id`) REFERENCES `locations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`variation_id`) REFERENCES `product_variations`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "stock_levels_not_negative" CHECK("__new_stock_levels"."on_hand" >= 0),
	CONSTRAINT "stock_levels_on_hand_integer" CHECK(typeof("__new_stock_levels"."on_hand") = 'integer')
);
--> statement-breakpoint
INSERT INTO `__new_stock_levels`("location_id", "variation_id", "on_hand", "updated_at") SELECT "location_id", "variation_id", "on_hand", "updated_at" FROM `stock_levels`;--> statement-breakpoint
DROP TABLE `stock_levels`;--> statement-breakpoint
ALTER TABLE `__new_stock_levels` RENAME TO `stock_levels`;--> statement-breakpoint
CREATE INDEX `stock_levels_variation_idx` ON `stock_levels` (`variation_id`);--> statement-breakpoint
CREATE TABLE `__new_stock_movements` (
	`id` text PRIMARY KEY NOT NULL,
	`occurred_at` integer NOT NULL,
	`location_id` text NOT NULL,
	`variation_id` text NOT NULL,
	`item_id` text,
	`lot` text,
	`quantity` integer NOT NULL,
	`type` text NOT NULL,
	`reason` text,
	`reference_type` text,
	`reference_id` text,
	`user_id` text,
	FOREIGN KEY (`location_id`) REFERENCES `locations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`variation_id`) REFERENCES `product_variations`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "stock_movements_quantity_not_zero" CHECK("__new_stock_movements"."quantity" <> 0),
	CONSTRAINT "stock_movements_quantity_integer" CHECK(typeof("__new_stock_movements"."quantity") = 'integer'),
	CONSTRAINT "stock_movements_type" CHECK("__new_stock_movements"."type" IN ('RECEIVE', 'START', 'USE', 'EMPTY', 'DISCARD', 'WASTE', 'ADJUST', 'COUNT', 'TRANSFER_OUT', 'TRANSFER_IN', 'SALE'))
);
--> statement-breakpoint
INSERT INTO `__new_stock_movements`("id", "occurred_at", "location_id", "variation_id", "item_id", "lot", "quantity", "type", "reason", "reference_type", "reference_id", "user_id") SELECT "id", "occurred_at", "location_id", "variation_id", "item_id", "lot", "quantity", "type", "reason", "reference_type", "reference_id", "user_id" FROM `stock_movements`;--> statement-breakpoint
DROP TABLE `stock_movements`;--> statement-breakpoint
ALTER TABLE `__new_stock_movements` RENAME TO `stock_movements`;--> statement-breakpoint
CREATE INDEX `stock_movements_location_variation_at_idx` ON `stock_movements` (`location_id`,`variation_id`,`occurred_at`);--> statement-breakpoint
CREATE INDEX `stock_movements_reference_idx` ON `stock_movements` (`reference_type`,`reference_id`);--> statement-breakpoint
-- Hand-written: rebuilding a table drops its triggers. Recreated as 0006 and 0008 made them.
-- The stock ledger is history: movements are appended, never edited or removed.
CREATE TRIGGER `stock_movements_no_update` BEFORE UPDATE ON `stock_movements`
BEGIN
	SELECT RAISE(ABORT, 'stock_movements is append-only');
END;
--> statement-breakpoint
CREATE TRIGGER `stock_movements_no_delete` BEFORE DELETE ON `stock_movements`
BEGIN
	SELECT RAISE(ABORT, 'stock_movements is append-only');
END;
--> statement-breakpoint
CREATE TRIGGER `receipt_lines_closed_no_insert` BEFORE INSERT ON `receipt_lines`
WHEN (SELECT status FROM receipts WHERE id = NEW.receipt_id) <> 'open'
BEGIN
	SELECT RAISE(ABORT, 'receipt is closed');
END;
--> statement-breakpoint
CREATE TRIGGER `receipt_lines_closed_no_update` BEFORE UPDATE ON `receipt_lines`
WHEN (SELECT status FROM receipts WHERE id = OLD.receipt_id) <> 'open'
  OR (SELECT status FROM receipts WHERE id = NEW.receipt_id) <> 'open'
BEGIN
	SELECT RAISE(ABORT, 'receipt is closed');
END;
--> statement-breakpoint
CREATE TRIGGER `receipt_lines_closed_no_delete` BEFORE DELETE ON `receipt_lines`
WHEN (SELECT status FROM receipts WHERE id = OLD.receipt_id) <> 'open'
BEGIN
	SELECT RAISE(ABORT, 'receipt is closed');
END;
--> statement-breakpoint
CREATE TRIGGER `receipt_lines_insert_bumps_version` AFTER INSERT ON `receipt_lines`
BEGIN
	UPDATE receipts SET version = version + 1 WHERE id = NEW.receipt_id;
END;
--> statement-breakpoint
CREATE TRIGGER `receipt_lines_update_bumps_version` AFTER UPDATE ON `receipt_lines`
BEGIN
	UPDATE receipts SET version = version + 1 WHERE id IN (OLD.receipt_id, NEW.receipt_id);
END;
--> statement-breakpoint
CREATE TRIGGER `receipt_lines_delete_bumps_version` AFTER DELETE ON `receipt_lines`
BEGIN
	UPDATE receipts SET version = version + 1 WHERE id = OLD.receipt_id;
END;
--> statement-breakpoint
-- Hand-written (ADR 0013): a variation's package size is how its stock, items and open lines were
-- counted; it cannot change while any exist (archive it and add a new variation instead).
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
