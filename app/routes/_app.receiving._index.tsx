import { comingSoonLoader } from "~/shell/area.server";
import { ComingSoon, comingSoonMeta } from "~/shell/coming-soon";

export const loader = comingSoonLoader("/receiving");
export const meta = comingSoonMeta("/receiving");

export default function Screen() {
  return <ComingSoon path="/receiving" />;
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/shell/screen-error-boundary";
