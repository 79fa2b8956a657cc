import { comingSoonLoader } from "~/shell/area.server";
import { ComingSoon, comingSoonMeta } from "~/shell/coming-soon";

export const loader = comingSoonLoader("/usage-log");
export const meta = comingSoonMeta("/usage-log");

export default function Screen() {
  return <ComingSoon path="/usage-log" />;
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/shell/screen-error-boundary";
