import { pack } from "packkit";

export function archive(folder: string): string {
  return pack(folder, `${folder}.pkg`);
}
