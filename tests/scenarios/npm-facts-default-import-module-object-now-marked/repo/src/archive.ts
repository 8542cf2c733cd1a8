import packkit from "packkit";

export function archive(folder: string): string {
  return packkit.pack(folder, `${folder}.pkg`);
}
