import { Effect } from "effect"
import pkcs11js from "pkcs11js"
import { call, type Pkcs11Token } from "../Pkcs11Token.js"

/** What the token tells of the private key labelled `label`: none when there is not exactly one. */
export interface PrivateKeyAttributes {
  readonly sensitive: boolean
  readonly extractable: boolean
  /** How the token answers a request for the key's value: its CKR name, or "read" when it gave it out. */
  readonly valueRequest: string
}

const flag = (value: Buffer | undefined) => value !== undefined && value.length > 0 && value[0] !== 0

/**
 * Reads the private key's protection attributes and asks for its value (CKA_VALUE) as any
 * application could: a key made as the adapters make it must refuse (CKR_ATTRIBUTE_SENSITIVE).
 */
export const privateKeyAttributes = (token: Pkcs11Token["Type"], label: string) =>
  token.withSession((session) =>
    Effect.gen(function*() {
      yield* call(() => session.module.C_FindObjectsInit(session.handle, [{ type: pkcs11js.CKA_CLASS, value: pkcs11js.CKO_PRIVATE_KEY }, { type: pkcs11js.CKA_LABEL, value: label }]))
      const handles = yield* call(() => session.module.C_FindObjects(session.handle, 2))
      yield* call(() => session.module.C_FindObjectsFinal(session.handle))
      if (handles.length !== 1) return undefined
      const handle = handles[0]!
      const [sensitive, extractable] = yield* call(() =>
        session.module.C_GetAttributeValue(session.handle, handle, [{ type: pkcs11js.CKA_SENSITIVE }, { type: pkcs11js.CKA_EXTRACTABLE }]))
      const valueRequest = yield* call(() => session.module.C_GetAttributeValue(session.handle, handle, [{ type: pkcs11js.CKA_VALUE }])).pipe(
        Effect.as("read"),
        Effect.catchAll((failed) => Effect.succeed(failed.returnValue))
      )
      return { sensitive: flag(sensitive?.value), extractable: flag(extractable?.value), valueRequest } satisfies PrivateKeyAttributes
    })
  )
