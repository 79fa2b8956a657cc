import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, useLoaderData } from "@remix-run/react";
import { requireUser } from "~/auth/session.server";

export const meta: MetaFunction = () => [{ title: "Dashboard · Clinic Inventory" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(context.env, context.db, request);
  return { user: { firstName: user.firstName, lastName: user.lastName, email: user.email } };
}

export default function Dashboard() {
  const { user } = useLoaderData<typeof loader>();
  return (
    <main className="mx-auto flex max-w-3xl flex-col gap-4 p-6">
      <header className="flex items-center justify-between gap-4">
        <h1 className="font-semibold text-2xl">Dashboard</h1>
        <Form method="post" action="/logout">
          <button type="submit" className="rounded-md border border-slate-300 bg-white px-3 py-1.5 hover:bg-slate-100">
            Logout
          </button>
        </Form>
      </header>
      <p>
        Signed in as{" "}
        <strong data-testid="signed-in-user">
          {user.firstName} {user.lastName}
        </strong>{" "}
        <span className="text-slate-600">({user.email})</span>
      </p>
    </main>
  );
}
