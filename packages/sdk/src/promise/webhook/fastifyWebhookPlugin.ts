import type { WebhookHeaders } from "../../webhook/WebhookHeaders.js"
import { createWebhookHandler, type HandledWebhook, type WebhookHandlerOptions } from "./createWebhookHandler.js"

// The few members of Fastify's types used here, so the SDK needs no Fastify to build or install.
interface FastifyReplyLike {
  code(status: number): FastifyReplyLike
  headers(values: Record<string, string>): FastifyReplyLike
  send(body: string): unknown
}
interface FastifyLike {
  addContentTypeParser(
    type: string,
    options: { readonly parseAs: "buffer"; readonly bodyLimit?: number },
    parser: (request: unknown, body: Buffer, done: (error: Error | null, body?: Buffer) => void) => void
  ): void
  post(path: string, handler: (request: { readonly body: unknown; readonly headers: WebhookHeaders }, reply: FastifyReplyLike) => Promise<unknown>): void
}

export interface FastifyWebhookOptions extends WebhookHandlerOptions {
  /** The route, for example `/collector/webhooks`. */
  readonly path: string
  /** The largest body read, in bytes (default 1 MiB). */
  readonly maxBodyBytes?: number
  readonly onHandled?: (handled: HandledWebhook) => void
}

/**
 * A Fastify plugin serving one webhook route: `await app.register(fastifyWebhookPlugin, options)`.
 * Inside the plugin's own scope JSON bodies are kept as raw bytes (the signature covers them
 * exactly), so the application's other routes keep Fastify's JSON parsing.
 */
export const fastifyWebhookPlugin = async (fastify: FastifyLike, options: FastifyWebhookOptions): Promise<void> => {
  const handle = createWebhookHandler(options)
  fastify.addContentTypeParser("application/json", { parseAs: "buffer", bodyLimit: options.maxBodyBytes ?? 1024 * 1024 }, (_request, body, done) => done(null, body))
  fastify.post(options.path, async (request, reply) => {
    const body = request.body instanceof Uint8Array || typeof request.body === "string" ? request.body : new Uint8Array()
    const handled = await handle(body, request.headers)
    reply.code(handled.status).headers({ ...handled.headers }).send(handled.body)
    options.onHandled?.(handled)
    return reply
  })
}
