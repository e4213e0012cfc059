import { z } from 'zod';

/** Environment → validated, frozen configuration. Every variable is documented in the README's table. */
const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).optional(),
  PUBLIC_URL: z
    .string()
    .url()
    .default('http://localhost:3000')
    .transform((url) => url.replace(/\/+$/, '')),
  DATABASE_PATH: z.string().min(1).default('data/shortlinks.db'),
  ALLOWED_ORIGINS: z.string().optional(),
  TRUST_PROXY: z.string().optional(),
});

export interface Config {
  port: number;
  host: string | undefined;
  /** The service's own address, no trailing slash: `https://links.example.com`. */
  publicUrl: string;
  databasePath: string;
  /** Browser origins allowed to call /mcp besides PUBLIC_URL's own (an MCP Inspector, say). */
  allowedOrigins: string[];
  /** Addresses of reverse proxies whose X-Forwarded-For names the client. */
  trustedProxies: string[];
}

function list(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}

/** Reads the configuration; throws a one-line reason on a bad value. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`Bad configuration: ${issue?.path.join('.')}: ${issue?.message}`);
  }
  const e = parsed.data;
  return Object.freeze({
    port: e.PORT,
    host: e.HOST,
    publicUrl: e.PUBLIC_URL,
    databasePath: e.DATABASE_PATH,
    allowedOrigins: list(e.ALLOWED_ORIGINS),
    trustedProxies: list(e.TRUST_PROXY),
  });
}
