import { Match, match } from "routemap";

type Params = { slug: string };

export function matchPath(path: string, source: string): Match<Params> {
  return match<Params>(source)(path);
}
