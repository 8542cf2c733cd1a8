import { archive } from "./archive";
import { entries } from "./list";

console.log(entries(archive(process.argv[2])));
