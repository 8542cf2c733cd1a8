import { DocClient } from "docstore";

// one client for the whole server
const client = new DocClient(process.env.DOCSTORE_URI as string, { retryWrites: true });

export default client;
