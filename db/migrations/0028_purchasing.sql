CREATE TABLE `purchase_order_lines` (
	`id` text PRIMARY KEY NOT NULL,
	`order_id` text NOT NULL,
	`variation_id` text NOT NULL,
	`packages_ordered` integer NOT NULL,
	`units_per_package` integer NOT NULL,
	`unit_cost_cents` integer NOT NULL,
	`packages_received` integer DEFAULT 0 NOT NULL,
	`vendor_sku` text,
	`expected_on` text,
	`created_at` integer NOT NULL,
	`updated_at` integer,
	FOREIGN KEY (`order_id`) REFERENCES `purchase_orders`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`variation_id`) REFERENCES `product_variations`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "purchase_order_lines_packages" CHECK(typeof("purchase_order_lines"."packages_ordered") = 'integer' AND "purchase_order_lines"."packages_ordered" BETWEEN 1 AND 10000),
	CONSTRAINT "purchase_order_lines_units_per_package" CHECK(typeof("purchase_order_lines"."units_per_package") = 'integer' AND "purchase_order_lines"."units_per_package" BETWEEN 1 AND 1000000),
	CONSTRAINT "purchase_order_lines_cost" CHECK(typeof("purchase_order_lines"."unit_cost_cents") = 'integer' AND "purchase_order_lines"."unit_cost_cents" BETWEEN 0 AND 100000000),
	CONSTRAINT "purchase_order_lines_received" CHECK(typeof("purchase_order_lines"."packages_received") = 'integer' AND "purchase_order_lines"."packages_received" >= 0),
	CONSTRAINT "purchase_order_lines_expected_on" CHECK("purchase_order_lines"."expected_on" IS NULL OR date("purchase_order_lines"."expected_on") IS "purchase_order_lines"."expected_on")
);
--> statement-breakpoint
CREATE UNIQUE INDEX `purchase_order_lines_variation_unique` ON `purchase_order_lines` (`order_id`,`variation_id`);--> statement-breakpoint
CREATE INDEX `purchase_order_lines_variation_idx` ON `purchase_order_lines` (`variation_id`);--> statement-breakpoint
CREATE TABLE `purchase_order_revisions` (
	`id` text PRIMARY KEY NOT NULL,
	`order_id` text NOT NULL,
	`revision` integer NOT NULL,
	`reason` text NOT NULL,
	`changes` text NOT NULL,
	`revised_by` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`order_id`) REFERENCES `purchase_orders`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "purchase_order_revisions_revision" CHECK(typeof("purchase_order_revisions"."revision") = 'integer' AND "purchase_order_revisions"."revision" >= 1),
	CONSTRAINT "purchase_order_revisions_changes" CHECK(json_valid("purchase_order_revisions"."changes"))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `purchase_order_revisions_unique` ON `purchase_order_revisions` (`order_id`,`revision`);--> statement-breakpoint
CREATE TABLE `purchase_orders` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`location_id` text NOT NULL,
	`vendor_id` text NOT NULL,
	`year` integer NOT NULL,
	`sequence` integer NOT NULL,
	`number` text NOT NULL,
	`status` text DEFAULT 'draft' NOT NULL,
	`revision` integer DEFAULT 0 NOT NULL,
	`version` integer DEFAULT 1 NOT NULL,
	`note` text,
	`created_by` text,
	`created_at` integer NOT NULL,
	`updated_at` integer,
	`submitted_by` text,
	`submitted_at` integer,
	`closed_by` text,
	`closed_at` integer,
	`close_reason` text,
	`cancelled_by` text,
	`cancelled_at` integer,
	`cancel_reason` text,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`location_id`) REFERENCES `locations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`vendor_id`) REFERENCES `vendors`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "purchase_orders_status" CHECK("purchase_orders"."status" IN ('draft', 'submitted', 'partially_received', 'received', 'closed', 'cancelled')),
	CONSTRAINT "purchase_orders_sequence" CHECK(typeof("purchase_orders"."sequence") = 'integer' AND "purchase_orders"."sequence" >= 1),
	CONSTRAINT "purchase_orders_revision" CHECK(typeof("purchase_orders"."revision") = 'integer' AND "purchase_orders"."revision" >= 0),
	CONSTRAINT "purchase_orders_submitted" CHECK("purchase_orders"."status" IN ('draft', 'cancelled') OR "purchase_orders"."submitted_at" IS NOT NULL),
	CONSTRAINT "purchase_orders_closed" CHECK(("purchase_orders"."status" = 'closed') = ("purchase_orders"."closed_at" IS NOT NULL)),
	CONSTRAINT "purchase_orders_cancelled" CHECK(("purchase_orders"."status" = 'cancelled') = ("purchase_orders"."cancelled_at" IS NOT NULL))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `purchase_orders_number_unique` ON `purchase_orders` (`organization_id`,`year`,`sequence`);--> statement-breakpoint
CREATE INDEX `purchase_orders_location_status_idx` ON `purchase_orders` (`location_id`,`status`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `purchase_orders_vendor_idx` ON `purchase_orders` (`vendor_id`,`status`);--> statement-breakpoint
ALTER TABLE `receipts` ADD `over_receipt_reason` text;--> statement-breakpoint
CREATE INDEX `receipts_purchase_order_idx` ON `receipts` (`purchase_order_id`) WHERE "receipts"."purchase_order_id" IS NOT NULL;--> statement-breakpoint
-- A closed or cancelled order is history: it and its lines no longer change. Orders are never
-- deleted; a line is deleted only from a draft, or by a revision before any of it arrived. A
-- revision is history too. Every line change bumps the order's version, so a write that names the
-- version it read cannot miss a line.
CREATE TRIGGER `purchase_orders_finished_no_update` BEFORE UPDATE ON `purchase_orders`
WHEN OLD.status IN ('closed', 'cancelled')
BEGIN
	SELECT RAISE(ABORT, 'purchase order is closed');
END;
--> statement-breakpoint
CREATE TRIGGER `purchase_orders_no_delete` BEFORE DELETE ON `purchase_orders`
BEGIN
	SELECT RAISE(ABORT, 'purchase orders are never deleted');
END;
--> statement-breakpoint
CREATE TRIGGER `purchase_order_lines_finished_no_insert` BEFORE INSERT ON `purchase_order_lines`
WHEN (SELECT status FROM purchase_orders WHERE id = NEW.order_id) IN ('received', 'closed', 'cancelled')
BEGIN
	SELECT RAISE(ABORT, 'purchase order is closed');
END;
--> statement-breakpoint
CREATE TRIGGER `purchase_order_lines_finished_no_update` BEFORE UPDATE ON `purchase_order_lines`
WHEN (SELECT status FROM purchase_orders WHERE id = OLD.order_id) IN ('closed', 'cancelled')
  OR NEW.order_id <> OLD.order_id OR NEW.variation_id <> OLD.variation_id
BEGIN
	SELECT RAISE(ABORT, 'purchase order is closed');
END;
--> statement-breakpoint
CREATE TRIGGER `purchase_order_lines_no_delete` BEFORE DELETE ON `purchase_order_lines`
WHEN (SELECT status FROM purchase_orders WHERE id = OLD.order_id) <> 'draft'
  AND ((SELECT status FROM purchase_orders WHERE id = OLD.order_id) NOT IN ('submitted', 'partially_received')
    OR OLD.packages_received > 0)
BEGIN
	SELECT RAISE(ABORT, 'a line of a submitted order is removed only by a revision, before any of it arrived');
END;
--> statement-breakpoint
CREATE TRIGGER `purchase_order_lines_insert_bumps_version` AFTER INSERT ON `purchase_order_lines`
BEGIN
	UPDATE purchase_orders SET version = version + 1 WHERE id = NEW.order_id;
END;
--> statement-breakpoint
CREATE TRIGGER `purchase_order_lines_update_bumps_version` AFTER UPDATE ON `purchase_order_lines`
BEGIN
	UPDATE purchase_orders SET version = version + 1 WHERE id = NEW.order_id;
END;
--> statement-breakpoint
CREATE TRIGGER `purchase_order_lines_delete_bumps_version` AFTER DELETE ON `purchase_order_lines`
BEGIN
	UPDATE purchase_orders SET version = version + 1 WHERE id = OLD.order_id;
END;
--> statement-breakpoint
CREATE TRIGGER `purchase_order_revisions_no_update` BEFORE UPDATE ON `purchase_order_revisions`
BEGIN
	SELECT RAISE(ABORT, 'a revision is history');
END;
--> statement-breakpoint
CREATE TRIGGER `purchase_order_revisions_no_delete` BEFORE DELETE ON `purchase_order_revisions`
BEGIN
	SELECT RAISE(ABORT, 'a revision is history');
END;
