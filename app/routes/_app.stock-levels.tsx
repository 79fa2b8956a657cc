import { comingSoonLoader } from "~/shell/area.server";
import { ComingSoon, comingSoonMeta } from "~/shell/coming-soon";

export const loader = comingSoonLoader("/stock-levels");
export const meta = comingSoonMeta("/stock-levels");

export default function Screen() {
  return <ComingSoon path="/stock-levels" />;
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/shell/screen-error-boundary";
