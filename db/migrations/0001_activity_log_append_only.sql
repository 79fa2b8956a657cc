-- The activity log is history: it is appended to, never edited or removed.
CREATE TRIGGER `activity_log_no_update` BEFORE UPDATE ON `activity_log`
BEGIN
	SELECT RAISE(ABORT, 'activity_log is append-only');
END;
--> statement-breakpoint
CREATE TRIGGER `activity_log_no_delete` BEFORE DELETE ON `activity_log`
BEGIN
	SELECT RAISE(ABORT, 'activity_log is append-only');
END;
