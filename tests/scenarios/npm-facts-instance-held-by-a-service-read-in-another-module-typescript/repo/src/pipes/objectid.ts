import { ChecksService } from "../checks/checks.service";

export class ObjectIdPipe {
  constructor(private readonly checks: ChecksService) {}

  transform(value: string): string {
    if (!this.checks.validator.isMongoId(value)) {
      throw new Error(`${value} is no object id`);
    }
    return value;
  }
}
