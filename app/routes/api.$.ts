// Unknown /api/* paths answer JSON, not the HTML not-found page.
import { jsonError } from "~/http/json.server";

export const loader = () => jsonError(404, "There is no API endpoint at this path.");
export const action = loader;
