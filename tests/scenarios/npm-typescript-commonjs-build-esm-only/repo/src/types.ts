import { Options } from 'fetchkit';

// only a type: the compiler drops this import
export interface RequestSettings {
    base: string;
    options: Options;
}
