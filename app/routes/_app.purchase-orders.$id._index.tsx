import { comingSoonLoader } from "~/shell/area.server";
import { ComingSoon, comingSoonMeta } from "~/shell/coming-soon";

export const loader = comingSoonLoader("/purchase-orders/{id}");
export const meta = comingSoonMeta("/purchase-orders/{id}");

export default function Screen() {
  return <ComingSoon path="/purchase-orders/{id}" />;
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/shell/screen-error-boundary";
