CREATE TABLE `stock_movements` (
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
	CONSTRAINT "stock_movements_quantity_not_zero" CHECK("stock_movements"."quantity" <> 0),
	CONSTRAINT "stock_movements_type" CHECK("stock_movements"."type" IN ('RECEIVE', 'START', 'USE', 'EMPTY', 'DISCARD', 'WASTE', 'ADJUST', 'COUNT', 'TRANSFER_OUT', 'TRANSFER_IN', 'SALE'))
);
--> statement-breakpoint
CREATE INDEX `stock_movements_location_variation_at_idx` ON `stock_movements` (`location_id`,`variation_id`,`occurred_at`);--> statement-breakpoint
CREATE INDEX `stock_movements_reference_idx` ON `stock_movements` (`reference_type`,`reference_id`);