/**
 * The host (and port, when not the default) of a webhook URL, for logs: the path and query are
 * the tenant's and may carry its own token, so a log line names the host alone.
 */
export const webhookHost = (url: string): string => {
  try {
    return new URL(url).host
  } catch {
    return "(not a URL)"
  }
}
