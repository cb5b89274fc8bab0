import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Signed } from "../Authenticated.js"
import { Ok } from "../Envelope.js"

export const AccessToken = Schema.Struct({
  access_token: Schema.String,
  token_type: Schema.Literal("Bearer"),
  expires_in: Schema.Int,
  expires_at: Schema.String
})
export type AccessToken = typeof AccessToken.Type

export class AuthApi extends HttpApiGroup.make("auth")
  .add(
    HttpApiEndpoint.post("issueToken", "/open/v1/auth/token")
      .addSuccess(Ok(AccessToken))
      .annotate(OpenApi.Summary, "Obtain an access token")
      .annotate(
        OpenApi.Description,
        "Signed with X-App-Id, X-Timestamp and X-Sign only (the access token in the signature is the empty string). " +
          "Body, query and Authorization must be absent. Tokens live 7200 s; several may be live at once; rotating the app secret revokes them."
      )
  )
  .middleware(Signed)
{}
