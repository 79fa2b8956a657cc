// Types of the cloudflare:test module that @cloudflare/vitest-pool-workers provides inside workerd.
/// <reference types="@cloudflare/vitest-pool-workers/types" />
