/** The plain static page the paint benches compare with: a heading and a paragraph, no CSS, no script. */
export const PLAIN_PAGE_FILE = "bench-plain-page.html";
export const PLAIN_PAGE =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Plain</title></head><body><h1>Every PDF and image tool you need</h1><p>A plain page for comparison.</p></body></html>\n';
