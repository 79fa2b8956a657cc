// The mark of a controlled substance (products.controlled): wasting its units needs a witness.
export function ControlledBadge() {
  return (
    <span
      className="inline-flex items-center rounded bg-slate-800 px-1.5 py-0.5 font-medium text-white text-xs"
      title="Controlled substance: emptying or discarding units needs a witness"
    >
      Controlled
    </span>
  );
}
