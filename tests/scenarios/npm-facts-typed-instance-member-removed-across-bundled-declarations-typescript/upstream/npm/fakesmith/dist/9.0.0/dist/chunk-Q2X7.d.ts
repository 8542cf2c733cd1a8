declare class CompanyModule {
    name(): string;
    catchPhrase(): string;
    buzzPhrase(): string;
}
declare class PersonModule {
    firstName(): string;
    lastName(): string;
    sex(): string;
}
declare class Smith {
    readonly company: CompanyModule;
    readonly person: PersonModule;
    seed(value?: number): number;
}
export { CompanyModule as C, PersonModule as P, Smith as S };
