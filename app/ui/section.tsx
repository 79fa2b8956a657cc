// A titled part of a screen (a list under its heading), named by its heading for screen readers.
import type { ReactNode } from "react";

export function Section({ id, title, children }: { id: string; title: ReactNode; children: ReactNode }) {
  return (
    <section aria-labelledby={`${id}-title`} className="flex flex-col gap-2">
      <h2 id={`${id}-title`} className="font-semibold text-lg">
        {title}
      </h2>
      {children}
    </section>
  );
}
