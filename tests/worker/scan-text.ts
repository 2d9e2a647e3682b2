/** The text of the scanned page global-setup.ts makes for the OCR tests (read in Node and in workerd). */
export const SCAN_TEXT = "Searchable scans come back with every word in place";
