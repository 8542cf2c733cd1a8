export interface ValidationError { property: string; constraints?: Record<string, string>; }
export declare class Validator {
    validate(object: object): Promise<ValidationError[]>;
    isMongoId(value: unknown): boolean;
    isEmail(value: unknown): boolean;
}
