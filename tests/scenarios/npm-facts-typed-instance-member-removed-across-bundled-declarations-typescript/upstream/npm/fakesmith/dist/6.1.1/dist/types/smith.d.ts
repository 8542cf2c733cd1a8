import { Company } from './company';
import { Person } from './person';
export declare class Smith {
    locale: string;
    readonly company: Company;
    readonly person: Person;
    seed(value?: number): number;
}
