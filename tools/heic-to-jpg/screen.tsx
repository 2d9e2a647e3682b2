import ImageConverterPage from "../../client/src/features/image-converter/image-converter-page";
import tool from "./tool.ts";

/** The shared image converter screen, for HEIC → JPG. */
export default function Screen() {
  return <ImageConverterPage toolId={tool.id} />;
}
