CREATE TABLE `import_jobs` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`kind` text NOT NULL,
	`location_id` text,
	`status` text NOT NULL,
	`source` text NOT NULL,
	`file_name` text NOT NULL,
	`format` text NOT NULL,
	`file_hash` text NOT NULL,
	`original_key` text NOT NULL,
	`rows_key` text NOT NULL,
	`rows_bytes` integer NOT NULL,
	`headers` text NOT NULL,
	`mapping` text DEFAULT '{}' NOT NULL,
	`location_map` text,
	`time_zone` text NOT NULL,
	`byte_offset` integer DEFAULT 0 NOT NULL,
	`rows_done` integer DEFAULT 0 NOT NULL,
	`rows_total` integer NOT NULL,
	`imported` integer DEFAULT 0 NOT NULL,
	`duplicates` integer DEFAULT 0 NOT NULL,
	`skipped` integer DEFAULT 0 NOT NULL,
	`unmapped` integer DEFAULT 0 NOT NULL,
	`errors` integer DEFAULT 0 NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`lease_until` integer,
	`last_error` text,
	`created_by` text NOT NULL,
	`created_at` integer NOT NULL,
	`queued_at` integer,
	`started_at` integer,
	`finished_at` integer,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`location_id`) REFERENCES `locations`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "import_jobs_kind" CHECK("import_jobs"."kind" IN ('sales', 'recipes')),
	CONSTRAINT "import_jobs_status" CHECK("import_jobs"."status" IN ('preview', 'queued', 'processing', 'completed', 'failed')),
	CONSTRAINT "import_jobs_source" CHECK("import_jobs"."source" IN ('square', 'zenoti', 'custom')),
	CONSTRAINT "import_jobs_format" CHECK("import_jobs"."format" IN ('csv', 'xlsx')),
	CONSTRAINT "import_jobs_progress" CHECK("import_jobs"."byte_offset" BETWEEN 0 AND "import_jobs"."rows_bytes" AND "import_jobs"."rows_done" >= 0),
	CONSTRAINT "import_jobs_counts" CHECK(min("import_jobs"."imported", "import_jobs"."duplicates", "import_jobs"."skipped", "import_jobs"."unmapped", "import_jobs"."errors") >= 0)
);
--> statement-breakpoint
CREATE INDEX `import_jobs_org_created_idx` ON `import_jobs` (`organization_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `import_jobs_location_created_idx` ON `import_jobs` (`location_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `import_jobs_waiting_idx` ON `import_jobs` (`queued_at`) WHERE "import_jobs"."status" IN ('queued', 'processing');--> statement-breakpoint
CREATE TABLE `import_mappings` (
	`organization_id` text NOT NULL,
	`header_signature` text NOT NULL,
	`kind` text NOT NULL,
	`mapping` text NOT NULL,
	`updated_by` text NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`organization_id`, `kind`, `header_signature`),
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "import_mappings_kind" CHECK("import_mappings"."kind" IN ('sales', 'recipes'))
);
--> statement-breakpoint
CREATE TABLE `import_row_errors` (
	`job_id` text NOT NULL,
	`row_number` integer NOT NULL,
	`column` text,
	`value` text,
	`message` text NOT NULL,
	PRIMARY KEY(`job_id`, `row_number`),
	FOREIGN KEY (`job_id`) REFERENCES `import_jobs`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `import_row_occurrences` (
	`job_id` text NOT NULL,
	`row_hash` text NOT NULL,
	`seen` integer NOT NULL,
	PRIMARY KEY(`job_id`, `row_hash`)
);
--> statement-breakpoint
CREATE TABLE `sale_bookings` (
	`line_id` integer PRIMARY KEY NOT NULL,
	`variation_id` text NOT NULL,
	`booked_units` integer NOT NULL,
	`short_units` integer NOT NULL,
	`booked_at` integer NOT NULL,
	FOREIGN KEY (`line_id`) REFERENCES `sales_lines`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`variation_id`) REFERENCES `product_variations`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "sale_bookings_short" CHECK("sale_bookings"."short_units" >= 0)
);
--> statement-breakpoint
CREATE TABLE `sale_items` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`organization_id` text NOT NULL,
	`item_key` text NOT NULL,
	`name` text NOT NULL,
	`sku` text,
	`gtin` text,
	`kind` text NOT NULL,
	`service_id` text,
	`variation_id` text,
	`mapped_by` text,
	`mapped_at` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`service_id`) REFERENCES `services`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`variation_id`) REFERENCES `product_variations`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "sale_items_kind" CHECK("sale_items"."kind" IN ('service', 'retail', 'unmapped', 'ignored')),
	CONSTRAINT "sale_items_target" CHECK(("sale_items"."kind" = 'service' AND "sale_items"."service_id" IS NOT NULL AND "sale_items"."variation_id" IS NULL)
        OR ("sale_items"."kind" = 'retail' AND "sale_items"."variation_id" IS NOT NULL AND "sale_items"."service_id" IS NULL)
        OR ("sale_items"."kind" IN ('unmapped', 'ignored') AND "sale_items"."service_id" IS NULL AND "sale_items"."variation_id" IS NULL))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `sale_items_org_key_unique` ON `sale_items` (`organization_id`,`item_key`);--> statement-breakpoint
CREATE INDEX `sale_items_org_kind_idx` ON `sale_items` (`organization_id`,`kind`);--> statement-breakpoint
CREATE INDEX `sale_items_service_idx` ON `sale_items` (`service_id`) WHERE "sale_items"."service_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX `sale_items_variation_idx` ON `sale_items` (`variation_id`) WHERE "sale_items"."variation_id" IS NOT NULL;--> statement-breakpoint
CREATE TABLE `sales_lines` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`organization_id` text NOT NULL,
	`row_key` text NOT NULL,
	`job_id` text NOT NULL,
	`row_number` integer NOT NULL,
	`location_id` text NOT NULL,
	`sold_at` integer NOT NULL,
	`sale_item_id` integer NOT NULL,
	`quantity` integer NOT NULL,
	`net_cents` integer NOT NULL,
	`transaction_ref` text,
	`provider` text,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`job_id`) REFERENCES `import_jobs`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`location_id`) REFERENCES `locations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`sale_item_id`) REFERENCES `sale_items`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "sales_lines_quantity" CHECK(typeof("sales_lines"."quantity") = 'integer' AND "sales_lines"."quantity" <> 0),
	CONSTRAINT "sales_lines_net" CHECK(typeof("sales_lines"."net_cents") = 'integer')
);
--> statement-breakpoint
CREATE UNIQUE INDEX `sales_lines_org_key_unique` ON `sales_lines` (`organization_id`,`row_key`);--> statement-breakpoint
CREATE INDEX `sales_lines_item_location_sold_idx` ON `sales_lines` (`sale_item_id`,`location_id`,`sold_at`);--> statement-breakpoint
CREATE INDEX `sales_lines_location_sold_idx` ON `sales_lines` (`location_id`,`sold_at`);--> statement-breakpoint
CREATE INDEX `sales_lines_job_row_idx` ON `sales_lines` (`job_id`,`row_number`);