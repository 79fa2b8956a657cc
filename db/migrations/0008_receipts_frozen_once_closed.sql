-- A completed or cancelled receipt is history: it and its lines can no longer change (a mistake is
-- corrected by an adjustment with a reason). Receipts are never deleted. Every line change bumps
-- the receipt's version, so completion, which names the version it read, cannot miss a line.
CREATE TRIGGER `receipts_closed_no_update` BEFORE UPDATE ON `receipts`
WHEN OLD.status <> 'open'
BEGIN
	SELECT RAISE(ABORT, 'receipt is closed');
END;
--> statement-breakpoint
CREATE TRIGGER `receipts_no_delete` BEFORE DELETE ON `receipts`
BEGIN
	SELECT RAISE(ABORT, 'receipts are never deleted');
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
