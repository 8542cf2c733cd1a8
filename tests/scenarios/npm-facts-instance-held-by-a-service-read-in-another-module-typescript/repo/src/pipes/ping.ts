import { Validator } from "checkkit";

export class PingPipe {
  private readonly checker = new Validator();

  async transform(value: object): Promise<object> {
    const errors = await this.checker.validate(value);
    if (errors.length) throw new Error("invalid ping");
    return value;
  }
}
