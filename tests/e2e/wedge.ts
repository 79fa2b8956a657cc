// Types as a keyboard-wedge scanner does, 10 ms a key by the page's clock whatever the machine's
// load: each key goes through the DevTools protocol with its own timestamp, which becomes the
// event's timeStamp, the clock app/scanner/wedge.ts reads. (page.keyboard.type sends a key when the
// last one is handled: on a busy machine its gaps pass the 50 ms a scan allows.)
import type { Page } from "@playwright/test";

const ENTER = { key: "Enter", code: "Enter", windowsVirtualKeyCode: 13, text: "\r", unmodifiedText: "\r" };

/** The keys of `code` into whatever has the focus, then Enter unless `enter` is false. */
export async function wedgeType(page: Page, code: string, { enter = true } = {}) {
  const session = await page.context().newCDPSession(page);
  const start = Date.now() / 1000;
  const keys = [...code].map((ch) => ({ key: ch, text: ch, unmodifiedText: ch }));
  try {
    for (const [index, key] of [...keys, ...(enter ? [ENTER] : [])].entries()) {
      const timestamp = start + index * 0.01;
      await session.send("Input.dispatchKeyEvent", { type: "keyDown", ...key, timestamp });
      await session.send("Input.dispatchKeyEvent", { type: "keyUp", key: key.key, timestamp });
    }
  } finally {
    await session.detach();
  }
}
