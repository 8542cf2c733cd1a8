export declare class Person {
    firstName(): string;
    lastName(): string;
}
