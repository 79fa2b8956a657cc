import { comingSoonLoader } from "~/shell/area.server";
import { ComingSoon, comingSoonMeta } from "~/shell/coming-soon";

export const loader = comingSoonLoader("/backup-restore");
export const meta = comingSoonMeta("/backup-restore");

export default function Screen() {
  return <ComingSoon path="/backup-restore" />;
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/shell/screen-error-boundary";
