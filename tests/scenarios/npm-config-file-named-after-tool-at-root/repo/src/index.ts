export { settings } from "./docgen";
