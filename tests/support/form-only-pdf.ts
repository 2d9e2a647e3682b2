/**
 * A page whose only text is in a filled form field and a FreeText comment (their appearance
 * streams), with nothing in the page's own contents: as forms filled in a viewer are saved.
 */
import * as mupdf from "mupdf";

export const FIELD_VALUE = "Jane Example";
export const COMMENT = "Approved by finance";

export function formOnlyPdf(): Uint8Array {
  const doc = new mupdf.PDFDocument();
  doc.insertPage(-1, doc.addPage([0, 0, 595, 842], 0, doc.addObject({}), ""));
  const page = doc.loadPage(0) as mupdf.PDFPage;
  const annotation = page.createAnnotation("Widget");
  annotation.setRect([72, 700, 300, 724]);
  const object = annotation.getObject();
  object.put("FT", doc.newName("Tx"));
  object.put("T", doc.newString("name"));
  object.put("DA", doc.newString("/Helv 12 Tf 0 g"));
  const fields = doc.newArray();
  fields.push(object);
  doc.getTrailer().get("Root").put("AcroForm", doc.newDictionary());
  doc.getTrailer().get("Root").get("AcroForm").put("Fields", fields);
  const field = page.getWidgets()[0];
  if (field === undefined) throw new Error("the text field is not a widget");
  field.setTextValue(FIELD_VALUE);
  field.update();
  const comment = page.createAnnotation("FreeText");
  comment.setRect([72, 600, 400, 630]);
  comment.setContents(COMMENT);
  comment.update();
  const buffer = doc.saveToBuffer("");
  const bytes = buffer.asUint8Array().slice();
  buffer.destroy();
  doc.destroy();
  return bytes;
}
