import { Validator } from "checkkit";

export class StrictValidator extends Validator {
  async check(value: string): Promise<boolean> {
    return this.isMongoId(value) && (await this.validate({ value })).length === 0;
  }
}
