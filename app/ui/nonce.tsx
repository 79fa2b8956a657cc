// The response's CSP nonce for the components that render inline scripts (app/root.tsx). Set on
// the server by entry.server.tsx; in the browser it is empty (browsers hide nonces from the DOM,
// and scripts added after hydration are modules loaded from 'self').
import { createContext, useContext } from "react";

const NonceContext = createContext<string | undefined>(undefined);

export const NonceProvider = NonceContext.Provider;

export function useNonce(): string | undefined {
  return useContext(NonceContext);
}
