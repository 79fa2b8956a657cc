import { comingSoonLoader } from "~/shell/area.server";
import { ComingSoon, comingSoonMeta } from "~/shell/coming-soon";

export const loader = comingSoonLoader("/purchase-orders");
export const meta = comingSoonMeta("/purchase-orders");

export default function Screen() {
  return <ComingSoon path="/purchase-orders" />;
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/shell/screen-error-boundary";
