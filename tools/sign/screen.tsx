import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { ChosenPdf } from "../../client/src/components/pdf/chosen-pdf";
import { PageThumbnail } from "../../client/src/components/pdf/page-thumbnails";
import { usePickedPdf } from "../../client/src/components/pdf/use-picked-pdf";
import { FileDropzone } from "../../client/src/components/tool/file-dropzone";
import { documentFacts, ResultPanel } from "../../client/src/components/tool/result-panel";
import { TaskActions } from "../../client/src/components/tool/task-actions";
import { ToolShell } from "../../client/src/components/tool/tool-shell";
import { finishedTaskActions, useToolTask } from "../../client/src/components/tool/use-tool-task";
import type { ApiError } from "../../client/src/lib/api/api-error";
import { apiErrorMessage } from "../../client/src/lib/show-error";
import { showToast } from "../../client/src/lib/toast-store";
import { type BoxPlacement, type PlacedBox, PlacementEditor } from "./placement-editor";
import { type SignatureImage, signatureFromCanvas, textCanvas } from "./signature-image.ts";
import { SignatureMaker } from "./signature-maker";
import tool, { MAX_PLACEMENTS } from "./tool.ts";
import "./sign.css";
import "./sign-fonts.css";

/** Where a new signature goes: lower right, a quarter of the page wide. */
const FIRST_PLACE: BoxPlacement = { x: 0.6, y: 0.78, width: 0.25 };
const INITIALS_PLACE: BoxPlacement = { x: 0.85, y: 0.92, width: 0.08 };
const DATE_PLACE: BoxPlacement = { x: 0.06, y: 0.93, width: 0.22 };
/** The face of the date line: the site's Noto faces for the Indic scripts. */
const DATE_FONT = '"Noto Sans", "Noto Sans Devanagari", "Noto Sans Telugu", "Noto Sans Tamil", sans-serif';

/** Keys of the named sign errors (INVALID_OPTIONS with `sign_error`, see stamp-signature.ts). */
const SIGN_ERRORS = ["page_out_of_range", "outside_page", "no_placement", "image_missing"] as const;
type SignErrorKey = (typeof SIGN_ERRORS)[number];
const isSignError = (key: unknown): key is SignErrorKey => (SIGN_ERRORS as readonly unknown[]).includes(key);

/** Today's date in the page's language, as an image (the browser shapes every script). */
async function dateImage(language: string): Promise<SignatureImage | null> {
  const text = new Intl.DateTimeFormat(language, { dateStyle: "long" }).format(new Date());
  return signatureFromCanvas(await textCanvas(text, DATE_FONT, "#111111"), "date.png");
}

/** A labelled checkbox of the screen. */
function Check(props: {
  label: string;
  checked: boolean;
  disabled: boolean;
  onChange: (checked: boolean) => void;
  testId: string;
}) {
  return (
    <label className="sign__check">
      <input
        type="checkbox"
        checked={props.checked}
        disabled={props.disabled}
        onChange={(event) => props.onChange(event.target.checked)}
        data-testid={props.testId}
      />
      {props.label}
    </label>
  );
}

/**
 * Sign PDF: one PDF; a signature drawn, typed or uploaded; the pages to sign picked on their
 * thumbnails, the signature placed, moved and resized on each page's preview; optionally initials
 * and the date on every page. Stamped as an image by the server.
 */
export default function SignPage() {
  const { t, i18n } = useTranslation([tool.id, "common"]);
  const { t: shared } = useTranslation();
  const language = i18n.resolvedLanguage ?? "en";
  const { file, setFile, analysis, setPassword, passwordFields } = usePickedPdf();
  const [signature, setSignature] = useState<SignatureImage | null>(null);
  const [initials, setInitials] = useState<SignatureImage | null>(null);
  const [withInitials, setWithInitials] = useState(false);
  const [withDate, setWithDate] = useState(false);
  const [date, setDate] = useState<SignatureImage | null>(null);
  const [current, setCurrent] = useState(1);
  const [places, setPlaces] = useState<ReadonlyMap<number, BoxPlacement>>(new Map([[1, FIRST_PLACE]]));
  const [initialsPlace, setInitialsPlace] = useState(INITIALS_PLACE);
  const [datePlace, setDatePlace] = useState(DATE_PLACE);
  const [lastPlace, setLastPlace] = useState(FIRST_PLACE);
  const describe = (error: ApiError) => {
    const key = error.context.sign_error;
    if (error.code === "INVALID_OPTIONS" && isSignError(key)) {
      return t(`errors.${key}`, { ...error.context });
    }
    return apiErrorMessage(shared, error);
  };
  const task = useToolTask(tool, (error) =>
    showToast({ variant: "destructive", title: t("failed"), description: describe(error) }),
  );
  const { phase, busy } = task;

  useEffect(() => {
    if (!withDate) return;
    let live = true;
    void dateImage(language).then((image) => {
      if (live) setDate(image);
    });
    return () => {
      live = false;
    };
  }, [withDate, language]);

  const startOver = () => {
    task.reset();
    setFile(null);
    setPlaces(new Map([[1, FIRST_PLACE]]));
    setCurrent(1);
  };

  if (phase.name === "done") {
    const signed = phase.result.facts.signed_pages;
    const facts = [
      ...documentFacts(phase.result, shared, language),
      ...(typeof signed === "number"
        ? [{ id: "signed", label: t("signedPages"), value: String(signed) }]
        : []),
    ];
    return (
      <ToolShell toolId={tool.id}>
        <ResultPanel
          title={t("resultTitle")}
          facts={facts}
          downloadLabel={shared("result.download")}
          anotherLabel={t("another")}
          {...finishedTaskActions(task, phase, () => setFile(null))}
          onAnother={startOver}
        />
      </ToolShell>
    );
  }

  const pageCount = analysis.state === "ready" ? analysis.pages : null;
  const signedPages = [...places.keys()]
    .filter((page) => pageCount !== null && page <= pageCount)
    .sort((a, b) => a - b);
  const initialsReady = !withInitials || initials !== null;
  const dateReady = !withDate || date !== null;
  const valid =
    file !== null &&
    pageCount !== null &&
    signature !== null &&
    signedPages.length > 0 &&
    initialsReady &&
    dateReady;

  const toggleCurrent = () => {
    const next = new Map(places);
    if (next.has(current)) next.delete(current);
    else if (next.size < MAX_PLACEMENTS) next.set(current, lastPlace);
    setPlaces(next);
  };

  const move = (id: string, placement: BoxPlacement) => {
    if (id === "signature") {
      setPlaces(new Map(places).set(current, placement));
      setLastPlace(placement);
    } else if (id === "initials") setInitialsPlace(placement);
    else setDatePlace(placement);
  };

  const run = () => {
    if (!valid || file === null || signature === null) return;
    const placements = [
      ...signedPages.map((page) => ({ page, ...(places.get(page) as BoxPlacement) })),
      ...(withInitials ? [{ image: "initials", page: "all", ...initialsPlace }] : []),
      ...(withDate ? [{ image: "date", page: "all", ...datePlace }] : []),
    ];
    const extras: Record<string, File> = { signature: signature.file };
    if (withInitials && initials !== null) extras.initials = initials.file;
    if (withDate && date !== null) extras.date = date.file;
    void task.run([file], { placements: JSON.stringify(placements), ...passwordFields }, extras);
  };

  const boxes: PlacedBox[] = [
    ...(signature !== null && places.has(current)
      ? [
          {
            id: "signature",
            label: t("place.signature"),
            url: signature.url,
            aspect: signature.aspect,
            placement: places.get(current) as BoxPlacement,
          },
        ]
      : []),
    ...(withInitials && initials !== null
      ? [
          {
            id: "initials",
            label: t("place.initials"),
            url: initials.url,
            aspect: initials.aspect,
            placement: initialsPlace,
          },
        ]
      : []),
    ...(withDate && date !== null
      ? [{ id: "date", label: t("place.date"), url: date.url, aspect: date.aspect, placement: datePlace }]
      : []),
  ];

  return (
    <ToolShell toolId={tool.id}>
      <div className="sign">
        <p className="sign__notice" data-testid="sign-notice">
          {t("notice")}
        </p>
        <FileDropzone
          limits={tool.input}
          disabled={busy}
          compact={file !== null}
          onAccept={(files) => {
            task.reset();
            setFile(files[0] ?? null);
            setPlaces(new Map([[1, lastPlace]]));
            setCurrent(1);
          }}
        />
        {file ? (
          <ChosenPdf
            file={file}
            analysis={analysis}
            disabled={busy}
            onRemove={startOver}
            onPassword={setPassword}
          />
        ) : null}
        {file !== null && pageCount !== null ? (
          <>
            <h2 className="sign__step">{t("steps.create")}</h2>
            <SignatureMaker kind="signature" image={signature} onChange={setSignature} />
            <h2 className="sign__step">{t("steps.place")}</h2>
            <p className="sign__hint">{t("place.hint")}</p>
            <div className="sign__layout">
              <ol className="sign__pages" aria-label={t("place.pages")}>
                {Array.from({ length: pageCount }, (_, index) => index + 1).map((page) => (
                  <li key={page}>
                    <button
                      type="button"
                      className={`sign__page${page === current ? " sign__page--current" : ""}${places.has(page) ? " sign__page--signed" : ""}`}
                      aria-current={page === current ? "page" : undefined}
                      aria-label={t(places.has(page) ? "place.pageSigned" : "place.pageLabel", { page })}
                      onClick={() => setCurrent(page)}
                      data-testid={`sign-page-${page}`}
                    >
                      <PageThumbnail file={file} page={page} width={72} />
                    </button>
                  </li>
                ))}
              </ol>
              <div className="sign__editor">
                <Check
                  label={t("place.signThisPage", { page: current })}
                  checked={places.has(current)}
                  disabled={busy}
                  onChange={toggleCurrent}
                  testId="sign-this-page"
                />
                <PlacementEditor file={file} page={current} boxes={boxes} onChange={move} />
              </div>
            </div>
            <h2 className="sign__step">{t("steps.extras")}</h2>
            <Check
              label={t("extras.initials")}
              checked={withInitials}
              disabled={busy}
              onChange={setWithInitials}
              testId="sign-with-initials"
            />
            {withInitials ? <SignatureMaker kind="initials" image={initials} onChange={setInitials} /> : null}
            <Check
              label={t("extras.date")}
              checked={withDate}
              disabled={busy}
              onChange={setWithDate}
              testId="sign-with-date"
            />
          </>
        ) : null}
        <TaskActions
          phase={phase}
          busy={busy}
          disabled={!valid}
          label={t("sign")}
          busyLabel={t("signing")}
          onStart={run}
          testId="sign-button"
        >
          {file !== null && pageCount !== null && signature === null ? (
            <p className="sign__hint">{t("needSignature")}</p>
          ) : null}
        </TaskActions>
      </div>
    </ToolShell>
  );
}
