// Limits of a recall's fields, for the forms' inputs (no zod here: a screen's JavaScript stays
// free of it, and zod's eval probe would trip the page's Content-Security-Policy).
export const RECALL_NOTE_MAX = 1000;
export const RECALL_LOT_MAX = 100;
