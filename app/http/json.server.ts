// One shape for every JSON error the API answers: {"error": "<what is wrong and how to fix it>"}.
export function jsonError(status: number, message: string, headers?: HeadersInit): Response {
  return Response.json({ error: message }, { status, headers });
}
