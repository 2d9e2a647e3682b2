import { type PointerEvent, useEffect, useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { ChoiceGroup } from "../../client/src/components/tool/choice-group";
import {
  pictureCanvas,
  type SignatureImage,
  type Stroke,
  signatureFromCanvas,
  strokesCanvas,
  textCanvas,
} from "./signature-image.ts";
import tool from "./tool.ts";

export type MakerMode = "draw" | "type" | "upload";
type Kind = "signature" | "initials";
const MODES: readonly MakerMode[] = ["draw", "type", "upload"];

/**
 * Typed-signature faces: handwriting fonts shipped with the site (sign-fonts.css), each falling
 * back to the site's Noto faces, so a name in Devanagari, Telugu or Tamil is drawn and shaped by
 * the browser in a face that has its script; "script" is the plain face of the user's script.
 */
const INDIC = '"Noto Sans Devanagari", "Noto Sans Telugu", "Noto Sans Tamil"';
export const TYPED_FONTS = {
  "dancing-script": `"Dancing Script", ${INDIC}, cursive`,
  "great-vibes": `"Great Vibes", ${INDIC}, cursive`,
  caveat: `"Caveat", ${INDIC}, cursive`,
  kalam: `"Kalam", ${INDIC}, cursive`,
  script: `${INDIC}, "Noto Sans", sans-serif`,
} as const;
type TypedFont = keyof typeof TYPED_FONTS;

const INKS = { black: "#111111", blue: "#1f3a93" } as const;
type Ink = keyof typeof INKS;

/** Pad size in CSS pixels (the drawing is kept at SIGNATURE_SCALE for print). */
const PAD = { width: 480, height: 180 };

/** Coordinates of a pointer event in the pad's CSS pixels (the pad may be drawn smaller). */
function padPoint(event: PointerEvent<HTMLCanvasElement>) {
  const rect = event.currentTarget.getBoundingClientRect();
  return {
    x: ((event.clientX - rect.left) * PAD.width) / rect.width,
    y: ((event.clientY - rect.top) * PAD.height) / rect.height,
  };
}

/** Draws the strokes on the visible pad. */
function paintPad(target: HTMLCanvasElement | null, strokes: readonly Stroke[], ink: Ink): void {
  const context = target?.getContext("2d");
  if (!target || !context) return;
  context.clearRect(0, 0, target.width, target.height);
  context.drawImage(
    strokesCanvas(strokes, PAD.width, PAD.height, INKS[ink]),
    0,
    0,
    target.width,
    target.height,
  );
}

/** The drawing pad: pointer or touch strokes, smoothed; undo and clear. */
function DrawPad({
  ink,
  kind,
  onChange,
}: {
  ink: Ink;
  kind: Kind;
  onChange: (image: SignatureImage | null) => void;
}) {
  const { t } = useTranslation(tool.id);
  const canvas = useRef<HTMLCanvasElement>(null);
  const [strokes, setStrokes] = useState<Stroke[]>([]);
  const current = useRef<{ x: number; y: number }[] | null>(null);
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;

  const paint = (list: readonly Stroke[]) => paintPad(canvas.current, list, ink);

  useEffect(() => {
    paintPad(canvas.current, strokes, ink);
    let live = true;
    void signatureFromCanvas(strokesCanvas(strokes, PAD.width, PAD.height, INKS[ink]), `${kind}.png`).then(
      (image) => {
        if (live) onChangeRef.current(image);
      },
    );
    return () => {
      live = false;
    };
  }, [strokes, ink, kind]);

  const down = (event: PointerEvent<HTMLCanvasElement>) => {
    event.preventDefault();
    event.currentTarget.setPointerCapture(event.pointerId);
    current.current = [padPoint(event)];
  };
  const move = (event: PointerEvent<HTMLCanvasElement>) => {
    const stroke = current.current;
    if (stroke === null) return;
    const samples = event.nativeEvent.getCoalescedEvents?.() ?? [];
    for (const sample of samples.length > 0 ? samples : [event.nativeEvent]) {
      const rect = event.currentTarget.getBoundingClientRect();
      stroke.push({
        x: ((sample.clientX - rect.left) * PAD.width) / rect.width,
        y: ((sample.clientY - rect.top) * PAD.height) / rect.height,
      });
    }
    paint([...strokes, stroke]);
  };
  const up = () => {
    const stroke = current.current;
    current.current = null;
    if (stroke !== null) setStrokes((list) => [...list, stroke]);
  };

  return (
    <div className="sign-pad">
      <canvas
        ref={canvas}
        className="sign-pad__canvas"
        width={PAD.width * 2}
        height={PAD.height * 2}
        aria-label={t(`maker.padLabel.${kind}`)}
        role="img"
        onPointerDown={down}
        onPointerMove={move}
        onPointerUp={up}
        onPointerCancel={up}
        data-testid={`sign-pad-${kind}`}
      />
      <p className="sign-pad__hint">{t("maker.drawHint")}</p>
      <div className="sign-pad__actions">
        <button
          type="button"
          className="button button--ghost button--small"
          disabled={strokes.length === 0}
          onClick={() => setStrokes((list) => list.slice(0, -1))}
        >
          {t("maker.undo")}
        </button>
        <button
          type="button"
          className="button button--ghost button--small"
          disabled={strokes.length === 0}
          onClick={() => setStrokes([])}
        >
          {t("maker.clear")}
        </button>
      </div>
    </div>
  );
}

/** A typed name in one of the faces, rendered by the browser's canvas. */
function TypePad({
  ink,
  kind,
  onChange,
}: {
  ink: Ink;
  kind: Kind;
  onChange: (image: SignatureImage | null) => void;
}) {
  const { t } = useTranslation(tool.id);
  const id = useId();
  const [text, setText] = useState("");
  const [font, setFont] = useState<TypedFont>("dancing-script");
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;
  useEffect(() => {
    let live = true;
    const trimmed = text.trim();
    if (trimmed === "") {
      onChangeRef.current(null);
      return;
    }
    void textCanvas(trimmed, TYPED_FONTS[font], INKS[ink])
      .then((canvas) => signatureFromCanvas(canvas, `${kind}.png`))
      .then((image) => {
        if (live) onChangeRef.current(image);
      });
    return () => {
      live = false;
    };
  }, [text, font, ink, kind]);
  return (
    <div className="sign-type">
      <div className="field">
        <label htmlFor={id}>{t(`maker.typeLabel.${kind}`)}</label>
        <input
          id={id}
          type="text"
          value={text}
          maxLength={60}
          autoComplete="name"
          onChange={(event) => setText(event.target.value)}
          data-testid={`sign-type-${kind}`}
        />
      </div>
      <fieldset className="sign-type__fonts">
        <legend>{t("maker.font")}</legend>
        {(Object.keys(TYPED_FONTS) as TypedFont[]).map((name) => (
          <label key={name} className="sign-type__font">
            <input type="radio" name={`${id}-font`} checked={font === name} onChange={() => setFont(name)} />
            <span style={{ fontFamily: TYPED_FONTS[name] }}>
              {text.trim() === "" ? t(`maker.fontName.${name}`) : text}
            </span>
          </label>
        ))}
      </fieldset>
    </div>
  );
}

/** An uploaded picture of the signature; its near-white paper becomes transparent. */
function UploadPad({ kind, onChange }: { kind: Kind; onChange: (image: SignatureImage | null) => void }) {
  const { t } = useTranslation(tool.id);
  const id = useId();
  const [failed, setFailed] = useState(false);
  return (
    <div className="field sign-upload">
      <label htmlFor={id}>{t(`maker.uploadLabel.${kind}`)}</label>
      <input
        id={id}
        type="file"
        accept="image/png,image/jpeg,image/webp"
        onChange={async (event) => {
          const file = event.target.files?.[0];
          if (file === undefined) return;
          const canvas = await pictureCanvas(file);
          const image = canvas === null ? null : await signatureFromCanvas(canvas, `${kind}.png`);
          setFailed(image === null);
          onChange(image);
        }}
        data-testid={`sign-upload-${kind}`}
      />
      <p className="sign-pad__hint" role={failed ? "alert" : undefined}>
        {failed ? t("maker.uploadFailed") : t("maker.uploadHint")}
      </p>
    </div>
  );
}

/**
 * Makes a signature (or initials) image three ways: drawn, typed or uploaded; the ink colour
 * applies to drawn and typed ones. The result (null while there is none) goes to `onChange`.
 */
export function SignatureMaker({
  kind,
  image,
  onChange,
}: {
  kind: "signature" | "initials";
  image: SignatureImage | null;
  onChange: (image: SignatureImage | null) => void;
}) {
  const { t } = useTranslation(tool.id);
  const [mode, setMode] = useState<MakerMode>("draw");
  const [ink, setInk] = useState<Ink>("black");
  return (
    <section className="sign-maker" aria-label={t(`maker.title.${kind}`)} data-testid={`sign-maker-${kind}`}>
      <div className="sign-maker__tabs" role="tablist">
        {MODES.map((value) => (
          <button
            key={value}
            type="button"
            role="tab"
            aria-selected={mode === value}
            className={`sign-maker__tab${mode === value ? " sign-maker__tab--active" : ""}`}
            onClick={() => {
              setMode(value);
              onChange(null);
            }}
            data-testid={`sign-mode-${kind}-${value}`}
          >
            {t(`maker.mode.${value}`)}
          </button>
        ))}
      </div>
      <div role="tabpanel">
        {mode === "draw" ? <DrawPad ink={ink} kind={kind} onChange={onChange} /> : null}
        {mode === "type" ? <TypePad ink={ink} kind={kind} onChange={onChange} /> : null}
        {mode === "upload" ? <UploadPad kind={kind} onChange={onChange} /> : null}
      </div>
      {mode === "upload" ? null : (
        <ChoiceGroup
          legend={t("maker.ink")}
          name={`${kind}-ink`}
          choices={(Object.keys(INKS) as Ink[]).map((value) => ({ value, label: t(`maker.inks.${value}`) }))}
          value={ink}
          disabled={false}
          onChange={setInk}
        />
      )}
      {image === null ? null : (
        <img className="sign-maker__preview" src={image.url} alt={t(`maker.preview.${kind}`)} />
      )}
    </section>
  );
}
