import type { Match } from "routemap";
import { matchPath } from "./match";

type Params = { slug: string };

export const post = (path: string): Match<Params> => matchPath(path, "/posts/:slug") as Match<Params>;
