// /services/:serviceId: one service, its details and its recipe. Editors (WRITE_PRODUCTS at the
// location in scope) change the details (guarded by the version the form was loaded at), the
// recipe line by line or all at once, and archive or restore it; everyone else reads.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { data } from "@remix-run/cloudflare";
import { useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import type { z } from "zod";
import { actorHere } from "~/access/door.server";
import { canWriteCatalog } from "~/access/may-change";
import { formatDuration } from "~/catalog/amounts";
import { formatMoney, formatQuantity } from "~/catalog/format";
import { orOutage } from "~/http/outage.server";
import { done, type FormAnswer, intentOf, invalid as invalidForm, refused as refusedForm } from "~/http/outcome.server";
import { archiveService, restoreService } from "~/services/archive.server";
import { SERVICE_INTENTS, type ServiceIntent } from "~/services/constants";
import {
  RecipeForm,
  RecipeLineForm,
  RemoveLineForm,
  recipeRows,
  ServiceUpdateForm,
  submittedService,
} from "~/services/forms";
import { serviceDetail } from "~/services/list.server";
import type { ServiceRefusal, ServiceRefused } from "~/services/outcome";
import {
  addRecipeLine,
  type RecipeOutcome,
  removeRecipeLine,
  saveRecipe,
  updateRecipeLine,
} from "~/services/recipe.server";
import { RecipeEditor, type RecipeFailure } from "~/services/recipe-editor";
import { ServiceFields, type SubmittedService } from "~/services/service-fields";
import { updateService } from "~/services/update.server";
import { area } from "~/shell/areas";
import { recordErrorBoundary } from "~/shell/screen-error-boundary";
import { ArchiveCard, Card } from "~/ui/form";
import { DetailsForm, RecordHeader } from "~/ui/record-screen";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.service.name ?? "Service"} · Clinic Inventory` },
];

export async function loader(args: LoaderFunctionArgs) {
  const actor = await actorHere(args, area("/services").permission);
  const canWrite = canWriteCatalog(actor);
  const found = await orOutage(
    serviceDetail(args.context.db, actor, args.params.serviceId ?? "", { choices: canWrite }),
  );
  if (!found) throw data("This service was not found.", { status: 404 });
  return { ...found, canWrite };
}

// A conflict (someone else changed the service or its recipe) shows the current state beside the
// message; other refusals keep what the user typed.
export { revalidateAfterConflict as shouldRevalidate } from "~/ui/revalidate";

/** Which field a refusal is about, so its message shows there. */
const FIELD_OF: Partial<Record<ServiceRefusal, "code" | "variationId" | "quantity">> = {
  code_taken: "code",
  variation_unavailable: "variationId",
  line_exists: "variationId",
  duplicate_line: "variationId",
  quantity_step: "quantity",
  unit_mismatch: "quantity",
};

type Failure = RecipeFailure & { submitted?: SubmittedService };

function invalid(
  intent: ServiceIntent,
  error: z.ZodError,
  options: { variationId?: string; submitted?: SubmittedService } = {},
) {
  return invalidForm(error, { intent, ...options });
}

/** A refusal next to the field it is about (`key` names that field's input on this form), or above the form. */
function refused(
  intent: ServiceIntent,
  result: ServiceRefused,
  options: { variationId?: string; submitted?: SubmittedService; key?: (field: string) => string | undefined } = {},
) {
  const fieldOf = (refusal: ServiceRefusal) => {
    const field = FIELD_OF[refusal];
    return field && (options.key ? options.key(field) : field);
  };
  const { variationId, submitted } = options;
  // Changed meanwhile: the page reads the service again (revalidateAfterConflict) to show it as it now stands.
  const conflict = result.refusal === "changed_meanwhile";
  return refusedForm(result, { intent, variationId, submitted, conflict }, { fields: fieldOf });
}

/** "Botox Cosmetic · 100 U vial: 20 U per service", from the recipe a change answered with. */
function lineSummary(result: Extract<RecipeOutcome, { ok: true }>, variationId: string): string {
  const line = result.recipe.find((l) => l.variationId === variationId);
  if (!line) return "";
  return `${line.product} · ${line.variation}: ${formatQuantity(line.quantity, line.unitScale, line.baseUnit)} per service`;
}

export async function action(args: ActionFunctionArgs): FormAnswer<Failure> {
  const serviceId = args.params.serviceId ?? "";
  const actor = await actorHere(args, "WRITE_PRODUCTS");
  const { db } = args.context;
  const here = `/services/${serviceId}`;
  const formData = await args.request.formData();
  const form = Object.fromEntries(formData);
  const intent = intentOf(form, SERVICE_INTENTS);

  switch (intent) {
    case "update": {
      const parsed = ServiceUpdateForm.safeParse(form);
      if (!parsed.success) return invalid(intent, parsed.error, { submitted: submittedService(form) });
      const result = await orOutage(updateService(db, actor, { serviceId, ...parsed.data }));
      // A conflict shows the current values (the message asks to review them); other refusals what was typed.
      if (!result.ok) {
        const submitted = result.refusal === "changed_meanwhile" ? undefined : submittedService(form);
        return refused(intent, result, { submitted });
      }
      const { name, code } = parsed.data;
      return result.changed
        ? done(here, "Changes saved", `${name} (${code}) is up to date.`)
        : done(here, "No changes", `${name} (${code}) already had these values.`);
    }
    case "archive":
    case "restore": {
      const result = await orOutage(
        intent === "archive" ? archiveService(db, actor, serviceId) : restoreService(db, actor, serviceId),
      );
      if (!result.ok) return refused(intent, result);
      return intent === "archive"
        ? done(here, "Service archived", `${result.name} (${result.code}) is no longer offered; its recipe is kept.`)
        : done(here, "Service restored", `${result.name} (${result.code}) is offered again.`);
    }
    case "add-line":
    case "update-line": {
      const variationId = typeof form.variationId === "string" ? form.variationId : undefined;
      const parsed = RecipeLineForm.safeParse(form);
      if (!parsed.success) return invalid(intent, parsed.error, { variationId });
      const verb = intent === "add-line" ? addRecipeLine : updateRecipeLine;
      const result = await orOutage(verb(db, actor, { serviceId, ...parsed.data }));
      if (!result.ok) {
        // A line's row has one field, its quantity: every line refusal shows there.
        return refused(intent, result, { variationId, key: intent === "update-line" ? () => "quantity" : undefined });
      }
      if (!result.changed) return done(here, "No changes", "That line already had this quantity.");
      return done(
        here,
        intent === "add-line" ? "Line added" : "Quantity changed",
        lineSummary(result, parsed.data.variationId),
      );
    }
    case "remove-line": {
      const parsed = RemoveLineForm.safeParse(form);
      if (!parsed.success) return invalid(intent, parsed.error);
      const result = await orOutage(removeRecipeLine(db, actor, { serviceId, ...parsed.data }));
      if (!result.ok) return refused(intent, result, { variationId: parsed.data.variationId });
      return done(here, "Line removed", "The recipe no longer uses it.");
    }
    case "save-recipe": {
      const parsed = RecipeForm.safeParse({ version: form.version, rows: recipeRows(formData) });
      if (!parsed.success) return invalid(intent, parsed.error);
      const { version, lines } = parsed.data;
      const result = await orOutage(saveRecipe(db, actor, { serviceId, version, lines }));
      if (!result.ok) {
        // A line's problem shows on its row; anything else above the form.
        const row = result.line === undefined ? undefined : lines[result.line]?.row;
        return refused(intent, result, { key: (field) => (row === undefined ? undefined : `${field}-${row}`) });
      }
      const count = result.recipe.length;
      return result.changed
        ? done(here, "Recipe saved", `The recipe now has ${count} ${count === 1 ? "line" : "lines"}.`)
        : done(here, "No changes", "The recipe already had these lines.");
    }
  }
}

export default function ServiceScreen() {
  const { service, recipe, choices, canWrite } = useLoaderData<typeof loader>();
  const failure = useActionData<typeof action>() ?? null;
  const busy = useNavigation().state === "submitting";
  const detailsFailure = failure?.intent === "update" ? failure : null;
  const archiveFailure = failure?.intent === "archive" || failure?.intent === "restore" ? failure.formError : null;
  return (
    <div className="flex max-w-3xl flex-col gap-4">
      <RecordHeader
        back={{ to: "/services", label: "Services" }}
        title={service.name}
        active={service.active}
        tags={<span className="font-mono text-slate-600">{service.code}</span>}
      >
        {service.category && <p className="text-slate-600 text-sm">{service.category}</p>}
      </RecordHeader>

      <Card title="Details">
        {canWrite ? (
          <DetailsForm version={service.version} formError={detailsFailure?.formError} busy={busy}>
            <ServiceFields
              values={service}
              submitted={detailsFailure?.submitted}
              errors={detailsFailure?.fieldErrors ?? {}}
            />
          </DetailsForm>
        ) : (
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
            <dt className="text-slate-600">Code</dt>
            <dd className="font-mono">{service.code}</dd>
            <dt className="text-slate-600">Category</dt>
            <dd>{service.category ?? "—"}</dd>
            <dt className="text-slate-600">Price</dt>
            <dd>{formatMoney(service.priceCents)}</dd>
            <dt className="text-slate-600">Duration</dt>
            <dd>{service.durationMinutes === null ? "—" : formatDuration(service.durationMinutes)}</dd>
          </dl>
        )}
      </Card>

      <Card title="Recipe">
        <RecipeEditor
          key={service.version}
          recipe={recipe}
          choices={choices}
          canWrite={canWrite}
          version={service.version}
          failure={failure}
          busy={busy}
        />
      </Card>

      {canWrite && (
        <ArchiveCard
          active={service.active}
          noun="service"
          busy={busy}
          failure={archiveFailure}
          archiveText={
            <>
              Archiving takes {service.name} off the active list. Nothing is deleted: its recipe and history are kept,
              and you can restore it.
            </>
          }
          restoreText={<>Restoring puts {service.name} back on the active list.</>}
        />
      )}
    </div>
  );
}

export const ErrorBoundary = recordErrorBoundary({
  title: "Service not found",
  text: "This service does not exist in your organization.",
  back: { to: "/services", label: "Back to Services" },
});
