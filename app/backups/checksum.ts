// A table's checksum: a sha256 chain over its pages in primary key order. Each page is the rows'
// canonical lines (SQLite's json_array of the columns in order, "\n" after each), and the chain
// link is sha256(previous link ‖ page). The same pages come from the live table when writing, from
// the file when reading it back, and from the staged copy after loading it, so the three compare.

export const EMPTY_CHAIN = "0".repeat(64);

export async function chainPage(previous: string, lines: readonly string[]): Promise<string> {
  const page = new TextEncoder().encode(`${lines.join("\n")}\n`);
  const input = new Uint8Array(32 + page.length);
  input.set(fromHex(previous), 0);
  input.set(page, 32);
  return toHex(new Uint8Array(await crypto.subtle.digest("SHA-256", input)));
}

function fromHex(hex: string): Uint8Array {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

function toHex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

export function toBase64(bytes: Uint8Array): string {
  let text = "";
  for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(text);
}

export function fromBase64(text: string): Uint8Array {
  const raw = atob(text);
  const out = new Uint8Array(raw.length);
  for (let i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
  return out;
}
