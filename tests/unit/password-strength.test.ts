import { describe, expect, it } from "vitest";
import { passwordStrength, utf8Length } from "../../client/src/components/pdf/password-strength.ts";
import { MAX_PASSWORD_BYTES } from "../../contract/index.ts";

describe("password strength", () => {
  it.each([
    ["", "weak"],
    ["1234", "weak"],
    ["aaaaaaaaaaaaaaaa", "weak"],
    ["sunflower", "fair"],
    ["Sunflower42", "good"],
    ["correct horse battery staple", "strong"],
    ["पासवर्ड", "weak"],
    ["मेरापासवर्ड", "fair"],
    ["मेरा-गुप्त-पासवर्ड-२०२६", "strong"],
  ])("rates %j as %s", (password, strength) => {
    expect(passwordStrength(password)).toBe(strength);
  });

  it("measures a password in UTF-8 bytes, as PDF 2.0 limits it", () => {
    expect(utf8Length("a".repeat(MAX_PASSWORD_BYTES))).toBe(127);
    // A Tamil letter is three bytes: 43 of them are over the limit.
    expect(utf8Length("த".repeat(43))).toBeGreaterThan(MAX_PASSWORD_BYTES);
  });
});
