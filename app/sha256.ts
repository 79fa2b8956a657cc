// SHA-256 as lower-case hex (WebCrypto, in Workers and Node alike): a session's stored id, a
// request's fingerprint, an imported row's key, a file's hash. One function, so every digest the
// database keeps is written the same way.

export async function sha256Hex(input: string | BufferSource): Promise<string> {
  const bytes = typeof input === "string" ? new TextEncoder().encode(input) : input;
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  let hex = "";
  for (const byte of digest) hex += byte.toString(16).padStart(2, "0");
  return hex;
}
