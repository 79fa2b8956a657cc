import type { MetaFunction } from "@remix-run/cloudflare";
import { type AreaPath, area } from "./areas";

/** An honest placeholder inside the shell for a screen whose issue has not been built yet. */
export function ComingSoon({ path }: { path: AreaPath }) {
  const { title, comingIn } = area(path);
  return (
    <section aria-labelledby="page-title" className="flex flex-col gap-3">
      <h1 id="page-title" className="font-semibold text-2xl">
        {title}
      </h1>
      <div data-testid="coming-soon" className="rounded-lg border border-slate-300 border-dashed bg-white p-6">
        <p className="font-medium">Coming soon</p>
        <p className="text-slate-600 text-sm">
          This screen is part of the {comingIn ?? "next"} work and has not been built yet. Nothing here reads or changes
          your data.
        </p>
      </div>
    </section>
  );
}

export function comingSoonMeta(path: AreaPath): MetaFunction {
  return () => [{ title: `${area(path).title} · Clinic Inventory` }];
}
