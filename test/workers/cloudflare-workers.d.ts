// The part of the runtime module the workerd suite uses (full types live in @cloudflare/workers-types).
declare module 'cloudflare:workers' {
  export const env: Record<string, unknown>;
}
