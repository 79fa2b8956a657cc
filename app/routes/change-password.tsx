// /change-password: a standalone page like the login screen. Every page sends a user here while
// they still have an initial password; anyone signed in may also come here to change theirs.
// It reads the session itself: the door (signedIn) would send a user who must change back here forever.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { redirect } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { getSessionUser } from "~/auth/session.server";
import { orOutage } from "~/http/outage.server";
import { done, invalid, refused } from "~/http/outcome.server";
import { Button, Field, FormAlert } from "~/ui/form";
import { StandalonePage } from "~/ui/standalone-page";
import { PASSWORD_MIN_LENGTH } from "~/users/constants";
import { ChangePasswordForm } from "~/users/forms";
import { changeOwnPassword } from "~/users/password.server";

export const meta: MetaFunction = () => [{ title: "Change password · Clinic Inventory" }];

async function signedInUser({ request, context }: LoaderFunctionArgs) {
  const user = await orOutage(getSessionUser(context.env, context.db, request));
  if (!user) throw redirect("/login");
  return user;
}

export async function loader(args: LoaderFunctionArgs) {
  const user = await signedInUser(args);
  return { email: user.email, firstName: user.firstName, forced: user.mustChangePassword };
}

export async function action(args: ActionFunctionArgs) {
  const user = await signedInUser(args);
  const parsed = ChangePasswordForm.safeParse(Object.fromEntries(await args.request.formData()));
  if (!parsed.success) return invalid(parsed.error);

  const result = await orOutage(
    changeOwnPassword(args.context.db, user, parsed.data, {
      clientIp: args.request.headers.get("CF-Connecting-IP"),
    }),
  );
  if (!result.ok) {
    // The person's own to fix (400) or a lock to wait out (429), shown on the form: never an error screen.
    return refused(
      result,
      {},
      {
        fields: { wrong_password: "currentPassword", same_password: "newPassword" },
        notFound: [],
        status: result.refusal === "too_many_attempts" ? 429 : 400,
      },
    );
  }
  return done("/", {
    title: "Password changed",
    description:
      result.sessionsRevoked > 0
        ? "Your new password is set. You were signed out on your other devices."
        : "Your new password is set.",
  });
}

export default function ChangePasswordScreen() {
  const { email, firstName, forced } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const submitting = useNavigation().state === "submitting";
  const errors: Record<string, string | undefined> = result?.fieldErrors ?? {};
  return (
    <StandalonePage title="Change your password" subtitle={email}>
      {forced && (
        <p className="mb-4 rounded-md border border-sky-200 bg-sky-50 px-3 py-2 text-sky-900 text-sm">
          Welcome, {firstName}. You signed in with an initial password from your administrator; choose your own to
          continue.
        </p>
      )}
      <FormAlert message={result?.formError} />
      <Form method="post" className="mt-4 flex flex-col gap-4" noValidate>
        {/* Lets password managers file the new password under the right account. */}
        <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
        <Field
          label="Current password"
          name="currentPassword"
          type="password"
          autoComplete="current-password"
          error={errors.currentPassword}
        />
        <Field
          label="New password"
          name="newPassword"
          type="password"
          autoComplete="new-password"
          hint={`At least ${PASSWORD_MIN_LENGTH} characters, different from your current password.`}
          error={errors.newPassword}
        />
        <Field
          label="Confirm new password"
          name="confirmPassword"
          type="password"
          autoComplete="new-password"
          error={errors.confirmPassword}
        />
        <Button disabled={submitting}>{submitting ? "Changing…" : "Change password"}</Button>
      </Form>
      <div className="mt-4 flex items-center justify-between text-sm">
        {forced ? (
          <span />
        ) : (
          <Link to="/" className="text-sky-800 hover:underline">
            Back to the dashboard
          </Link>
        )}
        <Form method="post" action="/logout">
          <button type="submit" className="text-slate-600 underline hover:text-slate-900">
            Sign out
          </button>
        </Form>
      </div>
    </StandalonePage>
  );
}
