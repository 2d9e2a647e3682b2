import { TASK_ID_PATTERN } from "../contract/index.ts";
import { fromBase64url, toBase64url } from "./base64url.ts";

/** Bytes of randomness (128 bits) and of the tag kept from the HMAC-SHA256 (96 bits). */
const RANDOM_BYTES = 16;
const TAG_BYTES = 12;
/** base64url length of the random part (16 bytes → 22 characters without padding). */
const RANDOM_CHARS = 22;
/** Label the id key is derived under, so it never signs what a CSRF token signs. */
const KEY_LABEL = "task-id";

const encoder = new TextEncoder();
const keys = new Map<string, Promise<CryptoKey>>();

/** HMAC key of the id tags: HMAC-SHA256(secret, "task-id"), derived once per secret. */
function tagKey(secret: string | undefined): Promise<CryptoKey> {
  if (!secret) throw new Error("CSRF_SECRET is not configured");
  let key = keys.get(secret);
  if (key === undefined) {
    key = (async () => {
      const master = await crypto.subtle.importKey(
        "raw",
        encoder.encode(secret),
        { name: "HMAC", hash: "SHA-256" },
        false,
        ["sign"],
      );
      const derived = await crypto.subtle.sign("HMAC", master, encoder.encode(KEY_LABEL));
      return crypto.subtle.importKey("raw", derived, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
    })();
    keys.set(secret, key);
  }
  return key;
}

async function tag(secret: string | undefined, random: Uint8Array): Promise<Uint8Array> {
  const mac = await crypto.subtle.sign("HMAC", await tagKey(secret), random);
  return new Uint8Array(mac, 0, TAG_BYTES);
}

/** 128 random bits and their tag, base64url: 38 characters matching the contract's TASK_ID_PATTERN. */
export async function newTaskId(secret: string | undefined): Promise<string> {
  const random = crypto.getRandomValues(new Uint8Array(RANDOM_BYTES));
  return toBase64url(random) + toBase64url(await tag(secret, random));
}

/** True only for an id this Worker issued (checked without any Durable Object or storage call). */
export async function isTaskId(secret: string | undefined, value: string): Promise<boolean> {
  if (!TASK_ID_PATTERN.test(value)) return false;
  const random = fromBase64url(value.slice(0, RANDOM_CHARS));
  const given = fromBase64url(value.slice(RANDOM_CHARS));
  if (random === null || given === null || random.byteLength !== RANDOM_BYTES) return false;
  // The last of the 22 characters carries 2 spare bits: only the canonical spelling names the task.
  if (toBase64url(random) !== value.slice(0, RANDOM_CHARS)) return false;
  const expected = await tag(secret, random);
  return given.byteLength === TAG_BYTES && crypto.subtle.timingSafeEqual(given, expected);
}
