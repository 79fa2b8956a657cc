// TanStack Query as the spec sets it up (sections 7 and 9): data never goes stale by itself and is
// refreshed only after the actions that change it; retries follow the same backoff as the helper.
import { QueryClient, type QueryKey } from "@tanstack/react-query";
import { apiRequest, queryPath } from "./request";
import { type Backoff, backoffDelay, isRefusal, isTransientFailure } from "./retry";

export const QUERY_RETRY_LIMIT = 3;
export const QUERY_BACKOFF: Backoff = { baseMs: 1_000, multiplier: 2, capMs: 30_000, jitterMs: 0 };
export const MUTATION_RETRY_LIMIT = 2;
export const MUTATION_RETRY_DELAY_MS = 2_000;

/** TanStack counts failures from 0: true lets it make retry number failureCount + 1. */
export function shouldRetryQuery(failureCount: number, error: unknown): boolean {
  return failureCount < QUERY_RETRY_LIMIT && !isRefusal(error);
}

export function queryRetryDelay(failureCount: number): number {
  return backoffDelay(failureCount, QUERY_BACKOFF);
}

/** Writes are retried only when they probably never arrived or the server broke: network, time-out, 5xx. */
export function shouldRetryMutation(failureCount: number, error: unknown): boolean {
  return failureCount < MUTATION_RETRY_LIMIT && isTransientFailure(error);
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        // Generic queries: the key is the path. The query client owns retries, so the helper makes one attempt.
        queryFn: ({ queryKey, signal }) => apiRequest("GET", queryPath(queryKey), { signal }),
        retry: shouldRetryQuery,
        retryDelay: queryRetryDelay,
        staleTime: Number.POSITIVE_INFINITY,
        refetchOnWindowFocus: false,
        refetchInterval: false,
      },
      mutations: {
        retry: shouldRetryMutation,
        retryDelay: MUTATION_RETRY_DELAY_MS,
      },
    },
  });
}

/** Keys of the named resources; location-scoped queries add the location after the path. */
export const QUERY_KEYS = {
  vials: ["/api/vials"],
  products: ["/api/products"],
  productVariations: ["/api/product-variations"],
  stockLevels: ["/api/stock-levels"],
  auditSessions: ["/api/audit-sessions"],
  transfers: ["/api/transfers"],
  stats: ["/api/dashboard/stats"],
  parStatus: ["/api/dashboard/par-status"],
  recentActivity: ["/api/dashboard/recent-activity"],
} as const satisfies Record<string, QueryKey>;

export type ClinicAction =
  | "receive_vials"
  | "start_vial"
  | "empty_vial"
  | "discard_vial"
  | "update_product"
  | "update_variation"
  | "import_sales"
  | "audit_complete"
  | "transfer_complete";

const { vials, products, productVariations, stockLevels, auditSessions, transfers, stats, parStatus, recentActivity } =
  QUERY_KEYS;

/** What each action makes out of date (spec section 7). Keys are prefixes: every location's copy is refreshed. */
export const REFRESH_AFTER: Record<ClinicAction, readonly QueryKey[]> = {
  receive_vials: [vials, stats, parStatus, recentActivity, products],
  start_vial: [vials, stats, recentActivity],
  empty_vial: [vials, stats, parStatus, recentActivity],
  discard_vial: [vials, stats, parStatus, recentActivity],
  update_product: [products, parStatus, stats, stockLevels],
  update_variation: [productVariations, products],
  import_sales: [recentActivity, parStatus],
  audit_complete: [vials, stats, recentActivity, auditSessions],
  transfer_complete: [vials, stats, recentActivity, transfers],
};

export async function refreshAfter(queryClient: QueryClient, action: ClinicAction): Promise<void> {
  await Promise.all(REFRESH_AFTER[action].map((queryKey) => queryClient.invalidateQueries({ queryKey })));
}

let browserClient: QueryClient | undefined;

/** The browser's one query client: the app layout provides it, client actions refresh it. */
export function browserQueryClient(): QueryClient {
  browserClient ??= createQueryClient();
  return browserClient;
}
