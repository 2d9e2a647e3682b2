import {
  CONTACT_PATHS,
  type ContactReceipt,
  type ContactSubmission,
  contactReceiptSchema,
} from "../../../../contract/contact.ts";
import { ApiError, errorFromResponse, parseJson } from "../../lib/api/api-error";
import { withCsrf } from "../../lib/api/csrf";

/**
 * `POST /api/contact`: resolves once the server has stored the message. A refusal rejects with the
 * server's code (for a refused field, its name and problem in the context); no answer at all
 * rejects with the network message.
 */
export function sendContactMessage(message: ContactSubmission): Promise<ContactReceipt> {
  return withCsrf(async (headers) => {
    let response: Response;
    try {
      response = await fetch(CONTACT_PATHS.submit, {
        method: "POST",
        body: JSON.stringify(message),
        headers: { ...headers, "Content-Type": "application/json", Accept: "application/json" },
        credentials: "same-origin",
      });
    } catch {
      throw new ApiError({ message: "Network error", fallbackKey: "errors.network" });
    }
    const text = await response.text();
    if (!response.ok) throw errorFromResponse(response.status, text, "errors.unexpected");
    const parsed = contactReceiptSchema.safeParse(parseJson(text));
    if (!parsed.success) throw new ApiError({ message: "Invalid contact response", status: response.status });
    return parsed.data;
  });
}
