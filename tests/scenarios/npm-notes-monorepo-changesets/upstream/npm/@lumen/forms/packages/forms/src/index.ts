export { createForm } from "./form";
export { validate } from "./validate";
