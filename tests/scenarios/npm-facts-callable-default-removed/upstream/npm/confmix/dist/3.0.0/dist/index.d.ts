declare function mix(...configs: object[]): object;
declare function unique<T>(items: T[]): T[];
export { mix, unique };
