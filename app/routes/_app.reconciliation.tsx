import { comingSoonLoader } from "~/shell/area.server";
import { ComingSoon, comingSoonMeta } from "~/shell/coming-soon";

export const loader = comingSoonLoader("/reconciliation");
export const meta = comingSoonMeta("/reconciliation");

export default function Screen() {
  return <ComingSoon path="/reconciliation" />;
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/shell/screen-error-boundary";
