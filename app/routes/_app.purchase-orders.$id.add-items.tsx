import { comingSoonLoader } from "~/shell/area.server";
import { ComingSoon, comingSoonMeta } from "~/shell/coming-soon";

export const loader = comingSoonLoader("/purchase-orders/{id}/add-items");
export const meta = comingSoonMeta("/purchase-orders/{id}/add-items");

export default function Screen() {
  return <ComingSoon path="/purchase-orders/{id}/add-items" />;
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/shell/screen-error-boundary";
