export { post } from "./routes";
