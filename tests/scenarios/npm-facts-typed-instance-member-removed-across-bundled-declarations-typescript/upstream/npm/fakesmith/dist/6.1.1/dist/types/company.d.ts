export declare class Company {
    /** @deprecated use name() */
    companyName(format?: number): string;
    name(): string;
    catchPhrase(): string;
}
