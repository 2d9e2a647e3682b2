/** Uploads: multipart bodies streamed into a sink (R2 for tasks), checked and limited as they arrive. */
export { r2Sink } from "./uploads/r2-sink.ts";
export { receiveUpload } from "./uploads/receive-upload.ts";
export type { FileSink, ReceivedFile, StoredInput, Upload, UploadPlan } from "./uploads/types.ts";
