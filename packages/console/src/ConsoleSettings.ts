export interface ConsoleSettings {
  /**
   * Whether the session cookie is marked Secure. Off only when the console is served on a
   * loopback address, where a browser on the same machine talks plain HTTP to it.
   */
  readonly secureCookie: boolean
}

const loopback = /^(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|::1|localhost)$/

/** The console's settings for an operator port listening on `host`. */
export const consoleSettingsFor = (host: string): ConsoleSettings => ({ secureCookie: !loopback.test(host) })
