import { comingSoonLoader } from "~/shell/area.server";
import { ComingSoon, comingSoonMeta } from "~/shell/coming-soon";

export const loader = comingSoonLoader("/printer-settings");
export const meta = comingSoonMeta("/printer-settings");

export default function Screen() {
  return <ComingSoon path="/printer-settings" />;
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/shell/screen-error-boundary";
