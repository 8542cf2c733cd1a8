import { Validator } from "checkkit";

export class ObjectIdPipe {
  protected validator: Validator;

  constructor() {
    this.validator = new Validator();
  }

  transform(value: string): string {
    if (!this.validator.isMongoId(value)) {
      throw new Error(`${value} is no object id`);
    }
    return value;
  }
}
