DROP INDEX `sales_lines_location_sold_idx`;--> statement-breakpoint
DROP INDEX `sales_lines_item_location_sold_idx`;--> statement-breakpoint
CREATE INDEX `sales_lines_item_location_sold_idx` ON `sales_lines` (`sale_item_id`,`location_id`,`sold_at`,`quantity`);