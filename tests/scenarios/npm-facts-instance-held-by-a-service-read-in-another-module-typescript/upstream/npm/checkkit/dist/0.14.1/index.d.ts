export interface ValidationError { property: string; constraints?: Record<string, string>; }
export declare class Validator {
    validate(object: object): Promise<ValidationError[]>;
}
export declare function isMongoId(value: unknown): boolean;
export declare function isEmail(value: unknown): boolean;
