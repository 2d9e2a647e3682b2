/** The client's single entry to the shared contract (tools, endpoints, schemas, errors, languages). */
export * from "../../../contract/index.ts";
