import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningConverter, startConverter } from "../../container/src/server.ts";
import {
  CONVERTER_HEALTH_PATH,
  errorStatus,
  healthResponseSchema,
  TOOL_IDS,
  TOOLS,
} from "../../contract/index.ts";
import { encryptedPdf, halfTransparentPng, openPdf, pageText, pageTexts, textPdf } from "./fixtures.ts";
import {
  AUTH,
  jobError,
  jobFailure,
  jobOutput,
  pdfFile,
  pngFile,
  postInspect,
  postJob,
  TEST_SECRET,
} from "./http.ts";

let converter: RunningConverter;

beforeAll(async () => {
  converter = await startConverter({ port: 0, concurrency: 2, queueLimit: 2, secret: TEST_SECRET });
});

afterAll(async () => {
  await converter?.close();
});

describe("converter service", () => {
  it("answers health with running jobs and capacity", async () => {
    expect(converter.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const response = await fetch(`${converter.url}${CONVERTER_HEALTH_PATH}`);
    expect(healthResponseSchema.parse(await response.json())).toEqual({ ok: true, running: 0, capacity: 2 });
  });

  it("merges PDFs: output bytes, PDF content type, facts header", async () => {
    const files = [pdfFile("a.pdf", textPdf("A", 2)), pdfFile("b.pdf", textPdf("B", 1))];
    const output = await jobOutput(await postJob(converter.url, "merge-pdf", {}, files));
    expect(output.kind).toBe("pdf");
    expect(output.progress).toEqual([45, 90, 100]);
    expect(output.facts).toMatchObject({ pages: 3, files: 2 });
    expect(pageTexts(openPdf(output.bytes))).toEqual([pageText("A", 0), pageText("A", 1), pageText("B", 0)]);
  });

  it("converts a PNG to JPEG with the quality option", async () => {
    const png = pngFile("x.png", await halfTransparentPng(40, 30));
    const output = await jobOutput(await postJob(converter.url, "png-to-jpg", { quality: "high" }, [png]));
    expect(output.kind).toBe("jpeg");
    expect(output.facts).toEqual({ width: 40, height: 30, metadata_removed: false, first_frame_only: false });
    expect((await sharp(output.bytes).metadata()).format).toBe("jpeg");
  });

  it("answers engine failures before any progress with the error envelope and the code's status", async () => {
    const files = [pdfFile("locked.pdf", encryptedPdf()), pdfFile("a.pdf", textPdf("A", 1))];
    const headers = { ...AUTH, "X-Request-Id": "req-42" };
    const { status, error, requestId } = await jobError(
      await postJob(converter.url, "merge-pdf", {}, files, headers),
    );
    expect(status).toBe(errorStatus("PDF_ENCRYPTED"));
    expect(error).toMatchObject({ code: "PDF_ENCRYPTED", context: { file_index: 0 } });
    expect(requestId).toBe("req-42");
  });

  it("answers engine failures after progress with an error frame in the 200 stream", async () => {
    // A PDF tool opens every input before it starts (page limits, passwords): a locked PDF is refused
    // with its status at once. An image whose data breaks half way fails inside the engine, after
    // the first image's progress.
    const good = await halfTransparentPng(40, 30);
    const broken = await halfTransparentPng(40, 30);
    const idat = Buffer.from(broken).indexOf("IDAT");
    broken.fill(0x55, idat + 8, broken.length - 20);
    const files = [pngFile("a.png", good), pngFile("broken.png", broken)];
    const response = await postJob(converter.url, "images-to-pdf", {}, files);
    expect(response.status).toBe(200);
    expect(await jobFailure(response)).toMatchObject({ code: "IMAGE_DAMAGED", context: { file_index: 1 } });
  });

  it("validates tool, files and options before running anything", async () => {
    const pdf = pdfFile("a.pdf", textPdf("A", 1));
    const png = pngFile("x.png", await halfTransparentPng(8, 8));
    const tooMany = Array(TOOLS["merge-pdf"].input.maxFiles + 1).fill(pdf);
    // Any declared tool that is not built yet (none once sign was built): refused by name.
    const notBuilt = TOOL_IDS.find((id) => !TOOLS[id].available);
    const signature = { ...png, field: "signature" };
    const placement = { page: 1, x: 0, y: 0, width: 0.2 };
    const cases: [() => Promise<Response>, string][] = [
      [() => postJob(converter.url, "no-such-tool", {}, [pdf]), "BAD_REQUEST"],
      ...(notBuilt === undefined
        ? []
        : [
            [() => postJob(converter.url, notBuilt, {}, [pdf]), "TOOL_NOT_AVAILABLE"] as [
              () => Promise<Response>,
              string,
            ],
          ]),
      // Extra file fields: only those the tool declares, each of its own kinds, once.
      [() => postJob(converter.url, "sign", placement, [pdf, { ...png, field: "image" }]), "BAD_REQUEST"],
      [
        () => postJob(converter.url, "sign", placement, [pdf, { ...pdf, field: "signature" }]),
        "UNSUPPORTED_FILE_TYPE",
      ],
      [() => postJob(converter.url, "sign", placement, [pdf, signature, signature]), "TOO_MANY_FILES"],
      [() => postJob(converter.url, "sign", placement, [signature]), "NO_FILE"],
      [() => postJob(converter.url, "merge-pdf", {}, []), "NO_FILE"],
      [() => postJob(converter.url, "merge-pdf", {}, [pdf, png]), "UNSUPPORTED_FILE_TYPE"],
      [() => postJob(converter.url, "png-to-jpg", { quality: "ultra" }, [png]), "INVALID_OPTIONS"],
      [() => postJob(converter.url, "merge-pdf", {}, tooMany), "TOO_MANY_FILES"],
    ];
    for (const [send, code] of cases) {
      const { status, error } = await jobError(await send());
      expect([error.code, status]).toEqual([code, errorStatus(error.code)]);
    }
    const wrongKind = await jobError(await postJob(converter.url, "merge-pdf", {}, [pdf, png]));
    expect(wrongKind.error.context).toEqual({ file_index: 1 });
    const wrongSignature = await jobError(
      await postJob(converter.url, "sign", placement, [pdf, { ...pdf, field: "signature" }]),
    );
    expect(wrongSignature.error.context).toEqual({ field: "signature" });
  });

  it("refuses a file over the tool's size limit", async () => {
    const big = new Uint8Array(TOOLS["png-to-jpg"].input.maxFileBytes + 1);
    big.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const png = pngFile("big.png", big);
    const { status, error } = await jobError(await postJob(converter.url, "png-to-jpg", {}, [png]));
    expect([error.code, status]).toEqual(["FILE_TOO_LARGE", 413]);
  });

  it("inspects a PDF's page count, with the same error codes", async () => {
    const response = await postInspect(converter.url, textPdf("A", 4));
    expect(await response.json()).toEqual({ pages: 4, repaired: false });
    expect((await jobError(await postInspect(converter.url, encryptedPdf()))).error.code).toBe(
      "PDF_ENCRYPTED",
    );
    const notPdf = await jobError(await postInspect(converter.url, await halfTransparentPng(8, 8)));
    expect([notPdf.error.code, notPdf.status]).toEqual(["UNSUPPORTED_FILE_TYPE", 415]);
  });

  it("runs concurrent jobs and reports none running afterwards", async () => {
    const jobs = [1, 2, 3, 4].map((n) =>
      postJob(converter.url, "merge-pdf", {}, [pdfFile("a.pdf", textPdf(`J${n}`, 2))]),
    );
    const outputs = await Promise.all(jobs.map(async (job) => jobOutput(await job)));
    expect(outputs.map((output) => pageTexts(openPdf(output.bytes))[0])).toEqual(
      [1, 2, 3, 4].map((n) => pageText(`J${n}`, 0)),
    );
    const health = healthResponseSchema.parse(
      await (await fetch(`${converter.url}${CONVERTER_HEALTH_PATH}`)).json(),
    );
    expect(health.running).toBe(0);
  });
});
