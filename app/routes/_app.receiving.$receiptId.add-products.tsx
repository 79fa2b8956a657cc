import { comingSoonLoader } from "~/shell/area.server";
import { ComingSoon, comingSoonMeta } from "~/shell/coming-soon";

export const loader = comingSoonLoader("/receiving/{receiptId}/add-products");
export const meta = comingSoonMeta("/receiving/{receiptId}/add-products");

export default function Screen() {
  return <ComingSoon path="/receiving/{receiptId}/add-products" />;
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/shell/screen-error-boundary";
