import { comingSoonLoader } from "~/shell/area.server";
import { ComingSoon, comingSoonMeta } from "~/shell/coming-soon";

export const loader = comingSoonLoader("/receiving/{receiptId}/print-labels");
export const meta = comingSoonMeta("/receiving/{receiptId}/print-labels");

export default function Screen() {
  return <ComingSoon path="/receiving/{receiptId}/print-labels" />;
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/shell/screen-error-boundary";
