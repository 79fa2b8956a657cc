DROP INDEX `products_org_active_name_idx`;--> statement-breakpoint
CREATE INDEX `products_org_active_name_idx` ON `products` (`organization_id`,`active`,lower("name"),`id`);--> statement-breakpoint
CREATE INDEX `product_variations_sku_idx` ON `product_variations` (lower("sku"));