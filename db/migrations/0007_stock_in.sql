CREATE TABLE `printer_profiles` (
	`id` text PRIMARY KEY NOT NULL,
	`location_id` text NOT NULL,
	`name` text NOT NULL,
	`output` text DEFAULT 'browser' NOT NULL,
	`zpl_delivery` text DEFAULT 'download' NOT NULL,
	`width_tenth_mm` integer NOT NULL,
	`height_tenth_mm` integer NOT NULL,
	`dpi` integer DEFAULT 203 NOT NULL,
	`symbology` text DEFAULT 'both' NOT NULL,
	`fields` text NOT NULL,
	`copies` integer DEFAULT 1 NOT NULL,
	`offset_x_tenth_mm` integer DEFAULT 0 NOT NULL,
	`offset_y_tenth_mm` integer DEFAULT 0 NOT NULL,
	`is_default` integer DEFAULT false NOT NULL,
	`active` integer DEFAULT true NOT NULL,
	`version` integer DEFAULT 1 NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer,
	FOREIGN KEY (`location_id`) REFERENCES `locations`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "printer_profiles_output" CHECK("printer_profiles"."output" IN ('browser', 'zpl')),
	CONSTRAINT "printer_profiles_zpl_delivery" CHECK("printer_profiles"."zpl_delivery" IN ('download', 'browser_print')),
	CONSTRAINT "printer_profiles_symbology" CHECK("printer_profiles"."symbology" IN ('code128', 'datamatrix', 'both')),
	CONSTRAINT "printer_profiles_dpi" CHECK("printer_profiles"."dpi" IN (203, 300)),
	CONSTRAINT "printer_profiles_size" CHECK("printer_profiles"."width_tenth_mm" BETWEEN 100 AND 2000 AND "printer_profiles"."height_tenth_mm" BETWEEN 100 AND 2000),
	CONSTRAINT "printer_profiles_copies" CHECK("printer_profiles"."copies" BETWEEN 1 AND 10),
	CONSTRAINT "printer_profiles_offsets" CHECK("printer_profiles"."offset_x_tenth_mm" BETWEEN -100 AND 100 AND "printer_profiles"."offset_y_tenth_mm" BETWEEN -100 AND 100),
	CONSTRAINT "printer_profiles_default_active" CHECK(NOT "printer_profiles"."is_default" OR "printer_profiles"."active")
);
--> statement-breakpoint
CREATE UNIQUE INDEX `printer_profiles_location_name_unique` ON `printer_profiles` (`location_id`,`name`);--> statement-breakpoint
CREATE UNIQUE INDEX `printer_profiles_one_default` ON `printer_profiles` (`location_id`) WHERE "printer_profiles"."is_default" = 1;--> statement-breakpoint
CREATE INDEX `printer_profiles_location_active_idx` ON `printer_profiles` (`location_id`,`active`);--> statement-breakpoint
CREATE TABLE `items` (
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
	CONSTRAINT "items_state" CHECK("items"."state" IN ('sealed', 'in_use', 'empty', 'discarded', 'in_transit')),
	CONSTRAINT "items_discard_reason" CHECK("items"."discard_reason" IS NULL OR "items"."discard_reason" IN ('expired', 'contaminated', 'damaged', 'other')),
	CONSTRAINT "items_units_remaining" CHECK("items"."units_remaining" >= 0),
	CONSTRAINT "items_expiration_date" CHECK("items"."expiration_date" IS NULL OR date("items"."expiration_date") IS "items"."expiration_date"),
	CONSTRAINT "items_cost" CHECK(coalesce("items"."cost_cents", 0) >= 0)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `items_label_code_unique` ON `items` (`label_code`);--> statement-breakpoint
CREATE INDEX `items_location_state_expiration_idx` ON `items` (`location_id`,`state`,`expiration_date`);--> statement-breakpoint
CREATE INDEX `items_receipt_line_idx` ON `items` (`receipt_line_id`);--> statement-breakpoint
CREATE INDEX `items_variation_idx` ON `items` (`variation_id`);--> statement-breakpoint
CREATE TABLE `receipt_lines` (
	`id` text PRIMARY KEY NOT NULL,
	`receipt_id` text NOT NULL,
	`variation_id` text NOT NULL,
	`quantity` integer NOT NULL,
	`lot` text,
	`serial` text,
	`expiration_date` text,
	`unit_cost_cents` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`receipt_id`) REFERENCES `receipts`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`variation_id`) REFERENCES `product_variations`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "receipt_lines_quantity" CHECK("receipt_lines"."quantity" BETWEEN 1 AND 1000),
	CONSTRAINT "receipt_lines_serial_one_unit" CHECK("receipt_lines"."serial" IS NULL OR "receipt_lines"."quantity" = 1),
	CONSTRAINT "receipt_lines_expiration_date" CHECK("receipt_lines"."expiration_date" IS NULL OR date("receipt_lines"."expiration_date") IS "receipt_lines"."expiration_date"),
	CONSTRAINT "receipt_lines_cost" CHECK(coalesce("receipt_lines"."unit_cost_cents", 0) >= 0)
);
--> statement-breakpoint
CREATE INDEX `receipt_lines_receipt_idx` ON `receipt_lines` (`receipt_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `receipts` (
	`id` text PRIMARY KEY NOT NULL,
	`location_id` text NOT NULL,
	`vendor_id` text,
	`purchase_order_id` text,
	`reference` text,
	`notes` text,
	`status` text DEFAULT 'open' NOT NULL,
	`version` integer DEFAULT 1 NOT NULL,
	`opened_by` text,
	`created_at` integer NOT NULL,
	`completed_by` text,
	`completed_at` integer,
	FOREIGN KEY (`location_id`) REFERENCES `locations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`vendor_id`) REFERENCES `vendors`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "receipts_status" CHECK("receipts"."status" IN ('open', 'completed', 'cancelled')),
	CONSTRAINT "receipts_completed_at" CHECK(("receipts"."status" = 'completed') = ("receipts"."completed_at" IS NOT NULL))
);
--> statement-breakpoint
CREATE INDEX `receipts_location_status_created_idx` ON `receipts` (`location_id`,`status`,`created_at`);