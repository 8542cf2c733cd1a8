import { list } from "packkit";

export const entries = (archive: string): string[] => list(archive, (n) => !n.startsWith("."));
