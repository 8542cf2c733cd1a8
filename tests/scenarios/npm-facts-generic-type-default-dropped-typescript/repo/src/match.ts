import { Match, match } from "routemap";

export function matchPath(path: string, source: string): Match {
  return match(source)(path);
}
