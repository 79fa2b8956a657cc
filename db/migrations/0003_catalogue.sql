CREATE TABLE `barcodes` (
	`id` text PRIMARY KEY NOT NULL,
	`code` text NOT NULL,
	`variation_id` text,
	`item_id` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`variation_id`) REFERENCES `product_variations`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "barcodes_code_rules" CHECK(length("barcodes"."code") BETWEEN 4 AND 50 AND "barcodes"."code" NOT GLOB '*[^A-Z0-9_-]*'),
	CONSTRAINT "barcodes_one_target" CHECK(("barcodes"."variation_id" IS NULL) + ("barcodes"."item_id" IS NULL) = 1)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `barcodes_code_unique` ON `barcodes` (`code`);--> statement-breakpoint
CREATE INDEX `barcodes_variation_idx` ON `barcodes` (`variation_id`);--> statement-breakpoint
CREATE TABLE `par_levels` (
	`location_id` text NOT NULL,
	`variation_id` text NOT NULL,
	`par` integer NOT NULL,
	`reorder_point` integer NOT NULL,
	`max` integer,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`location_id`, `variation_id`),
	FOREIGN KEY (`location_id`) REFERENCES `locations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`variation_id`) REFERENCES `product_variations`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "par_levels_order" CHECK("par_levels"."reorder_point" >= 0 AND "par_levels"."reorder_point" <= "par_levels"."par" AND ("par_levels"."max" IS NULL OR "par_levels"."max" >= "par_levels"."par"))
);
--> statement-breakpoint
CREATE INDEX `par_levels_variation_idx` ON `par_levels` (`variation_id`);--> statement-breakpoint
CREATE TABLE `product_variations` (
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
	CONSTRAINT "product_variations_gtin_digits" CHECK("product_variations"."gtin" IS NULL OR (length("product_variations"."gtin") IN (8, 12, 13, 14) AND "product_variations"."gtin" NOT GLOB '*[^0-9]*')),
	CONSTRAINT "product_variations_units" CHECK("product_variations"."units_per_package" > 0),
	CONSTRAINT "product_variations_cost" CHECK(coalesce("product_variations"."cost_cents", 0) >= 0)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `product_variations_gtin_unique` ON `product_variations` (`gtin`);--> statement-breakpoint
CREATE UNIQUE INDEX `product_variations_product_name_unique` ON `product_variations` (`product_id`,`name`);--> statement-breakpoint
CREATE INDEX `product_variations_product_idx` ON `product_variations` (`product_id`);--> statement-breakpoint
CREATE TABLE `products` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`name` text NOT NULL,
	`sku` text,
	`category` text NOT NULL,
	`manufacturer` text,
	`default_vendor_id` text,
	`tracking` text NOT NULL,
	`base_unit` text NOT NULL,
	`unit_scale` integer DEFAULT 1 NOT NULL,
	`beyond_use_hours` integer,
	`storage` text DEFAULT 'room' NOT NULL,
	`cost_cents` integer,
	`price_cents` integer,
	`active` integer DEFAULT true NOT NULL,
	`version` integer DEFAULT 1 NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`default_vendor_id`) REFERENCES `vendors`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "products_tracking_known" CHECK("products"."tracking" IN ('serialized', 'bulk')),
	CONSTRAINT "products_storage_known" CHECK("products"."storage" IN ('room', 'refrigerated', 'frozen')),
	CONSTRAINT "products_unit_scale" CHECK("products"."unit_scale" IN (1, 10, 100, 1000)),
	CONSTRAINT "products_beyond_use" CHECK("products"."beyond_use_hours" IS NULL OR "products"."beyond_use_hours" > 0),
	CONSTRAINT "products_money" CHECK(coalesce("products"."cost_cents", 0) >= 0 AND coalesce("products"."price_cents", 0) >= 0)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `products_org_sku_unique` ON `products` (`organization_id`,`sku`);--> statement-breakpoint
CREATE INDEX `products_org_active_name_idx` ON `products` (`organization_id`,`active`,`name`);--> statement-breakpoint
CREATE INDEX `products_org_category_idx` ON `products` (`organization_id`,`category`);--> statement-breakpoint
CREATE INDEX `products_vendor_idx` ON `products` (`default_vendor_id`);--> statement-breakpoint
CREATE TABLE `recipe_lines` (
	`service_id` text NOT NULL,
	`variation_id` text NOT NULL,
	`quantity` integer NOT NULL,
	PRIMARY KEY(`service_id`, `variation_id`),
	FOREIGN KEY (`service_id`) REFERENCES `services`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`variation_id`) REFERENCES `product_variations`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "recipe_lines_quantity" CHECK("recipe_lines"."quantity" > 0)
);
--> statement-breakpoint
CREATE INDEX `recipe_lines_variation_idx` ON `recipe_lines` (`variation_id`);--> statement-breakpoint
CREATE TABLE `services` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`name` text NOT NULL,
	`code` text NOT NULL,
	`category` text,
	`price_cents` integer,
	`duration_minutes` integer,
	`active` integer DEFAULT true NOT NULL,
	`version` integer DEFAULT 1 NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "services_price" CHECK(coalesce("services"."price_cents", 0) >= 0),
	CONSTRAINT "services_duration" CHECK("services"."duration_minutes" IS NULL OR "services"."duration_minutes" > 0)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `services_org_code_unique` ON `services` (`organization_id`,`code`);--> statement-breakpoint
CREATE INDEX `services_org_active_name_idx` ON `services` (`organization_id`,`active`,`name`);--> statement-breakpoint
CREATE TABLE `vendors` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`name` text NOT NULL,
	`account_number` text,
	`contact_name` text,
	`email` text,
	`phone` text,
	`lead_time_days` integer,
	`notes` text,
	`active` integer DEFAULT true NOT NULL,
	`version` integer DEFAULT 1 NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "vendors_lead_time" CHECK("vendors"."lead_time_days" IS NULL OR "vendors"."lead_time_days" BETWEEN 0 AND 365)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `vendors_org_name_unique` ON `vendors` (`organization_id`,`name`);--> statement-breakpoint
CREATE INDEX `vendors_org_active_name_idx` ON `vendors` (`organization_id`,`active`,`name`);--> statement-breakpoint
CREATE TABLE `stock_levels` (
	`location_id` text NOT NULL,
	`variation_id` text NOT NULL,
	`on_hand` integer DEFAULT 0 NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`location_id`, `variation_id`),
	FOREIGN KEY (`location_id`) REFERENCES `locations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`variation_id`) REFERENCES `product_variations`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "stock_levels_not_negative" CHECK("stock_levels"."on_hand" >= 0)
);
--> statement-breakpoint
CREATE INDEX `stock_levels_variation_idx` ON `stock_levels` (`variation_id`);