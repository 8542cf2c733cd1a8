import { Validator } from "checkkit";

const validator = new Validator();

export class ChecksService {
  get validator(): Validator {
    return validator;
  }
}
