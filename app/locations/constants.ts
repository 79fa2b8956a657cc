// Plain values the locations pages render, apart from the zod schemas (see app/users/constants.ts).
export const LOCATION_INTENTS = ["update", "archive", "restore"] as const;
